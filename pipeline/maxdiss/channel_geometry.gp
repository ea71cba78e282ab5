# Shared by the channel figures: reads the geometry of the channel's run `run` (set by the script
# that loads this: the default channel or the run of record) and draws the obstacle's outline
# (half-disc upstream, box downstream) as objects 1 and 2 of the current plot, in cm.
load run.'/columns.gp'
stats run.'/geometry.tsv' using geometry_length nooutput
Lx = 100 * STATS_max
stats run.'/geometry.tsv' using geometry_width nooutput
Ly = 100 * STATS_max
stats run.'/geometry.tsv' using geometry_obstacle_x nooutput
ox = 100 * STATS_max
stats run.'/geometry.tsv' using geometry_obstacle_y nooutput
oy = 100 * STATS_max
stats run.'/geometry.tsv' using geometry_obstacle_radius nooutput
orad = 100 * STATS_max
stats run.'/geometry.tsv' using geometry_obstacle_box_length nooutput
olen = 100 * STATS_max
stats run.'/geometry.tsv' using geometry_radius nooutput
R = STATS_max
stats run.'/geometry.tsv' using geometry_average_from nooutput
t_avg = STATS_max
obstacle = 'set object 1 circle at ox,oy size orad arc [90:270] fc rgb "#555555" fs solid noborder front; set object 2 rectangle from ox,oy-orad to ox+olen,oy+orad fc rgb "#555555" fs solid noborder front'
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')

# caption: Fig. 9 of Sect. 4.3: the spheres of the default channel's last frame (the smoke run of configs/maxdiss/channel.ini, maximum-dissipation law), seen from above (x-y plane; every sphere, later ones drawn over earlier), coloured by speed; the obstacle in grey. The moving plate pushes layers in at x = 0; spheres leaving at the open end are deleted.
run = results.'/channel'
load 'pipeline/gnuplot/common.gp'
load 'pipeline/maxdiss/channel_geometry.gp'
set title 'Granular channel, last frame (maximum dissipation), top view'
set xlabel 'x [cm]'
set ylabel 'y [cm]'
set cblabel 'speed [m/s]'
set size ratio -1
set xrange [0:Lx]
set yrange [0:Ly]
set grid front
unset key
eval obstacle
plot run.'/snapshot_maxdiss.tsv' using (100*column(snapshot_maxdiss_x)):(100*column(snapshot_maxdiss_y)):(100*R):(column(snapshot_maxdiss_speed)) \
     with circles fs solid noborder lc palette notitle

# Shared by the sphere portraits (Figs. 12, 15, 16): draws portrait `case` of the portraits study.
# Expects: results, case; draws the trajectories, the invariant circle (green) and the limit directions.
set view equal xyz
set view 70, 30
set xyplane 0
unset key
unset border
unset tics
set xrange [-1.1:1.1]
set yrange [-1.1:1.1]
set zrange [-1.1:1.1]
p = results.sprintf('/portraits/portrait_%d.tsv', case)
l = results.'/portraits/limit_directions.tsv'
load results.'/portraits/columns.gp'
set parametric
set urange [0:2*pi]
set samples 200
splot p u value(sprintf('portrait_%d_w1', case)):value(sprintf('portrait_%d_w2', case)):value(sprintf('portrait_%d_w3', case)) w l lc rgb '#aaaaaa' lw 0.6, \
      cos(u), 0, sin(u) w l lc rgb '#2ca02c' lw 2, \
      l u (column(limit_directions_case)==case && column(limit_directions_circle)==1 ? column(limit_directions_w1) : 1/0):limit_directions_w2:limit_directions_w3:(ldcol(column(limit_directions_colour))) w l lw 5 lc rgb variable, \
      l u (column(limit_directions_case)==case && column(limit_directions_circle)==0 ? column(limit_directions_w1) : 1/0):limit_directions_w2:limit_directions_w3:(ldcol(column(limit_directions_colour))) w p pt 7 ps 2 lc rgb variable
unset parametric

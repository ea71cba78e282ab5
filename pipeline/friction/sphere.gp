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
set parametric
set urange [0:2*pi]
set samples 200
splot p u 3:4:5 w l lc rgb '#aaaaaa' lw 0.6, \
      cos(u), 0, sin(u) w l lc rgb '#2ca02c' lw 2, \
      l u ($1==case && $8==1 ? $3 : 1/0):4:5:(ldcol($7)) w l lw 5 lc rgb variable, \
      l u ($1==case && $8==0 ? $3 : 1/0):4:5:(ldcol($7)) w p pt 7 ps 2 lc rgb variable
unset parametric

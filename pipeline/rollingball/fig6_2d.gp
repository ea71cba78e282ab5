# caption: Fig. 6.2(d): trajectory of the ball's GC and CP. Plotted: (z_1, z_2)(t) on [0, 20] from the DAE (6.5) run.
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set size ratio -1
set xlabel 'z_1 (e_1, nondimensional)'
set ylabel 'z_2 (e_2, nondimensional)'
set title 'Fig. 6.2(d): ball GC / CP path'
plot d u trajectory_z1:trajectory_z2 w l ls 1 t 'GC / CP path', d u trajectory_z1:trajectory_z2 every ::0::0 w p pt 7 lc rgb 'black' t 't = 0', \
     d u trajectory_z1:trajectory_z2 every 100 w p pt 6 lc rgb '#1f77b4' t 'every 1 time unit'

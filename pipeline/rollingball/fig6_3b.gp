# caption: Fig. 6.3(b): magnitude of the ball's static friction. Plotted: f_s(t), eq. (3.4), DAE (6.5) run.
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel 'f_s (nondimensional)'
set title 'Fig. 6.3(b): ball static friction magnitude'
plot d u trajectory_t:trajectory_fs w l ls 1 t 'f_s(t)'

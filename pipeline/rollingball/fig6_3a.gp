# caption: Fig. 6.3(a): the magnitude of the ball's normal force is always positive so that the ball rolls without slipping if the coefficient of static friction exceeds .19. Plotted: N(t), eq. (3.3), DAE (6.5) run.
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel 'N (nondimensional)'
set title 'Fig. 6.3(a): ball normal force'
set yrange [0:*]
plot d u trajectory_t:trajectory_N w l ls 1 t 'N(t)'

# caption: Fig. 6.2(c): evolution of the ball's body angular velocity. Plotted: Omega_1,2,3(t) from the DAE (6.5) run.
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel '{/Symbol W} (nondimensional)'
set title 'Fig. 6.2(c): ball body angular velocity'
plot d u trajectory_t:trajectory_Omega1 w l ls 1 t '{/Symbol W}_1', d u trajectory_t:trajectory_Omega2 w l ls 2 t '{/Symbol W}_2', d u trajectory_t:trajectory_Omega3 w l ls 3 t '{/Symbol W}_3'

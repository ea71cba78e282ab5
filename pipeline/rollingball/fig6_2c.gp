# caption: Fig. 6.2(c): evolution of the ball's body angular velocity. Plotted: Omega_1,2,3(t) from the DAE (6.5) run.
load 'pipeline/gnuplot/common.gp'
d = results.'/ball_dae/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel '{/Symbol W} (nondimensional)'
set title 'Fig. 6.2(c): ball body angular velocity'
plot d u 1:13 w l ls 1 t '{/Symbol W}_1', d u 1:14 w l ls 2 t '{/Symbol W}_2', d u 1:15 w l ls 3 t '{/Symbol W}_3'

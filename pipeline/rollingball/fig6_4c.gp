# caption: Fig. 6.4(c): evolution of the ball's body angular velocity (detaching ball). Plotted: Omega_1,2,3(t) up to the computed detachment.
load 'pipeline/gnuplot/common.gp'
load results.'/detach/columns.gp'
d = results.'/detach/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel '{/Symbol W} (nondimensional)'
set title 'Fig. 6.4(c): detaching ball, body angular velocity'
set xrange [0:4]
plot d u trajectory_t:trajectory_Omega1 w l ls 1 t '{/Symbol W}_1', d u trajectory_t:trajectory_Omega2 w l ls 2 t '{/Symbol W}_2', d u trajectory_t:trajectory_Omega3 w l ls 3 t '{/Symbol W}_3'

# caption: Fig. 5.3(c): evolution of the time derivative of the disk's rotation angle. Plotted: phi'(t).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel "{/Symbol f}' (nondimensional)"
set title "Fig. 5.3(c): disk rotation rate"
plot d u trajectory_t:trajectory_phidot w l ls 1 t "{/Symbol f}'(t)"

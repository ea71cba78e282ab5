# caption: Fig. 5.4(a): the magnitude of the disk's normal force is always positive so that the disk rolls without slipping if the coefficient of static friction exceeds .2951. Plotted: N(t), eq. (4.3).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel 'N (nondimensional)'
set title 'Fig. 5.4(a): disk normal force'
set yrange [0:*]
plot d u trajectory_t:trajectory_N w l ls 1 t 'N(t)'

# caption: Fig. 5.4(b): e1-component of the disk's static friction. Plotted: F_fr,1(t), the signed e1-component of -f_s sigma, eq. (4.4).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel 'F_{fr,1} (nondimensional)'
set title "Fig. 5.4(b): disk static friction, e_1 component"
plot d u trajectory_t:trajectory_Ffr1 w l ls 1 t 'F_{fr,1}(t)'

# caption: Fig. 5.3(a): trajectories of the disk's internal point masses and of the total system center of mass in the body frame translated to the GC. Plotted: (zeta_i1, zeta_i3) and c_B on t in [0, 20].
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set size ratio -1
set xlabel 'E_1 component (nondimensional)'
set ylabel 'E_3 component (nondimensional)'
set title 'Fig. 5.3(a): disk, body frame translated to the GC'
set key outside right
set object 1 circle at 0,0 size 1 fc rgb '#999999' lw 1 dt 2
plot d u trajectory_zeta1_1:trajectory_zeta1_3 w l ls 1 t 'm_1', d u trajectory_zeta2_1:trajectory_zeta2_3 w l ls 2 t 'm_2', d u trajectory_zeta3_1:trajectory_zeta3_3 w l ls 3 t 'm_3', d u trajectory_zeta4_1:trajectory_zeta4_3 w l ls 4 t 'm_4', \
     d u trajectory_cB1:trajectory_cB3 w l ls 5 t 'total CM', d u trajectory_zeta1_1:trajectory_zeta1_3 every ::0::0 w p pt 7 lc rgb 'black' t 'at t = 0', \
     d u trajectory_zeta2_1:trajectory_zeta2_3 every ::0::0 w p pt 7 lc rgb 'black' notitle, d u trajectory_zeta3_1:trajectory_zeta3_3 every ::0::0 w p pt 7 lc rgb 'black' notitle, \
     d u trajectory_zeta4_1:trajectory_zeta4_3 every ::0::0 w p pt 7 lc rgb 'black' notitle

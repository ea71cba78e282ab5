# caption: Fig. 5.3(b): trajectories of the disk's internal point masses and of the total system center of mass in the spatial frame translated to the GC. Plotted: (Lambda zeta_i)_1,3 and Lambda c_B on t in [0, 20].
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set size ratio -1
set xlabel 'e_1 component (nondimensional)'
set ylabel 'e_3 component (nondimensional)'
set title 'Fig. 5.3(b): disk, spatial frame translated to the GC'
set key outside right
set object 1 circle at 0,0 size 1 fc rgb '#999999' lw 1 dt 2
plot d u trajectory_X1_1:trajectory_X1_3 w l ls 1 t 'm_1', d u trajectory_X2_1:trajectory_X2_3 w l ls 2 t 'm_2', d u trajectory_X3_1:trajectory_X3_3 w l ls 3 t 'm_3', d u trajectory_X4_1:trajectory_X4_3 w l ls 4 t 'm_4', \
     d u trajectory_Xc1:trajectory_Xc3 w l ls 5 t 'total CM'

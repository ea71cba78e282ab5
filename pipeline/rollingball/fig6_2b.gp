# caption: Fig. 6.2(b): trajectories of the ball's internal point masses and of the total system center of mass in the spatial frame translated to the GC. Plotted: Lambda zeta_i(t) and Lambda c_B(t) from the DAE (6.5) run on [0, 20].
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set view equal xyz
set xyplane at -1
set view 65, 35
set xlabel 'e_1'
set ylabel 'e_2'
set zlabel 'e_3'
set title 'Fig. 6.2(b): ball, spatial frame translated to the GC (nondimensional)'
set key outside right
splot d u trajectory_X1_1:trajectory_X1_2:trajectory_X1_3 w l ls 1 t 'm_1', d u trajectory_X2_1:trajectory_X2_2:trajectory_X2_3 w l ls 2 t 'm_2', d u trajectory_X3_1:trajectory_X3_2:trajectory_X3_3 w l ls 3 t 'm_3', d u trajectory_Xc1:trajectory_Xc2:trajectory_Xc3 w l ls 5 t 'total CM'

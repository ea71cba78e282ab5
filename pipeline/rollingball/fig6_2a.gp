# caption: Fig. 6.2(a): trajectories of the ball's internal point masses and of the total system center of mass in the body frame translated to the GC. Plotted: zeta_i(t) and c_B(t) from the DAE (6.5) run on [0, 20].
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set view equal xyz
set xyplane at -1
set view 65, 35
set xlabel 'E_1'
set ylabel 'E_2'
set zlabel 'E_3'
set title 'Fig. 6.2(a): ball, body frame translated to the GC (nondimensional)'
set key outside right
splot d u trajectory_zeta1_1:trajectory_zeta1_2:trajectory_zeta1_3 w l ls 1 t 'm_1', d u trajectory_zeta2_1:trajectory_zeta2_2:trajectory_zeta2_3 w l ls 2 t 'm_2', d u trajectory_zeta3_1:trajectory_zeta3_2:trajectory_zeta3_3 w l ls 3 t 'm_3', d u trajectory_cB1:trajectory_cB2:trajectory_cB3 w l ls 5 t 'total CM'

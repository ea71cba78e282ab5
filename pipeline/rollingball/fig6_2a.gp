# caption: Fig. 6.2(a): trajectories of the ball's internal point masses and of the total system center of mass in the body frame translated to the GC. Plotted: zeta_i(t) and c_B(t) from the DAE (6.5) run on [0, 20].
load 'pipeline/gnuplot/common.gp'
d = results.'/ball_dae/trajectory.tsv'
set view equal xyz
set xyplane at -1
set view 65, 35
set xlabel 'E_1'
set ylabel 'E_2'
set zlabel 'E_3'
set title 'Fig. 6.2(a): ball, body frame translated to the GC (nondimensional)'
set key outside right
splot d u 30:31:32 w l ls 1 t 'm_1', d u 33:34:35 w l ls 2 t 'm_2', d u 36:37:38 w l ls 3 t 'm_3', d u 39:40:41 w l ls 5 t 'total CM'

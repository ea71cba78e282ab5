# caption: Fig. 6.3(d): the static friction is plotted atop the trajectory of the ball's GC and CP. Plotted: the path (z_1, z_2) and the friction force (F_fr,1, F_fr,2) every 0.25 time units, scaled by 0.5.
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
set size ratio -1
set xlabel 'z_1 (e_1, nondimensional)'
set ylabel 'z_2 (e_2, nondimensional)'
set title 'Fig. 6.3(d): static friction along the ball path'
s = 0.5
plot d u trajectory_z1:trajectory_z2 w l ls 1 t 'GC / CP path', d u trajectory_z1:trajectory_z2:(column(trajectory_Ffr1)*s):(column(trajectory_Ffr2)*s) every 25 w vectors head filled size 0.04,20 ls 2 t 'friction (x 0.5)'

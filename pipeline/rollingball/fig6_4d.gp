# caption: Fig. 6.4(d): the static friction is plotted atop the trajectory of the ball's GC and CP (detaching ball). Plotted: path and friction every 0.1 time units, scaled by 0.02.
load 'pipeline/gnuplot/common.gp'
load results.'/detach/columns.gp'
d = results.'/detach/trajectory.tsv'
set size ratio -1
set xlabel 'z_1 (e_1, nondimensional)'
set ylabel 'z_2 (e_2, nondimensional)'
set title 'Fig. 6.4(d): static friction along the path of the detaching ball'
s = 0.02
plot d u trajectory_z1:trajectory_z2 w l ls 1 t 'GC / CP path', d u trajectory_z1:trajectory_z2:(column(trajectory_Ffr1)*s):(column(trajectory_Ffr2)*s) every 10 w vectors head filled size 0.02,20 ls 2 t 'friction (x 0.02)'

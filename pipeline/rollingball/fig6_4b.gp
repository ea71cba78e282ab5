# caption: Fig. 6.4(b): magnitude of the ball's static friction (detaching ball). Plotted: f_s(t) up to the computed detachment.
load 'pipeline/gnuplot/common.gp'
load results.'/detach/columns.gp'
d = results.'/detach/trajectory.tsv'
m = results.'/detach/maximum.tsv'
set xlabel 't (nondimensional)'
set ylabel 'f_s (nondimensional)'
set title 'Fig. 6.4(b): detaching ball, static friction magnitude'
set xrange [0:4]
plot d u trajectory_t:trajectory_fs w l ls 1 t 'f_s(t)', m u maximum_t_end:maximum_fs_end w p ls 10 t 'f_s at detachment'

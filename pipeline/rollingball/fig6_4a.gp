# caption: Fig. 6.4(a): the ball detaches at t = 3.7358 when the magnitude of the ball's normal force vanishes. Plotted: N(t) of Study X (m0 = m1 = m2 = .1, m3 = 60) up to the computed first zero (point), the published 3.7358 (dashed).
load 'pipeline/gnuplot/common.gp'
load results.'/detach/columns.gp'
d = results.'/detach/trajectory.tsv'
m = results.'/detach/maximum.tsv'
set xlabel 't (nondimensional)'
set ylabel 'N (nondimensional)'
set title 'Fig. 6.4(a): detaching ball, normal force'
set arrow 1 from 3.7358, graph 0 to 3.7358, graph 1 nohead ls 9
set label 1 'published t = 3.7358' at 3.7358, graph 0.9 right offset -0.5,0
set xrange [0:4]
set key bottom left
plot d u trajectory_t:trajectory_N w l ls 1 t 'N(t)', m u maximum_t_end:maximum_N_end w p ls 10 t 'computed detachment (first N = 0)'

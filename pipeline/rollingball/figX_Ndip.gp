# caption: Diagnostic (no figure in the paper): N(t) of Study X continued past the first zero, on [3.4, 3.9]. Plotted: N(t), its zeros (falling at 3.6095, rising at 3.7226, points) and the published detachment time 3.7358 (dashed).
load 'pipeline/gnuplot/common.gp'
load results.'/detach/columns.gp'
d = results.'/detach/N_window.tsv'
c = results.'/detach/crossings.tsv'
set xlabel 't (nondimensional)'
set ylabel 'N (nondimensional)'
set title 'Detachment diagnostic: N(t) of the rolling model near the first zero'
set arrow 1 from 3.7358, graph 0 to 3.7358, graph 1 nohead ls 9
set label 1 'published t = 3.7358' at 3.7358, graph 0.92 left offset 0.5,0
set xzeroaxis lt -1
set key bottom left
plot d u N_window_t:N_window_N w l ls 1 t 'N(t)', c u crossings_t:(0) w p ls 10 t 'zeros of N (computed)', \
     c u crossings_t:(0):(sprintf('%.5f', column(crossings_t))) w labels offset 0,1.2 notitle

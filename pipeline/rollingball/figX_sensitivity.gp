# caption: Diagnostic (no figure in the paper): sensitivity of the dip of N(t) in Study X to the heavy mass m3 (50, 55, 60, 65, 70), the inertia (x 0.1) and zeta_0 = 0. Plotted: N(t) on [3.4, 3.9] for each variant, the published 3.7358 (dashed).
load 'pipeline/gnuplot/common.gp'
load results.'/detach/columns.gp'  # N_window.tsv has the same columns in every variant
set xlabel 't (nondimensional)'
set ylabel 'N (nondimensional)'
set title 'Detachment diagnostic: N(t) near the first zero for parameter variants'
set arrow 1 from 3.7358, graph 0 to 3.7358, graph 1 nohead ls 9
set xzeroaxis lt -1
set key outside right
f(s) = results.'/'.s.'/N_window.tsv'
plot f('detach_m3_50') u N_window_t:N_window_N w l ls 1 t 'm_3 = 50', f('detach_m3_55') u N_window_t:N_window_N w l ls 2 t 'm_3 = 55', \
     f('detach') u N_window_t:N_window_N w l lc rgb 'black' lw 3 t 'm_3 = 60 (Study X)', f('detach_m3_65') u N_window_t:N_window_N w l ls 3 t 'm_3 = 65', \
     f('detach_m3_70') u N_window_t:N_window_N w l ls 4 t 'm_3 = 70', f('detach_d_scale') u N_window_t:N_window_N w l ls 5 dt 2 t 'd x 0.1', \
     f('detach_zeta0') u N_window_t:N_window_N w l ls 6 dt 3 t '{/Symbol z}_0 = 0'

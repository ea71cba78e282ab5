# caption: The time integration of Sect. 4 (trapezoidal rule, phi = 1/2, solved by the fixed-point iteration of Algorithm 1) against a CVODE reference (BDF, rtol 1e-12) on a binary Hertz impact of two spheres of Example 5.3's material at 5 m/s (ours, spec 003 O-12): left, the overlap histories; right, the largest error of the overlap history and the error of the separation velocity against the time step (as a fraction of the Hertz duration of Eq. (50)), with a line of slope 2.
load 'pipeline/gnuplot/common.gp'
load results.'/reference/columns.gp'
set multiplot layout 1,2 title 'DEM time integration against a CVODE reference: binary Hertz impact'
set xlabel 't [s]'
set ylabel 'overlap [m]'
set key top right
plot results.'/reference/overlap.tsv' using overlap_t:overlap_delta_reference with lines ls 1 title 'CVODE reference', \
     results.'/reference/overlap.tsv' using overlap_t:overlap_delta_dem with points ls 2 pt 6 title 'DEM, finest dt'
set logscale xy
set format y '10^{%L}'
set xlabel 'time step dt [s]'
set ylabel 'error'
set key bottom right
stats results.'/reference/convergence.tsv' using convergence_dt:convergence_err_delta nooutput
x0 = STATS_min_x
y0 = STATS_min_y
plot results.'/reference/convergence.tsv' using convergence_dt:convergence_err_delta with linespoints ls 1 title 'overlap history [m]', \
     results.'/reference/convergence.tsv' using convergence_dt:convergence_err_v_sep with linespoints ls 2 title 'separation velocity [m/s]', \
     results.'/reference/convergence.tsv' using convergence_dt:(y0 * (column(convergence_dt) / x0)**2) with lines ls 9 title 'slope 2'
unset multiplot

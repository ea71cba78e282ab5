# caption: The rotation update of Sect. 4 (the incremental rotation vector by the trapezoidal rule, Eq. (45), composed by the Rodrigues formula, Eq. (47)) driven by the spin of a torque-free asymmetric top and of a heavy top, against the quaternion attitude of a CVODE reference (BDF, rtol 1e-12) (ours, not in the paper): the largest entry of Q(alpha) - Q_reference over 2 s against the time step, with a line of slope 2.
load 'pipeline/gnuplot/common.gp'
load results.'/reference/columns.gp'
f = results.'/reference/top.tsv'
set title 'Rotation update (45), (47) against a CVODE quaternion reference: tops'
set logscale xy
set format y '10^{%L}'
set xlabel 'time step dt [s]'
set ylabel 'largest attitude error'
set key bottom right
stats f using top_dt:top_err_torque_free nooutput
x0 = STATS_min_x
y0 = STATS_min_y
plot f using top_dt:top_err_torque_free with linespoints ls 1 title 'torque-free asymmetric top', \
     f using top_dt:top_err_heavy with linespoints ls 2 title 'heavy top', \
     f using top_dt:(y0 * (column(top_dt) / x0)**2) with lines ls 9 title 'slope 2'

# caption: The whole time integration of Sect. 4 (the spin from the angular momentum balance (40), the rotation by Eqs. (45), (47), each step solved by fixed-point iteration) on a free asymmetric top, J = (1, 2, 3), over 100 revolutions (ours, not in the paper). Left: the largest relative change of the kinetic energy in each revolution, one curve per time step: it oscillates and does not grow. Right: its largest value over the run against the time step, with a line of slope 2, and the change of the angular momentum, which the scheme conserves up to the tolerance of the iteration.
load 'pipeline/gnuplot/common.gp'
load results.'/reference/columns.gp'
h = results.'/reference/top_drift_history.tsv'
f = results.'/reference/top_drift.tsv'
stats f using top_drift_dt:top_drift_energy_change_max nooutput
x0 = STATS_min_x
y0 = STATS_min_y
n = STATS_records
titles = ''
do for [i=0:n-1] {
  stats f every ::i::i using top_drift_steps_per_revolution nooutput
  titles = titles.sprintf(' %d', int(STATS_max))
}
set multiplot layout 1,2 title 'Free asymmetric top, 100 revolutions: time integration of Sect. 4'
set logscale y
set format y '10^{%L}'
set xlabel 'revolution'
set ylabel 'largest relative change of kinetic energy'
set key bottom right
stats h using top_drift_history_energy_change nooutput
set yrange [STATS_min / 100 : STATS_max * 2]  # room below the curves for the key
plot for [i=0:n-1] h index i using top_drift_history_revolution:top_drift_history_energy_change with lines ls (i+1) \
     title sprintf('%s steps/rev', word(titles, i+1))
set autoscale y
set logscale xy
set xlabel 'time step dt [s]'
set ylabel 'largest relative change over the run'
set key top left
plot f using top_drift_dt:top_drift_energy_change_max with linespoints ls 1 title 'kinetic energy', \
     f using top_drift_dt:(y0 * (column(top_drift_dt) / x0)**2) with lines ls 9 title 'slope 2', \
     f using top_drift_dt:top_drift_momentum_change_max with linespoints ls 2 title 'angular momentum'
unset multiplot

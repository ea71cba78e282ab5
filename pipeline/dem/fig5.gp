# caption: Example 5.1 (Fig. 5 of the paper): time histories of the sphere's x-displacement, total rotation about z (the sum of the scalar increments), x-velocity and z-spin; simulation (dt = 1e-4 s, lines) against the closed form of Eqs. (51)-(54) (markers). The vertical dotted line is the closed-form rolling time.
load 'pipeline/gnuplot/common.gp'
load results.'/spin/columns.gp'
stats results.'/spin/closed_form.tsv' using closed_form_t nooutput
n = STATS_records
every_marker = int(n / 25) + 1
ts = results.'/spin/timeseries.tsv'
cf = results.'/spin/closed_form.tsv'
# the closed-form rolling time: where the closed-form contact-point velocity reaches zero
stats cf using (abs(column(closed_form_vC)) < 1e-9 ? column(closed_form_t) : 1e99) nooutput
t_roll = STATS_min
set multiplot layout 2,2 title 'Example 5.1: spinning sphere on a flat surface (lines: simulation, points: closed form)'
set xlabel 't [s]'
set xrange [0:*]
set arrow 1 from t_roll, graph 0 to t_roll, graph 1 nohead ls 9
set key top left
set ylabel 'x-displacement [m]'
plot ts using timeseries_t:timeseries_x with lines ls 1 title 'simulation', \
     cf every every_marker using closed_form_t:closed_form_x with points ls 10 pt 7 ps 0.8 title 'closed form'
set key top right
set ylabel 'total rotation about z [rad]'
plot ts using timeseries_t:timeseries_theta with lines ls 2 title 'simulation', \
     cf every every_marker using closed_form_t:closed_form_theta with points ls 10 pt 7 ps 0.8 title 'closed form'
set key bottom right
set ylabel 'x-velocity [m/s]'
plot ts using timeseries_t:timeseries_v with lines ls 1 title 'simulation', \
     cf every every_marker using closed_form_t:closed_form_v with points ls 10 pt 7 ps 0.8 title 'closed form'
set ylabel 'z-spin [rad/s]'
plot ts using timeseries_t:timeseries_w with lines ls 2 title 'simulation', \
     cf every every_marker using closed_form_t:closed_form_w with points ls 10 pt 7 ps 0.8 title 'closed form'
unset multiplot

# caption: Example 5.1 (ours, beside Fig. 5): left, the contact-point velocity v_C,x = v + omega r (simulation, line; closed form (52), points), which reaches zero at t_roll; right, the fixed-point iterations per time step of Algorithm 1 (TOL = 1e-4; the paper: "typically three") and, over a sequence of time steps, the rolling time found by the simulation.
load 'pipeline/gnuplot/common.gp'
load results.'/spin/columns.gp'
ts = results.'/spin/timeseries.tsv'
cf = results.'/spin/closed_form.tsv'
set multiplot layout 1,2 title 'Example 5.1: contact-point velocity and iterations per step'
set xlabel 't [s]'
set ylabel 'v_{C,x} [m/s]'
set key bottom right
plot ts using timeseries_t:timeseries_vC with lines ls 1 title 'simulation', \
     cf every 20 using closed_form_t:closed_form_vC with points ls 10 pt 7 ps 0.6 title 'closed form (52)'
set ylabel 'iterations per step'
set y2label 't_{roll} [s]'
set logscale x
set xlabel 'time step dt [s]'
set ytics nomirror
set y2tics
set key top right
plot results.'/spin/dt_study.tsv' using dt_study_dt:dt_study_iterations_mean with linespoints ls 1 title 'mean iterations', \
     results.'/spin/dt_study.tsv' using dt_study_dt:dt_study_iterations_max with linespoints ls 3 title 'max iterations', \
     results.'/spin/dt_study.tsv' using dt_study_dt:dt_study_t_roll axes x1y2 with linespoints ls 2 title 't_{roll} (right axis)'
unset multiplot

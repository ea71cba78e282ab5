# caption: Fig. 5.1: magnitude of the parameterized acceleration |u_i(t)| of (5.5)/(6.11). Plotted: |u_i(t)| from the disk run on [0, 0.4] (u_i = 0 up to t = 20).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/actuation.tsv'
set xlabel 't (nondimensional)'
set ylabel '|u_i| (nondimensional)'
set xrange [0:0.4]
set yrange [-0.05:1.15]
set title 'Fig. 5.1: magnitude of the step-ramp actuation'
plot d using actuation_t:actuation_abs_u with lines ls 1 title '|u_i(t)|, eqs. (5.5), (6.11)'

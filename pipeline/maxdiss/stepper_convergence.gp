# caption: Time stepper of Sect. 3.1 (ours, spec O14/O15): largest position error against the closed form over conv.samples times per run, versus the time step, for the sliding sphere that starts rolling (level plane) and for the sphere sliding down a 70 deg incline; the CVODE reference gives the same errors (open symbols). The dotted line has slope 1.
load 'pipeline/gnuplot/common.gp'
load results.'/stepper/columns.gp'
set title 'Impulse-velocity time stepper: convergence in {/Symbol d}t (Sect. 3.1)'
set xlabel '{/Symbol d}t [s]'
set ylabel 'max |s - s_{ref}| [m]'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set key top left
plot results.'/stepper/convergence.tsv' using convergence_dt:convergence_roll_err_exact with linespoints ls 1 pt 7 title 'rolling onset vs closed form', \
     results.'/stepper/convergence.tsv' using convergence_dt:convergence_roll_err_cvode with points ls 1 pt 6 ps 2 title 'rolling onset vs CVODE', \
     results.'/stepper/convergence.tsv' using convergence_dt:convergence_incline_err_exact with linespoints ls 2 pt 5 title 'sliding on incline vs closed form', \
     results.'/stepper/convergence.tsv' using convergence_dt:convergence_incline_err_cvode with points ls 2 pt 4 ps 2 title 'sliding on incline vs CVODE', \
     [1e-5:1e-2] 0.1*x with lines ls 9 title 'slope 1'

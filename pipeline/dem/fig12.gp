# caption: Example 5.3 (Fig. 12 of the paper): translational kinetic energy without rotational degrees of freedom (solid) and with them (dashed), same initial placement (the paper's seed), assumed geometry of the missing Fig. 8.
load 'pipeline/gnuplot/common.gp'
load results.'/container/columns.gp'
f = results.'/container/energy.tsv'
set title 'Example 5.3: translational kinetic energy with and without rotations'
set xlabel 't [s]'
set ylabel 'KE_t [J]'
set key top right
plot f using energy_t:energy_KE_t_norot with lines lc rgb '#1f77b4' lw 2 title 'without rotational DOFs', \
     f using energy_t:energy_KE_t_rot with lines lc rgb '#8c564b' lw 2 dt 2 title 'with rotational DOFs'

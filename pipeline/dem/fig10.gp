# caption: Example 5.3 (Fig. 10 of the paper): translational (top) and rotational (bottom) kinetic energy of all spheres, with rotational degrees of freedom, for the assumed geometry of the missing Fig. 8 (spec 003 §3.3). The dotted line is the free fall before the first impact, N m g² t²/2 (oracle O-14).
load 'pipeline/gnuplot/common.gp'
load results.'/container/columns.gp'
f = results.'/container/energy.tsv'
set multiplot layout 2,1 title 'Example 5.3: kinetic energies with rotations'
set xlabel 't [s]'
set ylabel 'KE_t [J]'
set key top right
plot f using energy_t:energy_KE_t_rot with lines ls 1 title 'translational'
set ylabel 'KE_r [J]'
plot f using energy_t:energy_KE_r_rot with lines ls 2 title 'rotational'
unset multiplot

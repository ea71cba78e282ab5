# caption: Example 5.2 (Fig. 7 of the paper): time histories of particle 1 — velocity towards the centre of the triangle, spin and total rotation about its fixed axis e_z x u (the sum of the scalar increments) — with the inferred initial speed and distance of the missing Fig. 6 (spec 003 §3.2). Dotted lines and black points: the times the paper prints for the collision (0.46 s), the spin zero (0.62 s) and the return to rolling (0.69 s).
load 'pipeline/gnuplot/common.gp'
load results.'/three/columns.gp'
f = results.'/three/particle1.tsv'
set multiplot layout 3,1 title 'Example 5.2: particle 1 (velocity, spin and total rotation about its axis)'
set xlabel 't [s]'
set xrange [0:2]
set key top right
set offsets 0, 0, 0.3, 0.3
do for [tp in '0.46 0.62 0.69'] {
  set arrow from real(tp), graph 0 to real(tp), graph 1 nohead ls 9
}
set ylabel 'velocity [m/s]'
plot f using particle1_t:particle1_u with lines ls 1 title 'u (towards the centre)', \
     '+' using (0.46):(0) every ::0::0 with points ls 10 title 'printed times', \
     '+' using (0.62):(0) every ::0::0 with points ls 10 notitle, \
     '+' using (0.69):(0) every ::0::0 with points ls 10 notitle
set ylabel 'spin [rad/s]'
plot f using particle1_t:particle1_spin with lines ls 2 title 'spin about e_z x u'
set ylabel 'total rotation [rad]'
plot f using particle1_t:particle1_theta with lines ls 3 title 'sum of the increments'
unset multiplot

# caption: Fig. 5.2: the disk of radius r = 1 with 4 concentric circular rails (radii .9, .6333, .3667, .1) and the masses at t = 0, all directly below the GC (Table 5.1). Plotted from the disk run at t = 0: each rail is the circle through its mass, centred on the GC; m_0 at the GC; the total CM at (0, -0.4).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set size ratio -1
set xrange [-1.2:1.2]
set yrange [-1.2:1.2]
set xlabel 'e_1 (nondimensional)'
set ylabel 'e_3 (nondimensional)'
set title 'Fig. 5.2: disk, rails and masses at t = 0'
set key outside right
set style fill empty
rail(x, z) = sqrt(x**2 + z**2)
plot d u (0):(0):(1) every ::0::0 w circles lc rgb '#555555' lw 2 t 'disk, r = 1', \
     d u (0):(0):(rail(column(trajectory_zeta1_1), column(trajectory_zeta1_3))) every ::0::0 w circles ls 1 t 'rail 1', \
     d u (0):(0):(rail(column(trajectory_zeta2_1), column(trajectory_zeta2_3))) every ::0::0 w circles ls 2 t 'rail 2', \
     d u (0):(0):(rail(column(trajectory_zeta3_1), column(trajectory_zeta3_3))) every ::0::0 w circles ls 3 t 'rail 3', \
     d u (0):(0):(rail(column(trajectory_zeta4_1), column(trajectory_zeta4_3))) every ::0::0 w circles ls 4 t 'rail 4', \
     d u trajectory_zeta1_1:trajectory_zeta1_3 every ::0::0 w p pt 7 ps 1.5 lc rgb 'black' t 'm_1 .. m_4', \
     d u trajectory_zeta2_1:trajectory_zeta2_3 every ::0::0 w p pt 7 ps 1.5 lc rgb 'black' notitle, \
     d u trajectory_zeta3_1:trajectory_zeta3_3 every ::0::0 w p pt 7 ps 1.5 lc rgb 'black' notitle, \
     d u trajectory_zeta4_1:trajectory_zeta4_3 every ::0::0 w p pt 7 ps 1.5 lc rgb 'black' notitle, \
     d u (0):(0) every ::0::0 w p pt 5 ps 1.2 lc rgb '#8c564b' t 'm_0 (at the GC)', \
     d u trajectory_cB1:trajectory_cB3 every ::0::0 w p pt 9 ps 1.8 lc rgb '#ff7f0e' t 'total CM'

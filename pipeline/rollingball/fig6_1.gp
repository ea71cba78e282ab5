# caption: Fig. 6.1: a ball of radius r = 1 actuated by 3 internal point masses on circular rails of radius .95, .9, .85, configuration at t = 0. Plotted: the rails with the reconstructed bases B_i = [n, b2, -b1], the masses at theta_a (Table 6.2), m_0 and the total CM.
load 'pipeline/gnuplot/common.gp'
load results.'/ball/columns.gp'
r = results.'/ball/rails0.tsv'
m = results.'/ball/masses0.tsv'
set view equal xyz
set xyplane at -1
set view 65, 35
set xlabel 'e_1'
set ylabel 'e_2'
set zlabel 'e_3'
set title 'Fig. 6.1: ball rails and masses at t = 0 (nondimensional)'
set key outside right
set parametric
set urange [0:2*pi]
set vrange [0:pi]
set isosamples 13, 9
splot cos(u)*sin(v), sin(u)*sin(v), cos(v) w l lc rgb '#dddddd' t 'ball, r = 1', \
      r index 0 u 2:3:4 w l ls 1 t 'rail 1', r index 1 u 2:3:4 w l ls 2 t 'rail 2', r index 2 u 2:3:4 w l ls 3 t 'rail 3', \
      m u masses0_x1:masses0_x2:masses0_x3 every ::1::3 w p pt 7 ps 1.5 lc rgb 'black' t 'm_1, m_2, m_3', \
      m u masses0_x1:masses0_x2:masses0_x3 every ::0::0 w p pt 5 ps 1.2 lc rgb '#8c564b' t 'm_0', \
      m u masses0_x1:masses0_x2:masses0_x3 every ::4::4 w p pt 9 ps 1.8 lc rgb '#ff7f0e' t 'total CM'

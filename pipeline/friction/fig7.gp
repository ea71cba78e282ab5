# caption: Fig. 7, nonlinear harmonic model for the magnitude of the normalised friction force Q (left) and torque T (right), uniform pressure, rho = kappa: analytical solution (black dotted), harmonic models N = 1..4 (coloured), fitted linear model (grey dashed)
load 'pipeline/gnuplot/common.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 8in,3.5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1400,560; set output out.'.png' }
f = results.'/harmonic/curves_uniform_kappa.tsv'
load results.'/harmonic/columns.gp'
set multiplot layout 1,2
set xlabel 'θ [rad]'
set xrange [0:pi/2]
set yrange [0:1.1]
set key bottom left
set ylabel 'Q(θ)'
plot f u curves_uniform_kappa_theta:curves_uniform_kappa_Q_exact w l lc rgb 'black' lw 3 dt 3 t 'exact', f u curves_uniform_kappa_theta:curves_uniform_kappa_Q_fit w l lc rgb '#888888' dt 2 lw 2 t 'fitted linear', \
     for [N=1:4] f u curves_uniform_kappa_theta:(column(curves_uniform_kappa_Q_N1 + 2*(N-1))) w l ls N t sprintf('N = %d', N)
set key bottom right
set ylabel 'T(θ)'
plot f u curves_uniform_kappa_theta:curves_uniform_kappa_T_exact w l lc rgb 'black' lw 3 dt 3 t 'exact', f u curves_uniform_kappa_theta:curves_uniform_kappa_T_fit w l lc rgb '#888888' dt 2 lw 2 t 'fitted linear', \
     for [N=1:4] f u curves_uniform_kappa_theta:(column(curves_uniform_kappa_T_N1 + 2*(N-1))) w l ls N t sprintf('N = %d', N)
unset multiplot

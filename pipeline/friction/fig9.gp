# caption: Fig. 9, nonlinear harmonic model for the magnitude of the normalised friction force Q, parabolic pressure, ρ = κ: analytical solution (black dotted), harmonic models N = 1..4, fitted linear model (grey dashed)
load 'pipeline/gnuplot/common.gp'
f = results.'/harmonic/curves_hertz_kappa.tsv'
load results.'/harmonic/columns.gp'
set xlabel 'θ [rad]'
set ylabel 'Q(θ)'
set xrange [0:pi/2]
set yrange [0:1.15]
set key bottom left
set title 'Harmonic models, parabolic pressure, ρ = κ'
plot f u curves_hertz_kappa_theta:curves_hertz_kappa_Q_exact w l lc rgb 'black' lw 3 dt 3 t 'exact', f u curves_hertz_kappa_theta:curves_hertz_kappa_Q_fit w l lc rgb '#888888' dt 2 lw 2 t 'fitted linear', \
     for [N=1:4] f u curves_hertz_kappa_theta:(column(curves_hertz_kappa_Q_N1 + 2*(N-1))) w l ls N t sprintf('N = %d', N)

# caption: Fig. 8, nonlinear harmonic model for the magnitude of the normalised friction force Q, uniform pressure, ρ = R: analytical solution (black dotted), harmonic models N = 1..4, fitted linear model (grey dashed)
load 'pipeline/gnuplot/common.gp'
f = results.'/harmonic/curves_uniform_R.tsv'
load results.'/harmonic/columns.gp'
set xlabel 'θ [rad]'
set ylabel 'Q(θ)'
set xrange [0:pi/2]
set yrange [0:1.15]
set key bottom left
set title 'Harmonic models, uniform pressure, ρ = R'
plot f u curves_uniform_R_theta:curves_uniform_R_Q_exact w l lc rgb 'black' lw 3 dt 3 t 'exact', f u curves_uniform_R_theta:curves_uniform_R_Q_fit w l lc rgb '#888888' dt 2 lw 2 t 'fitted linear', \
     for [N=1:4] f u curves_uniform_R_theta:(column(curves_uniform_R_Q_N1 + 2*(N-1))) w l ls N t sprintf('N = %d', N)

# caption: Fig. 9, nonlinear harmonic model for the magnitude of the normalised friction force Q, parabolic pressure, ρ = κ: analytical solution (black dotted), harmonic models N = 1..4, fitted linear model (grey dashed)
load 'pipeline/gnuplot/common.gp'
f = results.'/harmonic/curves_hertz_kappa.tsv'
set xlabel 'θ [rad]'
set ylabel 'Q(θ)'
set xrange [0:pi/2]
set yrange [0:1.15]
set key bottom left
set title 'Harmonic models, parabolic pressure, ρ = κ'
plot f u 1:2 w l lc rgb 'black' lw 3 dt 3 t 'exact', f u 1:4 w l lc rgb '#888888' dt 2 lw 2 t 'fitted linear', \
     for [N=1:4] f u 1:(column(4+2*N)) w l ls N t sprintf('N = %d', N)

# caption: Fig. 17, the curves (131)/(141) g(psi) = F/(mu m g) on the invariant circle for disc, uniform pressure, rho = kappa: the fitted model (grey dashed), the harmonic models N = 1..4 (coloured) and the exact model (black dotted); a horizontal line F = const cuts them at the limit directions
load 'pipeline/gnuplot/common.gp'
f = results.'/disc/gcurves.tsv'
load results.'/disc/columns.gp'
set xlabel 'ψ = atan2(w_3, w_1) [rad]'
set ylabel 'F/(μmg)'
set xrange [0:pi]
set xtics ('0' 0, 'π/4' pi/4, 'π/2' pi/2, '3π/4' 3*pi/4, 'π' pi)
set yrange [-1.2:1.2]
set key bottom left
set title 'Limit directions of the disc (uniform pressure, ρ = κ)'
plot f u gcurves_psi:gcurves_g_fitted w l lc rgb '#888888' dt 2 lw 2 t 'fitted linear', for [N=1:4] f u gcurves_psi:(column(value(sprintf('gcurves_g_N%d', N)))) w l ls N t sprintf('N = %d', N), \
     f u gcurves_psi:gcurves_g_exact w l lc rgb 'black' lw 3 dt 3 t 'exact', 0 w l lc rgb '#bbbbbb' notitle

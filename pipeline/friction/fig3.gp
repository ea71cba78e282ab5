# caption: Fig. 3 (right panel), "typical image of the mapping" w -> Q(w) of the unit sphere of slip directions (the friction surface); here the exact law for the uniform pressure with rho = kappa (pressure and rho not stated in the paper)
load 'pipeline/gnuplot/common.gp'
set title 'Friction surface: image of the unit sphere under w -> Q(w)/(μP) (uniform pressure, ρ = κ)'
set xlabel 'Q_x/(μP)'
set ylabel 'Q_y/(μP)'
set zlabel 'T_z/(μPρ)' rotate parallel
set view 65, 35
set view equal xyz
set xyplane 0
unset key
load results.'/exact/columns.gp'
splot results.'/exact/surface.tsv' u surface_Qx:surface_Qy:surface_Tz_over_rho w l lc rgb '#1f77b4' lw 0.8

# caption: Fig. 5, results of the linear-ellipsoidal model for the constant pressure distribution: the fitted model (71) (solid) against the transformed analytical solution with rho = kappa (thick dotted) and rho = R (thin dotted)
load 'pipeline/gnuplot/common.gp'
f = results.'/linear/linear_theta.tsv'
load results.'/linear/columns.gp'
set xlabel 'θ [rad]'
set ylabel 'Q(θ), T(θ)'
set xrange [0:pi/2]
set yrange [0:1.05]
set key center right
set title 'Linear-ellipsoidal model, constant pressure'
plot f u linear_theta_theta:linear_theta_Q_fit w l ls 1 t 'Q fitted (71)', f u linear_theta_theta:linear_theta_T_fit w l ls 2 t 'T fitted (71)', \
     f u linear_theta_theta:linear_theta_Q_unif_kappa w l lc rgb '#1f77b4' lw 4 dt 3 t 'Q exact, ρ = κ', f u linear_theta_theta:linear_theta_T_unif_kappa w l lc rgb '#d62728' lw 4 dt 3 t 'T exact, ρ = κ', \
     f u linear_theta_theta:linear_theta_Q_unif_R w l lc rgb '#1f77b4' lw 1.5 dt 3 t 'Q exact, ρ = R', f u linear_theta_theta:linear_theta_T_unif_R w l lc rgb '#d62728' lw 1.5 dt 3 t 'T exact, ρ = R'

# caption: Fig. 4, analytical solutions for the normalised friction force Q and torque T, uniform pressure (56) solid, parabolic (61) dashed: against eps (53), w3 (46) and theta (49) (rho = R assumed for the last two; not stated), and the meridian curve (Q, T)
load 'pipeline/gnuplot/common.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 10in,3in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1600,460; set output out.'.png' }
f = results.'/exact/exact_eps.tsv'
g = results.'/exact/exact_theta.tsv'
load results.'/exact/columns.gp'
set multiplot layout 1,4
set key top center font ',8'
set yrange [0:1.05]
set xlabel 'ε'
set ylabel 'Q, T'
plot f u exact_eps_eps:exact_eps_Q_uniform w l ls 1 t 'Q_ε uniform', f u exact_eps_eps:exact_eps_T_uniform w l ls 2 t 'T_ε uniform', \
     f u exact_eps_eps:exact_eps_Q_hertz w l ls 1 dt 2 t 'Q_ε parabolic', f u exact_eps_eps:exact_eps_T_hertz w l ls 2 dt 2 t 'T_ε parabolic'
set xlabel 'w_3 (ρ = R)'
set xrange [0:1]
plot g index 0 u exact_theta_w3:exact_theta_Q_uniform w l ls 1 t 'Q_w', g index 0 u exact_theta_w3:exact_theta_T_uniform w l ls 2 t 'T_w', \
     g index 0 u exact_theta_w3:exact_theta_Q_hertz w l ls 1 dt 2 notitle, g index 0 u exact_theta_w3:exact_theta_T_hertz w l ls 2 dt 2 notitle
set xlabel 'θ [rad] (ρ = R)'
set xrange [0:pi/2]
plot g index 0 u exact_theta_theta:exact_theta_Q_uniform w l ls 1 t 'Q(θ)', g index 0 u exact_theta_theta:exact_theta_T_uniform w l ls 2 t 'T(θ)', \
     g index 0 u exact_theta_theta:exact_theta_Q_hertz w l ls 1 dt 2 notitle, g index 0 u exact_theta_theta:exact_theta_T_hertz w l ls 2 dt 2 notitle
set xlabel 'Q'
set ylabel 'T'
set xrange [0:1.05]
set size ratio -1
plot g index 0 u exact_theta_Q_uniform:exact_theta_T_uniform w l ls 4 t 'uniform', g index 0 u exact_theta_Q_hertz:exact_theta_T_hertz w l ls 5 dt 2 t 'parabolic'
unset multiplot

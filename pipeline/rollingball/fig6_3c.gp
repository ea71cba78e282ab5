# caption: Fig. 6.3(c): ratio of the magnitude of the static friction to the magnitude of the normal force; the minimum coefficient of static friction for the ball is .19. Plotted: f_s/N from the DAE (6.5) run, its refined maximum (point) and the published .19 (dashed).
load 'pipeline/gnuplot/common.gp'
load results.'/ball_dae/columns.gp'
d = results.'/ball_dae/trajectory.tsv'
m = results.'/ball_dae/maximum.tsv'
set xlabel 't (nondimensional)'
set ylabel 'f_s / N'
set title 'Fig. 6.3(c): ball friction ratio'
set key top left
set yrange [0:0.25]
plot d u trajectory_t:trajectory_ratio w l ls 1 t 'f_s/N', .19 w l ls 9 t 'published {/Symbol m}_s = .19', m u maximum_t_mu_hat:maximum_mu_hat w p ls 10 t 'computed maximum'

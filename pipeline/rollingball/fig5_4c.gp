# caption: Fig. 5.4(c): ratio of the magnitude of the static friction to the magnitude of the normal force; the minimum coefficient of static friction for the disk is .2951. Plotted: f_s/N, its refined maximum (point) and the published .2951 (dashed).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
m = results.'/disk/maximum.tsv'
set xlabel 't (nondimensional)'
set ylabel 'f_s / N'
set title 'Fig. 5.4(c): disk friction ratio'
set key top left
plot d u trajectory_t:trajectory_ratio w l ls 1 t 'f_s/N', .2951 w l ls 9 t 'published {/Symbol m}_s = .2951', \
     m u maximum_t_mu_hat:maximum_mu_hat w p ls 10 t 'computed maximum'

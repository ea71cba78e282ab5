# caption: Fig. 5.3(d): trajectory of the disk's GC and CP. Plotted: their common e1 coordinate z(t) = -r phi(t) (the GC at height 0, the CP at -r).
load 'pipeline/gnuplot/common.gp'
load results.'/disk/columns.gp'
d = results.'/disk/trajectory.tsv'
set xlabel 't (nondimensional)'
set ylabel 'e_1 position of GC and CP (nondimensional)'
set title 'Fig. 5.3(d): disk GC / CP position'
plot d u trajectory_t:trajectory_z w l ls 1 t 'z(t) = -r {/Symbol f}(t)'

# Shared by fig3.gp, fig5.gp - fig8.gp (not a figure): axes of the (beta0, omega30) plane.
load 'pipeline/gnuplot/common.gp'
d = results.'/steady/steady_map.tsv'
load results.'/steady/columns.gp'  # steady_map_<column> = its index
set xrange [-pi:pi]
set yrange [-70:70]
set xlabel '{/Symbol b}_0 (rad)'
set ylabel '{/Symbol w}_{30} (1/s)'
set key off

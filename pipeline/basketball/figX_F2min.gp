# caption: Evidence for QC-12: along the grid row nearest omega1(0) = 0.87 1/s of the falling-only panels, the minimum normal force F2min (74) of each periodic orbit: it stays large up to a separatrix-type edge (Fig. 11) and tends to zero at the deadlock-type edge of Fig. 13's second region.
load 'pipeline/gnuplot/common.gp'
# The three maps have the same columns: one columns.gp names them (map_tl_<column>).
load results.'/fig11/columns.gp'
set xlabel '{/Symbol b}(0) (rad)'
set ylabel 'F_2^{min}/m (m/s^2)'
set title "F2min of the periodic orbits along omega1(0) = 0.87 1/s (falling only)"
set xrange [0.8:1.8]
set yrange [0:*]
plot for [f in "fig11 fig12 fig13"] results.'/'.f.'/map_tl.tsv' using map_tl_beta0:((column(map_tl_code) == 0 && abs(column(map_tl_omega1_0) - 0.87) < 0.1) ? column(map_tl_F2min) : 1/0) with linespoints title f

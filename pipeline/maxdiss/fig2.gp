# caption: Fig. 2 (our parameters, spec example): contours of the reduced objective on the plane of maximum compression, the hyperbola (blue), the unconstrained minimum (black x) and the maximally dissipative solution (red x).
load 'pipeline/gnuplot/common.gp'
load results.'/conic/columns.gp'
set title 'Fig. 2 (our example): objective on the plane of maximum compression'
set xlabel 'x_t [1]'
set ylabel 'x_o [1]'
set size ratio -1
set view map
set contour base
unset surface
set cntrparam levels incremental -8, 1, 12
set table $cont
splot results.'/conic/fig2_contour.tsv' using fig2_contour_x_t:fig2_contour_x_o:fig2_contour_q with lines
unset table
set cntrparam levels discrete 0
set table $zero
splot results.'/conic/fig2_contour.tsv' using fig2_contour_x_t:fig2_contour_x_o:fig2_contour_q with lines
unset table
set xrange [-6:6]
set yrange [-6:6]
plot $cont using 1:2 with lines lc rgb '#aaaaaa' title 'contours', \
     $zero using 1:2 with lines lc rgb '#000000' lw 1.5 title 'zero contour', \
     results.'/conic/fig2_conic.tsv' using fig2_conic_x_t:fig2_conic_x_o with lines ls 1 title 'conic section (hyperbola)', \
     results.'/conic/fig2_points.tsv' using fig2_points_x_t:(column(fig2_points_kind)==2 ? column(fig2_points_x_o) : 1/0) with points pt 2 ps 2 lw 2 lc rgb '#000000' title 'unconstrained minimum', \
     results.'/conic/fig2_points.tsv' using fig2_points_x_t:(column(fig2_points_kind)==0 ? column(fig2_points_x_o) : 1/0) with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'max. dissipation x_*'

# caption: Fig. 7: the academic problem of Sect. 4.1 - contours of the objective on the plane of maximum compression, the boundary of the constraint set (ellipse, blue), the maximally dissipative solution (red x) and the three Coulomb solutions (red circles).
load 'pipeline/gnuplot/common.gp'
load results.'/academic/columns.gp'
set title 'Fig. 7: academic single-contact problem (Sect. 4.1)'
set xlabel 'x_t [1]'
set ylabel 'x_o [1]'
set view map
set contour base
unset surface
set cntrparam levels incremental -0.7, 0.1, 3
set table $cont
splot results.'/academic/fig7_contour.tsv' using fig7_contour_x_t:fig7_contour_x_o:fig7_contour_objective with lines
unset table
set xrange [-3:1]
set yrange [-7.5:1]
set key bottom right
plot $cont using 1:2 with lines lc rgb '#aaaaaa' title 'objective contours', \
     results.'/academic/fig7_boundary.tsv' using fig7_boundary_x_t:fig7_boundary_x_o with lines ls 1 title 'constraint set boundary (ellipse)', \
     results.'/academic/fig7_points.tsv' using fig7_points_x_t:(column(fig7_points_kind)==1 ? column(fig7_points_x_o) : 1/0) with points pt 6 ps 2 lw 2 lc rgb '#d62728' title 'Coulomb solutions', \
     results.'/academic/fig7_points.tsv' using fig7_points_x_t:(column(fig7_points_kind)==0 ? column(fig7_points_x_o) : 1/0) with points pt 2 ps 2.5 lw 2.5 lc rgb '#d62728' title 'max. dissipation x_*', \
     results.'/academic/fig7_points.tsv' using fig7_points_x_t:(column(fig7_points_kind)==2 ? column(fig7_points_x_o) : 1/0) with points pt 1 ps 2 lw 2 lc rgb '#000000' title 'unconstrained minimum x_0'

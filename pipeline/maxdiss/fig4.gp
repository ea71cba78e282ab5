# caption: Fig. 4 (our parameters, spec example): a hyperbola case with two local minima of f_obj, of which only the global one is dissipative (negative full objective): left the plane of maximum compression, right f_obj(alpha).
load 'pipeline/gnuplot/common.gp'
load results.'/conic/columns.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 9in,4in } else { set terminal pngcairo enhanced color font 'Sans,10' size 1400,620 }
set output out.'.'.(term eq 'pdf' ? 'pdf' : 'png')
set multiplot layout 1,2 title 'Fig. 4 (our example): hyperbola with two local minima of f_{obj}'
set xlabel 'x_t [1]'
set ylabel 'x_o [1]'
set xrange [-6:6]
set yrange [-6:6]
set size ratio -1
plot results.'/conic/fig2_conic.tsv' using fig2_conic_x_t:fig2_conic_x_o with lines ls 1 title 'hyperbola', \
     results.'/conic/fig2_points.tsv' using fig2_points_x_t:(column(fig2_points_kind)==2 ? column(fig2_points_x_o) : 1/0) with points pt 2 ps 2 lw 2 lc rgb '#000000' title 'x_0', \
     results.'/conic/fig2_points.tsv' using fig2_points_x_t:(column(fig2_points_kind)==0 ? column(fig2_points_x_o) : 1/0) with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'x_*'
set size noratio
set xlabel '{/Symbol a} [rad]'
set ylabel 'objective [1]'
set xrange [-pi:pi]
set yrange [-8:12]
plot results.'/conic/fig3_fobj.tsv' using fig3_fobj_alpha:fig3_fobj_f_obj with lines ls 1 title 'f_{obj}', \
     results.'/conic/fig3_fobj.tsv' using fig3_fobj_alpha:fig3_fobj_objective with lines ls 3 title 'full objective', \
     results.'/conic/fig4_minima.tsv' using fig4_minima_alpha:fig4_minima_objective with points pt 7 ps 1.5 lc rgb '#d62728' title 'local minima (full objective)'
unset multiplot

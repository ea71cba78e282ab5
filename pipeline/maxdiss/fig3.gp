# caption: Fig. 3 (our parameters, spec example): f_obj(alpha) in blue, the infeasible angles (f_r <= 0) shaded grey, the poles dotted and the global minimum as a red x.
load 'pipeline/gnuplot/common.gp'
load results.'/conic/columns.gp'
set title 'Fig. 3 (our example): f_{obj}({/Symbol a})'
set xlabel '{/Symbol a} [rad]'
set ylabel 'f_{obj} [1]'
set xrange [-pi:pi]
set yrange [-8:12]
# the infeasible angles and the poles, from the sampled f_r
plot results.'/conic/fig3_fobj.tsv' using fig3_fobj_alpha:(column(fig3_fobj_feasible)==0 ? 12 : 1/0) with impulses lc rgb '#cccccc' notitle, \
     results.'/conic/fig3_fobj.tsv' using fig3_fobj_alpha:(column(fig3_fobj_feasible)==0 ? -8 : 1/0) with impulses lc rgb '#cccccc' title 'infeasible (f_r <= 0)', \
     results.'/conic/fig3_fobj.tsv' using fig3_fobj_alpha:fig3_fobj_f_obj with lines ls 1 title 'f_{obj}', \
     results.'/conic/fig4_minima.tsv' using fig4_minima_alpha:(column(fig4_minima_is_global)==1 ? column(fig4_minima_f_obj) : 1/0) with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'global minimum', \
     results.'/conic/fig4_minima.tsv' using fig4_minima_alpha:(column(fig4_minima_is_global)==0 ? column(fig4_minima_f_obj) : 1/0) with points pt 6 ps 2 lw 2 lc rgb '#000000' title 'local minimum'

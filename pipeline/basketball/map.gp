# Shared by fig11.gp, fig12.gp, fig13.gp (not a figure): the four outcome panels of one figure.
# Expects `fig` (study name) set; omega2(0), omega3(0) are read from the study's centre.tsv.
# Columns by name (the run's columns.gp): code 0 periodic, 1 in, 2 out, 3 undetermined; boundary 1
# separatrix-type, 2 deadlock-type, 3 slipping; former_periodic: the cell was periodic in the
# falling-only panel.
load 'pipeline/gnuplot/common.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 7in,6in; set output out.'.pdf' } \
else { set terminal pngcairo enhanced color font 'Sans,10' size 1200,1000; set output out.'.png' }
load results.'/'.fig.'/columns.gp'  # map_<panel>_<column>, centre_<column>
stats results.'/'.fig.'/centre.tsv' using centre_omega2 name 'W2' nooutput
stats results.'/'.fig.'/centre.tsv' using centre_omega3 name 'W3' nooutput
stats results.'/'.fig.'/map_tl.tsv' using map_tl_beta0 name 'GRID' nooutput
# Markers scale with the grid: one marker per cell on coarse grids; on fine grids smaller boundary
# markers and the former periodic region drawn on every s-th cell only, so the outcome stays visible.
s = GRID_records > 2000 ? int(sqrt(GRID_records / 900.0)) : 1
psb = GRID_records > 2000 ? 0.12 : 0.3
w2 = sprintf('%g', W2_max)
w3 = sprintf('%g', W3_max)
set palette defined (0 '#2ca02c', 1 '#1f77b4', 2 '#d62728', 3 '#7f7f7f')
set cbrange [-0.5:3.5]
unset colorbox
unset grid
set autoscale fix
set xlabel '{/Symbol b}(0) (rad)'
set ylabel '{/Symbol w}_1(0) (1/s)'
set tics out nomirror
set key off
set multiplot \
  title sprintf('%s: outcome of rolling from ({/Symbol b}(0), {/Symbol w}_1(0)), {/Symbol w}_2(0) = %s 1/s, {/Symbol w}_3(0) = %s 1/s', fig, w2, w3)
array titles[4] = ['falling only', 'with slipping ({/Symbol m} = 1)', 'drilling, k_d = 0.02 1/s (with slipping)', 'rolling resistance, k_r = 0.02 1/s (with slipping)']
array panels[4] = ['tl', 'tr', 'bl', 'br']
do for [i = 1:4] {
  p = panels[i]
  set title titles[i]
  d = results.'/'.fig.'/map_'.p.'.tsv'
  # this panel's columns
  cb = value('map_'.p.'_beta0'); cw = value('map_'.p.'_omega1_0'); cc = value('map_'.p.'_code')
  cB = value('map_'.p.'_boundary'); cF = value('map_'.p.'_former_periodic')
  set origin ((i - 1) % 2) * 0.5, (i <= 2) ? 0.515 : 0.095
  set size 0.5, 0.435
  plot d using cb:cw:cc with image notitle, \
       d using cb:(column(cB) == 1 ? column(cw) : 1/0) with points pt 7 ps psb lc rgb 'black' notitle, \
       d using cb:(column(cB) == 2 ? column(cw) : 1/0) with points pt 6 ps 2 * psb lc rgb 'yellow' notitle, \
       d using cb:(column(cB) == 3 ? column(cw) : 1/0) with points pt 1 ps 2 * psb lc rgb 'white' notitle, \
       d every s:s using cb:((i >= 3 && column(cF) == 1) ? column(cw) : 1/0) with points pt 7 ps 0.12 lc rgb 'black' notitle
}
# The outcome legend, once for the whole figure, below the panels.
set origin 0, 0
set size 1, 0.085
unset border
unset tics
unset xlabel
unset ylabel
unset title
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 2 box samplen 1.5 width 1 opaque fc rgb '#bbbbbb'
plot NaN notitle, \
     keyentry with points pt 7 ps 0.8 lc rgb 'black' title 'separatrix-type boundary', \
     keyentry with points pt 6 ps 1 lw 2 lc rgb 'yellow' title 'deadlock-type boundary', \
     keyentry with points pt 1 ps 1 lw 2 lc rgb 'white' title 'slipping boundary', \
     keyentry with points pt 7 ps 0.3 lc rgb 'black' title 'periodic when falling only (bottom)', \
     keyentry with boxes fs solid fc rgb '#2ca02c' title 'periodic', \
     keyentry with boxes fs solid fc rgb '#1f77b4' title 'falls in', \
     keyentry with boxes fs solid fc rgb '#d62728' title 'falls out', \
     keyentry with boxes fs solid fc rgb '#7f7f7f' title 'undetermined'
unset multiplot

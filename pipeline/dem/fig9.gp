# caption: Example 5.3 (Fig. 9 of the paper): snapshots of the spheres with rotational degrees of freedom at selected times (colour: speed), container faces and vessel walls as lines; the geometry of the missing Fig. 8 is assumed (spec 003 §3.3).
load 'pipeline/gnuplot/common.gp'
load results.'/container/columns.gp'
f = results.'/container/snapshots_rot.tsv'
w = results.'/container/walls.tsv'
stats f using snapshots_rot_t nooutput
nblocks = int(STATS_blocks)
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,7' size 8in,5in } else { set terminal pngcairo enhanced color font 'Sans,9' size 1400,900 }
set output out.'.'.term
set multiplot layout 2, int((nblocks + 1) / 2) title 'Example 5.3: snapshots (rot)'
set size ratio -1
set xrange [-3.2:2.8]
set yrange [-0.2:8]
set cbrange [0:10]
set palette rgbformulae 33,13,10
unset key
unset colorbox
do for [b=0:nblocks-1] {
  stats f index b using snapshots_rot_t nooutput
  set title sprintf('t = %.2f s', STATS_min)
  plot w using walls_x1:walls_y1:(column(walls_x2)-column(walls_x1)):(column(walls_y2)-column(walls_y1)) with vectors nohead lc rgb 'black' lw 1.5, \
       f index b using snapshots_rot_x:snapshots_rot_y:snapshots_rot_r:snapshots_rot_speed with circles fs solid 0.8 lc palette
}
unset multiplot

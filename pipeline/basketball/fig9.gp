# caption: Fig. 9: Floquet stability of (62) over (rho/R, j): stable (green) where |tr M| <= 2, unstable (red) elsewhere; the circle marks the standard ball of the reconstructed Table 1.
load 'pipeline/gnuplot/common.gp'
d = results.'/floquet/floquet_map.tsv'
load results.'/floquet/columns.gp'  # floquet_map_<column>, standard_<column>
set xlabel '{/Symbol r}/R'
set ylabel 'j'
set title 'Fig. 9: Floquet map of (62)'
unset colorbox
set key off
set palette defined (0 '#d62728', 1 '#2ca02c')
set xrange [0:1]
set yrange [0:0.7]
plot d using floquet_map_q:floquet_map_j:floquet_map_stable with image, results.'/floquet/standard.tsv' using standard_q:standard_j with points pt 6 ps 3 lw 2 lc rgb 'black'

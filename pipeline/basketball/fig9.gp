# caption: Fig. 9: Floquet stability of (62) over (rho/R, j): stable (green) where |tr M| <= 2, unstable (red) elsewhere; the circle marks the standard ball of the reconstructed Table 1.
load 'pipeline/gnuplot/common.gp'
d = results.'/floquet/floquet_map.tsv'
set xlabel '{/Symbol r}/R'
set ylabel 'j'
set title 'Fig. 9: Floquet map of (62)'
unset colorbox
set key off
set palette defined (0 '#d62728', 1 '#2ca02c')
set xrange [0:1]
set yrange [0:0.7]
plot d using 1:2:5 with image, results.'/floquet/standard.tsv' using 1:2 with points pt 6 ps 3 lw 2 lc rgb 'black'

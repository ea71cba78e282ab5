# Shared look of every figure. A figure script is run from the project's root as
#   gnuplot -e "results='results/<paper>'; out='reports/<paper>/figures/<fig>'; term='png'" pipeline/<paper>/<fig>.gp
# (and again with term='pdf'); it starts with `load 'pipeline/gnuplot/common.gp'`.
if (!exists("term")) term = 'png'
if (!exists("out")) out = 'figure'
if (term eq 'pdf') {
  set terminal pdfcairo enhanced color font 'Sans,9' size 6in,4in
  set output out.'.pdf'
} else {
  set terminal pngcairo enhanced color font 'Sans,11' size 1000,680
  set output out.'.png'
}
set encoding utf8
set grid lc rgb '#dddddd'
set key box opaque
set border lw 1.2
set style line 1 lc rgb '#1f77b4' lw 2
set style line 2 lc rgb '#d62728' lw 2
set style line 3 lc rgb '#2ca02c' lw 2
set style line 4 lc rgb '#9467bd' lw 2
set style line 5 lc rgb '#ff7f0e' lw 2
set style line 6 lc rgb '#8c564b' lw 2
set style line 9 lc rgb '#000000' lw 1 dt 2
# published values drawn over the curves: point type 7, black
set style line 10 lc rgb '#000000' pt 7 ps 1.5

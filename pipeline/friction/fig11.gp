# caption: Fig. 11, generic arrangements of the limit directions of the disc on the invariant circle w2 = 0 for Cases (1)-(4) (here N = 2 at f = F/(mu m g) = 1.2, 0.7, 0.2, 0.02) and the force-free case f = 0; colours: purple repelling/stable node, red attracting/unstable node, green and brown attracting saddles, blue attracting/stable node
load 'pipeline/gnuplot/common.gp'
load 'pipeline/friction/colours.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 10in,2.4in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1700,400; set output out.'.png' }
f = results.'/disc/ld_N2.tsv'
load results.'/disc/columns.gp'
set multiplot layout 1,5
set size ratio -1
set xrange [-1.3:1.3]
set yrange [-1.3:1.3]
unset key
unset grid
set xlabel 'w_1'
set ylabel 'w_3'
set parametric
set trange [0:2*pi]
set samples 200
titles = "'(1) f = 1.2' '(2) f = 0.7' '(3) f = 0.2' '(4) f = 0.02' 'f = 0'"
do for [i=0:4] {
  set title word(titles, i+1)
  plot cos(t), sin(t) w l lc rgb '#2ca02c' lw 1.5, f index i u ld_N2_w1:ld_N2_w3:(ldcol(column(ld_N2_colour))) w p pt 7 ps 1.6 lc rgb variable
}
unset multiplot

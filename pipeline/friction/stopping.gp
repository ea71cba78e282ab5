# caption: Direct simulations (not in the paper): CVODE in rescaled time of the stopping disc and ball; left, the slip magnitude r against time t; right, the path of the slip direction (w1, w3) ending on the predicted attracting limit direction (crosses: the final directions of every run)
load 'pipeline/gnuplot/common.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 9in,3.5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1500,580; set output out.'.png' }
d = results.'/stopping/'
load results.'/stopping/columns.gp'
set multiplot layout 1,2
set xlabel 't [V/(μg)]'
set ylabel 'r = |x_o| [V]'
set logscale y
set yrange [1e-6:3]
set xrange [0:4]
set key bottom left font ',9'
names = "'disc exact f=0 (1,0,1)' 'disc exact f=0 (1,0,0.2)' 'disc exact f=0.3' 'disc exact pure spin' 'disc exact pure slip' 'disc N2 f=0 (1,0,1)' 'disc N2 f=0 (1,0,0.2)' 'disc N2 f=0.3' 'disc N2 f=0.7' 'disc N2 f=1.2' 'ball exact f=1' 'ball N2 f=1'"
plot for [c in "0 2 3 4 5 7 8 9"] d.'trajectory_'.c.'.tsv' u value('trajectory_'.c.'_t'):value('trajectory_'.c.'_r') w l lw 2 t word(names, c+1)
unset logscale y
set xlabel 'w_1'
set ylabel 'w_3'
set xrange [-0.05:1.05]
set yrange [-0.05:1.05]
set size ratio -1
set key top right font ',9'
plot for [c in "0 1 2 5 6 7 8 10"] d.'trajectory_'.c.'.tsv' u value('trajectory_'.c.'_w1'):value('trajectory_'.c.'_w3') w l lw 2 t word(names, c+1), \
     d.'summary.tsv' u summary_w1:summary_w3 w p pt 2 ps 2.5 lw 2 lc rgb 'black' t 'final directions (r = 1e-20)'
unset multiplot

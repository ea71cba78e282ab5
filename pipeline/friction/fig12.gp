# caption: Fig. 12, the arrangements of Fig. 11 on the unit sphere of slip directions (disc, N = 2, f = 1.2, 0.7, 0.2, 0.02): trajectories of w' = V*(w) (115) integrated with CVODE in rescaled time from 120 Fibonacci seeds, the invariant circle (green) and the limit directions (colour code of Fig. 11)
load 'pipeline/gnuplot/common.gp'
load 'pipeline/friction/colours.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 8in,8in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1200,1200; set output out.'.png' }
set multiplot layout 2,2
titles = "'Case 1, f = 1.2' 'Case 2, f = 0.7' 'Case 3, f = 0.2' 'Case 4, f = 0.02'"
do for [case=0:3] {
  set title word(titles, case+1)
  load 'pipeline/friction/sphere.gp'
}
unset multiplot

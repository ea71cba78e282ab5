# caption: Fig. 10 of Sect. 4.3: the speed |<v>| of the mean velocity of the spheres in each x-y cell (averaged over z) of the last frame of the run of record (the paper's geometry), Coulomb law (top) and maximum-dissipation law (bottom); the obstacle in grey. The flow speeds up in the gaps beside the obstacle and slows down after it.
run = results.'/channel_steady'
load 'pipeline/gnuplot/common.gp'
load 'pipeline/maxdiss/channel_geometry.gp'
# one colour scale for both laws, so that the panels compare (before the plot's ranges, which stats would apply)
stats run.'/cells_coulomb.tsv' using (column(cells_coulomb_speed_of_mean)) nooutput
cb_max = STATS_max
stats run.'/cells_maxdiss.tsv' using (column(cells_maxdiss_speed_of_mean)) nooutput
cb_max = STATS_max > cb_max ? STATS_max : cb_max
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 6in,5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 1000,900; set output out.'.png' }
set multiplot layout 2,1 title 'Cell-averaged velocity, last frame (Fig. 10)'
set xlabel 'x [cm]'
set ylabel 'y [cm]'
set cblabel '|<v>| [m/s]'
set size ratio -1
set xrange [0:Lx]
set yrange [0:Ly]
set cbrange [0:cb_max]
eval obstacle
unset key
set title 'Coulomb'
plot run.'/cells_coulomb.tsv' using (100*column(cells_coulomb_x)):(100*column(cells_coulomb_y)):(column(cells_coulomb_speed_of_mean)) with image notitle
set title 'maximum dissipation'
plot run.'/cells_maxdiss.tsv' using (100*column(cells_maxdiss_x)):(100*column(cells_maxdiss_y)):(column(cells_maxdiss_speed_of_mean)) with image notitle
unset multiplot

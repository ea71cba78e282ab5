# caption: Fig. 11 of Sect. 4.3: the mean angular speed <|omega|> of the spheres in each x-y cell of the last frame of the run of record (the paper's geometry), Coulomb law (top) and maximum-dissipation law (bottom); the obstacle in grey. Rotation is strongest at the inflow and along the obstacle and the walls, and is damped in the bulk.
run = results.'/channel_steady'
load 'pipeline/gnuplot/common.gp'
load 'pipeline/maxdiss/channel_geometry.gp'
# one colour scale for both laws, so that the panels compare (before the plot's ranges, which stats would apply)
stats run.'/cells_coulomb.tsv' using (column(cells_coulomb_mean_spin)) nooutput
cb_max = STATS_max
stats run.'/cells_maxdiss.tsv' using (column(cells_maxdiss_mean_spin)) nooutput
cb_max = STATS_max > cb_max ? STATS_max : cb_max
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 6in,5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 1000,900; set output out.'.png' }
set multiplot layout 2,1 title 'Cell-averaged angular speed, last frame (Fig. 11)'
set xlabel 'x [cm]'
set ylabel 'y [cm]'
set cblabel '<|{/Symbol w}|> [1/s]'
set size ratio -1
set xrange [0:Lx]
set yrange [0:Ly]
set cbrange [0:cb_max]
eval obstacle
unset key
set title 'Coulomb'
plot run.'/cells_coulomb.tsv' using (100*column(cells_coulomb_x)):(100*column(cells_coulomb_y)):(column(cells_coulomb_mean_spin)) with image notitle
set title 'maximum dissipation'
plot run.'/cells_maxdiss.tsv' using (100*column(cells_maxdiss_x)):(100*column(cells_maxdiss_y)):(column(cells_maxdiss_mean_spin)) with image notitle
unset multiplot

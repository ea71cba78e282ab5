# caption: The granular channel over time (ours; the samples behind Table 2), both laws: the number of spheres, of contacts resolved per step, the solid volume fraction and the deepest penetration of the sampled steps (in % of R); the grey band is the averaging window (average.t_start to the end).
run = results.'/channel_steady'
load 'pipeline/gnuplot/common.gp'
load 'pipeline/maxdiss/channel_geometry.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 6in,5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 1000,900; set output out.'.png' }
set multiplot layout 2,2 title 'Granular channel: samples over time (the averaging window shaded)'
set xlabel 't [s]'
set key bottom right
set object 3 rectangle from t_avg, graph 0 to graph 1, graph 1 fc rgb '#eeeeee' fs solid noborder behind
ts_c = run.'/timeseries_coulomb.tsv'
ts_m = run.'/timeseries_maxdiss.tsv'
set title 'spheres in the channel'
set ylabel 'N'
plot ts_c using timeseries_coulomb_t:timeseries_coulomb_particles with lines ls 1 title 'Coulomb', \
     ts_m using timeseries_maxdiss_t:timeseries_maxdiss_particles with lines ls 2 dt 2 title 'max. dissipation'
set title 'contacts resolved per step'
set ylabel 'N_c'
plot ts_c using timeseries_coulomb_t:timeseries_coulomb_contacts with lines ls 1 title 'Coulomb', \
     ts_m using timeseries_maxdiss_t:timeseries_maxdiss_contacts with lines ls 2 dt 2 title 'max. dissipation'
set title 'solid volume fraction'
set ylabel '{/Symbol f} [%]'
plot ts_c using timeseries_coulomb_t:(100*column(timeseries_coulomb_solid_volume_fraction)) with lines ls 1 title 'Coulomb', \
     ts_m using timeseries_maxdiss_t:(100*column(timeseries_maxdiss_solid_volume_fraction)) with lines ls 2 dt 2 title 'max. dissipation'
set title 'deepest penetration of the step'
set ylabel 'max(-{/Symbol x}) / R [%]'
plot ts_c using timeseries_coulomb_t:(100*column(timeseries_coulomb_max_penetration)/R) with lines ls 1 title 'Coulomb', \
     ts_m using timeseries_maxdiss_t:(100*column(timeseries_maxdiss_max_penetration)/R) with lines ls 2 dt 2 title 'max. dissipation'
unset multiplot

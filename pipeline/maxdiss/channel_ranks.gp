# caption: What pe's weighted block Jacobi across MPI ranks does to the channel (ours, maximum dissipation): the default channel gone on from its last frame three times over the same window, serially (channel_continued), serially with the contacts swept in another order (channel_reordered: what a change of order alone does to this chaotic flow) and on two ranks split along x (channel_ranks, blended by pe's weighted Jacobi with omega = mpi.relaxation); left the contacts per sphere of each sampled step, right the deepest penetration; the relative differences of the window's averages are in the notes of the runs below.
load 'pipeline/gnuplot/common.gp'
load results.'/channel_continued/columns.gp'
stats results.'/channel_continued/geometry.tsv' using geometry_radius nooutput
R = STATS_max
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 6in,2.6in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 1100,480; set output out.'.png' }
set multiplot layout 1,2 title 'The channel gone on from one frame: serial, another sweep order, two MPI ranks'
set xlabel 't [s]'
set key top left horizontal samplen 2
set offsets 0, 0, graph 0.2, 0  # room above the data for the key
serial = results.'/channel_continued/timeseries_maxdiss.tsv'
reordered = results.'/channel_reordered/timeseries_maxdiss.tsv'
ranks = results.'/channel_ranks/timeseries_maxdiss.tsv'
set title 'contacts per sphere, 2 N_c / N'
set ylabel '2 N_c / N'
plot serial using timeseries_maxdiss_t:timeseries_maxdiss_contacts_per_particle with linespoints ls 1 pt 7 ps 0.5 title 'serial', \
     reordered using timeseries_maxdiss_t:timeseries_maxdiss_contacts_per_particle with linespoints ls 3 pt 5 ps 0.5 dt 3 title 'serial, another order', \
     ranks using timeseries_maxdiss_t:timeseries_maxdiss_contacts_per_particle with linespoints ls 2 pt 9 ps 0.6 dt 2 title 'two ranks'
set title 'deepest penetration of the step'
set ylabel 'max(-{/Symbol x}) / R [%]'
plot serial using timeseries_maxdiss_t:(100*column(timeseries_maxdiss_max_penetration)/R) with linespoints ls 1 pt 7 ps 0.5 title 'serial', \
     reordered using timeseries_maxdiss_t:(100*column(timeseries_maxdiss_max_penetration)/R) with linespoints ls 3 pt 5 ps 0.5 dt 3 title 'serial, another order', \
     ranks using timeseries_maxdiss_t:(100*column(timeseries_maxdiss_max_penetration)/R) with linespoints ls 2 pt 9 ps 0.6 dt 2 title 'two ranks'
unset multiplot

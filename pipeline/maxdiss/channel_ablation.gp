# caption: The ablation of Table 2's contact count (make channel-ablation, a run of record): each variant goes on from one settled frame of the paper's channel over one short window with one unstated choice changed. Top: contacts per sphere, every contact and as pe counted them, with two batch-means standard errors; bottom: the change from the baseline (variant 0) in combined standard errors, the dashed lines at two. The notes of the run channel_ablation name each variant by its keys.
# table: channel_ablation/ablation.tsv
run = results.'/channel_ablation'
load 'pipeline/gnuplot/common.gp'
load run.'/columns.gp'
stats run.'/ablation.tsv' using (column(ablation_variant)) nooutput
n = STATS_max
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 6in,5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 1000,900; set output out.'.png' }
set multiplot layout 2,1 title 'Which unstated choice moves the contact count (one frame, one window)'
set xrange [-0.5:n + 0.5]
set xtics 1
set xlabel 'variant'
set key top left
set ylabel 'contacts per sphere'
plot run.'/ablation.tsv' using (column(ablation_variant) - 0.1):(column(ablation_contacts_per_particle)):(2*column(ablation_se_contacts_per_particle)) \
       with yerrorbars ls 1 pt 7 title 'every contact', \
     '' using (column(ablation_variant) + 0.1):(column(ablation_contacts_per_particle_pe)):(2*column(ablation_se_contacts_per_particle_pe)) \
       with yerrorbars ls 2 pt 5 title 'as pe counted (duplicates across subdomains)'
unset key
set ylabel 'change from variant 0 [standard errors]'
set yrange [*<-2.5:2.5<*]
set style fill solid 0.6 noborder
set boxwidth 0.6
plot run.'/ablation.tsv' using (column(ablation_variant)):(column(ablation_change_in_standard_errors)) with boxes ls 1, \
     2 with lines ls 9, -2 with lines ls 9
unset multiplot

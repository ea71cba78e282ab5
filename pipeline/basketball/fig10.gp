# caption: Fig. 10 (computed counterpart of the paper's sketch, falling only): left, a deadlock-type boundary (the second periodic region of Fig. 13, omega2 = 105 1/s); right, a separatrix-type boundary (Fig. 11, omega2 = 35 1/s); omega1(0) = 0.5 1/s, omega3 = 10 1/s. 1: inside the periodic region; 2: at its edge; 3: just outside. Top: the orbits in the (beta, omega1) projection, the periodic ones closed by the symmetry (61); bottom: the normal force F2(t). At the deadlock edge the orbit stays periodic while F2 touches zero; at the separatrix edge F2 stays large and the period grows.
load 'pipeline/gnuplot/common.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 7in,5.2in } else { set terminal pngcairo enhanced color font 'Sans,10' size 1200,860 }
set output out.'.'.term
set multiplot layout 2,2 title 'Fig. 10: deadlock-type (left) and separatrix-type (right) boundaries'
set key top right box opaque
# The six runs have the same columns: one columns.gp names them (traj_<column>, outcome_<column>).
load results.'/fig10_deadlock_1/columns.gp'
# the decision of each run (code, period, t_end), for the legend
outcome(case) = (system(sprintf("awk '!/^#/ {print $%d \" \" $%d \" \" $%d; exit}' %s/%s/outcome.tsv", outcome_code, outcome_period, outcome_t_end, results, case)))
describe(case, n) = (c = word(outcome(case), 1) + 0, c == 0 ? sprintf('%d: periodic, T = %.3f s', n, word(outcome(case), 2) + 0) : sprintf('%d: falls %s at t = %.3f s', n, c == 1 ? 'in' : 'out', word(outcome(case), 3) + 0))
do for [type in "deadlock separatrix"] {
  set xlabel '{/Symbol b} (rad)'
  set ylabel '{/Symbol w}_1 (1/s)'
  set title type.'-type boundary'
  plot for [n=1:3] results.'/fig10_'.type.'_'.n.'/traj.tsv' using traj_beta:traj_omega1 with lines ls n lw 2 title describe('fig10_'.type.'_'.n, n), \
       for [n=1:3] results.'/fig10_'.type.'_'.n.'/traj.tsv' using traj_beta:(word(outcome('fig10_'.type.'_'.n), 1) eq '0' ? -column(traj_omega1) : 1/0) with lines ls n lw 2 notitle, \
       for [n=1:3] results.'/fig10_'.type.'_'.n.'/traj.tsv' every ::0::0 using traj_beta:traj_omega1 with points ls 10 notitle
}
do for [type in "deadlock separatrix"] {
  set xlabel 't (s)'
  set ylabel 'F_2/m (m/s^2)'
  set title ''
  set yrange [0:*]
  plot for [n=1:3] results.'/fig10_'.type.'_'.n.'/traj.tsv' using traj_t:traj_F2 with lines ls n lw 2 title sprintf('%d', n)
  set autoscale y
}
unset multiplot

# caption: Time stepper of Sect. 3.1 (ours, spec O14/O15), dt = plot.dt: left, a sphere sliding with v0 and no spin on a level plane: velocity u and rim speed R omega (points) against the closed form (lines), meeting at t = 2 v0/(7 mu g) with u = 5/7 v0 (black dot, the closed form); right, velocity of a sphere released on inclines of several angles (points) against the closed forms, rolling (a = 5/7 g sin beta) for tan beta <= 7/2 mu, sliding (a = g (sin beta - mu cos beta)) above.
load 'pipeline/gnuplot/common.gp'
load results.'/stepper/columns.gp'
stats results.'/stepper/roll.tsv' using roll_t_roll_exact nooutput
t_roll = STATS_max
stats results.'/stepper/roll.tsv' using roll_v_roll_exact nooutput
v_roll = STATS_max
# the incline angles and regimes, one row of incline.tsv per block of incline_trajectory.tsv
stats results.'/stepper/incline.tsv' using incline_beta nooutput
nb = int(STATS_records)
labels = ''
do for [i=0:nb-1] {
  stats results.'/stepper/incline.tsv' every ::i::i using incline_beta nooutput
  b = STATS_max
  stats results.'/stepper/incline.tsv' every ::i::i using incline_rolling_num nooutput
  labels = labels.sprintf('%g°:%s ', b, (STATS_max > 0.5 ? 'rolls' : 'slides'))
}
set multiplot layout 1,2 title 'Impulse-velocity time stepper against closed forms (Sect. 3.1)'
set title 'sliding sphere starts rolling (level plane)'
set xlabel 't [s]'
set ylabel 'velocity [m/s]'
set key bottom right
plot results.'/stepper/roll_trajectory.tsv' using roll_trajectory_t:roll_trajectory_u_exact with lines ls 1 title 'u, closed form', \
     results.'/stepper/roll_trajectory.tsv' using roll_trajectory_t:roll_trajectory_Rw_exact with lines ls 2 title 'R{/Symbol w}, closed form', \
     results.'/stepper/roll_trajectory.tsv' every 4 using roll_trajectory_t:roll_trajectory_u with points ls 1 pt 6 title 'u, stepper', \
     results.'/stepper/roll_trajectory.tsv' every 4 using roll_trajectory_t:roll_trajectory_Rw with points ls 2 pt 4 title 'R{/Symbol w}, stepper', \
     '+' using (t_roll):(v_roll) every ::0::0 with points ls 10 title 't = 2v_0/(7{/Symbol m}g), u = 5/7 v_0'
set title 'released on an incline (lines: closed form)'
set ylabel 'down-slope velocity u [m/s]'
set key top left
plot for [i=0:nb-1] results.'/stepper/incline_trajectory.tsv' index i using incline_trajectory_t:incline_trajectory_u_exact with lines ls (i+1) notitle, \
     for [i=0:nb-1] results.'/stepper/incline_trajectory.tsv' index i every 10 using incline_trajectory_t:incline_trajectory_u with points ls (i+1) pt 6 \
         title sprintf('{/Symbol b} = %s', word(labels, i+1))
unset multiplot

# caption: Sect. 4.2 (ours): mu_*(theta0) of the grazing rod from Eq. (2); below the curve a non-impulsive solution exists and the maximally dissipative impulse is 0, above it the impulse is Lambda_0. The published minimum 4/3 at 1/2 acos(-3/5) is the black dot.
load 'pipeline/gnuplot/common.gp'
load results.'/rod/columns.gp'
set title 'Grazing rod: {/Symbol m}_*({/Symbol q}_0) (Sect. 4.2)'
set xlabel '{/Symbol q}_0 [deg]'
set ylabel '{/Symbol m} [1]'
set xrange [0:90]
set yrange [0:6]
set label 1 '{/Symbol L} = {/Symbol L}_0 (impact, slip -> stick)' at 45,4.5 center
set label 2 '{/Symbol L} = 0 (no impact needed)' at 30,0.7 center
plot results.'/rod/mustar.tsv' using mustar_theta0_deg:mustar_mu_star with lines ls 1 title '{/Symbol m}_*({/Symbol q}_0)', \
     '+' using (0.5*acos(-3./5)*180/pi):(4./3) every ::0::0 with points ls 10 title 'published minimum 4/3 at ½ acos(-3/5)'

# caption: Sect. 4.2 (ours): solution map over (theta0, mu). Colour: number of isolated solutions of the Coulomb-like impact law (0 and Lambda_0 above mu_*, only 0 below); line: mu_*(theta0), where the maximally dissipative impulse switches from 0 to Lambda_0.
load 'pipeline/gnuplot/common.gp'
load results.'/rod/columns.gp'
set title 'Grazing rod: number of Coulomb-like impact solutions; max. dissipation switches at {/Symbol m}_*'
set xlabel '{/Symbol q}_0 [deg]'
set ylabel '{/Symbol m} [1]'
set xrange [0:90]
set yrange [0:6]
set cblabel 'isolated Coulomb solutions'
set cbrange [0.5:3.5]
set palette defined (1 '#deebf7', 2 '#6baed6', 3 '#08519c')
set view map
plot results.'/rod/impact_map.tsv' using impact_map_theta0_deg:impact_map_mu:impact_map_n_coulomb with image notitle, \
     results.'/rod/mustar.tsv' using mustar_theta0_deg:mustar_mu_star with lines lc rgb '#d62728' lw 2 title '{/Symbol m}_* (max. dissipation: 0 below, {/Symbol L}_0 above)'

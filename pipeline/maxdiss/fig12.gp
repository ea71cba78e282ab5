# caption: Fig. 12 of Sect. 4.3: radial distribution function g(r) of the spheres in the region near the outlet (rdf.region), last frame of the run of record (the paper's geometry), both laws, against r in sphere diameters 2R; the paper sees a strong peak at one diameter (black dotted line) and no other preferred distance.
run = results.'/channel_steady'
load 'pipeline/gnuplot/common.gp'
load run.'/columns.gp'
set title 'Radial distribution function near the outlet (Fig. 12)'
set xlabel 'r / 2R'
set ylabel 'g(r)'
set key top right
set arrow 1 from 1, graph 0 to 1, graph 1 nohead ls 9
plot run.'/rdf_coulomb.tsv' using rdf_coulomb_r_over_diameter:rdf_coulomb_g with steps ls 1 title 'Coulomb', \
     run.'/rdf_maxdiss.tsv' using rdf_maxdiss_r_over_diameter:rdf_maxdiss_g with steps ls 2 dt 2 title 'maximum dissipation'

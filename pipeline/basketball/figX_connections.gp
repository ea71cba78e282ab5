# caption: Sect. 4.4 (QC-21): the saddles followed along both branches of their unstable manifolds, on the (beta0, omega30) plane of the steady motions (the trivial saddles x0+ at beta0 = pi/2, omega30 = 0). Colour: the time t1 to the transversal zero of omega1 after which (61) mirrors the branch back onto its saddle (homoclinic); a red cross would mark a heteroclinic or unresolved branch.
load 'pipeline/gnuplot/common.gp'
d = results.'/global/saddles.tsv'
load results.'/global/columns.gp'  # saddles_<column> = its index
set xlabel '{/Symbol b}_0 [rad]'
set ylabel '{/Symbol w}_{30} [1/s]'
set cblabel 't_1 [s]'
set title 'Sect. 4.4: the connections of the saddles (all homoclinic when no red cross)'
set logscale cb
set palette defined (0 '#440154', 1 '#31688e', 2 '#35b779', 3 '#fde725')
set xrange [-pi:pi]
set key top left
plot d using saddles_beta0:(column(saddles_branch) > 0 ? column(saddles_omega30) : 1/0):saddles_t1 with points pt 7 ps 1.2 lc palette title 'homoclinic, branch +', \
     d using saddles_beta0:(column(saddles_branch) < 0 ? column(saddles_omega30) : 1/0):saddles_t1 with points pt 6 ps 2.0 lc palette title 'homoclinic, branch -', \
     d using saddles_beta0:(column(saddles_connection) != 0 ? column(saddles_omega30) : 1/0) with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'heteroclinic or unresolved'

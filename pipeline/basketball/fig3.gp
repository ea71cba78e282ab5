# caption: Fig. 3: omega20(beta0, omega30) of the non-trivial steady motions (48), clipped to +-100 1/s; the singular lines beta0 = +-pi/2 and omega30 = 0 separate the four branches.
load 'pipeline/basketball/steady.gp'
set title 'Fig. 3: steady motions, {/Symbol w}_{20} from (48)'
set cbrange [-100:100]
set cblabel '{/Symbol w}_{20} (1/s)'
set palette defined (-100 '#2166ac', 0 '#f7f7f7', 100 '#b2182b')
plot d using steady_map_beta0:steady_map_omega30:(w = column(steady_map_omega20), w > 100 ? 100 : w < -100 ? -100 : w) with image, \
     '+' using (pi/2):(0) with points pt 6 ps 2 lc rgb 'black', '+' using (-pi/2):(0) with points pt 6 ps 2 lc rgb 'black'

# caption: Fig. 5: linear stability of the steady motions, h < 0 (S, green) and h > 0 (U, red), eq. (54); vertical lines at beta* = 0.273 rad and beta-hat = 0.144 rad (computed).
load 'pipeline/basketball/steady.gp'
set title 'Fig. 5: stability of the steady motions (S green, U red)'
unset colorbox
set palette defined (0 '#d62728', 1 '#2ca02c')
set arrow from 0.273, -70 to 0.273, 70 nohead dt 2 lc rgb 'black'
set arrow from -0.273, -70 to -0.273, 70 nohead dt 2 lc rgb 'black'
set arrow from 0.144, -70 to 0.144, 70 nohead dt 3 lc rgb 'black'
set arrow from -0.144, -70 to -0.144, 70 nohead dt 3 lc rgb 'black'
plot d using steady_map_beta0:steady_map_omega30:steady_map_stable with image

# caption: Fig. 6: steady motions without slipping for mu = 1 (shaded green, (56)), and those with F2 >= 0 (the mu -> infinity limit (57), light grey); beta-tilde = pi/4 about pi/2 for small omega30 and about 0 for large omega30.
load 'pipeline/basketball/steady.gp'
set title 'Fig. 6: slipping (mu = 1) and falling limits'
unset colorbox
set palette defined (0 '#ffffff', 1 '#cccccc', 2 '#2ca02c')
plot d using steady_map_beta0:steady_map_omega30:(column(steady_map_slip_margin) >= 0 ? 2 : column(steady_map_F2) >= 0 ? 1 : 0) with image

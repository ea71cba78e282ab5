# caption: Fig. 7: throw speed (59) needed for the kinetic energy of each steady motion; the region v <= 10 m/s shaded darkest, contours 1, 3, 5, 7, 10 m/s by colour band.
load 'pipeline/basketball/steady.gp'
set title 'Fig. 7: kinetic-energy limit, v_{throw} of (59) (m/s)'
set cbrange [0:12]
set cblabel 'v_{throw} (m/s)'
set palette defined (0 '#08306b', 1 '#2171b5', 3 '#6baed6', 5 '#c6dbef', 7 '#fee0d2', 10 '#fcbba1', 12 '#ffffff')
plot d using steady_map_beta0:steady_map_omega30:(column(steady_map_v_throw) > 12 ? 12 : column(steady_map_v_throw)) with image

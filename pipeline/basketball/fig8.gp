# caption: Fig. 8: realisable steady motions (stable, no slip with mu = 1, v_throw <= 10 m/s): region A (inside-above, blue), B (inside-below, orange), C (outside-above, green).
load 'pipeline/basketball/steady.gp'
set title 'Fig. 8: realisable steady motions: A (blue), B (orange), C (green)'
unset colorbox
set cbrange [-0.5:3.5]
set palette defined (0 '#ffffff', 1 '#1f77b4', 2 '#ff7f0e', 3 '#2ca02c')
plot d using steady_map_beta0:steady_map_omega30:steady_map_region with image

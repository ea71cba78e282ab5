# caption: Fig. 16, special bifurcation of the force-free disc (F = 0) with the nonlinear model N = 2: two circles of stable limit directions of combined slip and spin (blue) at w3 = +-sqrt(-k1/k2), the poles and the equator unstable (red); trajectories of (115) from 120 seeds
load 'pipeline/gnuplot/common.gp'
load 'pipeline/friction/colours.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 5in,5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 800,800; set output out.'.png' }
set title 'F = 0, nonlinear model N = 2: stop on circles of combined slip and spin'
case = 5
load 'pipeline/friction/sphere.gp'

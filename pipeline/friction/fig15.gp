# caption: Fig. 15, special bifurcation of the force-free disc (F = 0) with the linear (fitted) model: the equator is a circle of limit directions unstable on the sphere (red), the poles are stable attracting limit directions (blue): a pure-spin stop; trajectories of (115) from 120 seeds
load 'pipeline/gnuplot/common.gp'
load 'pipeline/friction/colours.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,9' size 5in,5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,11' size 800,800; set output out.'.png' }
set title 'F = 0, linear model: stop at the poles (pure spin)'
case = 4
load 'pipeline/friction/sphere.gp'

# caption: Fig. 14, bifurcation diagram of the disc with the second-degree (N = 2) nonlinear model: tangency T, pitchfork P and fold F of limit directions, coloured by type (left); the same for the exact model (right) for comparison
load 'pipeline/gnuplot/common.gp'
load 'pipeline/friction/colours.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 9in,3.5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1500,580; set output out.'.png' }
set multiplot layout 1,2
set title 'nonlinear model N = 2'
m = 'N2'; row = 2
load 'pipeline/friction/bif.gp'
set title 'exact model'
m = 'exact'; row = 5
load 'pipeline/friction/bif.gp'
unset multiplot

# caption: Fig. 13, bifurcation diagram of the disc with the first-degree (linear) model: limit directions on the invariant circle (psi) against the force, coloured by type; tangency T and pitchfork P, no fold. "First-degree" is ambiguous (E22): left the harmonic N = 1 model (90), right the fitted model (64)
load 'pipeline/gnuplot/common.gp'
load 'pipeline/friction/colours.gp'
if (term eq 'pdf') { set terminal pdfcairo enhanced color font 'Sans,8' size 9in,3.5in; set output out.'.pdf' } else { set terminal pngcairo enhanced color font 'Sans,10' size 1500,580; set output out.'.png' }
set multiplot layout 1,2
set title 'harmonic N = 1'
m = 'N1'; row = 1
load 'pipeline/friction/bif.gp'
set title 'fitted linear model'
m = 'fitted'; row = 0
load 'pipeline/friction/bif.gp'
unset multiplot

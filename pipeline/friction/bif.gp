# Shared by the bifurcation diagrams (Figs. 13, 14): model `m` (file tag), row `row` of special.tsv.
b = results.'/disc/bif_'.m.'.tsv'
tr = results.'/disc/trivial_'.m.'.tsv'
s = results.'/disc/special.tsv'
load results.'/disc/columns.gp'
bf = value('bif_'.m.'_f'); bpsi = value('bif_'.m.'_psi'); bcol = value('bif_'.m.'_colour')
tf = value('trivial_'.m.'_f'); tpsi = value('trivial_'.m.'_psi'); tcol = value('trivial_'.m.'_colour')
set xlabel 'F/(μmg)'
set ylabel 'ψ = atan2(w_3, w_1) [rad]'
set xrange [0:1.2]
set yrange [-3.3:3.3]
set ytics ('-π' -pi, '-π/2' -pi/2, '0' 0, 'π/2' pi/2, 'π' pi)
unset key
plot b u bf:bpsi:(ldcol(column(bcol))) w l lw 3 lc rgb variable, \
     tr u tf:tpsi:(ldcol(column(tcol))) w l lw 3 lc rgb variable, tr u tf:(column(tpsi) > 0 ? -column(tpsi) : 1/0):(ldcol(column(tcol))) w l lw 3 lc rgb variable, \
     s u (column(special_model)==row ? column(special_F_T) : 1/0):(0):('T') w labels offset 0,1 font ',12', s u (column(special_model)==row ? column(special_F_T) : 1/0):(0) w p pt 6 ps 2 lc rgb 'black', \
     s u (column(special_model)==row ? column(special_F_P) : 1/0):(0):('P') w labels offset 0,1 font ',12', s u (column(special_model)==row ? column(special_F_P) : 1/0):(0) w p pt 6 ps 2 lc rgb 'black', \
     s u (column(special_model)==row ? column(special_F_F) : 1/0):special_psi_fold:('F') w labels offset 1,0 font ',12', s u (column(special_model)==row ? column(special_F_F) : 1/0):special_psi_fold w p pt 6 ps 2 lc rgb 'black', \
     s u (column(special_model)==row ? column(special_F_F) : 1/0):(-column(special_psi_fold)):('F') w labels offset 1,0 font ',12', s u (column(special_model)==row ? column(special_F_F) : 1/0):(-column(special_psi_fold)) w p pt 6 ps 2 lc rgb 'black'

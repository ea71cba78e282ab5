# Shared by the bifurcation diagrams (Figs. 13, 14): model `m` (file tag), row `row` of special.tsv.
b = results.'/disc/bif_'.m.'.tsv'
tr = results.'/disc/trivial_'.m.'.tsv'
s = results.'/disc/special.tsv'
set xlabel 'F/(μmg)'
set ylabel 'ψ = atan2(w_3, w_1) [rad]'
set xrange [0:1.2]
set yrange [-3.3:3.3]
set ytics ('-π' -pi, '-π/2' -pi/2, '0' 0, 'π/2' pi/2, 'π' pi)
unset key
plot b u 1:2:(ldcol($8)) w l lw 3 lc rgb variable, \
     tr u 1:2:(ldcol($6)) w l lw 3 lc rgb variable, tr u 1:($2 > 0 ? -$2 : 1/0):(ldcol($6)) w l lw 3 lc rgb variable, \
     s u ($1==row ? $2 : 1/0):(0):('T') w labels offset 0,1 font ',12', s u ($1==row ? $2 : 1/0):(0) w p pt 6 ps 2 lc rgb 'black', \
     s u ($1==row ? $3 : 1/0):(0):('P') w labels offset 0,1 font ',12', s u ($1==row ? $3 : 1/0):(0) w p pt 6 ps 2 lc rgb 'black', \
     s u ($1==row ? $4 : 1/0):5:('F') w labels offset 1,0 font ',12', s u ($1==row ? $4 : 1/0):5 w p pt 6 ps 2 lc rgb 'black', \
     s u ($1==row ? $4 : 1/0):(-$5):('F') w labels offset 1,0 font ',12', s u ($1==row ? $4 : 1/0):(-$5) w p pt 6 ps 2 lc rgb 'black'

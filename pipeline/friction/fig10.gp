# caption: Fig. 10 (NOT REPRODUCIBLE: the Pade model of the paper's reference [50] is not given in the text), what can be shown: the harmonic models' errors at the endpoints (pure translation Q(0) - 1, pure spin T(pi/2) - 1), which the paper says are finite, next to their RMS errors over theta (uniform pressure, rho = kappa)
load 'pipeline/gnuplot/common.gp'
f = results.'/harmonic/errors.tsv'
load results.'/harmonic/columns.gp'
set xlabel 'degree N of the harmonic model'
set ylabel 'error'
set xrange [0.5:4.5]
set xtics 1
set key top right
set title 'Harmonic models: endpoint errors vs average error (Padé model of [50] not available)'
set style data linespoints
plot f index 0 every ::1 u errors_model:(abs(column(errors_Q0_err))) ls 1 pt 7 t '|Q(0) - 1| (pure translation)', \
     f index 0 every ::1 u errors_model:(abs(column(errors_Tpi2_err))) ls 2 pt 5 t '|T(π/2) - 1| (pure spin)', \
     f index 0 every ::1 u errors_model:errors_rmsQ ls 3 pt 9 t 'RMS error of Q over θ', \
     f index 0 every ::1 u errors_model:errors_rmsT ls 4 pt 11 t 'RMS error of T over θ'

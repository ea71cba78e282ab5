# caption: Fig. 5 (reconstructed from the text): the structogram of the analytic single-contact solution, as implemented in solvers/maxdiss/single_contact.hpp (branch indices as written by md_contact).
load 'pipeline/gnuplot/common.gp'
unset border; unset tics; unset key; unset grid
set xrange [0:10]
set yrange [0:6]
set title 'Fig. 5: structogram of the single-contact solution (reconstructed)'
# decision rows: condition on the left, "true" result on the right
do for [i=1:4] {
  set object i rect from (i-1)*0.6, 6-i*1.0 to 10, 6-(i-1)*1.0 fc rgb (i%2 ? '#f4f8fb' : '#ffffff') fs solid border lc rgb '#333333'
}
set object 5 rect from 2.4, 0.0 to 10, 2.0 fc rgb '#f4f8fb' fs solid border lc rgb '#333333'
set label 1 'b_n < 0 ?' at 0.2,5.5 left font ',12'
set label 2 'true: x_* = 0  (0 separating)' at 5.0,5.5 left
set label 3 '{/Symbol m} = 0 ?' at 0.8,4.5 left font ',12'
set label 4 'true: x_* = (b_n/A_{nn}, 0, 0)  (1 frictionless)' at 5.0,4.5 left
set label 5 'P_1: x_{0,n} >= 0 and ||x_{0,to}|| <= {/Symbol m} x_{0,n} ?' at 1.4,3.5 left font ',12'
set label 6 'true: x_* = x_0 = A^{-1} b  (2 sticking)' at 6.2,3.2 left
set label 7 'b_n = 0 ?' at 2.0,2.5 left font ',12'
set label 8 'true: P_2: A_{nn} > {/Symbol m} (A_{nt}^2+A_{no}^2)^{1/2} ? x_* = 0 (3) : ray of Eq. (9) (4)' at 3.4,2.2 left font ',10'
set label 9 'false (b_n > 0, {/Symbol m} > 0, sliding, 5):' at 2.6,1.5 left font ',12'
set label 10 '{/Symbol a}_* = argmin of f_{obj} over the roots of Eq. (8) in I (quartic, Appendix A);' at 2.6,1.05 left font ',10'
set label 11 'r_* = {/Symbol m} b_n / f_r({/Symbol a}_*), x_{*,n} = (b_n - A_{nt} r_* cos{/Symbol a}_* - A_{no} r_* sin{/Symbol a}_*)/A_{nn}' at 2.6,0.65 left font ',10'
set label 12 'checked by probe angles; fallback: dense scan + golden section' at 2.6,0.25 left font ',10' tc rgb '#555555'
plot NaN

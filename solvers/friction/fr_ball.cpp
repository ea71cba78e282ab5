// fr_ball, study `ball`: limit directions of the ball and their bifurcations (Sect. 7.5;
// Figs. 14, 18).
//
// Problem. A homogeneous ball of radius Rbar = lambda R rolls, slides and spins on a plane with a
// Hertz contact of radius R and is pushed by a force F; its relative velocity x_o obeys (18). Near
// the stop x_o = 0 the slip direction w obeys w' = V*(w) (115). For each friction model find the
// branches of limit directions against f = F/(mu m g), the bifurcation forces, the curves g(psi) of
// Fig. 18 and how the models' errors change with lambda (the study itself:
// solvers/friction/limitdirs.cpp).
//
// Sample runs:
//   fr_ball --config configs/friction/ball.ini --output try/ball
//   fr_ball --config configs/friction/ball.ini --problem.lambda=10 --output try/ball
#include "friction/limitdirs.hpp"

int main(int argc, char** argv) { return cm::study_main<fr::BallStudy>(argc, argv); }

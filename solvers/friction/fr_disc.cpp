// fr_disc, study `disc`: limit directions of the disc and their bifurcations (Sects. 7.3-7.4;
// Figs. 11, 13, 17; Table 2).
//
// Problem. A thin disc of radius Rbar slides and spins on a plane with a uniform contact pressure
// over a circle of radius R and is pushed by a force F; its relative velocity x_o = (u_x, u_y,
// rho omega_z) obeys (13). Near the stop x_o = 0 the slip direction w = x_o/|x_o| obeys
// w' = V*(w) (115); the fixed points (limit directions) tell in which way the disc stops. For each
// friction model (fitted linear, harmonic N, exact) find the branches of limit directions against
// f = F/(mu m g), the tangency, pitchfork and fold forces (130), (133), (138), the force-free stop
// directions and Table 2 (the study itself: solvers/friction/limitdirs.cpp).
//
// Sample runs:
//   fr_disc --config configs/friction/disc.ini --output try/disc
//   fr_disc --config configs/friction/disc.ini --models.list=fitted,N2,exact --output try/disc
#include "friction/limitdirs.hpp"

int main(int argc, char** argv) { return cm::study_main<fr::DiscStudy>(argc, argv); }

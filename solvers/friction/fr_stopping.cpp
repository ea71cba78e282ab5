// fr_stopping, study `stopping`: direct simulations of the stopping disc and ball (Sect. 7).
//
// Problem. With x_o = r w the disc (13) and the ball (18) become r' = r R*(w), w' = V*(w) (114) in
// the rescaled time d/dt = r d/dtau. From given initial slip velocities integrate (w, ln r, t)
// until r < r_stop; report the stop time and the final direction, compared with the attracting,
// stable limit direction predicted by the analysis of Sect. 7 (the study itself:
// solvers/friction/sphere.cpp).
//
// Sample runs:
//   fr_stopping --config configs/friction/stopping.ini --output try/stopping
//   fr_stopping --config configs/friction/stopping.ini --solver.rtol=1e-12 --output try/stopping
#include "friction/sphere.hpp"

int main(int argc, char** argv) { return cm::study_main<fr::StoppingStudy>(argc, argv); }

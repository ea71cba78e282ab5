// fr_portraits, study `portraits`: phase portraits on the unit sphere of slip directions
// (Figs. 12, 15, 16).
//
// Problem. Near the stop x_o = 0 the slip direction w = x_o/|x_o| of the disc (13) or the ball (18)
// obeys w' = V*(w) (115) in the rescaled time tau. From a Fibonacci set of seeds on the sphere,
// integrate (115) for each force of the list (Fig. 12: Cases 1-4 of the disc with N = 2; Fig. 15:
// F = 0, fitted linear model; Fig. 16: F = 0, N = 2) and list the limit directions with their types
// (the study itself: solvers/friction/sphere.cpp).
//
// Sample runs:
//   fr_portraits --config configs/friction/portraits.ini --output try/portraits
//   fr_portraits --config configs/friction/portraits.ini --portrait.seeds=40 --output try/portraits
#include "friction/sphere.hpp"

int main(int argc, char** argv) { return cm::study_main<fr::PortraitsStudy>(argc, argv); }

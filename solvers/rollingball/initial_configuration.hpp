// The initial-configuration problem of Sect. 6 (Table 6.2): find rail angles theta_a that put the
// total centre of mass of the ball directly above (or below) the geometric centre,
//
//   ( sum_{i=0}^n m_i zeta_i(theta_i) )_{1,2} = 0,
//
// two equations in the two free angles (the others fixed), solved by Newton's method with the
// analytic Jacobian d/dtheta_j = m_j (zeta_j'(theta_j))_{1,2}. Several roots exist; the one with
// the wanted sign of c_B,3 is kept (from the guess, else from a grid of starting points).
#pragma once

#include <Eigen/Core>
#include <array>

#include "rollingball/ball.hpp"

namespace rb {

struct InitialConfigurationResult {
  Eigen::VectorXd theta;  ///< all n angles
  Vec3 cB;                ///< total CM, body frame translated to the GC
  double residual = 0.0;  ///< |(sum m_i zeta_i)_12| at the root
  int iterations = 0;
  int starts = 0;  ///< starting points tried
};

/// `theta` holds the fixed angles and, at the indices `free` (0-based), the initial guess.
/// `above` selects c_B,3 > 0. Throws cm::NumericalError when no root is found.
InitialConfigurationResult solve_initial_configuration(const Ball& ball, const Eigen::VectorXd& theta,
                                                       std::array<int, 2> free, bool above, double tol = 1e-14,
                                                       int max_iterations = 50);

}  // namespace rb

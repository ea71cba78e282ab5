// The structural properties of the exact friction law (Sects. 3 and 5), checked on the direct 2-D
// quadrature of (20)-(23) (exact.hpp: direct_resultant) over a set of velocities, each against the
// formula as the paper prints it (or as corrected, where the paper has a typo):
//   Prop. 1 (24)        homogeneity of degree zero, Q(lambda x_o) = Q(x_o), lambda > 0;
//   Prop. 3 (42), (43)  omega_z -> -omega_z flips T_z only; u -> -u flips Q_x, Q_y only;
//   Prop. 4 (44)        collinearity, Q_x u_y - Q_y u_x = 0;
//   Prop. 5 (45)        rotating u by alpha rotates (Q_x, Q_y) by alpha and keeps T_z;
//   (75)                the limit R -> 0 is the Coulomb law of a point contact, T_z = 0;
// and the linear-ellipsoidal model in the eps form (72) against its w3 and theta forms (70)-(71).
//
// Units: R = 1, mu = 1, P = 1. A velocity is x_o = (u_x, u_y, rho omega_z) (8); the law is the vector
// (31), (Q_x, Q_y, T_z / rho) / (mu P). Every function returns the largest violation over its set.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "friction/exact.hpp"

namespace fr {

/// Velocities x_o on the unit sphere: `longitudes` x `latitudes` points, the latitudes at the
/// midpoints of `latitudes` equal intervals of (-pi/2, pi/2) (so no pole: u != 0 at every point).
std::vector<Eigen::Vector3d> velocity_grid(int longitudes, int latitudes);

/// Prop. 1 (24): max |Q(lambda x) - Q(x)| over x and lambda.
double homogeneity_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x,
                         const std::vector<double>& lambdas, double tol);

/// Prop. 3 (42)-(43): max over x of the violations of both reflections.
double reflection_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x, double tol);

/// Prop. 4 (44): max |Q_x u_y - Q_y u_x| / (mu P) over x (|u| <= |x_o|).
double collinearity_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x, double tol);

/// Prop. 5 (45): max over x and alpha of |Q(x') - (Q_x c - Q_y s, Q_x s + qy_sign Q_y c, T_z)|,
/// x' = (u rotated by alpha, rho omega_z). qy_sign = +1 is the corrected form, -1 the printed one.
double rotation_covariance_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x,
                                 const std::vector<double>& alphas, double qy_sign, double tol);

/// (75): the law of a contact of radius R (in a unit of length L) at the velocities v = (u_x, u_y,
/// L omega_z), against the Coulomb law Q = -mu P u/|u|, T_z = 0: max over v of |Q/(mu P) + u/|u||
/// and |T_z|/(mu P L), by direct quadrature about the centre of the contact. Every v needs
/// R |omega_z| < |u|/2 (the instantaneous centre of rotation well outside the contact). The error
/// is O(R^2).
double point_contact_error(Pressure p, const std::vector<Eigen::Vector3d>& v, double R, double tol);

/// (72) against (70) and (71) at eps (35): max of |Q_eps - Q_w(w3)|, |T_eps - T_w(w3)| with
/// w3 = (rho/R)/sqrt(eps^2 + (rho/R)^2) from (35), and of |Q_eps - cos theta|, |T_eps - sin theta|
/// with eps = (rho/R) cot theta (54); the model's values come from the fitted model's n(w) (69).
double linear72_vs_71_error(double rho_over_R, const std::vector<double>& eps);

}  // namespace fr

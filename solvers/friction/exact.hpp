// Exact resultant friction force and torque of a circular contact region of radius R under an
// axisymmetric normal pressure, with Coulomb's law applied pointwise (Sect. 3-4 of the paper).
//
// Units: R = 1, mu = 1, P = 1 (every function returns the normalised quantities of the paper).
//   Q_eps, T_eps  : the slip-spin-ratio form (53), eps = |u| / (R |omega_z|)  (35)
//   Q(theta), T(theta) : the latitude form (49), depending on rho/R through eps = (rho/R)|cot theta| (54)
//   Q_w, T_w      : the w3 form (46)
//   resultant(w)  : the vector (31), (Q_x, Q_y, T_z/rho)/(mu P), for a slip direction w on the sphere
//
// Three independent routes are implemented:
//   closed forms (59)-(60) (uniform, complete elliptic integrals) and (62)-(63) (Hertz), switched to
//     long power series where the closed forms lose digits (eps < 1/2 for the uniform Q_eps1,
//     eps > 2 for every branch-2 function); the series coefficients are generated here from the
//     Maclaurin series of K(m), E(m), arcsin(x)/x and sqrt(1 - x^2);
//   the ring integral (one elliptic-integral ring per radius, integrated over the radius), valid for
//     any axisymmetric pressure (used for the Galin pressure of Table 2);
//   direct 2-D quadrature of (20)-(23) in polar coordinates about the instantaneous centre of
//     rotation, for any slip direction (the verification route).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace fr {

/// Axisymmetric pressure distributions: uniform (56), parabolic/Hertz (61), Galin (not in the
/// paper's formulas; the pressure of its reference [24], p = P / (2 pi R^2 sqrt(1 - xi^2/R^2))).
enum class Pressure { uniform, hertz, galin };

Pressure pressure_from_name(const std::string& name);  ///< "uniform" | "hertz" | "galin"
std::string pressure_name(Pressure p);

/// p~(xi) R^2 / P at xi/R = s in [0, 1): (56), (61), Galin.
double pressure_profile(Pressure p, double s);

/// kappa/R in closed form: 2/3 (76), 3 pi/16 (77), pi/4 (Galin).
double kappa_closed_form(Pressure p);
/// kappa/R by quadrature of (39); total load (38)/P by quadrature (should be 1).
double kappa_by_quadrature(Pressure p, double tol = 1e-13);
double load_by_quadrature(Pressure p, double tol = 1e-13);

/// A pair of normalised resultants (force magnitude and torque).
struct QT {
  double Q;
  double T;
};

/// The exact functions (53) for eps in [0, inf] (eps = inf is pure translation): closed forms with
/// the series switch; the Galin pressure goes through the ring integral.
QT exact_eps(Pressure p, double eps);

/// The closed forms (59)-(60), (62)-(63) evaluated as printed (with the typo (58) corrected), with
/// the eps = 1 limits; no series switch (used to show the cancellation and in tests).
QT closed_form_eps(Pressure p, double eps);

/// The long series: around eps = 0 (uniform and Hertz branch 1) and around eps = inf (branch 2),
/// `terms` terms each. Uniform branch 1 T and Hertz branch 1 are finite series / exact polynomials.
QT series_eps(Pressure p, double eps, int terms = 40);

/// Coefficients of the series in powers of eps (branch 1) or x = 1/eps (branch 2):
///   uniform Q_eps1 = sum_n q1[n] eps^(2n+1),   uniform T_eps1 = sum_n t1[n] eps^(2n),
///   uniform Q_eps2 = sum_n q2[n] x^(2n),        uniform T_eps2 = sum_n t2[n] x^(2n+1),
///   Hertz   Q_eps2 = sum_n q2[n] x^(2n),        Hertz   T_eps2 = sum_n t2[n] x^(2n+1).
struct SeriesCoefficients {
  std::vector<double> q1, t1, q2, t2;
};
/// Generated from the Maclaurin series of K, E (uniform) and arcsin(x)/x, sqrt(1 - x^2) (Hertz).
const SeriesCoefficients& series_coefficients(Pressure p);

/// The ring-integral route for any axisymmetric pressure: Q_eps, T_eps by one quadrature over the
/// radius of the closed-form ring integrals I_F, I_T.
QT ring_eps(Pressure p, double eps, double tol = 1e-13);

/// Latitude form (49)-(50) on the whole circle theta in [-pi, pi) through (54), (80), (81).
QT exact_theta(Pressure p, double rho_over_R, double theta);
/// w3 form (46): Q_w(w3), T_w(w3) for w3 in [-1, 1].
QT exact_w3(Pressure p, double rho_over_R, double w3);

/// The resultant (31) normalised by mu P: (Q_x, Q_y, T_z / rho) / (mu P), for a slip direction w
/// (any nonzero vector: the law is homogeneous of degree 0, Prop. 1), through the axisymmetric
/// form (46) and the exact functions.
Eigen::Vector3d exact_resultant(Pressure p, double rho_over_R, const Eigen::Vector3d& w);

/// The same vector by direct 2-D quadrature of (20)-(23) over the disc (verification route).
Eigen::Vector3d direct_resultant(Pressure p, double rho_over_R, const Eigen::Vector3d& w, double tol = 1e-12);

/// eps = (rho/R) sqrt(w1^2 + w2^2) / |w3|  (35), +inf for w3 = 0.
double eps_of_w(double rho_over_R, const Eigen::Vector3d& w);

}  // namespace fr

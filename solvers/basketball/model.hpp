// The basketball on the rim (paper 004): a rigid sphere (radius r, inertia j m r^2) rolling or
// slipping on a rigid torus (major radius R, minor radius a), reduced to the contact angle beta and
// the ball's angular velocity in the contact frame (n1 circular, n2 normal, n3 transversal).
//
// Every quantity is per unit mass (forces F/m, energy E/m): the mass cancels from every condition
// of the paper. Equation numbers refer to the paper; the spec's corrections (energy (60) with
// g rho sin(beta), the dissipation (83) taken literally in its groups k_r, k_d) are marked where used.
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

namespace bb {

/// Table 1 of the paper (missing from the text, reconstructed in spec 004 §3.1) plus the friction
/// coefficient and the dissipation groups of (83).
struct Parameters {
  double r = 0.12;       ///< ball radius [m]
  double a = 0.01;       ///< minor radius of the rim torus [m]
  double R = 0.225;      ///< major radius of the rim torus [m]
  double j = 2.0 / 3.0;  ///< dimensionless moment of inertia, J = j m r^2
  double g = 9.81;       ///< gravity [m/s^2]
  double mu = 1.0;       ///< Coulomb friction coefficient (29)
  double k_d = 0.0;      ///< drilling dissipation group C_d/(j m R^2) of (83) [1/s]
  double k_r = 0.0;      ///< rolling-resistance group C_r/(j m R^2) of (83) [1/s]
  /// The rolling friction forces include the dissipative moments' share (spec §2.17).
  bool dissipative_friction = true;

  double rho() const { return a + r; }  ///< distance of G from the rim's centre circle
  double D(double beta) const;          ///< R - rho cos(beta): horizontal distance of G from the axis
};

/// Rolling state x = (beta, omega1, omega2, omega3), eq. (38).
using Rolling = Eigen::Vector4d;
/// Slipping state y = (beta, omega1, omega2, omega3, u1, u3), eq. (44).
using Slipping = Eigen::Matrix<double, 6, 1>;

/// Contact force per unit mass in the contact basis (F1, F2, F3), eq. (23).
struct Force {
  double F1, F2, F3;
};

class Model {
 public:
  explicit Model(const Parameters& p);
  const Parameters& parameters() const { return p_; }

  // --- rolling (Sect. 2.5) -----------------------------------------------------------------
  /// The rolling vector field (33)-(36) with the dissipation of (83) (literal, groups k_r, k_d).
  Rolling rolling_rhs(const Rolling& x) const;
  /// Central-difference Jacobian of rolling_rhs at x (steps 1e-6 max(1, |x_c|); error ~1e-9 relative).
  Eigen::Matrix4d rolling_jacobian(const Rolling& x) const;
  /// The contact force sustaining rolling, (30)-(32) (with the dissipative share, spec §2.17).
  Force rolling_force(const Rolling& x) const;
  /// mu F2 - sqrt(F1^2 + F3^2), the no-slip margin (39) per unit mass.
  double slip_margin(const Rolling& x) const;
  /// Corrected energy (60) per unit mass: j r^2 w2^2/2 + (1+j) r^2 (w1^2 + w3^2)/2 + g rho sin(beta).
  double energy(const Rolling& x) const;
  /// dE/dt of the dissipative system (83): -r^2 [j k_d w2^2 + (1+j) k_r (w1^2 + w3^2)].
  double energy_rate(const Rolling& x) const;

  // --- slipping (Sect. 2.6) ----------------------------------------------------------------
  /// The normal force (41) per unit mass (valid for rolling too, with u1 = u3 = 0).
  double normal_force(const Slipping& y) const;
  /// The slipping vector field (42), Coulomb friction (29), plus the dissipative moments of spec
  /// §2.17. Undefined at u1 = u3 = 0.
  Slipping slipping_rhs(const Slipping& y) const;
  /// The Newton-Euler equations (24)-(27) solved for the state rate with a prescribed tangential
  /// force (F1, F3) per unit mass and the dissipative moments: the common core of (33)-(36) and (42).
  Slipping newton_euler(const Slipping& y, double F1, double F3) const;
  /// The dissipative contact moments per unit mass in the n basis (82), chosen to give (83) in rolling.
  Eigen::Vector3d dissipative_moment(const Slipping& y) const;

  // --- the roll-slip switch (Sect. 5.2.1) --------------------------------------------------
  struct Limits {
    double B1, B3, C;  ///< (76)
    double phi1;       ///< (81), atan2(B3, B1): the repelling direction when (39) is violated
  };
  Limits limits(const Rolling& x) const;

  // --- steady motions (Sect. 3) ------------------------------------------------------------
  /// omega20(beta0, omega30), eq. (48).
  double omega20(double beta0, double omega30) const;
  /// The angles beta0 in [lo, hi] of the steady motions with the given omega20 and omega30: the
  /// roots of (48) in beta0, ascending, bracketed on a scan of step <= 5e-4 rad (brackets around
  /// the poles beta0 = +-pi/2 of (48) are skipped) and bisected to the last bit.
  std::vector<double> steady_angles(double omega20, double omega30, double lo, double hi) const;
  /// h(beta0, omega30), eq. (54): lambda_{3,4}^2 of the linearisation.
  double h(double beta0, double omega30) const;
  /// The Jacobian A of (50)-(51) at the non-trivial steady motion (entries of spec §2.8).
  Eigen::Matrix4d linearisation(double beta0, double omega30) const;
  /// F2/m and F3/m at the steady motion (left and right sides of (56) without mu).
  double steady_F2(double beta0, double omega30) const;
  double steady_F3(double beta0, double omega30) const;
  /// The throw speed needed for the steady motion's kinetic energy, eq. (59).
  double throw_speed(double beta0, double omega30) const;
  /// beta* = arccos((1+j) rho / R) (Sect. 3.2); NaN when R <= (1+j) rho.
  double beta_star() const;
  /// The real roots of the cubic (55) in (-1, 1), ascending.
  std::array<double, 3> cubic55_roots(int& count) const;

  // --- separation (Sect. 5.1.1) ------------------------------------------------------------
  struct Landing {
    double d_cross;  ///< horizontal distance of G from the hoop axis when G crosses the rim plane
    double t_cross;  ///< flight time to the crossing
    bool in;         ///< d_cross < R: through the hoop ("score")
  };
  /// The ballistic rim-plane rule of spec §2.18 from the state at separation.
  Landing land(const Slipping& y) const;

 private:
  Parameters p_;
  double rho_;
};

/// Floquet problem (62) of the (omega2, omega3) motion along beta: the monodromy matrix over
/// beta in [0, 2 pi] for q = rho/R and j, by classical RK4 with `steps` steps.
Eigen::Matrix2d monodromy(double q, double j, int steps);

/// The system (66) of the coefficients (c2, c3) of the conserved quantity P (65):
/// d/dbeta (c2, c3) = K(beta) (c2, c3).
Eigen::Matrix2d conserved_coefficient_matrix(const Parameters& p, double beta);

}  // namespace bb

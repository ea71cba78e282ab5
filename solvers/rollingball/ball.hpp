// The rolling ball actuated by n internal point masses on 1-D rails (Sects. 2, 3 and 6).
//
// Body frame: principal axes of m0 (the ball with its static structure), inertia I = diag(d1, d2, d3)
// about m0's centre of mass; zeta_0 is the constant GC -> CM offset of m0, zeta_i(theta_i) the
// position of mass i on its rail, both in the body frame translated to the GC. Gamma = Lambda^T e3,
// s_i = r Gamma + zeta_i (contact point -> mass i), F_e a constant spatial force at the GC.
//
// Equation of motion and contact forces (this is the paper's main result):
//   Omega' = [sum m_i hat(s_i)^2 - I]^-1 [Omega x I Omega + r Gammatilde x Gamma
//            + sum m_i s_i x {g Gamma + R_i}],                                         eq. (3.2)
//   R_i    = Omega x (Omega x zeta_i + 2 theta_i' zeta_i') + theta_i'^2 zeta_i'' + theta_i'' zeta_i',
//   N      = M g + < sum m_i [Omega' x s_i + R_i], Gamma > - F_e3,                      eq. (3.3)
//   -f_s sigma = ( Lambda sum m_i [Omega' x s_i + R_i] - F_e )_12,                       eq. (3.4)
// all sums over i = 0..n. State (6.1): x = [theta; theta'; q; Omega; z] (2n + 9 components),
// ODE form (6.4) and semi-explicit DAE form (6.5) with q0 as the algebraic variable.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "numerics/rotation.hpp"
#include "rollingball/actuation.hpp"
#include "rollingball/rails.hpp"

namespace rb {

struct BallParameters {
  double m0 = 1.0;                 ///< mass of the ball and its static structure
  double r = 1.0;                  ///< radius
  double g = 1.0;                  ///< gravity
  Vec3 d = Vec3(0.9, 1.0, 1.1);    ///< principal moments of inertia of m0
  Vec3 zeta0 = Vec3(0, 0, -0.05);  ///< GC -> CM of m0, body frame
  Vec3 Fe = Vec3::Zero();          ///< external force at the GC, spatial frame
  std::vector<double> m;           ///< point masses m_1..m_n
  std::vector<Rail> rails;         ///< their rails
  StepRamp actuation;              ///< u_i(t), eq. (6.11)
};

/// Everything (3.2)-(3.4) give at one instant.
struct BallContact {
  Vec3 Omegadot;        ///< eq. (3.2)
  double N = 0.0;       ///< eq. (3.3)
  Eigen::Vector2d Ffr;  ///< friction force components (e1, e2), eq. (3.4): -f_s sigma
  double fs = 0.0;      ///< |Ffr|
  Vec3 Gamma;           ///< Lambda^T e3
  Mat3 Lambda;          ///< attitude from q / |q|
  Vec3 omega;           ///< spatial angular velocity Lambda Omega
};

class Ball {
 public:
  /// Validates the parameters (positive masses and moments, one rail per mass, radius > 0);
  /// throws cm::InputError otherwise.
  explicit Ball(BallParameters p);

  const BallParameters& parameters() const { return p_; }
  int n() const { return static_cast<int>(p_.m.size()); }
  int state_size() const { return 2 * n() + 9; }  // eq. (6.1)
  double total_mass() const { return M_; }

  // Slices of the state x = [theta; theta'; q; Omega; z].
  int i_theta() const { return 0; }
  int i_thetadot() const { return n(); }
  int i_q() const { return 2 * n(); }
  int i_Omega() const { return 2 * n() + 4; }
  int i_z() const { return 2 * n() + 7; }

  /// zeta_i(theta_i) for i = 0..n (i = 0: the constant zeta_0).
  Vec3 zeta(int i, const Eigen::VectorXd& x) const;
  /// The total centre of mass c_B = sum m_i zeta_i / M in the body frame translated to the GC.
  Vec3 centre_of_mass(const Eigen::VectorXd& theta) const;

  /// Omega', N and the friction at (t, x), eqs. (3.2)-(3.4).
  BallContact contact(double t, const Eigen::VectorXd& x) const;

  /// The ODE right-hand side (6.4).
  void rhs(double t, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> xdot) const;
  /// The DAE residual F = M x' - g(t, x) of (6.5), (6.6); the algebraic row is |q|^2 - 1.
  void residual(double t, const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& xp,
                Eigen::Ref<Eigen::VectorXd> F) const;
  /// The DAE's differential (1) / algebraic (0) marker, eq. (6.6): 0 for q0.
  Eigen::VectorXd differential_components() const;

  /// Total energy: kinetic (rolling, with the masses' own motion, velocities (2.7)) plus potential
  /// sum m_i g (Lambda zeta_i)_3. Conserved when the masses are frozen and F_e = 0.
  double energy(const Eigen::VectorXd& x) const;
  /// Spatial positions z_i = z_GC + Lambda zeta_i, eq. (2.6), i = 0..n, with z_GC = [z; 0].
  Vec3 position(int i, const Eigen::VectorXd& x) const;

  /// The initial state [theta_a; theta_a'; q_a; Omega_a; z_a], eq. (6.7).
  Eigen::VectorXd initial_state(const Eigen::VectorXd& theta, const Eigen::VectorXd& thetadot, const cm::Quaternion& q,
                                const Vec3& Omega, const Eigen::Vector2d& z) const;

 private:
  BallParameters p_;
  double M_;
  Mat3 I_;
};

}  // namespace rb

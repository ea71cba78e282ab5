#include "rollingball/ball.hpp"

#include <Eigen/Cholesky>
#include <string>

#include "core/errors.hpp"

namespace rb {

Ball::Ball(BallParameters p) : p_(std::move(p)) {
  if (!(p_.m0 > 0.0)) throw cm::InputError("model.m0: the mass must be positive");
  if (!(p_.r > 0.0)) throw cm::InputError("model.r: the radius must be positive");
  for (int k = 0; k < 3; ++k)
    if (!(p_.d(k) > 0.0)) throw cm::InputError("model.d: the moments of inertia must be positive");
  if (p_.rails.size() != p_.m.size())
    throw cm::InputError("rails.radius: one rail per mass (masses.m has " + std::to_string(p_.m.size()) + ")");
  if (p_.actuation.sign.size() != p_.m.size())
    throw cm::InputError("actuation.signs: one sign per mass (masses.m has " + std::to_string(p_.m.size()) + ")");
  M_ = p_.m0;
  for (double mi : p_.m) {
    if (!(mi > 0.0)) throw cm::InputError("masses.m: every mass must be positive");
    M_ += mi;
  }
  for (const Rail& rail : p_.rails)
    if (!(rail.radius > 0.0)) throw cm::InputError("rails.radius: every radius must be positive");
  I_ = p_.d.asDiagonal();
}

Vec3 Ball::zeta(int i, const Eigen::VectorXd& x) const {
  if (i == 0) return p_.zeta0;
  return p_.rails[i - 1].zeta(x(i_theta() + i - 1));
}

Vec3 Ball::centre_of_mass(const Eigen::VectorXd& theta) const {
  Vec3 c = p_.m0 * p_.zeta0;
  for (int i = 0; i < n(); ++i) c += p_.m[i] * p_.rails[i].zeta(theta(i));
  return c / M_;
}

BallContact Ball::contact(double t, const Eigen::VectorXd& x) const {
  BallContact c;
  const cm::Quaternion q = x.segment<4>(i_q());
  const Vec3 Omega = x.segment<3>(i_Omega());
  c.Lambda = cm::attitude(q);
  c.Gamma = c.Lambda.row(2).transpose();                 // Gamma = Lambda^-1 e3
  const Vec3 Gammatilde = c.Lambda.transpose() * p_.Fe;  // Gammatilde = Lambda^-1 F_e
  c.omega = c.Lambda * Omega;

  // Per mass i = 0..n: s_i = r Gamma + zeta_i and R_i (spec notation), eq. (3.1).
  const int nm = n() + 1;
  std::vector<Vec3> s(nm), R(nm);
  std::vector<double> mass(nm);
  Mat3 A = -I_;                                                         // sum m_i hat(s_i)^2 - I
  Vec3 b = Omega.cross(I_ * Omega) + p_.r * Gammatilde.cross(c.Gamma);  // right side of (3.2)
  for (int i = 0; i < nm; ++i) {
    Vec3 zeta, dzeta = Vec3::Zero(), ddzeta = Vec3::Zero();
    double thetadot = 0.0, u = 0.0;
    if (i == 0) {
      zeta = p_.zeta0;
      mass[i] = p_.m0;
    } else {
      const Rail& rail = p_.rails[i - 1];
      const double theta = x(i_theta() + i - 1);
      thetadot = x(i_thetadot() + i - 1);
      u = p_.actuation.u(i - 1, t);  // theta_i'' prescribed, (6.11)
      zeta = rail.zeta(theta);
      dzeta = rail.dzeta(theta);
      ddzeta = rail.ddzeta(theta);
      mass[i] = p_.m[i - 1];
    }
    s[i] = p_.r * c.Gamma + zeta;
    R[i] = Omega.cross(Omega.cross(zeta) + 2.0 * thetadot * dzeta) + thetadot * thetadot * ddzeta + u * dzeta;
    const Mat3 sh = cm::hat(s[i]);
    A += mass[i] * sh * sh;
    b += mass[i] * s[i].cross(p_.g * c.Gamma + R[i]);
  }
  // sum m_i hat(s_i)^2 - I = -J_CP with J_CP symmetric positive definite (spec §2.4).
  c.Omegadot = -((-A).llt().solve(b));  // eq. (3.2)

  Vec3 acc = Vec3::Zero();  // sum m_i [Omega' x s_i + R_i], body frame
  for (int i = 0; i < nm; ++i) acc += mass[i] * (c.Omegadot.cross(s[i]) + R[i]);
  c.N = M_ * p_.g + acc.dot(c.Gamma) - p_.Fe(2);  // eq. (3.3)
  c.Ffr = (c.Lambda * acc - p_.Fe).head<2>();     // eq. (3.4)
  c.fs = c.Ffr.norm();
  return c;
}

void Ball::rhs(double t, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> xdot) const {
  const Eigen::VectorXd xs = x;
  const BallContact c = contact(t, xs);
  const cm::Quaternion q = xs.segment<4>(i_q());
  const Vec3 Omega = xs.segment<3>(i_Omega());
  for (int i = 0; i < n(); ++i) {
    xdot(i_theta() + i) = xs(i_thetadot() + i);
    xdot(i_thetadot() + i) = p_.actuation.u(i, t);  // theta'' = u, (6.11)
  }
  xdot.segment<4>(i_q()) = cm::quaternion_rate(q, Omega);  // q' = 1/2 q Omega_sharp, (6.4)
  xdot.segment<3>(i_Omega()) = c.Omegadot;                 // kappa, (3.2)
  // z' = ([q Omega_sharp q^-1]_flat x r e3)_12 = r (omega_2, -omega_1), eq. (2.3)
  xdot(i_z()) = p_.r * c.omega(1);
  xdot(i_z() + 1) = -p_.r * c.omega(0);
}

void Ball::residual(double t, const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& xp,
                    Eigen::Ref<Eigen::VectorXd> F) const {
  Eigen::VectorXd g(state_size());
  rhs(t, x, g);
  F = xp - g;                                          // M x' - g(t, x), eq. (6.5)
  F(i_q()) = x.segment<4>(i_q()).squaredNorm() - 1.0;  // the algebraic row 0 = |q|^2 - 1
}

Eigen::VectorXd Ball::differential_components() const {
  Eigen::VectorXd id = Eigen::VectorXd::Ones(state_size());
  id(i_q()) = 0.0;  // eq. (6.6)
  return id;
}

double Ball::energy(const Eigen::VectorXd& x) const {
  const Mat3 L = cm::attitude(x.segment<4>(i_q()));
  const Vec3 Gamma = L.row(2).transpose();
  const Vec3 Omega = x.segment<3>(i_Omega());
  double E = 0.5 * Omega.dot(I_ * Omega);
  for (int i = 0; i <= n(); ++i) {
    const double mi = i == 0 ? p_.m0 : p_.m[i - 1];
    const Vec3 z = zeta(i, x);
    Vec3 v = Omega.cross(p_.r * Gamma + z);  // body-frame velocity of mass i, eq. (2.7)
    if (i > 0) v += x(i_thetadot() + i - 1) * p_.rails[i - 1].dzeta(x(i_theta() + i - 1));
    E += 0.5 * mi * v.squaredNorm() + mi * p_.g * (L * z)(2);
  }
  return E;
}

Vec3 Ball::position(int i, const Eigen::VectorXd& x) const {
  const Vec3 zGC(x(i_z()), x(i_z() + 1), 0.0);
  return zGC + cm::attitude(x.segment<4>(i_q())) * zeta(i, x);  // eq. (2.6)
}

Eigen::VectorXd Ball::initial_state(const Eigen::VectorXd& theta, const Eigen::VectorXd& thetadot,
                                    const cm::Quaternion& q, const Vec3& Omega, const Eigen::Vector2d& z) const {
  Eigen::VectorXd x(state_size());
  x << theta, thetadot, q, Omega, z;  // eq. (6.7)
  return x;
}

}  // namespace rb

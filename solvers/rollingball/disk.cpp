#include "rollingball/disk.hpp"

#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace rb {

Disk::Disk(DiskParameters p) : p_(std::move(p)) {
  if (!(p_.m0 > 0.0)) throw cm::InputError("model.m0: the mass must be positive");
  if (!(p_.r > 0.0)) throw cm::InputError("model.r: the radius must be positive");
  if (!(p_.d2 > 0.0)) throw cm::InputError("model.d2: the moment of inertia must be positive");
  if (p_.radius.size() != p_.m.size())
    throw cm::InputError("rails.radius: one rail per mass (masses.m has " + std::to_string(p_.m.size()) + ")");
  if (p_.actuation.sign.size() != p_.m.size())
    throw cm::InputError("actuation.signs: one sign per mass (masses.m has " + std::to_string(p_.m.size()) + ")");
  M_ = p_.m0;
  for (double mi : p_.m) {
    if (!(mi > 0.0)) throw cm::InputError("masses.m: every mass must be positive");
    M_ += mi;
  }
  for (double ri : p_.radius)
    if (!(ri > 0.0)) throw cm::InputError("rails.radius: every radius must be positive");
}

Eigen::Vector2d Disk::zeta(int i, const Eigen::VectorXd& x) const {
  if (i == 0) return {p_.zeta01, p_.zeta03};
  const double th = x(i_theta() + i - 1);
  return p_.radius[i - 1] * Eigen::Vector2d(std::cos(th), std::sin(th));  // eq. (5.4)
}

Eigen::Vector2d Disk::centre_of_mass(const Eigen::VectorXd& x) const {
  Eigen::Vector2d c = p_.m0 * zeta(0, x);
  for (int i = 1; i <= n(); ++i) c += p_.m[i - 1] * zeta(i, x);
  return c / M_;
}

Eigen::Vector2d Disk::to_space(double phi, const Eigen::Vector2d& v) const {
  // rows 1 and 3 of (A.1)
  return {std::cos(phi) * v(0) - std::sin(phi) * v(1), std::sin(phi) * v(0) + std::cos(phi) * v(1)};
}

DiskContact Disk::contact(double t, const Eigen::VectorXd& x) const {
  const double phi = x(i_phi()), phidot = x(i_phidot());
  const double sp = std::sin(phi), cp = std::cos(phi), r = p_.r, g = p_.g;
  // Per mass: zeta, zeta', zeta'' (components 1, 3), theta', theta'' = u.
  struct Mass {
    double m, z1, z3, d1, d3, dd1, dd3, thd, u;
  };
  std::vector<Mass> ms;
  ms.push_back({p_.m0, p_.zeta01, p_.zeta03, 0, 0, 0, 0, 0, 0});  // zeta_0' = zeta_0'' = 0
  for (int i = 0; i < n(); ++i) {
    const double th = x(i_theta() + i), ri = p_.radius[i];
    ms.push_back({p_.m[i], ri * std::cos(th), ri * std::sin(th), -ri * std::sin(th), ri * std::cos(th),
                  -ri * std::cos(th), -ri * std::sin(th), x(i_thetadot() + i), p_.actuation.u(i, t)});
  }
  double num = -r * p_.Fe1, den = p_.d2;
  for (const Mass& k : ms) {
    const double K = (g + r * phidot * phidot) * (k.z3 * sp - k.z1 * cp) +
                     (r * cp + k.z3) * (-2.0 * phidot * k.thd * k.d3 + k.thd * k.thd * k.dd1 + k.u * k.d1) -
                     (r * sp + k.z1) * (2.0 * phidot * k.thd * k.d1 + k.thd * k.thd * k.dd3 + k.u * k.d3);  // (4.2)
    num += k.m * K;
    den += k.m * ((r * sp + k.z1) * (r * sp + k.z1) + (r * cp + k.z3) * (r * cp + k.z3));
  }
  DiskContact c;
  c.phiddot = num / den;  // eq. (4.1)
  const double a = c.phiddot;
  double N = M_ * g - p_.Fe3, F = M_ * r * a + p_.Fe1;
  for (const Mass& k : ms) {
    const double h1 = -a * k.z3 - phidot * phidot * k.z1 - 2.0 * phidot * k.thd * k.d3 + k.thd * k.thd * k.dd1 +
                      k.u * k.d1;  // first row of (A.9) without -r phi'' cos phi
    const double h3 = a * k.z1 - phidot * phidot * k.z3 + 2.0 * phidot * k.thd * k.d1 + k.thd * k.thd * k.dd3 +
                      k.u * k.d3;     // third row of (A.9) without r phi'' sin phi
    N += k.m * (h1 * sp + h3 * cp);   // eq. (4.3)
    F += k.m * (-h1 * cp + h3 * sp);  // eq. (4.4), inside the braces
  }
  c.N = N;
  c.Ffr1 = -F;  // eq. (4.4)
  c.fs = std::abs(c.Ffr1);
  return c;
}

void Disk::rhs(double t, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> xdot) const {
  const Eigen::VectorXd xs = x;
  for (int i = 0; i < n(); ++i) {
    xdot(i_theta() + i) = xs(i_thetadot() + i);
    xdot(i_thetadot() + i) = p_.actuation.u(i, t);  // (5.5)
  }
  xdot(i_phi()) = xs(i_phidot());
  xdot(i_phidot()) = contact(t, xs).phiddot;  // kappa, (5.2)
}

double Disk::energy(const Eigen::VectorXd& x) const {
  const double phi = x(i_phi()), phidot = x(i_phidot()), sp = std::sin(phi), cp = std::cos(phi);
  double E = 0.5 * p_.d2 * phidot * phidot;
  for (int i = 0; i <= n(); ++i) {
    const double mi = i == 0 ? p_.m0 : p_.m[i - 1];
    const Eigen::Vector2d z = zeta(i, x);
    // body velocity of mass i: Omega x s_i + zeta_i', with Omega = -phi' e2 and s_i = r Gamma + zeta_i
    const double s1 = p_.r * sp + z(0), s3 = p_.r * cp + z(1);
    double v1 = -phidot * s3, v3 = phidot * s1;
    if (i > 0) {
      const double th = x(i_theta() + i - 1), thd = x(i_thetadot() + i - 1), ri = p_.radius[i - 1];
      v1 += -thd * ri * std::sin(th);
      v3 += thd * ri * std::cos(th);
    }
    E += 0.5 * mi * (v1 * v1 + v3 * v3) + mi * p_.g * (z(0) * sp + z(1) * cp);
  }
  return E;
}

}  // namespace rb

// The basketball model of paper 004: see model.hpp.
#include "basketball/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/math.hpp"
#include "numerics/optimize.hpp"

namespace bb {

double Parameters::D(double beta) const { return R - rho() * std::cos(beta); }

Model::Model(const Parameters& p) : p_(p), rho_(p.rho()) {}

// --- rolling ----------------------------------------------------------------------------------

Rolling Model::rolling_rhs(const Rolling& x) const {
  const double beta = x(0), w1 = x(1), w2 = x(2), w3 = x(3);
  const double r = p_.r, j = p_.j, g = p_.g, R = p_.R;
  const double s = std::sin(beta), c = std::cos(beta), D = R - rho_ * c;
  Rolling xd;
  xd(0) = r / rho_ * w1;  // eq. (36)
  xd(1) = ((1 + j) * r * w3 * w3 * s - j * r * w2 * w3 * c) / ((1 + j) * D) - g * c / (r * (1 + j)) -
          p_.k_r * w1;                                                              // eqs. (33), (83)
  xd(2) = r * R * w1 * w3 / (rho_ * D) - p_.k_d * w2;                               // eqs. (34), (83)
  xd(3) = -r * w1 * w3 * s / D - j * r * w1 * w2 / (rho_ * (1 + j)) - p_.k_r * w3;  // eqs. (35), (83)
  return xd;
}

Eigen::Matrix4d Model::rolling_jacobian(const Rolling& x) const {
  Eigen::Matrix4d J;
  for (int c = 0; c < 4; ++c) {
    const double h = 1e-6 * std::max(1.0, std::abs(x(c)));
    Rolling e = Rolling::Zero();
    e(c) = h;
    J.col(c) = (rolling_rhs(x + e) - rolling_rhs(x - e)) / (2 * h);
  }
  return J;
}

Force Model::rolling_force(const Rolling& x) const {
  const double beta = x(0), w1 = x(1), w2 = x(2), w3 = x(3);
  const double r = p_.r, j = p_.j, g = p_.g;
  const double s = std::sin(beta), c = std::cos(beta), D = p_.D(beta);
  Force F;
  F.F1 = j * r * r * w1 * w2 / (rho_ * (1 + j));                         // eq. (30)
  F.F2 = r * r * w3 * w3 * c / D - r * r * w1 * w1 / rho_ + g * s;       // eq. (31)
  F.F3 = j * g * c / (1 + j) - j * r * r * w2 * w3 * c / ((1 + j) * D);  // eq. (32)
  if (p_.dissipative_friction) {
    // The share of the dissipative moments (82) in the friction force (spec §2.17).
    F.F1 += p_.k_r * r * w3;
    F.F3 -= p_.k_r * r * w1;
  }
  return F;
}

double Model::slip_margin(const Rolling& x) const {
  const Force F = rolling_force(x);
  return p_.mu * F.F2 - std::hypot(F.F1, F.F3);  // eq. (39)
}

double Model::energy(const Rolling& x) const {
  const double r2 = p_.r * p_.r, j = p_.j;
  // eq. (60), corrected: the height of G is rho sin(beta) (the paper prints r sin(beta)).
  return 0.5 * j * r2 * x(2) * x(2) + 0.5 * (1 + j) * r2 * (x(1) * x(1) + x(3) * x(3)) + p_.g * rho_ * std::sin(x(0));
}

double Model::energy_rate(const Rolling& x) const {
  const double r2 = p_.r * p_.r, j = p_.j;
  return -r2 * (j * p_.k_d * x(2) * x(2) + (1 + j) * p_.k_r * (x(1) * x(1) + x(3) * x(3)));
}

// --- slipping ---------------------------------------------------------------------------------

double Model::normal_force(const Slipping& y) const {
  const double beta = y(0), r = p_.r;
  const double vt = y(4) - r * y(3), vs = y(5) + r * y(1);
  return vt * vt * std::cos(beta) / p_.D(beta) - vs * vs / rho_ + p_.g * std::sin(beta);  // eq. (41)
}

Eigen::Vector3d Model::dissipative_moment(const Slipping& y) const {
  const double r2 = p_.r * p_.r, j = p_.j;
  // (82) with C_r = (1+j) m r^2 k_r and C_d = j m r^2 k_d: the moments that give (83) in rolling.
  return {-(1 + j) * r2 * p_.k_r * y(1), -j * r2 * p_.k_d * y(2), -(1 + j) * r2 * p_.k_r * y(3)};
}

Slipping Model::newton_euler(const Slipping& y, double F1, double F3) const {
  const double beta = y(0), w1 = y(1), w2 = y(2), w3 = y(3), u1 = y(4), u3 = y(5);
  const double r = p_.r, j = p_.j, g = p_.g;
  const double s = std::sin(beta), c = std::cos(beta), D = p_.D(beta);
  const double alphad = (u1 - r * w3) / D;    // eq. (19)
  const double betad = (u3 + r * w1) / rho_;  // eq. (20)
  const Eigen::Vector3d M = dissipative_moment(y);
  const double jr2 = j * r * r;
  Slipping yd;
  yd(0) = betad;
  // Moment balance (25) with the angular acceleration (27), component by component.
  yd(3) = (r * F1 + M(2)) / jr2 - w2 * betad + w1 * alphad * s;
  yd(1) = (-r * F3 + M(0)) / jr2 - w3 * alphad * s + w2 * alphad * c;
  yd(2) = M(1) / jr2 + w3 * betad - w1 * alphad * c;
  // Force balance (24) with the acceleration (26), n1 and n3 components.
  yd(4) = F1 - alphad * s * (u3 + r * w1) + r * yd(3);
  yd(5) = F3 - g * c + alphad * s * (u1 - r * w3) - r * yd(1);
  return yd;
}

Slipping Model::slipping_rhs(const Slipping& y) const {
  const double U = std::hypot(y(4), y(5));
  const double F2 = normal_force(y);
  // Coulomb's law (29): the friction opposes the slip velocity.
  return newton_euler(y, -p_.mu * F2 * y(4) / U, -p_.mu * F2 * y(5) / U);
}

Model::Limits Model::limits(const Rolling& x) const {
  const Force F = rolling_force(x);
  const double j = p_.j;
  Limits L;
  L.B1 = -(1 + j) / j * F.F1;  // (76), through the identity (B1, B3) = -(1+j)/(j m) (F1, F3)
  L.B3 = -(1 + j) / j * F.F3;
  L.C = p_.mu * (1 + j) / j * F.F2;
  L.phi1 = std::atan2(L.B3, L.B1);  // eq. (81)
  return L;
}

// --- steady motions ---------------------------------------------------------------------------

double Model::omega20(double beta0, double omega30) const {
  const double r = p_.r, j = p_.j;
  return (1 + j) * omega30 * std::sin(beta0) / (j * std::cos(beta0)) -
         p_.g * p_.D(beta0) / (j * r * r * omega30);  // eq. (48)
}

std::vector<double> Model::steady_angles(double w2, double w3, double lo, double hi) const {
  const auto f = [&](double b) { return omega20(b, w3) - w2; };
  const int n = std::max(1000, int(std::ceil((hi - lo) / 5e-4)));
  std::vector<double> roots;
  for (int i = 0; i < n; ++i) {
    const double a = lo + (hi - lo) * i / n, b = lo + (hi - lo) * (i + 1) / n;
    if (std::cos(a) * std::cos(b) <= 0) continue;  // a pole of (48) lies in [a, b]
    const double fa = f(a), fb = f(b);
    if (fa == 0 && i > 0) continue;  // the previous bracket's root at its upper end
    if (fa != 0 && fb != 0 && (fa < 0) == (fb < 0)) continue;
    roots.push_back(cm::bisect(f, a, b));
  }
  return roots;
}

double Model::h(double beta0, double omega30) const {
  const double r = p_.r, j = p_.j, g = p_.g, R = p_.R, rho = rho_;
  const double s = std::sin(beta0), c = std::cos(beta0), D = p_.D(beta0), W = omega30 * omega30;
  return W * r * r * (R * c - (1 + j) * rho) / ((1 + j) * rho * D * D) - 2 * g * s * c / ((1 + j) * D) +
         g * g * c * D / (r * r * rho * (1 + j) * (1 + j) * W);  // eq. (54)
}

Eigen::Matrix4d Model::linearisation(double beta0, double omega30) const {
  const double r = p_.r, j = p_.j, g = p_.g, R = p_.R, rho = rho_;
  const double s = std::sin(beta0), c = std::cos(beta0), D = p_.D(beta0), w = omega30, W = w * w;
  Eigen::Matrix4d A = Eigen::Matrix4d::Zero();  // sparsity (51), entries of spec §2.8
  A(0, 1) = r / rho;
  A(1, 0) = ((1 + j) * r * r * W - g * rho * s * c * c) / ((1 + j) * r * D * c);
  A(1, 2) = -j * r * w * c / ((1 + j) * D);
  A(1, 3) = (g * D * c + (1 + j) * r * r * W * s) / ((1 + j) * r * w * D);
  A(2, 1) = R * r * w / (rho * D);
  A(3, 1) = (g * c * D * D - (1 + j) * R * r * r * W * s) / ((1 + j) * r * rho * w * D * c);
  return A;
}

double Model::steady_F2(double beta0, double omega30) const {
  return rolling_force(Rolling(beta0, 0.0, omega20(beta0, omega30), omega30)).F2;
}

double Model::steady_F3(double beta0, double omega30) const {
  return rolling_force(Rolling(beta0, 0.0, omega20(beta0, omega30), omega30)).F3;
}

double Model::throw_speed(double beta0, double omega30) const {
  const double w2 = omega20(beta0, omega30), r2 = p_.r * p_.r, j = p_.j;
  return std::sqrt(j * r2 * w2 * w2 + (1 + j) * r2 * omega30 * omega30);  // eq. (59)
}

double Model::beta_star() const {
  const double c = (1 + p_.j) * rho_ / p_.R;
  return c < 1 ? std::acos(c) : std::numeric_limits<double>::quiet_NaN();
}

std::array<double, 3> Model::cubic55_roots(int& count) const {
  const double j = p_.j, R = p_.R, rho = rho_;
  const auto P = [&](double c) {  // eq. (55)
    return rho * rho * (1 + j) * c * c * c - R * rho * c * c + R * R * c - R * rho * (1 + j);
  };
  std::array<double, 3> roots{};
  count = 0;
  constexpr int n = 4000;  // brackets of width 5e-4: far below the spacing of distinct roots
  for (int i = 0; i < n && count < 3; ++i) {
    const double lo = -1.0 + 2.0 * i / n, hi = -1.0 + 2.0 * (i + 1) / n;
    const double plo = P(lo), phi = P(hi);
    if (plo == 0.0) continue;  // -1 is outside (-1, 1); any other such root ended a bracket
    if ((plo < 0) == (phi < 0) && phi != 0.0) continue;
    if (phi == 0.0 && i == n - 1) continue;  // 1 is outside (-1, 1)
    roots[std::size_t(count++)] = cm::bisect(P, lo, hi);
  }
  return roots;
}

// --- separation -------------------------------------------------------------------------------

Model::Landing Model::land(const Slipping& y) const {
  const double beta = y(0), r = p_.r, g = p_.g;
  const double z0 = rho_ * std::sin(beta), D0 = p_.D(beta);
  const double vt = y(4) - r * y(3), vs = y(5) + r * y(1);
  const double vrho = vs * std::sin(beta), vz = vs * std::cos(beta);  // n3 = sin(beta) radial + cos(beta) up
  Landing L;
  L.t_cross = z0 > 0 ? (vz + std::sqrt(vz * vz + 2 * g * z0)) / g : 0.0;
  L.d_cross = std::hypot(D0 + vrho * L.t_cross, vt * L.t_cross);
  L.in = L.d_cross < p_.R;
  return L;
}

// --- Floquet and conserved quantities -------------------------------------------------------

Eigen::Matrix2d monodromy(double q, double j, int steps) {
  const auto A = [&](double beta) {  // (62) as dz/dbeta = A(beta) z, z = (omega2, omega3)
    const double den = 1 - q * std::cos(beta);
    Eigen::Matrix2d a;
    a << 0, 1 / den, -j / (1 + j), -q * std::sin(beta) / den;
    return a;
  };
  Eigen::Matrix2d Z = Eigen::Matrix2d::Identity();
  const double hstep = 2 * cm::pi / steps;
  for (int i = 0; i < steps; ++i) {
    const double b = i * hstep;
    const Eigen::Matrix2d k1 = A(b) * Z, k2 = A(b + hstep / 2) * (Z + hstep / 2 * k1);
    const Eigen::Matrix2d k3 = A(b + hstep / 2) * (Z + hstep / 2 * k2), k4 = A(b + hstep) * (Z + hstep * k3);
    Z += hstep / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return Z;
}

Eigen::Matrix2d conserved_coefficient_matrix(const Parameters& p, double beta) {
  const double D = p.D(beta);
  Eigen::Matrix2d K;
  K << 0, p.j / (1 + p.j), -p.R / D, p.rho() * std::sin(beta) / D;  // eq. (66)
  return K;
}

}  // namespace bb

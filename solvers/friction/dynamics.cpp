// Limit directions of the test problems (Sect. 7). See dynamics.hpp.
#include "friction/dynamics.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <functional>
#include <limits>

#include "core/errors.hpp"
#include "core/math.hpp"
#include "numerics/eigenvalues.hpp"

namespace fr {

namespace {
using cm::pi;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double toms748(const std::function<double(double)>& h, double lo, double hi, double hlo, double hhi) {
  boost::uintmax_t iters = 200;
  const auto tol = boost::math::tools::eps_tolerance<double>(52);
  const auto r = boost::math::tools::toms748_solve(h, lo, hi, hlo, hhi, tol, iters);
  return 0.5 * (r.first + r.second);
}

Eigen::Vector3d on_circle(double psi) { return {std::cos(psi), 0.0, std::sin(psi)}; }
}  // namespace

TestProblem disc_problem(double j, double kappa, double rho, double Rbar, double f) {
  // (13) with P = m g: x_o' = (Q_x/m + F/m, Q_y/m, rho T_z/(j m Rbar^2)), T_z = mu m g kappa n3.
  return {1.0, kappa * rho / (j * Rbar * Rbar), f};
}

TestProblem ball_problem(double j, double kappa, double rho, double lambda, double f) {
  // (18): x_o' = ((1+j)/(j m) Q_x + F/m, (1+j)/(j m) Q_y, rho T_z/(j m Rbar^2)), Rbar = lambda R.
  return {(1.0 + j) / j, kappa * rho / (j * lambda * lambda), f};
}

std::string colour_name(Colour c) {
  switch (c) {
    case Colour::purple:
      return "purple";
    case Colour::red:
      return "red";
    case Colour::green:
      return "green";
    case Colour::brown:
      return "brown";
    case Colour::blue:
      return "blue";
    case Colour::other:
      return "other";
  }
  return "?";
}

LimitDirectionAnalysis::LimitDirectionAnalysis(const FrictionModel& model, TestProblem problem)
    : model_(model), prob_(problem) {}

Eigen::Vector3d LimitDirectionAnalysis::Fo(const Eigen::Vector3d& w) const {
  const Eigen::Vector3d n = model_.n(w);
  return {prob_.b * n(0) + prob_.f, prob_.b * n(1), prob_.a * n(2)};  // (126), (139)
}

double LimitDirectionAnalysis::Rstar(const Eigen::Vector3d& w) const { return w.dot(Fo(w)); }  // (121)

Eigen::Vector3d LimitDirectionAnalysis::Vstar(const Eigen::Vector3d& w_in) const {
  const Eigen::Vector3d w = w_in.normalized();
  const Eigen::Vector3d F = Fo(w);
  return F - w.dot(F) * w;  // (122)
}

double LimitDirectionAnalysis::g(double psi) const {
  // (131)/(141): with w = (cos psi, 0, sin psi), g = -b n1 + a n3 cot(psi); for the polynomial
  // models g = (b C(w3) - a S(w3)) cos(psi).
  const Eigen::Vector3d n = model_.n(on_circle(psi));
  return -prob_.b * n(0) + prob_.a * n(2) * std::cos(psi) / std::sin(psi);
}

double LimitDirectionAnalysis::g_at_zero() const {
  const double h = 1e-5;
  return (4.0 * g(h) - g(2.0 * h)) / 3.0;  // g is even in psi: error O(h^4)
}

double LimitDirectionAnalysis::dg(double psi) const {
  const double h = 1e-3;
  return (-g(psi + 2 * h) + 8 * g(psi + h) - 8 * g(psi - h) + g(psi - 2 * h)) / (12 * h);
}

void LimitDirectionAnalysis::eigen_on_circle(double psi, double& lambda_in, double& lambda_out) const {
  const Eigen::Vector3d w = on_circle(psi);
  const Eigen::Vector3d t_in(-std::sin(psi), 0.0, std::cos(psi)), t_out(0.0, 1.0, 0.0);
  const double h = 1e-3;
  // Derivative of V* along the geodesic w(s) = cos(s) w + sin(s) t, projected on t: the diagonal
  // of (119) in the tangent basis (the off-diagonal terms vanish by the w2 -> -w2 symmetry).
  auto along = [&](const Eigen::Vector3d& t) {
    auto v = [&](double s) { return t.dot(Vstar(std::cos(s) * w + std::sin(s) * t)); };
    return (-v(2 * h) + 8 * v(h) - 8 * v(-h) + v(-2 * h)) / (12 * h);
  };
  lambda_in = along(t_in);
  lambda_out = along(t_out);
}

Eigen::Vector3cd LimitDirectionAnalysis::eigen_full(const Eigen::Vector3d& w) const {
  // (119) with the extension V*(w / |w|): central-difference Jacobian, then Eigen's eigenvalues.
  const double h = 1e-6;
  Eigen::Matrix3d J;
  for (int k = 0; k < 3; ++k) {
    Eigen::Vector3d e = Eigen::Vector3d::Zero();
    e(k) = h;
    J.col(k) = (Vstar(w + e) - Vstar(w - e)) / (2 * h);
  }
  const Eigen::Matrix3d Vw = J - J * w * w.transpose();  // (119)
  return cm::eigenvalues(Vw);
}

LimitDirection LimitDirectionAnalysis::classify(double psi, bool trivial) const {
  LimitDirection ld;
  ld.psi = psi;
  ld.w = on_circle(psi);
  ld.trivial = trivial;
  ld.rdot = Rstar(ld.w);
  eigen_on_circle(psi, ld.lambda_in, ld.lambda_out);
  const double zero_tol = prob_.zero_tol;
  ld.circle = (prob_.f == 0.0 && std::abs(ld.lambda_out) < zero_tol);
  const double r = ld.rdot, li = ld.lambda_in, lo = ld.lambda_out;
  if (ld.circle) {
    // A circle of LDs (rotational symmetry at f = 0): neutral across, classified by lambda_in.
    ld.colour = (r < -zero_tol) ? (li < -zero_tol ? Colour::blue : (li > zero_tol ? Colour::red : Colour::other))
                                : Colour::other;
  } else if (r > zero_tol) {
    ld.colour = (li < -zero_tol && lo < -zero_tol) ? Colour::purple : Colour::other;
  } else if (r < -zero_tol) {
    if (li < -zero_tol && lo < -zero_tol)
      ld.colour = Colour::blue;
    else if (li > zero_tol && lo > zero_tol)
      ld.colour = Colour::red;
    else if (li < -zero_tol && lo > zero_tol)
      ld.colour = Colour::green;
    else if (li > zero_tol && lo < -zero_tol)
      ld.colour = Colour::brown;
    else
      ld.colour = Colour::other;
  } else {
    ld.colour = Colour::other;
  }
  return ld;
}

std::vector<LimitDirection> LimitDirectionAnalysis::limit_directions(int scan_points) const {
  std::vector<LimitDirection> out;
  out.push_back(classify(0.0, true));  // (128)
  out.push_back(classify(pi, true));
  const double f = prob_.f;
  std::vector<double> roots;
  // scan (0, pi) on a grid that avoids psi = pi/2 (a root of g when f = 0, added below)
  const int n = scan_points | 1;
  auto h = [&](double psi) { return g(psi) - f; };
  double prev_psi = pi / (2.0 * n), prev = h(prev_psi);
  for (int k = 1; k < n; ++k) {
    const double psi = pi * (k + 0.5) / n;
    const double cur = h(psi);
    if (cur == 0.0) roots.push_back(psi);
    if (prev * cur < 0.0) roots.push_back(toms748(h, prev_psi, psi, prev, cur));
    prev_psi = psi;
    prev = cur;
  }
  if (f == 0.0) {  // the poles are limit directions when f = 0 (F_o is vertical there)
    roots.erase(std::remove_if(roots.begin(), roots.end(), [](double r) { return std::abs(r - 0.5 * pi) < 1e-7; }),
                roots.end());
    roots.push_back(0.5 * pi);
  }
  std::sort(roots.begin(), roots.end());
  for (double r : roots) {
    out.push_back(classify(r, false));
    out.push_back(classify(-r, false));
  }
  return out;
}

double LimitDirectionAnalysis::tangency_force(double lo, double hi) const {
  LimitDirectionAnalysis copy(model_, prob_);
  auto h = [&](double f) {
    copy.set_f(f);
    return copy.Rstar(Eigen::Vector3d(1.0, 0.0, 0.0));
  };
  const double hl = h(lo), hh = h(hi);
  if (!(hl * hh < 0.0)) return nan;
  return toms748(h, lo, hi, hl, hh);
}

double LimitDirectionAnalysis::pitchfork_force(double lo, double hi) const {
  LimitDirectionAnalysis copy(model_, prob_);
  auto h = [&](double f) {
    copy.set_f(f);
    double li = 0.0, lout = 0.0;
    copy.eigen_on_circle(0.0, li, lout);
    return li;
  };
  const double hl = h(lo), hh = h(hi);
  if (!(hl * hh < 0.0)) return nan;
  return toms748(h, lo, hi, hl, hh);
}

std::vector<LimitDirectionAnalysis::Fold> LimitDirectionAnalysis::folds(int scan_points) const {
  std::vector<Fold> out;
  const int n = scan_points;
  const double margin = 1e-3;  // dg uses a stencil of width 4e-3 about psi
  auto dgf = [&](double psi) { return dg(psi); };
  double prev_psi = margin + 0.002, prev = dgf(prev_psi);
  for (int k = 1; k <= n; ++k) {
    const double psi = margin + 0.002 + (pi - 2 * margin - 0.004) * k / n;
    const double cur = dgf(psi);
    if (prev * cur < 0.0) {
      const double r = toms748(dgf, prev_psi, psi, prev, cur);
      const double v = g(r);
      if (v > 0.0) out.push_back({r, v});
    }
    prev_psi = psi;
    prev = cur;
  }
  return out;
}

std::vector<double> LimitDirectionAnalysis::force_free_roots(int scan_points) const {
  std::vector<double> out;
  const int n = scan_points;
  auto gf = [&](double psi) { return g(psi); };
  const double lo = 1e-6, hi = 0.5 * pi - 1e-6;
  double prev_psi = lo, prev = gf(lo);
  for (int k = 1; k <= n; ++k) {
    const double psi = lo + (hi - lo) * k / n;
    const double cur = gf(psi);
    if (prev * cur < 0.0) out.push_back(toms748(gf, prev_psi, psi, prev, cur));
    prev_psi = psi;
    prev = cur;
  }
  return out;
}

std::vector<Eigen::Vector3d> fibonacci_sphere(int n) {
  std::vector<Eigen::Vector3d> out;
  const double golden = pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    out.emplace_back(r * std::cos(golden * i), r * std::sin(golden * i), z);
  }
  return out;
}

}  // namespace fr

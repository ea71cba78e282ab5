#include "rollingball/initial_configuration.hpp"

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <optional>

#include "core/errors.hpp"
#include "core/options.hpp"

namespace rb {
namespace {

/// Newton from `theta`; the converged root or nothing.
std::optional<std::pair<Eigen::VectorXd, int>> newton(const Ball& ball, Eigen::VectorXd theta, std::array<int, 2> free,
                                                      double tol, int max_iterations) {
  const auto& p = ball.parameters();
  for (int it = 0; it < max_iterations; ++it) {
    const Vec3 c = ball.centre_of_mass(theta) * ball.total_mass();  // sum m_i zeta_i
    const Eigen::Vector2d F = c.head<2>();
    if (F.norm() <= tol) return std::make_pair(theta, it);
    Eigen::Matrix2d J;
    for (int k = 0; k < 2; ++k) J.col(k) = p.m[free[k]] * p.rails[free[k]].dzeta(theta(free[k])).head<2>();
    const Eigen::FullPivLU<Eigen::Matrix2d> lu(J);
    if (!lu.isInvertible()) return std::nullopt;
    const Eigen::Vector2d step = lu.solve(F);
    for (int k = 0; k < 2; ++k) theta(free[k]) -= step(k);
    if (!theta.allFinite()) return std::nullopt;
  }
  const Vec3 c = ball.centre_of_mass(theta) * ball.total_mass();
  if (c.head<2>().norm() <= 10.0 * tol) return std::make_pair(theta, max_iterations);
  return std::nullopt;
}

}  // namespace

InitialConfigurationResult solve_initial_configuration(const Ball& ball, const Eigen::VectorXd& theta,
                                                       std::array<int, 2> free, bool above, double tol,
                                                       int max_iterations) {
  for (int k : free)
    if (k < 0 || k >= ball.n()) throw cm::InputError("ic.free: index out of range");
  if (free[0] == free[1]) throw cm::InputError("ic.free: the two free angles must differ");
  auto wanted = [&](const Eigen::VectorXd& th) { return (ball.centre_of_mass(th)(2) > 0.0) == above; };

  InitialConfigurationResult best;
  best.starts = 1;
  std::optional<std::pair<Eigen::VectorXd, int>> root = newton(ball, theta, free, tol, max_iterations);
  if (!root || !wanted(root->first)) {
    // A 24 x 24 grid of starts; keep the wanted root nearest the guess (angles modulo 2 pi).
    root.reset();
    double nearest = std::numeric_limits<double>::infinity();
    for (int a = 0; a < 24; ++a)
      for (int b = 0; b < 24; ++b) {
        Eigen::VectorXd start = theta;
        start(free[0]) = 2.0 * cm::pi * a / 24.0;
        start(free[1]) = 2.0 * cm::pi * b / 24.0;
        ++best.starts;
        auto r = newton(ball, start, free, tol, max_iterations);
        if (!r || !wanted(r->first)) continue;
        for (int k : free) r->first(k) = std::remainder(r->first(k) - theta(k), 2.0 * cm::pi) + theta(k);
        const double d = (r->first - theta).norm();
        if (d < nearest) {
          nearest = d;
          root = r;
        }
      }
  }
  if (!root) throw cm::NumericalError("initial configuration: no root with the wanted sign of c_B,3 was found");
  best.theta = root->first;
  for (int k : free) best.theta(k) = std::remainder(best.theta(k) - theta(k), 2.0 * cm::pi) + theta(k);
  best.iterations = root->second;
  best.cB = ball.centre_of_mass(best.theta);
  best.residual = (best.cB * ball.total_mass()).head<2>().norm();
  return best;
}

}  // namespace rb

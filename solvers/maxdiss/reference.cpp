#include "maxdiss/reference.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace md {

namespace {

/// The best point on the ray of angle alpha (exact minimisation in r).
Reference best_on_ray(const Matrix3d& A, const Vector3d& b, const Reduced& red, double alpha) {
  const double c = std::cos(alpha), s = std::sin(alpha);
  const double fr = red.fr(c, s);
  double rmax = std::numeric_limits<double>::infinity();
  if (fr > 0.0) rmax = red.mu * red.bn / fr;
  // On the plane, x(r) = x(0) + r d with d = (-(k.u)/A_nn, c, s): objective quadratic in r.
  const Vector3d x0 = red.lift(0.0, 0.0);
  const Vector3d d(-(red.k(0) * c + red.k(1) * s) / red.Ann, c, s);
  const double curv = d.dot(A * d), slope = d.dot(A * x0 - b);
  const double r = std::clamp(-slope / curv, 0.0, rmax);
  Reference ref;
  ref.x = x0 + r * d;
  ref.objective = objective(A, b, ref.x);
  return ref;
}

}  // namespace

Reference brute_force(const Matrix3d& A, const Vector3d& bin, double mu, int angles, int golden) {
  Vector3d b = bin;
  Reference ref;
  if (b(0) < 0.0) return ref;  // only x = 0 satisfies the pressure constraint
  if (mu == 0.0) {
    ref.x = Vector3d(b(0) / A(0, 0), 0, 0);
    ref.objective = objective(A, b, ref.x);
    return ref;
  }
  const Reduced red(A, b, mu, b(0));
  const double h = two_pi / angles;
  std::vector<double> f(angles);
  for (int i = 0; i < angles; ++i) f[i] = best_on_ray(A, b, red, i * h).objective;
  ref = best_on_ray(A, b, red, 0.0);
  // Refine the best local minima of the samples (the function of alpha may be multimodal;
  // plateaus, where only r = 0 is feasible, are skipped).
  std::vector<int> minima;
  for (int i = 0; i < angles; ++i) {
    const double fl = f[(i + angles - 1) % angles], fr = f[(i + 1) % angles];
    if (f[i] <= fl && f[i] <= fr && f[i] < std::max(fl, fr)) minima.push_back(i);
  }
  std::sort(minima.begin(), minima.end(), [&](int a, int c) { return f[a] < f[c]; });
  if (minima.size() > 8) minima.resize(8);
  for (int i : minima) {
    auto phi = [&](double a) { return best_on_ray(A, b, red, a).objective; };
    const double a = cm::golden_section_minimum(phi, (i - 1) * h, (i + 1) * h, 0.0, golden).x;
    const Reference cand = best_on_ray(A, b, red, a);
    if (cand.objective < ref.objective) ref = cand;
  }
  return ref;
}

double feasibility_violation(const Matrix3d& A, const Vector3d& b, double mu, const Vector3d& x) {
  const double xs = x.norm() + 1e-300, bs = b.norm() + (A * x).norm() + 1e-300;
  const double an_x = A.row(0).dot(x);
  double v = 0.0;
  v = std::max(v, -x(0) / xs);                                   // x_n >= 0
  v = std::max(v, (x.tail<2>().norm() - mu * x(0)) / xs);        // cone (3a)
  v = std::max(v, (b(0) - an_x) / bs);                           // restitution: a_n^T x - b_n >= 0
  v = std::max(v, std::fabs(x(0) * (an_x - b(0))) / (xs * bs));  // complementarity
  v = std::max(v, -an_x / bs);                                   // pressure (3d)
  return v;
}

bool is_spd(const Matrix3d& A, double rel_eps) {
  if (!A.allFinite() || !A.isApprox(A.transpose(), 0.0)) return false;
  Eigen::SelfAdjointEigenSolver<Matrix3d> es(A, Eigen::EigenvaluesOnly);
  const auto& ev = es.eigenvalues();
  return ev(0) > rel_eps * std::fabs(ev(2)) && ev(0) > 0.0;
}

double condition_number(const Matrix3d& A) {
  if (!A.allFinite() || !A.isApprox(A.transpose(), 0.0)) return 0.0;
  if (A.llt().info() != Eigen::Success) return 0.0;
  Eigen::SelfAdjointEigenSolver<Matrix3d> es(A, Eigen::EigenvaluesOnly);
  const auto& ev = es.eigenvalues();
  // Cholesky succeeded: positive definite to rounding; an eigenvalue ratio that is not a finite
  // positive number means a conditioning beyond what doubles resolve.
  const double cond = ev(2) / ev(0);
  return (ev(0) > 0.0 && std::isfinite(cond)) ? cond : std::numeric_limits<double>::infinity();
}

}  // namespace md

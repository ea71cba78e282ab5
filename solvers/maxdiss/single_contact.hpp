// The single-contact impact problem of Sect. 3.2 and its maximally dissipative solution
// (Fig. 5, Appendix A):
//
//   x_* in argmin 1/2 x^T A x - x^T b
//          s.t. ||x_to||_2 <= mu x_n                  (friction cone, (3a))
//               a_n^T x - b_n >= 0  _|_  x_n >= 0     (Signorini + purely inelastic restitution)
//               a_n^T x >= 0                          (pressure constraint, (3d))
//
// with A the symmetric positive definite 3x3 Delassus block in contact-frame components (normal
// first), b minus the impulse-free relative contact velocity, a_n = A e_n, mu >= 0. The
// post-impact relative velocity is dv = A x - b and the objective is the change of kinetic energy.
//
// The structogram (Fig. 5), evaluated in this order:
//   1. b_n < 0 (separating)                    x_* = 0
//   2. mu = 0 (frictionless)                   x_* = (b_n / A_nn, 0, 0)
//   3. P1: x_0 = A^{-1} b in the cone          x_* = x_0 (sticking)
//   4. b_n = 0:  P2 (degenerate ellipse)       x_* = 0
//                else                          one of the rays of Eq. (9)
//   5. else (sliding)                          the minimum of f_obj over the roots of Eq. (8) in I
//
// The sliding case minimises f_obj(alpha) over the candidate angles from the quartic of Eq. (8)
// with the Appendix-A constants. The analytic path checks itself (a candidate inside I, no probe
// angle of I with a lower f_obj); if a check fails a robust 1-D minimisation over the cone-boundary
// angle (dense sampling plus golden section) is used instead and the solution says so.
//
// Header-only (but for the rare Newton polish, single_contact.cpp), no heap allocation, Eigen
// fixed-size types: this is the per-contact kernel.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/math.hpp"
#include "maxdiss/trig_roots.hpp"
#include "numerics/optimize.hpp"

namespace md {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

inline constexpr double two_pi = 2 * cm::pi;

/// The branch of the structogram (Fig. 5) that produced a solution.
enum class Branch : std::uint8_t {
  separating = 0,        ///< b_n < 0: x_* = 0
  frictionless = 1,      ///< mu = 0: x_* = (b_n / A_nn, 0, 0)
  sticking = 2,          ///< P1: x_* = x_0 = A^{-1} b
  degenerate_point = 3,  ///< b_n = 0 and P2 (degenerate ellipse): x_* = 0
  degenerate_ray = 4,    ///< b_n = 0, degenerate parabola or hyperbola: Eq. (9)
  sliding = 5,           ///< b_n > 0, mu > 0, x_0 outside the cone: Eq. (8)
};
inline constexpr int branch_count = 6;

inline const char* branch_name(Branch b) {
  switch (b) {
    case Branch::separating:
      return "separating";
    case Branch::frictionless:
      return "frictionless";
    case Branch::sticking:
      return "sticking";
    case Branch::degenerate_point:
      return "degenerate_point";
    case Branch::degenerate_ray:
      return "degenerate_ray";
    case Branch::sliding:
      return "sliding";
  }
  return "unknown";
}

/// Rule choosing the ray in the degenerate hyperbola case (Eq. (9)).
enum class RayRule : std::uint8_t {
  best_of_two = 0,  ///< minimise along both rays and keep the lower objective
  paper = 1,        ///< the side test of Eq. (9) as printed
};

/// Numerical choices of the solver (each a config key of the executables).
struct SolverOptions {
  double bn_zero_eps = 1e-14;  ///< |b_n| <= eps ||b||: b_n is treated as 0 (branch 4)
  double sphere_eps = 1e-14;   ///< relative size of A_nt, A_no, A_to, A_tt - A_oo below which
                               ///< the sphere closed form is used (set < 0 to disable)
  double reduce_eps = 1e-13;   ///< relative size of the quartic's outer coefficients treated as 0
  int newton_steps = 2;        ///< Newton polishing steps on Eq. (8) per candidate
  int check_angles = 8;        ///< probe angles of the analytic path's self-check
  double check_rtol = 1e-11;   ///< relative objective tolerance of that check
  int fallback_samples = 720;  ///< samples of the fallback's dense scan over I
  int fallback_golden = 80;    ///< golden-section iterations of the fallback
  RayRule ray_rule = RayRule::best_of_two;
  bool force_fallback = false;  ///< always use the fallback for the sliding case (tests)
  bool use_sphere_path = true;  ///< take the sphere closed form when it applies
  int polish_steps = 6;         ///< Newton steps of the final Cartesian polish (0: none)
  bool want_alpha = true;       ///< report alpha_* of the sphere path (an atan2 a multi-contact sweep can spare)
};

/// The maximally dissipative impulse and how it was found.
struct Solution {
  Vector3d x = Vector3d::Zero();  ///< impulse x_* (contact frame)
  Branch branch = Branch::separating;
  double alpha = std::numeric_limits<double>::quiet_NaN();  ///< alpha_* (sliding / ray branches)
  int candidates = 0;                                       ///< quartic candidates inside I (sliding branch)
  bool sphere = false;                                      ///< the sphere closed form was used
  bool fallback = false;  ///< the analytic path failed its checks; the 1-D minimisation was used
};

/// The objective 1/2 x^T A x - x^T b.
inline double objective(const Matrix3d& A, const Vector3d& b, const Vector3d& x) {
  return 0.5 * x.dot(A * x) - x.dot(b);
}

/// The quantities of the reduced problem on the plane of maximum compression (Sect. 3.2).
struct Reduced {
  double Ann, mu, bn;
  Vector2d k;     ///< (A_nt, A_no)
  Matrix2d Ahat;  ///< Schur complement
  Vector2d bhat;

  Reduced(const Matrix3d& A, const Vector3d& b, double mu_, double bn_)
      : Ann(A(0, 0)), mu(mu_), bn(bn_), k(A(0, 1), A(0, 2)) {
    const double inv = 1.0 / Ann;
    Ahat(0, 0) = A(1, 1) - inv * k(0) * k(0);
    Ahat(0, 1) = Ahat(1, 0) = A(1, 2) - inv * k(0) * k(1);
    Ahat(1, 1) = A(2, 2) - inv * k(1) * k(1);
    bhat = Vector2d(b(1) - inv * k(0) * bn, b(2) - inv * k(1) * bn);
  }
  /// f_r(alpha) = A_nn + mu A_nt cos(alpha) + mu A_no sin(alpha)
  double fr(double c, double s) const { return Ann + mu * (k(0) * c + k(1) * s); }
  /// f_obj(alpha) = 1/2 gamma^T Ahat gamma - gamma^T bhat with gamma = rbar (cos, sin), rbar = mu b_n / f_r
  double fobj(double alpha) const {
    const double c = std::cos(alpha), s = std::sin(alpha);
    const double r = mu * bn / fr(c, s);
    const double q = Ahat(0, 0) * c * c + 2 * Ahat(0, 1) * c * s + Ahat(1, 1) * s * s;
    return r * (0.5 * r * q - (bhat(0) * c + bhat(1) * s));
  }
  /// The full impulse on the plane for a tangential part x_to.
  Vector3d lift(double xt, double xo) const { return Vector3d((bn - k(0) * xt - k(1) * xo) / Ann, xt, xo); }
  /// x_* from (alpha, r) (Fig. 5, last box).
  Vector3d lift_polar(double alpha, double r) const { return lift(r * std::cos(alpha), r * std::sin(alpha)); }
  double rbar(double alpha) const { return mu * bn / fr(std::cos(alpha), std::sin(alpha)); }
  /// The interval I of Eq. (6): ellipse (whole circle) or ]alpha0 - dalpha, alpha0 + dalpha[.
  bool ellipse() const { return Ann > mu * k.norm(); }
  double alpha0() const { return std::atan2(k(1), k(0)); }
  double dalpha() const { return std::acos(std::clamp(-Ann / (mu * k.norm()), -1.0, 1.0)); }
};

/// The Appendix-A constants of Eq. (8): c0 + c1 cos(alpha + phi1) + c2 cos(2 alpha + phi2) = 0.
struct Eq8Constants {
  double c0, c1, c2, phi1, phi2;
  /// The arguments (y, x) of the two atan2 of Appendix A: cos(phi) = x / hypot(x, y),
  /// sin(phi) = y / hypot(x, y) without evaluating atan2, cos and sin in the kernel.
  double phi1_y, phi1_x, phi2_y, phi2_x;
  /// The same trigonometric polynomial in the form of trig_roots.hpp:
  /// c cos(k alpha + phi) = c cos(phi) cos(k alpha) - c sin(phi) sin(k alpha).
  Trig2 trig() const {
    const double h1 = std::hypot(phi1_x, phi1_y), h2 = std::hypot(phi2_x, phi2_y);
    const double k1 = h1 > 0 ? c1 / h1 : 0.0, k2 = h2 > 0 ? c2 / h2 : 0.0;
    return {c0, k1 * phi1_x, -k1 * phi1_y, k2 * phi2_x, -k2 * phi2_y};
  }
};

/// Appendix A, transcribed term by term (contact-frame components of A and b).
inline Eq8Constants appendix_a(const Matrix3d& A, const Vector3d& b, double mu) {
  const double Ann = A(0, 0), Ant = A(0, 1), Ano = A(0, 2), Att = A(1, 1), Ato = A(1, 2), Aoo = A(2, 2);
  const double bn = b(0), bt = b(1), bo = b(2);
  const double mu2 = mu * mu, mu4 = mu2 * mu2, Ann2 = Ann * Ann;
  const double Ant2 = Ant * Ant, Ano2 = Ano * Ano, bn2 = bn * bn;
  const double cross = Ant * bo - Ano * bt;
  Eq8Constants e;
  e.c0 = 1.5 * mu * Ann * (Ano * bt - Ant * bo);
  const double c1sq =
      mu4 *
          ((Ano2 * (Att * Att + Ato * Ato) - 2 * Ant * Ano * Ato * (Att + Aoo) + Ant2 * (Ato * Ato + Aoo * Aoo)) * bn2 +
           2 * cross * (Ano2 * Ato + Ant * Ano * (Att - Aoo) - Ant2 * Ato) * bn + (Ant2 + Ano2) * cross * cross) +
      2 * mu2 * Ann *
          ((2 * Ant * Ano * Ato - Ano2 * Att - Ant2 * Aoo) * bn2 +
           Ann * (Ano * (Att * bo - Ato * bt) - Ant * (Ato * bo - Aoo * bt)) * bn + Ann * cross * cross) +
      Ann2 * ((Ant2 + Ano2) * bn2 - 2 * Ann * (Ant * bt + Ano * bo) * bn + Ann2 * (bt * bt + bo * bo));
  e.c1 = std::sqrt(std::max(0.0, c1sq));
  const double c2sq = (0.25 * (Att * Att + Aoo * Aoo) + Ato * Ato - 0.5 * Att * Aoo) * bn2 +
                      (Ano * (0.5 * (Att - Aoo) * bo - Ato * bt) - Ant * (Ato * bo + 0.5 * (Att - Aoo) * bt)) * bn +
                      0.25 * ((Ant2 + Ano2) * bo * bo + (Ant2 + Ano2) * bt * bt);
  e.c2 = mu * Ann * std::sqrt(std::max(0.0, c2sq));
  e.phi1_y = mu2 * ((Ano * Ato - Ant * Aoo) * bn - Ano2 * bt + Ant * Ano * bo) - Ann2 * bt + Ann * Ant * bn;
  e.phi1_x = mu2 * ((Ant * Ato - Ano * Att) * bn + Ant * Ano * bt - Ant2 * bo) - Ann2 * bo + Ann * Ano * bn;
  e.phi2_y = (Att - Aoo) * bn - Ant * bt + Ano * bo;
  e.phi2_x = 2 * Ato * bn - Ano * bt - Ant * bo;
  e.phi1 = std::atan2(e.phi1_y, e.phi1_x);  // phi_1 = atan2(y, x), Appendix A
  e.phi2 = std::atan2(e.phi2_y, e.phi2_x);  // phi_2
  return e;
}

namespace detail {

/// Is alpha inside I (f_r > 0)?
inline bool in_interval(const Reduced& red, double alpha) { return red.fr(std::cos(alpha), std::sin(alpha)) > 0.0; }

/// The range of angles sampled by the self-check and the fallback: I, or a full turn.
inline void angle_range(const Reduced& red, double& lo, double& hi) {
  if (red.ellipse()) {
    lo = 0.0;
    hi = two_pi;
  } else {
    const double a0 = red.alpha0(), da = red.dalpha();
    lo = a0 - da;
    hi = a0 + da;
  }
}

}  // namespace detail

/// The robust 1-D minimisation of f_obj over the cone-boundary angle: a dense scan of I and a
/// golden-section refinement of the best bracket, polished by Newton on Eq. (8).
inline double minimise_fobj_scan(const Reduced& red, const Trig2& g, int samples, int golden) {
  double lo, hi;
  detail::angle_range(red, lo, hi);
  const double h = (hi - lo) / samples;
  double best_alpha = lo + 0.5 * h, best = red.fobj(best_alpha);
  for (int i = 1; i < samples; ++i) {
    const double a = lo + (i + 0.5) * h;
    const double f = red.fobj(a);
    if (f < best) {
      best = f;
      best_alpha = a;
    }
  }
  auto f = [&](double a) { return red.fobj(a); };
  double a = cm::golden_section_minimum(f, std::max(lo, best_alpha - h), std::min(hi, best_alpha + h), 0.0, golden).x;
  const double polished = polish_angle(g, a, 3);
  if (detail::in_interval(red, polished) && red.fobj(polished) <= red.fobj(a)) a = polished;
  return a;
}

/// Newton's method on the Lagrange conditions of the sliding case in Cartesian coordinates:
///   min 1/2 y^T Ahat y - y^T bhat   s.t.   h(y) = mu (b_n - k^T y) / A_nn - ||y|| = 0,
/// y = x_to. Near the poles of f_obj (b_n -> 0+ on a hyperbola) the angle alpha is an
/// ill-conditioned coordinate of the boundary (rbar = mu b_n / f_r amplifies the rounding of f_r),
/// while h is evaluated to absolute rounding accuracy; the angle solution is therefore polished
/// here. Returns false (y unchanged) if Newton does not converge to a feasible point that is no
/// worse than the start.
/// Out of line (single_contact.cpp): the sliding polish is rare, and its 3x3 LU would be compiled
/// again in every unit that includes this header.
bool polish_cartesian(const Reduced& red, Vector2d& y, int iterations);

namespace detail {

/// Steps 1 and 2 of the structogram (Fig. 5), after b_n is snapped to 0 within its tolerance
/// (Sect. 6.2 of the spec): true if they decide the solution.
inline bool trivial_branches(Vector3d& b, double Ann, double mu, const SolverOptions& opt, Solution& sol) {
  if (std::fabs(b(0)) <= opt.bn_zero_eps * b.norm()) b(0) = 0.0;
  const double bn = b(0);
  // 1. separating contact: the pressure constraint (3d) admits only x = 0.
  if (bn < 0.0) {
    sol.branch = Branch::separating;
    return true;
  }
  // 2. frictionless: the conic section is the single point on the normal.
  if (mu == 0.0) {
    sol.branch = Branch::frictionless;
    sol.x = Vector3d(bn / Ann, 0.0, 0.0);
    return true;
  }
  return false;
}

/// Sphere contacts, A = diag(A_nn, A_tt, A_tt): Eq. (8) degenerates (c0 = c2 = 0) and the solution
/// is the radial clip of b_to / A_tt to the disc of radius mu b_n / A_nn.
inline void sphere_branches(double Ann, double Att, const Vector3d& b, double mu, const SolverOptions& opt,
                            Solution& sol) {
  sol.sphere = true;
  const double bn = b(0);
  const double xn = bn / Ann;
  const Vector2d xto(b(1) / Att, b(2) / Att);
  const double norm = xto.norm(), radius = mu * xn;
  if (norm <= radius) {
    sol.branch = Branch::sticking;
    sol.x = Vector3d(xn, xto(0), xto(1));
  } else if (bn == 0.0) {
    sol.branch = Branch::degenerate_point;  // P2 holds: A_nn > 0 = mu sqrt(A_nt^2 + A_no^2)
  } else {
    sol.branch = Branch::sliding;
    if (opt.want_alpha) sol.alpha = std::atan2(xto(1), xto(0));
    sol.x = Vector3d(xn, radius * xto(0) / norm, radius * xto(1) / norm);
  }
}

}  // namespace detail

/// Whether solve() takes the sphere closed form for every block diag(A_nn, A_tt, A_tt).
inline bool sphere_path(const SolverOptions& opt) { return opt.use_sphere_path && opt.sphere_eps >= 0.0; }

/// The maximally dissipative impulse for a sphere block A = diag(A_nn, A_tt, A_tt), A_nn, A_tt > 0,
/// when sphere_path(opt) holds: what solve() returns for that block, bit for bit, without forming
/// A or testing its shape (the per-contact kernel of a multi-contact sweep).
inline Solution solve_sphere(double Ann, double Att, const Vector3d& bin, double mu, const SolverOptions& opt = {}) {
  Solution sol;
  Vector3d b = bin;
  if (!detail::trivial_branches(b, Ann, mu, opt, sol)) detail::sphere_branches(Ann, Att, b, mu, opt, sol);
  return sol;
}

/// The maximally dissipative impulse of the single-contact problem (Fig. 5).
inline Solution solve(const Matrix3d& A, const Vector3d& bin, double mu, const SolverOptions& opt = {}) {
  Solution sol;
  Vector3d b = bin;
  const double Ann = A(0, 0);
  if (detail::trivial_branches(b, Ann, mu, opt, sol)) return sol;
  const double bn = b(0);

  // Sphere contacts: A_nt = A_no = A_to = 0 and A_tt = A_oo.
  const double tan_scale = std::fabs(A(1, 1)) + std::fabs(A(2, 2));
  if (opt.use_sphere_path && std::fabs(A(0, 1)) + std::fabs(A(0, 2)) <= opt.sphere_eps * Ann &&
      std::fabs(A(1, 2)) + std::fabs(A(1, 1) - A(2, 2)) <= opt.sphere_eps * tan_scale) {
    detail::sphere_branches(Ann, 0.5 * (A(1, 1) + A(2, 2)), b, mu, opt, sol);
    return sol;
  }

  // 3. P1: the unconstrained minimum x_0 = A^{-1} b, computed on the plane of maximum
  //    compression (A x_0 = b implies a_n^T x_0 = b_n).
  const Reduced red(A, b, mu, bn);
  const double det = red.Ahat(0, 0) * red.Ahat(1, 1) - red.Ahat(0, 1) * red.Ahat(0, 1);
  const Vector2d x0to((red.Ahat(1, 1) * red.bhat(0) - red.Ahat(0, 1) * red.bhat(1)) / det,
                      (red.Ahat(0, 0) * red.bhat(1) - red.Ahat(0, 1) * red.bhat(0)) / det);
  const Vector3d x0 = red.lift(x0to(0), x0to(1));
  if (x0(0) >= 0.0 && x0to.norm() <= mu * x0(0)) {
    sol.branch = Branch::sticking;
    sol.x = x0;
    return sol;
  }

  const double kn = red.k.norm();
  // 4. b_n = 0: the conic section degenerates to a point, a ray or two rays.
  if (bn == 0.0) {
    if (Ann > mu * kn) {  // P2
      sol.branch = Branch::degenerate_point;
      return sol;
    }
    sol.branch = Branch::degenerate_ray;
    const double a0 = red.alpha0(), da = red.dalpha();
    // Minimum along the ray of angle a: r = max(0, u^T bhat / u^T Ahat u), Eq. (9).
    auto ray = [&](double a, double& r) {
      const double c = std::cos(a), s = std::sin(a);
      const double q = red.Ahat(0, 0) * c * c + 2 * red.Ahat(0, 1) * c * s + red.Ahat(1, 1) * s * s;
      r = std::max(0.0, (c * red.bhat(0) + s * red.bhat(1)) / q);
      return r * (0.5 * r * q - (c * red.bhat(0) + s * red.bhat(1)));
    };
    double r1, r2;
    double alpha;
    if (opt.ray_rule == RayRule::paper) {
      // Eq. (9): alpha_0 - dalpha if (A_no, -A_nt)^T x_0,to >= 0, else alpha_0 + dalpha.
      alpha = (red.k(1) * x0to(0) - red.k(0) * x0to(1) >= 0.0) ? a0 - da : a0 + da;
      ray(alpha, r1);
    } else {
      const double f1 = ray(a0 - da, r1), f2 = ray(a0 + da, r2);
      alpha = (f1 <= f2) ? a0 - da : a0 + da;
      if (f2 < f1) r1 = r2;
    }
    sol.alpha = alpha;
    sol.x = red.lift_polar(alpha, r1);
    return sol;
  }

  // 5. sliding: minimise f_obj over the roots of Eq. (8) inside I.
  sol.branch = Branch::sliding;
  const Trig2 g = appendix_a(A, b, mu).trig();
  double best_alpha = 0.0, best = std::numeric_limits<double>::infinity();
  if (!opt.force_fallback) {
    const AngleCandidates cand = trig2_candidates(g, opt.reduce_eps, opt.newton_steps);
    for (int i = 0; i < cand.count; ++i) {
      const double a = cand.alpha[i];
      if (!detail::in_interval(red, a)) continue;  // alpha_i not in I + 2 pi Z
      ++sol.candidates;
      const double f = red.fobj(a);
      if (f < best) {
        best = f;
        best_alpha = a;
      }
    }
  }
  // Self-check: a candidate was found and no probe angle of I does better.
  bool ok = sol.candidates > 0 && std::isfinite(best) && best < 0.0;
  if (ok && opt.check_angles > 0) {
    double lo, hi;
    detail::angle_range(red, lo, hi);
    const double h = (hi - lo) / opt.check_angles;
    const double tol = opt.check_rtol * std::fabs(best);
    // equally spaced probes by rotation (one sine/cosine pair for all of them)
    const double ch = std::cos(h), sh = std::sin(h);
    double c = std::cos(lo + 0.5 * h), s = std::sin(lo + 0.5 * h);
    for (int i = 0; i < opt.check_angles && ok; ++i) {
      const double fr = red.fr(c, s);
      if (fr > 0.0) {
        const double r = red.mu * red.bn / fr;
        const double q = red.Ahat(0, 0) * c * c + 2 * red.Ahat(0, 1) * c * s + red.Ahat(1, 1) * s * s;
        if (r * (0.5 * r * q - (red.bhat(0) * c + red.bhat(1) * s)) < best - tol) ok = false;
      }
      const double cn = c * ch - s * sh;
      s = s * ch + c * sh;
      c = cn;
    }
  }
  if (!ok) {
    sol.fallback = true;
    const double a = minimise_fobj_scan(red, g, opt.fallback_samples, opt.fallback_golden);
    const double f = red.fobj(a);
    if (!(f >= best)) {  // also taken when best is NaN
      best = f;
      best_alpha = a;
    }
  }
  // Final polish in Cartesian coordinates; on a hyperbola also from the optima along its two
  // asymptotes (the b_n = 0 rays), which the angle coordinate resolves poorly when b_n is small.
  Vector2d y = red.rbar(best_alpha) * Vector2d(std::cos(best_alpha), std::sin(best_alpha));
  polish_cartesian(red, y, opt.polish_steps);
  double qbest = 0.5 * y.dot(red.Ahat * y) - y.dot(red.bhat);
  if (!red.ellipse() && opt.polish_steps > 0) {
    const double a0 = red.alpha0(), da = red.dalpha();
    for (double a : {a0 - da, a0 + da}) {
      const Vector2d u(std::cos(a), std::sin(a));
      const double r = u.dot(red.bhat) / u.dot(red.Ahat * u);
      if (!(r > 0.0)) continue;
      // The optimum along the asymptote is a feasible (interior) point; only if it beats the
      // angle solution is the latter known to be poor, and Newton is restarted from it.
      Vector2d z = r * u;
      if (0.5 * z.dot(red.Ahat * z) - z.dot(red.bhat) >= qbest) continue;
      if (!polish_cartesian(red, z, opt.polish_steps)) continue;
      const double qz = 0.5 * z.dot(red.Ahat * z) - z.dot(red.bhat);
      if (qz < qbest) {
        qbest = qz;
        y = z;
      }
    }
  }
  sol.alpha = std::atan2(y(1), y(0));
  sol.x = red.lift(y(0), y(1));
  return sol;
}

}  // namespace md

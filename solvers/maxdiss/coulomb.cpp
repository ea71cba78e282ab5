#include "maxdiss/coulomb.hpp"

#include <cmath>

#include "core/math.hpp"
#include "numerics/optimize.hpp"

namespace md {

const char* coulomb_kind_name(CoulombKind k) {
  switch (k) {
    case CoulombKind::zero:
      return "zero";
    case CoulombKind::frictionless:
      return "frictionless";
    case CoulombKind::sticking:
      return "sticking";
    case CoulombKind::sliding:
      return "sliding";
  }
  return "unknown";
}

Trig2 coulomb_trig(const Reduced& red) {
  // G_C = mu b_n (u x Ahat u) - f_r (u x bhat), expanded in harmonics (2-D cross a x c = a1 c2 - a2 c1):
  //   u x Ahat u = Ahat_to cos 2a + (Ahat_oo - Ahat_tt)/2 sin 2a
  //   f_r (u x bhat) = A_nn (bhat_o cos a - bhat_t sin a)
  //                  + mu/2 [(k_t bhat_o - k_o bhat_t) + (k_t bhat_o + k_o bhat_t) cos 2a + (k_o bhat_o - k_t bhat_t)
  //                  sin 2a]
  const double kt = red.k(0), ko = red.k(1), bt = red.bhat(0), bo = red.bhat(1), mu = red.mu, bn = red.bn;
  Trig2 g;
  g.a0 = -0.5 * mu * (kt * bo - ko * bt);
  g.a1c = -red.Ann * bo;
  g.a1s = red.Ann * bt;
  g.a2c = mu * bn * red.Ahat(0, 1) - 0.5 * mu * (kt * bo + ko * bt);
  g.a2s = 0.5 * mu * bn * (red.Ahat(1, 1) - red.Ahat(0, 0)) - 0.5 * mu * (ko * bo - kt * bt);
  return g;
}

namespace {

/// Sign-change scan of g over [0, 2 pi) with bisection to machine precision.
std::vector<double> scan_roots(const Trig2& g, int samples) {
  std::vector<double> roots;
  const double h = two_pi / samples;
  double a_prev = 0.0, g_prev = g(0.0);
  for (int i = 1; i <= samples; ++i) {
    const double a = i * h;
    const double ga = g(a);
    if (g_prev == 0.0) {
      roots.push_back(a_prev);
    } else if ((g_prev < 0.0) != (ga < 0.0) && ga != 0.0) {
      roots.push_back(cm::bisect([&g](double x) { return g(x); }, a_prev, a, 200));
    }
    a_prev = a;
    g_prev = ga;
  }
  return roots;
}

double wrap(double a) {
  a = std::fmod(a, two_pi);
  return a < 0.0 ? a + two_pi : a;
}

bool same_angle(double a, double b, double tol) {
  const double d = std::fabs(wrap(a) - wrap(b));
  return d <= tol || two_pi - d <= tol;
}

}  // namespace

CoulombSet coulomb_solutions(const Matrix3d& A, const Vector3d& bin, double mu, CoulombMethod method, int scan_samples,
                             const SolverOptions& opt) {
  CoulombSet set;
  Vector3d b = bin;
  if (std::fabs(b(0)) <= opt.bn_zero_eps * b.norm()) b(0) = 0.0;
  const double bn = b(0), Ann = A(0, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double scale_b = b.norm();

  if (bn <= 0.0) set.solutions.push_back({Vector3d::Zero(), CoulombKind::zero, nan});
  if (mu == 0.0) {
    if (bn > 0.0) set.solutions.push_back({Vector3d(bn / Ann, 0, 0), CoulombKind::frictionless, nan});
    return set;
  }

  const Reduced red(A, b, mu, bn);
  const Vector2d x0to = red.Ahat.inverse() * red.bhat;
  const Vector3d x0 = red.lift(x0to(0), x0to(1));
  const bool stick = x0(0) > 0.0 && x0to.norm() <= mu * x0(0);
  if (stick) set.solutions.push_back({x0, CoulombKind::sticking, nan});

  // Relative tolerance of the slip tests: a slip this small is the sticking solution.
  const double vtol = 1e-12 * (scale_b + 1e-300);

  if (bn != 0.0) {
    const Trig2 g = coulomb_trig(red);
    const double gscale = g.scale();
    if (gscale <= 1e-14 * (Ann + red.Ahat.norm()) * mu * (scale_b + 1e-300)) {
      set.continuum = true;  // G_C vanishes identically; not expected for SPD data with b != 0
      return set;
    }
    std::vector<double> alphas;
    if (method == CoulombMethod::quartic) {
      const AngleCandidates c = trig2_candidates(g, opt.reduce_eps, 6);
      for (int i = 0; i < c.count; ++i) alphas.push_back(c.alpha[i]);
    } else {
      alphas = scan_roots(g, scan_samples);
    }
    std::vector<double> seen;
    for (double a : alphas) {
      const double ga = g(a);
      bool dup = false;
      for (double s : seen) dup = dup || same_angle(s, a, 1e-9);
      if (dup) continue;
      // Candidates from roots off the unit circle are not roots of G_C.
      if (std::fabs(ga) > 1e-9 * gscale) continue;
      seen.push_back(a);
      CoulombRoot root{wrap(a), ga, false, ""};
      const double c = std::cos(a), s = std::sin(a);
      const double fr = red.fr(c, s);
      if (fr * bn <= 0.0) {
        root.reason = "f_r of the wrong sign (no boundary point at this angle)";
      } else {
        const double r = mu * bn / fr;
        const Vector2d u(c, s);
        const Vector2d v = r * (red.Ahat * u) - red.bhat;  // tangential slip on the plane
        const double along = u.dot(v);
        if (v.norm() <= vtol) {
          root.reason = "zero slip (the sticking solution)";
        } else if (along > 0.0) {
          root.reason = "slip along the frictional impulse";
        } else {
          root.accepted = true;
          root.reason = "slip opposes the frictional impulse";
          set.solutions.push_back({red.lift_polar(a, r), CoulombKind::sliding, wrap(a)});
        }
      }
      set.roots.push_back(root);
    }
    return set;
  }

  // b_n = 0: sliding solutions lie on the rays of the degenerate parabola / hyperbola.
  const double kn = red.k.norm();
  if (Ann > mu * kn) return set;  // degenerate ellipse: only x = 0
  const double a0 = red.alpha0(), da = red.dalpha();
  const int rays = (std::fabs(da - cm::pi) <= 1e-12) ? 1 : 2;
  for (int i = 0; i < rays; ++i) {
    const double a = (i == 0) ? a0 + da : a0 - da;
    const Vector2d u(std::cos(a), std::sin(a));
    const Vector2d Au = red.Ahat * u;
    const double q = u.dot(Au), ub = u.dot(red.bhat);
    const double cr = u(0) * Au(1) - u(1) * Au(0), cb = u(0) * red.bhat(1) - u(1) * red.bhat(0);
    const double ctol = 1e-12 * red.Ahat.norm(), btol = 1e-12 * (scale_b + 1e-300);
    if (std::fabs(cr) > ctol) {
      const double r = cb / cr;
      if (r > 0.0 && r * q - ub < -vtol) set.solutions.push_back({red.lift_polar(a, r), CoulombKind::sliding, wrap(a)});
    } else if (std::fabs(cb) <= btol && ub > 0.0) {
      // Slip parallel to the ray for every r: all of [0, r_stick u] are solutions.
      set.continuum = true;
      set.segment_from = Vector3d::Zero();
      set.segment_to = red.lift_polar(a, ub / q);
    }
  }
  return set;
}

double coulomb_residual(const Matrix3d& A, const Vector3d& b, double mu, const Vector3d& x) {
  const Vector3d dv = A * x - b;
  const double scale = b.norm() + (A * x).norm() + 1e-300;
  const double xscale = x.norm() + 1e-300;
  const Vector2d xto = x.tail<2>(), dvto = dv.tail<2>();
  double res = 0.0;
  res = std::max(res, -x(0) / xscale);                                                    // x_n >= 0
  res = std::max(res, -dv(0) / scale);                                                    // dv_n >= 0
  res = std::max(res, std::fabs(x(0) * dv(0)) / (xscale * scale));                        // complementarity
  res = std::max(res, (xto.norm() - mu * x(0)) / xscale);                                 // cone
  res = std::max(res, (dvto.norm() * xto + mu * x(0) * dvto).norm() / (xscale * scale));  // opposes slip
  return res;
}

}  // namespace md

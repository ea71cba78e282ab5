// Exact resultants of Coulomb friction over a circular contact region (Sect. 3-4). See exact.hpp.
#include "friction/exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/math.hpp"
#include "friction/quadrature.hpp"

namespace fr {

namespace {

using cm::pi;
constexpr double inf = std::numeric_limits<double>::infinity();

// Where the closed forms hand over to the series: below eps_lo the uniform branch 1, above eps_hi
// every branch 2. The closed forms lose about 1e-16/eps^2 (uniform Q_eps1), 1e-16 eps^3 (uniform
// T_eps2) and 1e-16 eps^4 (Hertz T_eps2) relative digits; with 40 terms the series converge to
// rounding for m = eps^2 <= 1/4 and x^2 = 1/eps^2 <= 1/4.
constexpr double eps_lo = 0.5;
constexpr double eps_hi = 2.0;
constexpr int series_terms = 40;

// Complete elliptic integrals in the PARAMETER convention of the paper (K(m), E(m), m = k^2),
// evaluated through the C++17 functions, which take the MODULUS k.
double K_of_modulus(double k) { return std::comp_ellint_1(k); }
double E_of_modulus(double k) { return std::comp_ellint_2(k); }

// Horner in y = z^2: sum_n a[n] y^n.
double horner(const std::vector<double>& a, double y, int terms) {
  const int n = std::min<int>(terms, static_cast<int>(a.size()));
  double s = 0.0;
  for (int i = n - 1; i >= 0; --i) s = s * y + a[i];
  return s;
}

SeriesCoefficients make_uniform_series(int n_terms) {
  // Maclaurin series of K(m) = pi/2 sum k_n m^n and E(m) = pi/2 sum e_n m^n,
  // k_n = ((2n-1)!!/(2n)!!)^2, e_n = k_n / (1 - 2n).
  const int M = n_terms + 3;
  std::vector<double> k(M), e(M);
  k[0] = 1.0;
  for (int n = 1; n < M; ++n) k[n] = k[n - 1] * std::pow((2.0 * n - 1.0) / (2.0 * n), 2);
  for (int n = 0; n < M; ++n) e[n] = k[n] / (1.0 - 2.0 * n);
  auto K = [&](int n) { return n < 0 ? 0.0 : k[n]; };
  auto E = [&](int n) { return n < 0 ? 0.0 : e[n]; };
  SeriesCoefficients s;
  // (59): Q_eps1 = 4/(3 pi eps) [(m+1)E + (m-1)K] = 2/3 sum_{n>=1} d_n eps^(2n-1),
  //       d_n = e_{n-1} + e_n + k_{n-1} - k_n  (the m^0 terms cancel exactly).
  for (int n = 1; n <= n_terms; ++n) s.q1.push_back(2.0 / 3.0 * (E(n - 1) + E(n) + K(n - 1) - K(n)));
  // O4, Q_eps(eps) = eps Q_eps(1/eps): Q_eps2 = Q_eps1(x)/x, the same coefficients in x^(2n).
  s.q2 = s.q1;
  // (60): T_eps1 = 2/(3 pi) [(4-2m)E + (m-1)K] = 1/3 sum_n (4e_n - 2e_{n-1} + k_{n-1} - k_n) m^n.
  for (int n = 0; n < n_terms; ++n) s.t1.push_back((4.0 * E(n) - 2.0 * E(n - 1) + K(n - 1) - K(n)) / 3.0);
  // (60): T_eps2 = 2 eps/(3 pi) [(4-2 eps^2) E(x^2) + (2 eps^2 - 5 + 3 x^2) K(x^2)]
  //       = 1/3 sum_{n>=2} h_n x^(2n-3), h_n = 4e_{n-1} - 2e_n + 2k_n - 5k_{n-1} + 3k_{n-2}
  //       (h_0 = h_1 = 0 exactly).
  for (int n = 2; n < n_terms + 2; ++n)
    s.t2.push_back((4.0 * E(n - 1) - 2.0 * E(n) + 2.0 * K(n) - 5.0 * K(n - 1) + 3.0 * K(n - 2)) / 3.0);
  return s;
}

SeriesCoefficients make_hertz_series(int n_terms) {
  // arcsin(x)/x = sum a_n x^(2n), a_n = binom(2n,n)/(4^n (2n+1));  sqrt(1-y) = sum b_n y^n.
  const int M = n_terms + 3;
  std::vector<double> a(M), b(M);
  double c = 1.0;
  b[0] = 1.0;
  for (int n = 0; n < M; ++n) {
    if (n > 0) c *= (2.0 * n - 1.0) / (2.0 * n);
    a[n] = c / (2.0 * n + 1.0);
    if (n > 0) b[n] = b[n - 1] * (n - 1.5) / n;
  }
  auto A = [&](int n) { return n < 0 ? 0.0 : a[n]; };
  auto B = [&](int n) { return n < 0 ? 0.0 : b[n]; };
  SeriesCoefficients s;
  // (62), (63) branch 1 are polynomials.
  s.q1 = {3.0 * pi / 8.0, -3.0 * pi / 32.0};
  s.t1 = {1.0, -1.0, 3.0 / 8.0};
  // (62): Q_eps2 = 3/16 [(4x^2-1) arcsin(x)/x^3 + (1+2x^2) sqrt(1-x^2)/x^2]
  //       = 3/16 sum_{n>=1} (4a_{n-1} - a_n + b_n + 2b_{n-1}) x^(2n-2).
  for (int n = 1; n <= n_terms; ++n) s.q2.push_back(3.0 / 16.0 * (4.0 * A(n - 1) - A(n) + B(n) + 2.0 * B(n - 1)));
  // (63): T_eps2 = 1/(4 pi x^3) [(3-8x^2+8x^4) arcsin x + (6x^2-3) x sqrt(1-x^2)]
  //       = 1/(4 pi) sum_{n>=2} (3a_n - 8a_{n-1} + 8a_{n-2} + 6b_{n-1} - 3b_n) x^(2n-3).
  for (int n = 2; n < n_terms + 2; ++n)
    s.t2.push_back((3.0 * A(n) - 8.0 * A(n - 1) + 8.0 * A(n - 2) + 6.0 * B(n - 1) - 3.0 * B(n)) / (4.0 * pi));
  return s;
}

void check_eps(double eps) {
  if (!(eps >= 0.0) || std::isnan(eps)) throw cm::InputError("eps: must be >= 0 (got " + std::to_string(eps) + ")");
}

// Ring integrals (spec 000 §2.8): the resultant of a ring of radius xi with unit line pressure
// when the instantaneous centre of rotation is at distance d from the centre,
//   I_F = 2/d [(d - xi) K(m) + (d + xi) E(m)],  I_T = 2 [(xi - d) K(m) + (xi + d) E(m)],
//   m = 4 xi d / (xi + d)^2.
struct Ring {
  double F, T;
};
Ring ring(double xi, double d) {
  const double k = 2.0 * std::sqrt(xi * d) / (xi + d);
  double Kt = 0.0, Ee = 1.0;  // at k = 1 the factor (d - xi) of K vanishes
  if (k < 1.0) {
    Kt = K_of_modulus(k);
    Ee = E_of_modulus(k);
  }
  const double kd = (k < 1.0) ? (d - xi) * Kt : 0.0;
  return {2.0 / d * (kd + (d + xi) * Ee), 2.0 * (-kd + (xi + d) * Ee)};
}

// A small vector-valued tanh-sinh rule on [a, b] (endpoint singularities allowed), refined by
// halving the step until two levels agree to `tol` relative to the L1 norm.
// If the refinement stalls (rounding noise near a logarithmic endpoint singularity), the last level
// is accepted when its change is below `accept` relative to the L1 norm; the change between levels
// overestimates the error of the finer level (the rule converges quadratically).
template <int n, class F>
Eigen::Matrix<double, n, 1> tanh_sinh_vec(F&& f, double a, double b, double tol, const char* what,
                                          double accept = 0.0) {
  using V = Eigen::Matrix<double, n, 1>;
  const double half = 0.5 * (b - a), mid = 0.5 * (a + b);
  const double t_max = 3.3;
  auto node_sum = [&](double h, int start, int stride, V& l1) {
    V s = V::Zero();
    for (int k = start;; k += stride) {
      const double t = k * h;
      if (t > t_max) break;
      const double u = 0.5 * pi * std::sinh(t);
      const double xc = 2.0 / (std::exp(2.0 * u) + 1.0);  // 1 - tanh(u), without cancellation
      const double cu = std::cosh(u);
      const double w = h * 0.5 * pi * std::cosh(t) / (cu * cu) * half;
      if (w == 0.0) break;
      const double left = a + half * xc, right = b - half * xc;
      if (k == 0) {
        const V v = f(mid);
        s += w * v;
        l1 += w * v.cwiseAbs();
        continue;
      }
      if (left > a && left < b) {
        const V v = f(left);
        s += w * v;
        l1 += w * v.cwiseAbs();
      }
      if (right < b && right > a) {
        const V v = f(right);
        s += w * v;
        l1 += w * v.cwiseAbs();
      }
    }
    return s;
  };
  double h = 0.5;
  V l1 = V::Zero();
  V sum = node_sum(h, 0, 1, l1);
  V I = sum;
  for (int level = 0; level < 9; ++level) {
    h *= 0.5;
    V l1_new = V::Zero();
    const V add = node_sum(h, 1, 2, l1_new);  // the new (odd) nodes
    l1 = 0.5 * l1 + l1_new;
    const V I_new = 0.5 * I + add;
    const double err = (I_new - I).cwiseAbs().maxCoeff();
    I = I_new;
    if (level >= 2 && err <= tol * std::max(l1.maxCoeff(), 1e-300)) return I;
    if (level == 8 && err <= accept * std::max(l1.maxCoeff(), 1e-300)) return I;
  }
  throw cm::NumericalError(std::string(what) + ": tanh-sinh refinement did not converge");
}

// p~(sin beta) cos(beta): the pressure times the Jacobian of xi = sin(beta), without the 0 * inf of
// the Galin pressure at the edge.
double profile_times_cos(Pressure p, double beta) {
  const double c = std::cos(beta);
  switch (p) {
    case Pressure::uniform:
      return c / pi;
    case Pressure::hertz:
      return 1.5 / pi * c * c;
    case Pressure::galin:
      return 0.5 / pi;
  }
  return 0.0;
}

}  // namespace

Pressure pressure_from_name(const std::string& name) {
  if (name == "uniform") return Pressure::uniform;
  if (name == "hertz") return Pressure::hertz;
  if (name == "galin") return Pressure::galin;
  throw cm::InputError("pressure: '" + name + "' is not one of uniform, hertz, galin");
}

std::string pressure_name(Pressure p) {
  switch (p) {
    case Pressure::uniform:
      return "uniform";
    case Pressure::hertz:
      return "hertz";
    case Pressure::galin:
      return "galin";
  }
  return "?";
}

double pressure_profile(Pressure p, double s) {
  const double c2 = std::max(0.0, 1.0 - s * s);
  switch (p) {
    case Pressure::uniform:
      return 1.0 / pi;  // (56)
    case Pressure::hertz:
      return 1.5 / pi * std::sqrt(c2);  // (61)
    case Pressure::galin:
      return 0.5 / (pi * std::sqrt(c2));  // Galin
  }
  return 0.0;
}

double kappa_closed_form(Pressure p) {
  switch (p) {
    case Pressure::uniform:
      return 2.0 / 3.0;  // (76)
    case Pressure::hertz:
      return 3.0 * pi / 16.0;  // (77)
    case Pressure::galin:
      return pi / 4.0;
  }
  return 0.0;
}

double kappa_by_quadrature(Pressure p, double tol) {
  // (39): kappa = 2 pi / P int_0^R p(xi) xi^2 dxi; xi = sin(beta) removes the edge singularity.
  return integrate_ts(
      [p](double beta) {
        const double s = std::sin(beta);
        return 2.0 * pi * profile_times_cos(p, beta) * s * s;
      },
      0.0, 0.5 * pi, tol, "kappa (39)");
}

double load_by_quadrature(Pressure p, double tol) {
  // (38): P = 2 pi int_0^R p(xi) xi dxi
  return integrate_ts(
      [p](double beta) {
        const double s = std::sin(beta);
        return 2.0 * pi * profile_times_cos(p, beta) * s;
      },
      0.0, 0.5 * pi, tol, "load (38)");
}

const SeriesCoefficients& series_coefficients(Pressure p) {
  static const SeriesCoefficients uniform = make_uniform_series(series_terms);
  static const SeriesCoefficients hertz = make_hertz_series(series_terms);
  if (p == Pressure::galin) throw cm::InputError("pressure: no series implemented for the Galin pressure");
  return p == Pressure::uniform ? uniform : hertz;
}

QT series_eps(Pressure p, double eps, int terms) {
  check_eps(eps);
  const SeriesCoefficients& s = series_coefficients(p);
  if (eps <= 1.0) {
    const double m = eps * eps;
    return {eps * horner(s.q1, m, terms), horner(s.t1, m, terms)};
  }
  const double x = 1.0 / eps, y = x * x;
  return {horner(s.q2, y, terms), x * horner(s.t2, y, terms)};
}

QT closed_form_eps(Pressure p, double eps) {
  check_eps(eps);
  if (std::isinf(eps)) return {1.0, 0.0};  // pure translation (40)
  if (p == Pressure::uniform) {
    if (eps == 1.0) return {8.0 / (3.0 * pi), 4.0 / (3.0 * pi)};  // limits at m = 1 (K(1) = inf times 0)
    const double e2 = eps * eps;
    if (eps < 1.0) {
      if (eps == 0.0) return {0.0, 1.0};                                   // pure spin (41)
      const double K = K_of_modulus(eps), E = E_of_modulus(eps);           // parameter m = eps^2, modulus eps
      return {4.0 / 3.0 * ((e2 + 1.0) * E + (e2 - 1.0) * K) / (eps * pi),  // (59)
              2.0 / 3.0 * ((4.0 - 2.0 * e2) * E + (e2 - 1.0) * K) / pi};   // (60)
    }
    const double k = 1.0 / eps;  // parameter m = eps^-2, modulus 1/eps
    const double K = K_of_modulus(k), E = E_of_modulus(k);
    return {
        4.0 / 3.0 * ((e2 + 1.0) * E - (e2 - 1.0) * K) / pi,                                  // (59)
        2.0 / 3.0 * ((4.0 - 2.0 * e2) * E + (2.0 * e2 - 5.0 + 3.0 / e2) * K) / (pi / eps)};  // (60), (58) typo fixed
  }
  if (p == Pressure::hertz) {
    const double e2 = eps * eps;
    if (eps <= 1.0) return {3.0 * pi / 32.0 * eps * (4.0 - e2), (3.0 * e2 * e2 - 8.0 * e2 + 8.0) / 8.0};  // (62), (63)
    const double as = std::asin(1.0 / eps), sq = std::sqrt(e2 - 1.0);
    return {3.0 / (16.0 * eps) * (e2 * (4.0 - e2) * as + (e2 + 2.0) * sq),                  // (62)
            ((3.0 * e2 * e2 - 8.0 * e2 + 8.0) * as + (6.0 - 3.0 * e2) * sq) / (4.0 * pi)};  // (63)
  }
  // Galin: no closed form in the paper; the ring integral is the definition here.
  return ring_eps(p, eps);
}

QT exact_eps(Pressure p, double eps) {
  check_eps(eps);
  if (std::isinf(eps)) return {1.0, 0.0};
  if (p == Pressure::galin) return ring_eps(p, eps);
  if (eps > eps_hi) return series_eps(p, eps, series_terms);
  if (p == Pressure::uniform && eps < eps_lo) return series_eps(p, eps, series_terms);
  return closed_form_eps(p, eps);
}

QT ring_eps(Pressure p, double eps, double tol) {
  check_eps(eps);
  if (std::isinf(eps)) return {1.0, 0.0};
  if (eps == 0.0) return {0.0, 1.0};
  const double d = eps;  // R = 1
  const double kappa = kappa_closed_form(p);
  // Q_eps = 1/P int p I_F xi dxi, T_eps = 1/(P kappa) int p I_T xi dxi, in xi = sin(beta)
  // for every pressure (the Jacobian cos(beta) cancels the edge singularity of the Galin pressure).
  auto integrand = [&](double beta) {
    const double xi = std::sin(beta), cb = std::cos(beta);
    const Ring r = ring(xi, d);
    const double w = profile_times_cos(p, beta);
    (void)cb;
    return Eigen::Vector2d(w * r.F * xi, w * r.T * xi / kappa);
  };
  Eigen::Vector2d total = Eigen::Vector2d::Zero();
  if (d < 1.0) {
    const double bd = std::asin(d);  // breakpoint at the ring through the ICR
    total += tanh_sinh_vec<2>(integrand, 0.0, bd, tol, "ring integral", 1e-9);
    total += tanh_sinh_vec<2>(integrand, bd, 0.5 * pi, tol, "ring integral", 1e-9);
  } else {
    total += tanh_sinh_vec<2>(integrand, 0.0, 0.5 * pi, tol, "ring integral", 1e-9);
  }
  return {total(0), total(1)};
}

double eps_of_w(double rho_over_R, const Eigen::Vector3d& w) {
  const double w12 = std::hypot(w(0), w(1));
  if (w(2) == 0.0) return inf;
  return rho_over_R * w12 / std::abs(w(2));  // (35)
}

QT exact_theta(Pressure p, double rho_over_R, double theta) {
  // reduce to [-pi, pi)
  double th = std::remainder(theta, 2.0 * pi);
  const double sgn = th < 0.0 ? -1.0 : 1.0;
  th = std::abs(th);
  double flip = 1.0;
  if (th > 0.5 * pi) {  // (81): Q(pi - theta) = -Q(theta), T(pi - theta) = T(theta)
    th = pi - th;
    flip = -1.0;
  }
  const double eps = (th == 0.0) ? inf : rho_over_R * std::cos(th) / std::sin(th);  // (54)
  const QT q = exact_eps(p, eps);
  return {flip * q.Q, sgn * q.T};  // (80): Q even, T odd
}

QT exact_w3(Pressure p, double rho_over_R, double w3) {
  if (!(std::abs(w3) <= 1.0)) throw cm::InputError("w3: must lie in [-1, 1]");
  const double a = std::abs(w3);
  const double eps = (a == 0.0) ? inf : rho_over_R * std::sqrt((1.0 - a) * (1.0 + a)) / a;  // (35)
  const QT q = exact_eps(p, eps);
  return {q.Q, std::copysign(q.T, w3)};  // (46)-(48)
}

Eigen::Vector3d exact_resultant(Pressure p, double rho_over_R, const Eigen::Vector3d& w) {
  const double w12 = std::hypot(w(0), w(1));
  const double kappa_over_rho = kappa_closed_form(p) / rho_over_R;
  if (w12 == 0.0) {  // pure spin (41)
    if (w(2) == 0.0) throw cm::InputError("w: the slip direction must be nonzero");
    return {0.0, 0.0, -kappa_over_rho * std::copysign(1.0, w(2))};
  }
  const QT q = exact_eps(p, eps_of_w(rho_over_R, w));
  // (46) with (53): the force opposes the centre velocity, the torque opposes the spin (E4 sign).
  const double tz = (w(2) == 0.0) ? 0.0 : std::copysign(q.T, w(2));
  return {-w(0) / w12 * q.Q, -w(1) / w12 * q.Q, -kappa_over_rho * tz};
}

Eigen::Vector3d direct_resultant(Pressure p, double rho_over_R, const Eigen::Vector3d& w, double tol) {
  // (28): u_x = w1, u_y = w2, omega_z = w3 / rho (R = 1, mu = 1, P = 1).
  const double ux = w(0), uy = w(1), om = w(2) / rho_over_R;
  if (om == 0.0) {
    // Pure translation: q = -p u/|u| everywhere (21); the torque integrand x q_y - y q_x (22) is
    // odd under (x, y) -> -(x, y), so T_z = 0; the force is the load (38) times -u/|u|.
    const double un = std::hypot(ux, uy);
    if (un == 0.0) throw cm::InputError("w: the slip direction must be nonzero");
    const double load = load_by_quadrature(p, tol);
    return {-ux / un * load, -uy / un * load, 0.0};
  }
  // The velocity field (20) is v = omega e_z x (r - c) about the instantaneous centre of rotation
  // c = (-u_y/omega, u_x/omega); in polar coordinates (s, beta) about c the direction of v is
  // sgn(omega) (-sin beta, cos beta), so (21)-(23) become
  //   (Q_x, Q_y) = -sgn(omega) int (-sin b, cos b) I0(b) db,
  //   T_z        = -sgn(omega) int [(c.e) I0(b) + I1(b)] db,
  //   I0 = int p s ds, I1 = int p s^2 ds over the chord of the disc along the ray.
  const Eigen::Vector2d c(-uy / om, ux / om);
  const double sg = om > 0.0 ? 1.0 : -1.0;
  const double cn = c.norm();
  // Along the ray c + s e(beta) the squared distance from the centre is |c|^2 + 2 s (c.e) + s^2, so
  // 1 - xi^2 = (s - r0)(r1 - s) with r0,1 = -c.e -+ sqrt((c.e)^2 + 1 - |c|^2); the chord inside the
  // disc is [max(0, r0), r1].
  auto outer = [&](double beta) {
    Eigen::Vector3d out = Eigen::Vector3d::Zero();
    const double cb = std::cos(beta), sb = std::sin(beta);
    const double ce = c(0) * cb + c(1) * sb;
    const double disc = ce * ce - (cn - 1.0) * (cn + 1.0);
    if (!(disc > 0.0)) return out;
    const double sq = std::sqrt(disc);
    const double r0 = -ce - sq, r1 = -ce + sq;
    const double s0 = std::max(0.0, r0), s1 = r1;
    if (!(s1 > s0)) return out;
    const double mid = 0.5 * (s0 + s1), half = 0.5 * (s1 - s0);
    // s = mid - half cos(phi), phi in [0, pi]: the edge factors become sin^2(phi/2), cos^2(phi/2)
    // (computed without cancellation), which makes the Hertz and Galin integrands smooth.
    auto inner = [&](double phi) {
      const double sh = std::sin(0.5 * phi), ch = std::cos(0.5 * phi);
      const double s = mid - half * std::cos(phi);
      const double to_r1 = 2.0 * half * ch * ch;
      const double from_r0 = (r0 >= 0.0) ? 2.0 * half * sh * sh : s - r0;
      const double c2 = from_r0 * to_r1;  // 1 - xi^2 >= 0
      double pr = 0.0;
      switch (p) {
        case Pressure::uniform:
          pr = 1.0 / pi;
          break;
        case Pressure::hertz:
          pr = 1.5 / pi * std::sqrt(c2);
          break;
        case Pressure::galin:
          pr = 0.5 / (pi * std::sqrt(c2));
          break;
      }
      const double ds = half * std::sin(phi);
      return Eigen::Vector2d(pr * s * ds, pr * s * s * ds);
    };
    const Eigen::Vector2d I = tanh_sinh_vec<2>(inner, 0.0, pi, tol, "direct quadrature (inner)");
    out << -sb * I(0), cb * I(0), ce * I(0) + I(1);
    return out;
  };
  Eigen::Vector3d total;
  if (cn < 1.0) {
    // ICR inside the disc: every ray leaves it once; the integrand is smooth and 2 pi periodic,
    // so the trapezoidal rule converges geometrically. Doubling until two levels agree.
    int n = 64;
    Eigen::Vector3d prev = Eigen::Vector3d::Constant(inf);
    for (;; n *= 2) {
      Eigen::Vector3d s = Eigen::Vector3d::Zero();
      for (int i = 0; i < n; ++i) s += outer(2.0 * pi * i / n);
      s *= 2.0 * pi / n;
      if ((s - prev).cwiseAbs().maxCoeff() <= tol) {
        total = s;
        break;
      }
      if (n > (1 << 17)) throw cm::NumericalError("direct quadrature (outer): trapezoidal rule did not converge");
      prev = s;
    }
  } else {
    // ICR outside (or on) the disc: the rays that meet it fill the cone beta_c +- asin(1/|c|).
    const double bc = std::atan2(-c(1), -c(0));
    const double half = std::asin(std::min(1.0, 1.0 / cn));
    total = tanh_sinh_vec<3>(outer, bc - half, bc + half, tol, "direct quadrature (outer)");
  }
  const Eigen::Vector3d Q = -sg * total;
  return {Q(0), Q(1), Q(2) / rho_over_R};
}

}  // namespace fr

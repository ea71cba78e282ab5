// Real roots of a trigonometric polynomial of degree two,
//
//   g(alpha) = a0 + a1c cos(alpha) + a1s sin(alpha) + a2c cos(2 alpha) + a2s sin(2 alpha),
//
// through the quartic with complex coefficients of Sect. 3.2: with y = e^{i alpha},
// 2 y^2 g = (a2c - i a2s) y^4 + (a1c - i a1s) y^3 + 2 a0 y^2 + (a1c + i a1s) y + (a2c + i a2s).
// Eq. (8) of the paper (c0 + c1 cos(alpha + phi1) + c2 cos(2 alpha + phi2) = 0) and the sliding
// condition of the Coulomb-like impact law are both of this form.
//
// The quartic is solved in closed form (Ferrari, resolvent cubic by Cardano, complex arithmetic),
// each root is polished by Newton's method on the polynomial, mapped to its angle
// alpha_i = atan2(Im y_i, Re y_i) and polished again by Newton's method on g itself. Leading and
// trailing coefficients that vanish relative to the others (the sphere contact, Sect. 6.2 of the
// spec) reduce the degree: the spurious roots y = 0 and y = infinity are then dropped.
//
// The candidates returned are angles, not verified roots: a root y off the unit circle still
// yields an angle. Callers that minimise over the candidates (the maximally dissipative solver)
// are safe with spurious candidates; callers that need roots check |g| themselves.
//
// Header-only and allocation-free: this is the hot path of the single-contact solver.
#pragma once

#include <array>
#include <cmath>
#include <complex>

namespace md {

using cplx = std::complex<double>;

/// The coefficients of g in the form above.
struct Trig2 {
  double a0 = 0, a1c = 0, a1s = 0, a2c = 0, a2s = 0;

  double operator()(double alpha) const {
    const double c = std::cos(alpha), s = std::sin(alpha);
    const double c2 = c * c - s * s, s2 = 2 * s * c;
    return a0 + a1c * c + a1s * s + a2c * c2 + a2s * s2;
  }
  double derivative(double alpha) const {
    const double c = std::cos(alpha), s = std::sin(alpha);
    const double c2 = c * c - s * s, s2 = 2 * s * c;
    return -a1c * s + a1s * c + 2 * (-a2c * s2 + a2s * c2);
  }
  /// The largest coefficient magnitude: the scale of g.
  double scale() const { return std::fabs(a0) + std::hypot(a1c, a1s) + std::hypot(a2c, a2s); }
};

/// Up to four candidate angles.
struct AngleCandidates {
  std::array<double, 6> alpha{};
  int count = 0;
  void push(double a) {
    if (count < static_cast<int>(alpha.size())) alpha[count++] = a;
  }
};

namespace detail {

// Fast complex helpers for the kernel: std::abs (hypot), std::sqrt and operator/ of
// std::complex guard against overflow and NaN at a cost that dominates the quartic; the
// coefficients here are normalised, so the plain formulas are used, with the library
// functions as fallback when a result is not finite.
inline double mag2(cplx z) { return z.real() * z.real() + z.imag() * z.imag(); }
inline cplx div(cplx a, cplx b) {
  const double d = mag2(b);
  const cplx q((a.real() * b.real() + a.imag() * b.imag()) / d, (a.imag() * b.real() - a.real() * b.imag()) / d);
  return std::isfinite(q.real()) && std::isfinite(q.imag()) ? q : a / b;
}
inline cplx csqrt(cplx z) {
  const double x = z.real(), y = z.imag();
  const double r = std::sqrt(x * x + y * y);
  if (!std::isfinite(r)) return std::sqrt(z);
  if (r == 0.0) return cplx(0.0, 0.0);
  if (x >= 0.0) {
    const double t = std::sqrt(0.5 * (r + x));
    return cplx(t, 0.5 * y / t);
  }
  const double t = std::sqrt(0.5 * (r - x));
  return cplx(0.5 * std::fabs(y) / t, std::copysign(t, y));
}

/// Roots of the monic complex cubic m^3 + A m^2 + B m + C (Cardano).
inline std::array<cplx, 3> cubic_roots(cplx A, cplx B, cplx C) {
  const cplx shift = A / 3.0;
  const cplx P = B - A * A / 3.0;
  const cplx Q = 2.0 * A * A * A / 27.0 - A * B / 3.0 + C;
  const cplx sqrt_disc = csqrt(Q * Q / 4.0 + P * P * P / 27.0);
  // The sign giving the larger |.| avoids cancellation.
  cplx w = -Q / 2.0 + sqrt_disc;
  const cplx w2 = -Q / 2.0 - sqrt_disc;
  if (mag2(w2) > mag2(w)) w = w2;
  const cplx omega(-0.5, std::sqrt(3.0) / 2.0);
  std::array<cplx, 3> r;
  if (mag2(w) == 0.0) {  // P = Q = 0: a triple root
    r.fill(-shift);
    return r;
  }
  // principal cube root through the polar form (std::pow on complex goes through log/exp)
  const double ang = std::atan2(w.imag(), w.real()) / 3.0;
  const cplx u = std::cbrt(std::sqrt(mag2(w))) * cplx(std::cos(ang), std::sin(ang));
  const cplx v = div(-P, 3.0 * u);
  r[0] = u + v - shift;
  r[1] = omega * u + std::conj(omega) * v - shift;
  r[2] = std::conj(omega) * u + omega * v - shift;
  return r;
}

/// Roots of the complex quadratic p2 y^2 + p1 y + p0 (p2 != 0), without cancellation.
inline std::array<cplx, 2> quadratic_roots(cplx p2, cplx p1, cplx p0) {
  const cplx d = csqrt(p1 * p1 - 4.0 * p2 * p0);
  cplx q = -0.5 * (p1 + d);
  const cplx q2 = -0.5 * (p1 - d);
  if (mag2(q2) > mag2(q)) q = q2;
  if (mag2(q) == 0.0) return {cplx(0.0), cplx(0.0)};
  return {div(q, p2), div(p0, q)};
}

/// Roots of the complex quartic p4 y^4 + ... + p0 (p4 != 0), Ferrari's method.
inline std::array<cplx, 4> quartic_roots(cplx p4, cplx p3, cplx p2, cplx p1, cplx p0) {
  const double n4 = mag2(p4);
  const cplx inv(p4.real() / n4, -p4.imag() / n4);
  const cplx a = p3 * inv, b = p2 * inv, c = p1 * inv, d = p0 * inv;
  // Depressed quartic z^4 + p z^2 + q z + r with y = z - a/4.
  const cplx a2 = a * a;
  const cplx p = b - 3.0 * a2 / 8.0;
  const cplx q = c - a * b / 2.0 + a2 * a / 8.0;
  const cplx r = d - a * c / 4.0 + a2 * b / 16.0 - 3.0 * a2 * a2 / 256.0;
  const cplx shift = -a / 4.0;
  std::array<cplx, 4> y;
  // |q| against |p|^{3/2} + |r|^{3/4} (the sizes q has when it is not negligible)
  const double ap = std::sqrt(mag2(p)), ar = std::sqrt(mag2(r));
  const double qscale = ap * std::sqrt(ap) + ar * std::sqrt(std::sqrt(ar)) + 1e-300;
  if (mag2(q) <= 1e-28 * qscale * qscale) {  // biquadratic
    const auto z2 = quadratic_roots(1.0, p, r);
    const cplx s0 = csqrt(z2[0]), s1 = csqrt(z2[1]);
    y = {s0 + shift, -s0 + shift, s1 + shift, -s1 + shift};
    return y;
  }
  // Resolvent cubic m^3 + p m^2 + (p^2/4 - r) m - q^2/8 = 0; its largest root is non-zero.
  const auto m3 = cubic_roots(p, p * p / 4.0 - r, -q * q / 8.0);
  cplx m = m3[0];
  for (int i = 1; i < 3; ++i)
    if (mag2(m3[i]) > mag2(m)) m = m3[i];
  const cplx s = csqrt(2.0 * m);
  const cplx t = div(q, 2.0 * s);
  const auto z1 = quadratic_roots(1.0, s, p / 2.0 + m - t);
  const auto z2 = quadratic_roots(1.0, -s, p / 2.0 + m + t);
  y = {z1[0] + shift, z1[1] + shift, z2[0] + shift, z2[1] + shift};
  return y;
}

/// Newton steps on the polynomial with coefficients p[0..n] (highest first).
template <int N>
inline cplx polish_polynomial(const std::array<cplx, N + 1>& p, cplx y, int steps) {
  for (int k = 0; k < steps; ++k) {
    cplx f = p[0], df = 0.0;
    for (int i = 1; i <= N; ++i) {
      df = df * y + f;
      f = f * y + p[i];
    }
    if (mag2(df) == 0.0) break;
    const cplx dy = div(f, df);
    y -= dy;
    if (mag2(dy) <= 1e-32 * mag2(y)) break;
  }
  return y;
}

}  // namespace detail

/// Newton's method on g from alpha0; keeps the better of start and result (by |g|).
inline double polish_angle(const Trig2& g, double alpha0, int steps) {
  // g and g' from one sine/cosine pair
  auto eval = [&g](double a, double& dg) {
    const double c = std::cos(a), s = std::sin(a);
    const double c2 = c * c - s * s, s2 = 2 * s * c;
    dg = -g.a1c * s + g.a1s * c + 2 * (-g.a2c * s2 + g.a2s * c2);
    return g.a0 + g.a1c * c + g.a1s * s + g.a2c * c2 + g.a2s * s2;
  };
  double alpha = alpha0, dg;
  double ga = eval(alpha, dg);
  for (int k = 0; k < steps; ++k) {
    if (dg == 0.0) break;
    const double step = ga / dg;
    // A Newton step longer than about a quarter turn left the basin of this root.
    if (std::fabs(step) > 0.8) break;
    double dt;
    const double trial = alpha - step;
    const double gt = eval(trial, dt);
    if (std::fabs(gt) >= std::fabs(ga)) break;
    alpha = trial;
    ga = gt;
    dg = dt;
    if (std::fabs(step) <= 1e-15 * (1.0 + std::fabs(alpha))) break;
  }
  return alpha;
}

/// Candidate roots of g (see the header comment). `reduce_eps` is the relative size below which
/// the outer coefficients |a2| are treated as zero.
inline AngleCandidates trig2_candidates(const Trig2& g, double reduce_eps = 1e-13, int newton_steps = 4) {
  AngleCandidates out;
  const cplx p4(g.a2c, -g.a2s), p3(g.a1c, -g.a1s), p2(2.0 * g.a0, 0.0), p1(g.a1c, g.a1s), p0(g.a2c, g.a2s);
  const double m2 = std::sqrt(detail::mag2(p4)), m1 = std::sqrt(detail::mag2(p3)), m0 = std::fabs(p2.real());
  const double big = std::max(m2, std::max(m1, m0));
  if (big == 0.0) return out;  // g vanishes identically: every angle is stationary
  auto add = [&](cplx y) {
    if (detail::mag2(y) == 0.0 || !std::isfinite(y.real()) || !std::isfinite(y.imag())) return;
    out.push(polish_angle(g, std::atan2(y.imag(), y.real()), newton_steps));
  };
  if (m2 > reduce_eps * big) {
    auto y = detail::quartic_roots(p4, p3, p2, p1, p0);
    const std::array<cplx, 5> p{p4, p3, p2, p1, p0};
    for (auto& yi : y) add(detail::polish_polynomial<4>(p, yi, 1));
  }
  // Outer coefficients small (not only negligible): the roots of the reduced quadratic
  // y (p3 y^2 + p2 y + p1) are added as well; extra candidates are harmless.
  if (m2 <= 1e-6 * big && m1 > 0.0) {
    auto y = detail::quadratic_roots(p3, p2, p1);
    for (auto& yi : y) add(yi);
  }
  return out;
}

}  // namespace md

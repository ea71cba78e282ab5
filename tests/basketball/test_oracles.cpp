// Oracles of paper 004 (spec 004 §5.3): exact and closed-form properties of the basketball model.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "core/math.hpp"
#include "numerics/eigenvalues.hpp"
#include "numerics/optimize.hpp"
#include "numerics/sundials.hpp"

namespace {

// Integrates the rolling system (33)-(36) from x0 to t with CVODE (Adams) at tight tolerances.
bb::Rolling integrate(const bb::Model& m, const bb::Rolling& x0, double t, double rtol = 1e-12) {
  auto ode =
      cm::make_integrator("cvode_adams", [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = m.rolling_rhs(x); },
                          Eigen::VectorXd(x0), 0.0, {rtol, 1e-14});
  ode->set_stop_time(t);
  return ode->advance(t).y;
}

bb::Rolling random_state(std::mt19937& rng) {
  std::uniform_real_distribution<double> b(-cm::pi, cm::pi), w(-20, 20);
  return {b(rng), w(rng), 3 * w(rng), w(rng)};
}

TEST(Oracles, EnergyIsConservedByRolling) {  // OR-1, corrected (60)
  const bb::Model m{bb::Parameters{}};
  std::mt19937 rng(1);
  for (int n = 0; n < 20; ++n) {
    const bb::Rolling x0 = random_state(rng);
    const double E0 = m.energy(x0), E1 = m.energy(integrate(m, x0, 2.0));
    // rtol 1e-12 over 2 s: the drift stays below 1e-9 of the energy scale.
    EXPECT_NEAR(E1, E0, 1e-9 * (std::abs(E0) + 1));
  }
}

TEST(Oracles, DissipativeEnergyBalance) {  // OR-2, literal (83)
  bb::Parameters p;
  p.k_d = 0.02, p.k_r = 0.03;
  const bb::Model m(p);
  std::mt19937 rng(2);
  for (int n = 0; n < 20; ++n) {
    const bb::Rolling x = random_state(rng);
    const double h = 1e-6;
    const bb::Rolling f = m.rolling_rhs(x);
    const double dE = (m.energy(x + h * f) - m.energy(x - h * f)) / (2 * h);
    // Central difference along the flow, error O(h^2 |E'''|) ~ 1e-8 relative.
    EXPECT_NEAR(dE, m.energy_rate(x), 1e-6 * (std::abs(m.energy_rate(x)) + 1));
    EXPECT_LE(m.energy_rate(x), 0.0);
  }
}

TEST(Oracles, ReversibilityAndReflection) {  // OR-3, OR-4
  const bb::Model m{bb::Parameters{}};
  std::mt19937 rng(3);
  for (int n = 0; n < 10; ++n) {
    const bb::Rolling x0 = random_state(rng);
    const bb::Rolling x1 = integrate(m, x0, 0.5);
    // Backward in time = forward from R x1 with R: omega1 -> -omega1.
    bb::Rolling r1 = x1;
    r1(1) = -r1(1);
    bb::Rolling back = integrate(m, r1, 0.5);
    back(1) = -back(1);
    EXPECT_LT((back - x0).norm(), 1e-8 * (x0.norm() + 1));  // two integrations at rtol 1e-12
    bb::Rolling s0 = x0;
    s0(2) = -s0(2), s0(3) = -s0(3);
    bb::Rolling s1 = integrate(m, s0, 0.5);
    s1(2) = -s1(2), s1(3) = -s1(3);
    EXPECT_LT((s1 - x1).norm(), 1e-8 * (x1.norm() + 1));
  }
}

TEST(Oracles, SteadyMotionsAreEquilibriaWithTheLinearisation) {  // OR-6, OR-7, (52)-(54)
  const bb::Model m{bb::Parameters{}};
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> b(-3.0, 3.0), w(1, 60);
  for (int n = 0; n < 50; ++n) {
    const double b0 = b(rng), w3 = (n % 2 ? 1 : -1) * w(rng);
    if (std::abs(std::abs(b0) - cm::pi / 2) < 0.05) continue;
    const bb::Rolling x0(b0, 0, m.omega20(b0, w3), w3);
    const bb::Rolling f = m.rolling_rhs(x0);
    EXPECT_LT(f.norm(), 1e-11 * (1 + x0.squaredNorm()));  // exact zero up to rounding
    Eigen::Matrix4d J;
    for (int c = 0; c < 4; ++c) {
      bb::Rolling e = bb::Rolling::Zero();
      e(c) = 1e-6;
      J.col(c) = (m.rolling_rhs(x0 + e) - m.rolling_rhs(x0 - e)) / 2e-6;
    }
    const Eigen::Matrix4d A = m.linearisation(b0, w3);
    // Central differences with step 1e-6: error ~1e-12 * |f'''|, relative 1e-6 is ample.
    EXPECT_LT((J - A).norm(), 1e-6 * (1 + A.norm()));
    EXPECT_NEAR(A(0, 1) * A(1, 0) + A(1, 2) * A(2, 1) + A(1, 3) * A(3, 1), m.h(b0, w3),
                1e-9 * (1 + A.norm() * A.norm()));
  }
}

TEST(Oracles, SlippingAtZeroSlipEqualsRolling) {  // OR-21, OR-23
  bb::Parameters p;
  p.k_d = 0.01, p.k_r = 0.02;
  const bb::Model m(p);
  std::mt19937 rng(5);
  for (int n = 0; n < 50; ++n) {
    const bb::Rolling x = random_state(rng);
    const bb::Force F = m.rolling_force(x);
    bb::Slipping y = bb::Slipping::Zero();
    y.head<4>() = x;
    const bb::Slipping yd = m.newton_euler(y, F.F1, F.F3);
    const bb::Rolling xd = m.rolling_rhs(x);
    EXPECT_LT((yd.head<4>() - xd).norm(), 1e-10 * (1 + xd.norm()));  // rounding of O(1e3) terms
    EXPECT_LT(yd.tail<2>().norm(), 1e-10 * (1 + xd.norm()));
    EXPECT_NEAR(m.normal_force(y), F.F2, 1e-10 * (1 + std::abs(F.F2)));
  }
}

TEST(Oracles, LimitDirections) {  // OR-22, QC-20
  const bb::Model m{bb::Parameters{}};
  std::mt19937 rng(6);
  for (int n = 0; n < 30; ++n) {
    const bb::Rolling x = random_state(rng);
    const bb::Model::Limits L = m.limits(x);
    for (double phi : {0.3, 2.0, -1.1}) {
      bb::Slipping y = bb::Slipping::Zero();
      y.head<4>() = x;
      y(4) = 1e-9 * std::cos(phi), y(5) = 1e-9 * std::sin(phi);
      const bb::Slipping yd = m.slipping_rhs(y);
      // (75): the limit of (42) at u -> 0 along phi; u = 1e-9 leaves O(1e-9) terms.
      EXPECT_NEAR(yd(4), L.B1 - L.C * std::cos(phi), 1e-6 * (1 + std::abs(L.C) + std::hypot(L.B1, L.B3)));
      EXPECT_NEAR(yd(5), L.B3 - L.C * std::sin(phi), 1e-6 * (1 + std::abs(L.C) + std::hypot(L.B1, L.B3)));
    }
    const double B = std::hypot(L.B1, L.B3);
    const auto udot = [&](double phi) { return L.B1 * std::cos(phi) + L.B3 * std::sin(phi) - L.C; };  // (79)
    EXPECT_NEAR(udot(L.phi1 + cm::pi), -B - L.C, 1e-9 * (1 + B + std::abs(L.C)));
    EXPECT_NEAR(udot(L.phi1), B - L.C, 1e-9 * (1 + B + std::abs(L.C)));
    EXPECT_EQ(B - L.C > 0, m.slip_margin(x) < 0);  // phi1 repels iff (39) is violated
  }
}

TEST(Oracles, FloquetDeterminantAndLimit) {  // OR-17
  for (double q : {0.0, 0.3, 0.5778, 0.9}) {
    const Eigen::Matrix2d M = bb::monodromy(q, 2.0 / 3.0, 4000);
    EXPECT_NEAR(M.determinant(), 1.0, 1e-8);  // Liouville: exactly 1; RK4 error ~1e-12
  }
  EXPECT_NEAR(bb::monodromy(0.0, 2.0 / 3.0, 4000).trace(), 2 * std::cos(2 * cm::pi * std::sqrt(0.4)), 1e-8);
  EXPECT_NEAR(bb::monodromy(0.0, 1.0 / 3.0, 4000).trace(), -2.0, 1e-8);  // the resonance j = 1/3
}

TEST(Oracles, ConservedQuantityOfProps9And10) {  // OR-18: [w2 w3] Psi(beta) c is constant
  const bb::Parameters p;
  const bb::Model m(p);
  // The rolling state augmented with Psi (2x2), dPsi/dt = beta' K(beta) Psi, Psi(0) = I.
  const auto rhs = [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
    const bb::Rolling x = y.head<4>();
    const bb::Rolling xd = m.rolling_rhs(x);
    yd.head<4>() = xd;
    Eigen::Matrix2d Psi;
    Psi << y(4), y(5), y(6), y(7);
    const Eigen::Matrix2d dPsi = xd(0) * bb::conserved_coefficient_matrix(p, x(0)) * Psi;
    yd(4) = dPsi(0, 0), yd(5) = dPsi(0, 1), yd(6) = dPsi(1, 0), yd(7) = dPsi(1, 1);
  };
  Eigen::VectorXd y0(8);
  y0 << 1.0, 3.0, 20.0, 10.0, 1, 0, 0, 1;
  auto ode = cm::make_integrator("cvode_adams", rhs, y0, 0.0, {1e-12, 1e-14});
  const Eigen::VectorXd y1 = ode->advance(1.0).y;
  Eigen::Matrix2d Psi;
  Psi << y1(4), y1(5), y1(6), y1(7);
  const Eigen::RowVector2d P0(y0(2), y0(3)), P1 = Eigen::RowVector2d(y1(2), y1(3)) * Psi;
  EXPECT_LT((P1 - P0).norm(), 1e-8 * P0.norm());  // rtol 1e-12 over 1 s
}

TEST(Oracles, SmallOrbitsArePeriodicWithTheLinearPeriod) {  // OR-5, OR-8, Prop. 4
  const bb::Model m{bb::Parameters{}};
  double b0 = 1.1, w3 = 10;
  for (int k = 0; k < 100; ++k) {  // Newton on omega20(b0, 10) = 35
    const double f = m.omega20(b0, w3) - 35, d = (m.omega20(b0 + 1e-7, w3) - m.omega20(b0 - 1e-7, w3)) / 2e-7;
    b0 -= f / d;
  }
  bb::SimulationOptions o;
  o.slipping = false;
  o.integrator.rtol = 1e-12, o.integrator.atol = 1e-14;
  const bb::Outcome out = bb::simulate(m, bb::Rolling(b0, 1e-4, 35, w3), o);
  ASSERT_EQ(out.code, bb::Code::periodic);
  // Amplitude 1e-4: the period differs from 2 pi/sqrt(-h) at O(amplitude^2).
  EXPECT_NEAR(out.period, 2 * cm::pi / std::sqrt(-m.h(b0, w3)), 1e-6);
  // One more period returns to the start (Prop. 4).
  const bb::Rolling x1 =
      integrate(m, bb::Rolling(b0, 0.5, 35, w3), bb::simulate(m, bb::Rolling(b0, 0.5, 35, w3), o).period);
  EXPECT_LT((x1 - bb::Rolling(b0, 0.5, 35, w3)).norm(), 1e-7 * 40);  // event location and rtol 1e-12
}

// ---------------------------------------------------------------------------------------------
// Helpers of the oracles below.

// The largest error an oracle meets, printed with its tolerance when the test ends; every error
// must stay within the tolerance.
class Worst {
 public:
  Worst(std::string what, double tolerance) : what_(std::move(what)), tol_(tolerance) {}
  Worst(const Worst&) = delete;
  Worst& operator=(const Worst&) = delete;
  ~Worst() { std::printf("[ measured ] %s: max error %.3g, tolerance %.3g\n", what_.c_str(), max_, tol_); }
  void operator()(double error) {
    EXPECT_LE(error, tol_) << what_;  // also fails on NaN
    max_ = std::max(max_, error);
  }

 private:
  std::string what_;
  double tol_, max_ = 0;
};

// The paper's ball and rim (spec §3.1) and three others: the oracles are general properties of
// the model and must hold for any ball and rim. "small" (a small solid ball, j = 2/5, on a wide
// rim, low friction) and "mars" (a thick rod, j = 1/2, low gravity, high friction) have
// R > (1+j) rho, so that beta* and beta-hat exist; "fat" (a big ball on a tight rim, very low
// friction) has rho < R < (1+j) rho.
struct Case {
  const char* name;
  bb::Parameters p;
};
std::vector<Case> parameter_sets() {
  return {{"paper", bb::Parameters{}},
          {"small", bb::Parameters{.r = 0.06, .a = 0.008, .R = 0.30, .j = 0.4, .g = 9.81, .mu = 0.6}},
          {"mars", bb::Parameters{.r = 0.11, .a = 0.03, .R = 0.25, .j = 0.5, .g = 3.71, .mu = 2.5}},
          {"fat", bb::Parameters{.r = 0.15, .a = 0.02, .R = 0.24, .j = 2.0 / 3.0, .g = 9.81, .mu = 0.35}}};
}

// The root of f in [lo, hi], where f changes sign: the project's bisection (numerics/optimize.hpp),
// down to adjacent doubles; NaN, and a failed expectation, without a sign change.
double bisect(const std::function<double(double)>& f, double lo, double hi) {
  const double x = cm::bisect(f, lo, hi);
  EXPECT_TRUE(std::isfinite(x)) << "no sign change in [" << lo << ", " << hi << "]";
  return x;
}

// Integrates x' = f(x) from x0 over [0, t] with CVODE (Adams) at rtol 1e-12.
Eigen::VectorXd integrate_field(const std::function<bb::Rolling(const bb::Rolling&)>& f, const bb::Rolling& x0,
                                double t) {
  auto ode = cm::make_integrator("cvode_adams", [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = f(x); },
                                 Eigen::VectorXd(x0), 0.0, {1e-12, 1e-14});
  ode->set_stop_time(t);
  return ode->advance(t).y;
}

// The Jacobian of the rolling vector field by central differences with step `step`.
Eigen::Matrix4d jacobian(const bb::Model& m, const bb::Rolling& x, double step) {
  Eigen::Matrix4d J;
  for (int c = 0; c < 4; ++c) {
    bb::Rolling e = bb::Rolling::Zero();
    e(c) = step;
    J.col(c) = (m.rolling_rhs(x + e) - m.rolling_rhs(x - e)) / (2 * step);
  }
  return J;
}

TEST(Oracles, TrivialSteadyMotionsHaveThePendulumEigenvalues) {  // OR-9, Prop. 1, (46)
  // x0+ = (pi/2, 0, w20, 0) on top of the rod is a saddle, lambda = +-sqrt(g/(rho(1+j))), 0, 0;
  // x0- = (-pi/2, 0, w20, 0) below it a centre, +-i sqrt(g/(rho(1+j))), 0, 0; both for any w20.
  // Central differences with step 1e-5 leave h^2 |f'''|/6 ~ 1e-10 lambda^2 in the Jacobian; the
  // eigenvalues (the zero pair is semisimple) move by as much, so 1e-8 relative to lambda.
  Worst equilibrium("OR-9 |f(x0+-)| / (g/r)", 1e-14), eigen("OR-9 eigenvalues / lambda", 1e-8);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double lambda = std::sqrt(p.g / (p.rho() * (1 + p.j)));
    for (double w20 : {-150.0, -7.0, 0.0, 3.0, 80.0}) {
      for (int side : {+1, -1}) {
        const bb::Rolling x0(side * cm::pi / 2, 0, w20, 0);
        // An equilibrium up to cos(pi/2) = 6e-17 in double precision.
        equilibrium(m.rolling_rhs(x0).norm() / (p.g / p.r));
        const Eigen::Vector4cd computed = cm::eigenvalues(jacobian(m, x0, 1e-5));
        const std::complex<double> l = side > 0 ? std::complex<double>(lambda, 0) : std::complex<double>(0, lambda);
        std::vector<std::complex<double>> expected{l, -l, 0.0, 0.0};
        std::vector<bool> used(4, false);
        for (const auto& e : expected) {  // match each expected eigenvalue with the nearest unused one
          int best = -1;
          for (int k = 0; k < 4; ++k)
            if (!used[k] && (best < 0 || std::abs(computed(k) - e) < std::abs(computed(best) - e))) best = k;
          used[best] = true;
          eigen(std::abs(computed(best) - e) / lambda);
        }
      }
    }
  }
}

TEST(Oracles, StabilityLimitsForFastAndSlowRolling) {  // OR-10, (54), beta* (Sect. 3.2)
  // The signs of h are exact statements: no mismatch is allowed. The samples keep away from the
  // lines where the leading term vanishes (|R cos(b0) - (1+j) rho| < 1e-4 R for large omega30,
  // |cos(b0)| < 1e-6 for small omega30), where the next term of (54) may still decide the sign.
  Worst signs("OR-10 sign mismatches of h", 0), star("OR-10 |root of h(., 1e6) - beta*| [rad]", 1e-9);
  std::mt19937 rng(10);
  std::uniform_real_distribution<double> b(-cm::pi, cm::pi);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double rho = p.rho(), j = p.j;
    int mismatches = 0;
    for (int n = 0; n < 2000; ++n) {
      const double b0 = b(rng), c = std::cos(b0), lead = p.R * c - (1 + j) * rho;
      for (double w30 : {1e4, -1e4})  // the omega30^2 term of (54): unstable for |b0| < beta*
        if (std::abs(lead) > 1e-4 * p.R && (m.h(b0, w30) > 0) != (lead > 0)) ++mismatches;
      for (double w30 : {1e-3, -1e-3})  // the 1/omega30^2 term: h -> +infinity cos(b0)
        if (std::abs(c) > 1e-6 && (m.h(b0, w30) > 0) != (c > 0)) ++mismatches;
    }
    signs(mismatches);
    // beta* is where h changes sign for large omega30. At omega30 = 1e6 the lower terms of (54)
    // shift that root by ~ g/(r^2 omega30^2) / (d/dbeta of the leading coefficient) ~ 1e-10 rad.
    const double huge = 1e6;
    if (p.R > (1 + j) * rho) {
      const auto h = [&](double beta) { return m.h(beta, huge); };
      star(std::abs(bisect(h, 1e-3, cm::pi / 2 - 1e-3) - m.beta_star()));
      star(std::abs(bisect(h, -cm::pi / 2 + 1e-3, -1e-3) + m.beta_star()));
    } else {  // R <= (1+j) rho: no beta*, every fast steady motion is stable
      EXPECT_TRUE(std::isnan(m.beta_star()));
      for (double beta = -3.1; beta < 3.1; beta += 0.01) EXPECT_LT(m.h(beta, huge), 0.0) << beta;
    }
  }
}

TEST(Oracles, BetaHatIsTheDoubleRootOfTheStabilityQuadratic) {  // OR-11, (54), (55)
  // h W is a quadratic A W^2 + B W + C in W = omega30^2 (54); it is read off the model's h at
  // W = W0, 2 W0, 3 W0 with the natural scale W0 = g R / r^2, where the three terms are of similar
  // size. Its discriminant B^2 - 4 A C vanishes at cos(beta) = c_beta, the root of (55).
  Worst quadratic("OR-11 quadratic in W: 4th point, relative", 1e-12),
      root("OR-11 |cos(beta) of zero discriminant - c_beta of (55)|", 1e-10),
      identity("OR-11 discriminant vs -4 g^2 c (55)/((1+j)^3 rho^2 D^2), relative", 1e-12);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double W0 = p.g * p.R / (p.r * p.r);
    struct Quadratic {
      double A, B, C;
    };
    const auto fit = [&](double beta) {
      const auto q = [&](double k) { return m.h(beta, std::sqrt(k * W0)) * k * W0; };
      const double q1 = q(1), q2 = q(2), q3 = q(3);
      Quadratic Q;
      Q.A = (q3 - 2 * q2 + q1) / (2 * W0 * W0);
      Q.B = (q2 - q1) / W0 - 3 * Q.A * W0;
      Q.C = q1 - Q.A * W0 * W0 - Q.B * W0;
      // Rounding of terms of size |q|: 1e-12 of the largest term.
      const double scale = std::abs(Q.A) * 16 * W0 * W0 + std::abs(Q.B) * 4 * W0 + std::abs(Q.C);
      quadratic(std::abs(q(4) - (Q.A * 16 * W0 * W0 + Q.B * 4 * W0 + Q.C)) / scale);
      return Q;
    };
    const auto discriminant = [&](double c) {
      const Quadratic Q = fit(std::acos(c));
      return Q.B * Q.B - 4 * Q.A * Q.C;
    };
    // Pointwise, B^2 - 4 A C = -4 g^2 c P(c) / ((1+j)^3 rho^2 D^2), P the left side of (55) (the
    // spec's "divided by 4 g^2 cos(beta)/((1+j)^2 D^2)" leaves -P/((1+j) rho^2)). Rounding of the
    // fitted coefficients, which carry ~1e-16 of the terms of h at W0: 1e-12 relative to the
    // square of those terms, (|A| W0 + |B| + |C|/W0)^2.
    for (double c = -0.99; c < 1; c += 0.01) {
      const Quadratic Q = fit(std::acos(c));
      const double rho = p.rho(), R = p.R, j = p.j, D = R - rho * c;
      const double P = rho * rho * (1 + j) * c * c * c - R * rho * c * c + R * R * c - R * rho * (1 + j);
      identity(std::abs(Q.B * Q.B - 4 * Q.A * Q.C + 4 * p.g * p.g * c * P / (std::pow(1 + j, 3) * rho * rho * D * D)) /
               std::pow(std::abs(Q.A) * W0 + std::abs(Q.B) + std::abs(Q.C) / W0, 2));
    }
    int count = 0;
    const std::array<double, 3> roots = m.cubic55_roots(count);
    // (55) is increasing in c and equals (R - rho)(R - (1+j) rho) at c = 1: one root in (0, 1)
    // exactly when R > (1+j) rho, none in (-1, 1) otherwise.
    const bool exists = p.R > (1 + p.j) * p.rho();
    ASSERT_EQ(count, exists ? 1 : 0);
    if (!exists) {
      for (double c = 0.01; c < 1; c += 0.01) EXPECT_GT(discriminant(c), 0.0) << c;
      continue;
    }
    // The discriminant has the factor cos(beta) (a zero at c = 0), hence the bracket [1e-3, 1].
    // Bisection locates its zero down to the rounding of the fitted coefficients (~1e-15
    // relative, ~1e-15 in cos(beta)); the spec's 1e-10 leaves room for another compiler.
    const double c_beta = bisect(discriminant, 1e-3, 1.0);
    root(std::abs(c_beta - roots[0]));
    // beta-hat = arccos(c_beta) bounds the stable set: just below it h > 0 for every omega30,
    // just above it h < 0 at the double root W = -B/(2A); and beta-hat < beta* (Sect. 3.2).
    const double beta_hat = std::acos(roots[0]);
    EXPECT_LT(beta_hat, m.beta_star());
    for (double lw = -1; lw < 4; lw += 1e-3) EXPECT_GT(m.h(beta_hat - 1e-3, std::pow(10.0, lw)), 0.0);
    const Quadratic Q = fit(beta_hat + 1e-3);
    EXPECT_LT(m.h(beta_hat + 1e-3, std::sqrt(-Q.B / (2 * Q.A))), 0.0);
  }
}

TEST(Oracles, SlipConditionAtSteadyMotions) {  // OR-12, (56) = (39) with (30)-(32), (48)
  // At a steady motion F1 = 0, F2/m = r^2 w30^2 cos(b0)/D + g sin(b0) (left side of (56) over mu)
  // and |F3|/m = |r^2 w30^2 sin(b0)/D - g cos(b0)| (right side). The model computes them from
  // (31)-(32) with omega20 of (48): rounding only, 1e-12 of the force scale r^2 w30^2/D + g.
  Worst forces("OR-12 forces at steady motions / (r^2 w30^2/D + g)", 1e-12);
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> b(-cm::pi, cm::pi), w(0.5, 80);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    for (int n = 0; n < 500; ++n) {
      const double b0 = b(rng), w30 = (n % 2 ? 1 : -1) * w(rng);
      const double s = std::sin(b0), c = std::cos(b0), D = p.R - p.rho() * c;
      if (std::abs(c) < 1e-3) continue;                            // omega20 diverges at b0 = +-pi/2
      const double lhs = p.r * p.r * w30 * w30 * c / D + p.g * s;  // (56) left side / (mu m)
      const double rhs = p.r * p.r * w30 * w30 * s / D - p.g * c;  // (56) right side / m, = -F3/m
      const double scale = p.r * p.r * w30 * w30 / D + p.g;
      const bb::Force F = m.rolling_force(bb::Rolling(b0, 0, m.omega20(b0, w30), w30));
      forces(std::abs(F.F1) / scale);
      forces(std::abs(F.F2 - lhs) / scale);
      forces(std::abs(F.F3 + rhs) / scale);
      forces(std::abs(m.steady_F2(b0, w30) - lhs) / scale);
      forces(std::abs(m.steady_F3(b0, w30) + rhs) / scale);
      forces(std::abs(m.slip_margin(bb::Rolling(b0, 0, m.omega20(b0, w30), w30)) - (p.mu * lhs - std::abs(rhs))) /
             (scale * (1 + p.mu)));
    }
  }
}

TEST(Oracles, NoSlipLimitsAreArctanMu) {  // OR-13, (56), beta-tilde = arctan(mu)
  // The edges of the no-slip set of steady motions (56), from the model's slip margin, tend to
  // |b0 - pi/2| = arctan(mu) as omega30 -> 0 and to |b0| = arctan(mu) as omega30 -> infinity.
  // At omega30 = 1e-3 and 1e5 the neglected terms of (56) shift the edges by
  // ~ r^2 omega30^2/(g D) ~ 1e-7 and g D/(r^2 omega30^2) ~ 1e-8 rad: tolerance 1e-6.
  Worst edge("OR-13 |edge - limit| [rad]", 1e-6);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double tilde = std::atan(p.mu);
    const auto margin = [&](double w30) {
      return [&m, w30](double b0) { return m.slip_margin(bb::Rolling(b0, 0, m.omega20(b0, w30), w30)); };
    };
    for (double w30 : {1e-3, -1e-3})
      for (double limit : {cm::pi / 2 - tilde, cm::pi / 2 + tilde})
        edge(std::abs(bisect(margin(w30), limit - 0.05, limit + 0.05) - limit));
    for (double w30 : {1e5, -1e5})
      for (double limit : {-tilde, tilde}) edge(std::abs(bisect(margin(w30), limit - 0.05, limit + 0.05) - limit));
  }
}

TEST(Oracles, ThrowSpeedIsTheKineticEnergy) {  // OR-14, (58), (59)
  // 2T/m = |v_G|^2 + j r^2 |omega|^2 (58), with v_G = omega x (r n2) for rolling (v_C = 0, (17)),
  // computed as vectors in the contact basis; (59) must equal it. Rounding only: 1e-12 relative.
  Worst speed("OR-14 |v_throw^2 - 2T/m| / (2T/m)", 1e-12);
  std::mt19937 rng(14);
  std::uniform_real_distribution<double> b(-cm::pi, cm::pi), w(0.5, 80);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    for (int n = 0; n < 500; ++n) {
      const double b0 = b(rng), w30 = (n % 2 ? 1 : -1) * w(rng);
      if (std::abs(std::cos(b0)) < 1e-3) continue;
      const Eigen::Vector3d omega(0, m.omega20(b0, w30), w30), n2(0, 1, 0);
      const Eigen::Vector3d vG = omega.cross(p.r * n2);
      const double twoT = vG.squaredNorm() + p.j * p.r * p.r * omega.squaredNorm();
      const double v = m.throw_speed(b0, w30);
      speed(std::abs(v * v - twoT) / twoT);
    }
  }
}

TEST(Oracles, PendulumSubsystem) {  // OR-15, Prop. 6, (64)
  // omega2 = omega3 = 0 is invariant, and the rest is the pendulum (64),
  // beta'' = -g cos(beta)/(rho (1+j)), centred at beta = -pi/2.
  Worst invariant("OR-15 |omega2|, |omega3| after 10 s on the invariant set", 0),
      period("OR-15 small-oscillation period vs 2 cm::pi sqrt(rho(1+j)/g), relative", 1e-8);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double r = p.r, rho = p.rho(), j = p.j, g = p.g;
    // Integrates from (beta0, w1) on omega2 = omega3 = 0 for up to t_max s, recording the
    // zeros of omega1; returns the final state.
    const auto run = [&](double beta0, double w1, double t_max, std::vector<double>& zeros) {
      auto ode = cm::make_integrator("cvode_adams",
                                     [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = m.rolling_rhs(x); },
                                     Eigen::VectorXd(bb::Rolling(beta0, w1, 0, 0)), 0.0, {1e-12, 1e-14});
      ode->set_roots(1, [](double, cm::ConstVectorRef x, cm::VectorRef gv) { gv(0) = x(1); });
      ode->set_stop_time(t_max);
      cm::Step step{0.0, Eigen::VectorXd(), false, {}};
      do {
        step = ode->advance(t_max);
        if (step.root) zeros.push_back(step.t);
      } while (step.t < t_max);
      return bb::Rolling(step.y);
    };
    // (64) is the model on the invariant set, exactly: the omega2, omega3 rates vanish identically.
    std::vector<double> zeros;
    const bb::Rolling x1 = run(-cm::pi / 2 + 0.3, 4.0, 10.0, zeros);
    invariant(std::max(std::abs(x1(2)), std::abs(x1(3))));
    // (64), omega1' = -g cos(beta)/(r(1+j)): the same arithmetic, so rounding only.
    EXPECT_NEAR(m.rolling_rhs(bb::Rolling(0.7, 3.0, 0, 0))(1), -g * std::cos(0.7) / (r * (1 + j)), 1e-14 * g / r);
    // Small oscillations: omega1(0) = 1e-3 at the bottom gives an amplitude ~1e-4 rad; the
    // pendulum's period grows by amplitude^2/16 <= 3e-9 (the largest for "mars"); the zeros of
    // omega1 are located to ~1e-12 s at rtol 1e-12. Hence 1e-8 relative.
    zeros.clear();
    run(-cm::pi / 2, 1e-3, 3.0, zeros);
    ASSERT_GE(zeros.size(), 3u);
    const double T_lin = 2 * cm::pi * std::sqrt(rho * (1 + j) / g);
    period(std::abs((zeros[2] - zeros[0]) - T_lin) / T_lin);
    // Rotation (omega1 never 0) iff E > g rho per unit mass, E of the corrected (60). Started at
    // the bottom, E = (1+j) r^2 w1^2 / 2 - g rho. The paper's printed threshold E > m g r (Prop. 6,
    // with its (60) using g r sin(beta)) is wrong: E halfway between g r and g rho oscillates.
    const auto w1_at_bottom = [&](double E) { return std::sqrt(2 * (E + g * rho) / ((1 + j) * r * r)); };
    const double gap = 2 * g * rho;  // the pendulum's energy range, bottom to top
    for (double E : {g * rho + 0.02 * gap, g * rho - 0.02 * gap, g * (r + rho) / 2}) {
      zeros.clear();
      const bb::Rolling x0(-cm::pi / 2, w1_at_bottom(E), 0, 0), x = run(x0(0), x0(1), 10.0, zeros);
      const bool rotates = zeros.empty() && x(0) > -cm::pi / 2 + 2 * cm::pi;  // at least one revolution in 10 s
      EXPECT_NEAR(m.energy(x0), E, 1e-12 * g * rho);                          // the model's (60), rounding only
      EXPECT_EQ(rotates, m.energy(x0) > g * rho) << "E = " << E << " g rho = " << g * rho << " g r = " << g * r;
      if (E > g * r && E < g * rho) {  // the printed threshold predicts rotation here
        EXPECT_FALSE(rotates);
        // The paper's own (60) with g r sin(beta), evaluated at the start, exceeds g r as well.
        const double w1 = w1_at_bottom(E), E_printed = (1 + j) * r * r * w1 * w1 / 2 - g * r;
        EXPECT_GT(E_printed, g * r);
      }
    }
  }
}

TEST(Oracles, FloquetSystemIsTheRollingFlowAlongBeta) {  // OR-16, (62) = (34)/(36), (35)/(36)
  // Pointwise: the model's rates divided by beta' equal (62); rounding only, 1e-12 relative to
  // the size of the terms of (62).
  Worst ratio("OR-16 (34)/(36), (35)/(36) vs (62), relative", 1e-12),
      monodromy("OR-16 z(2 cm::pi) from the rolling flow vs the monodromy of (62), relative", 1e-8);
  std::mt19937 rng(16);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double rho = p.rho(), j = p.j, R = p.R;
    for (int n = 0; n < 500; ++n) {
      const bb::Rolling x = random_state(rng);
      if (std::abs(x(1)) < 1e-3) continue;
      const double beta = x(0), w2 = x(2), w3 = x(3), D = R - rho * std::cos(beta);
      const bb::Rolling xd = m.rolling_rhs(x);
      const double dw2 = R / D * w3;                                         // (62), first
      const double dw3 = -rho * std::sin(beta) / D * w3 - j / (1 + j) * w2;  // (62), second
      const double scale = R / D * std::abs(w3) + std::abs(w2) + rho / D * std::abs(w3);
      ratio(std::abs(xd(2) / xd(0) - dw2) / scale);
      ratio(std::abs(xd(3) / xd(0) - dw3) / scale);
    }
    // Integrated: roll once around the rod (beta from 0 to 2 pi, omega1 > 0 throughout) with the
    // model and compare z = (omega2, omega3) with M z(0), M the monodromy of (62) (RK4, 4000 steps,
    // error ~1e-12). The rolling flow is integrated at rtol 1e-12 and stopped by a root of
    // beta - 2 pi; 1e-8 relative to |M| covers both.
    const Eigen::Matrix2d M = bb::monodromy(rho / R, j, 4000);
    Eigen::Matrix2d Z;
    for (int col = 0; col < 2; ++col) {
      const bb::Rolling x0(0, 60, col == 0 ? 1 : 0, col == 1 ? 1 : 0);
      auto ode = cm::make_integrator("cvode_adams",
                                     [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = m.rolling_rhs(x); },
                                     Eigen::VectorXd(x0), 0.0, {1e-12, 1e-14});
      ode->set_roots(1, [](double, cm::ConstVectorRef x, cm::VectorRef gv) { gv(0) = x(0) - 2 * cm::pi; });
      const cm::Step step = ode->advance(10.0);
      ASSERT_TRUE(step.root);
      Z.col(col) = step.y.segment<2>(2);
    }
    monodromy((Z - M).norm() / M.norm());
  }
}

// (69) and (70): the conserved quantities of the cylinder (R -> infinity).
Eigen::Vector4d cylinder_invariants(double j, const bb::Rolling& x) {
  const double k = std::sqrt(j / (1 + j)), beta = x(0), w2 = x(2), w3 = x(3);
  return {w3 * std::cos(k * beta) + k * w2 * std::sin(k * beta),  // (69) P_I
          w3 * std::sin(k * beta) - k * w2 * std::cos(k * beta),  // (69) P_II
          j * w2 * w2 + (1 + j) * w3 * w3,                        // (70) P~_I
          beta - std::atan2(k * w2, w3) / k};                     // (70) P~_II, arctan_2 of (71)
}

TEST(Oracles, CylinderLimitConservedQuantities) {  // OR-19, Prop. 11, (69)-(71)
  // The limit R -> infinity of (33)-(36) (spec §5.3): beta' = r w1/rho, w1' = -g cos(beta)/(r(1+j)),
  // w2' = r w1 w3/rho, w3' = -j r w1 w2/(rho(1+j)). Integrated for 5 s at rtol 1e-12, the
  // quantities drift by ~1e-10 of their size (the global error of the integration): tolerance
  // 1e-9 relative, the spec's. P~_II is defined modulo
  // 2 pi/k (the branch of arctan_2); it is compared modulo that.
  Worst limit("OR-19 drift of (69), (70) under the limit field, relative", 1e-9),
      model("OR-19 drift of (69), (70) under the model with R = 1e12 m, relative", 1e-9),
      field("OR-19 |f_model(R) - f_limit| / (2 r |x|^2/(R - rho))", 1.0), atan2("OR-19 (71) vs atan2", 1e-14);
  std::mt19937 rng(19);
  for (const auto& [name, p0] : parameter_sets()) {
    SCOPED_TRACE(name);
    const double r = p0.r, rho = p0.rho(), j = p0.j, g = p0.g, k = std::sqrt(j / (1 + j));
    const auto f_limit = [&](const bb::Rolling& x) {
      const double w1 = x(1), w2 = x(2), w3 = x(3);
      return bb::Rolling(r * w1 / rho, -g * std::cos(x(0)) / (r * (1 + j)), r * w1 * w3 / rho,
                         -j * r * w1 * w2 / (rho * (1 + j)));
    };
    bb::Parameters p = p0;
    p.R = 1e12;
    const bb::Model m(p);
    const auto drift = [&](const bb::Rolling& x0, const bb::Rolling& x1) {
      const Eigen::Vector4d P0 = cylinder_invariants(j, x0), P1 = cylinder_invariants(j, x1);
      const double size = std::hypot(x0(2), x0(3));
      double d = P1(3) - P0(3);
      d -= 2 * cm::pi / k * std::round(d / (2 * cm::pi / k));
      return std::max({std::abs(P1(0) - P0(0)) / size, std::abs(P1(1) - P0(1)) / size,
                       std::abs(P1(2) - P0(2)) / (size * size), std::abs(d) / (1 + std::abs(P0(3)))});
    };
    for (int n = 0; n < 10; ++n) {
      const bb::Rolling x0 = random_state(rng);
      limit(drift(x0, integrate_field(f_limit, x0, 5.0)));
      model(drift(x0, integrate_field([&](const bb::Rolling& x) { return m.rolling_rhs(x); }, x0, 5.0)));
      // The model tends to the limit field: each term it adds is bounded by r |x|^2 / (R - rho).
      for (double R : {1e2, 1e4, 1e6}) {
        bb::Parameters q = p0;
        q.R = R;
        const bb::Model mR(q);
        field((mR.rolling_rhs(x0) - f_limit(x0)).cwiseAbs().maxCoeff() / (2 * r * x0.squaredNorm() / (R - rho)));
      }
      // (71) is atan2 away from its branch cut (x < 0, y = 0).
      const double y = x0(2), xx = x0(3);
      atan2(std::abs(2 * std::atan(y / (std::hypot(xx, y) + xx)) - std::atan2(y, xx)));
    }
  }
}

TEST(Oracles, SphereLimitConservedQuantities) {  // OR-20, Prop. 12, (72)
  // R = 0 in (33)-(36) (the model, built directly: the configuration keys forbid R <= rho). Then
  // D = -rho cos(beta) vanishes at beta = +-pi/2; trajectories with P_II != +-j omega2 never reach
  // it (omega3 = (P_II - j omega2 sin(beta))/((1+j) cos(beta)) would diverge at finite energy).
  // Integrated for 5 s at rtol 1e-12: drift up to ~3e-10 of the size (the global error of the
  // integration, largest where a trajectory passes near a pole), tolerance 1e-9 relative, the spec's.
  Worst sphere("OR-20 drift of (72) with R = 0, relative", 1e-9);
  std::mt19937 rng(20);
  std::uniform_real_distribution<double> b(-1.2, 1.2), w(-20, 20);
  for (const auto& [name, p0] : parameter_sets()) {
    SCOPED_TRACE(name);
    bb::Parameters p = p0;
    p.R = 0;
    const bb::Model m(p);
    const double j = p.j;
    const auto P = [&](const bb::Rolling& x) {
      return Eigen::Vector2d(x(2), x(3) * (1 + j) * std::cos(x(0)) + x(2) * j * std::sin(x(0)));  // (72)
    };
    for (int n = 0; n < 10;) {
      const bb::Rolling x0(b(rng), w(rng) / 4, w(rng), w(rng));
      const Eigen::Vector2d P0 = P(x0);
      if (std::abs(std::abs(P0(1)) - j * std::abs(P0(0))) < 1.0) continue;  // keep off the poles
      ++n;
      const bb::Rolling x1 = integrate_field([&](const bb::Rolling& x) { return m.rolling_rhs(x); }, x0, 5.0);
      sphere((P(x1) - P0).norm() / x0.tail<3>().norm());
    }
  }
}

// The contact frame (2)-(4) and the contact point (1) in the fixed basis (e1, e2, e3).
struct Frame {
  Eigen::Vector3d n1, n2, n3, rOC;
};
Frame frame(const bb::Parameters& p, double alpha, double beta) {
  const double sa = std::sin(alpha), ca = std::cos(alpha), sb = std::sin(beta), cb = std::cos(beta);
  Frame f;
  f.n1 = Eigen::Vector3d(ca, sa, 0);                                                             // (2)
  f.n3 = Eigen::Vector3d(sb * sa, -sb * ca, cb);                                                 // (3)
  f.n2 = Eigen::Vector3d(-cb * sa, cb * ca, sb);                                                 // (4)
  f.rOC = (p.R - p.a * cb) * Eigen::Vector3d(sa, -ca, 0) + p.a * sb * Eigen::Vector3d::UnitZ();  // (1)
  return f;
}

// The rotation by theta about the unit vector e, (7): corrected (cos(theta) I + ...) or as printed (I + ...).
Eigen::Matrix3d rodrigues(double theta, const Eigen::Vector3d& e, bool corrected) {
  Eigen::Matrix3d skwt;
  skwt << 0, -e.z(), e.y(), e.z(), 0, -e.x(), -e.y(), e.x(), 0;
  return (corrected ? std::cos(theta) : 1.0) * Eigen::Matrix3d::Identity() + (1 - std::cos(theta)) * e * e.transpose() +
         std::sin(theta) * skwt;
}

TEST(Oracles, Geometry) {  // OR-24, (1)-(4), (10)-(13), (19)-(20), spec §2.18
  // The model exposes D(beta) (the horizontal distance of G) and the ballistic rule land(), which
  // uses z_G = rho sin(beta) and v_G from (19)-(20); the frame itself is not exposed, so (2)-(4)
  // and (10)-(13) are checked on the paper's formulas, written out here in the fixed basis.
  // Closed forms: rounding only, 1e-12. Time derivatives: fourth-order central differences with
  // step 3e-4: truncation ~h^4 |rate|^5/30 ~ 2e-12 for |alpha'| + |beta'| <= 6 s^-1, rounding
  // ~eps/h ~ 5e-13: tolerance 1e-10.
  Worst closed("OR-24 frame, T of (6), r_OG (12), z_G, D (closed forms)", 1e-12),
      rates("OR-24 (10)-(11), (13) vs finite differences of (1)-(4)", 1e-10),
      flight("OR-24 land(): t_cross, d_cross vs free flight from (1)-(4), relative", 1e-12);
  std::mt19937 rng(24);
  std::uniform_real_distribution<double> angle(-cm::pi, cm::pi), rate(-3, 3), w(-20, 20), u(-1, 1);
  for (const auto& [name, p] : parameter_sets()) {
    SCOPED_TRACE(name);
    const bb::Model m(p);
    const double rho = p.rho(), R = p.R, r = p.r;
    for (int n = 0; n < 200; ++n) {
      const double alpha = angle(rng), beta = angle(rng), ad = rate(rng), bd = rate(rng);
      const Frame f = frame(p, alpha, beta);
      const double sb = std::sin(beta), cb = std::cos(beta);
      closed((f.n3.cross(f.n1) - f.n2).norm());  // (4): n2 = n3 x n1, a right-handed orthonormal frame
      // (5)-(6): n_i = T e_i with T = Q(beta, n1) Q(alpha, e3), Q the Rodrigues rotation (7)
      // corrected with cos(theta) on I (spec T-3). The printed (7), I + ..., is not orthogonal.
      const Eigen::Matrix3d T = rodrigues(beta, f.n1, true) * rodrigues(alpha, Eigen::Vector3d::UnitZ(), true);
      closed((T.col(0) - f.n1).norm() + (T.col(1) - f.n2).norm() + (T.col(2) - f.n3).norm());
      if (std::abs(std::cos(beta)) < 0.9) {
        const Eigen::Matrix3d Q = rodrigues(beta, f.n1, false);
        EXPECT_GT((Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm(), 0.1);  // the printed (7)
      }
      closed(std::abs(f.n1.dot(f.n2)) + std::abs(f.n2.dot(f.n3)) + std::abs(f.n3.dot(f.n1)) +
             std::abs(f.n1.norm() - 1) + std::abs(f.n2.norm() - 1) + std::abs(f.n3.norm() - 1));
      const Eigen::Vector3d rOG = f.rOC + r * f.n2;                        // G = C + r n2
      closed((rOG - ((rho - R * cb) * f.n2 + R * sb * f.n3)).norm() / R);  // (12)
      closed(std::abs(rOG.z() - rho * sb) / rho);                          // z_G = rho sin(beta)
      closed(std::abs(rOG.head<2>().norm() - p.D(beta)) / R);              // horizontal distance D
      // Along alpha(t) = alpha + ad t, beta(t) = beta + bd t: n_i' = Omega x n_i (10) with (11),
      // and r_OG' = v_G of (13).
      const Eigen::Vector3d Omega = bd * f.n1 + ad * sb * f.n2 + ad * cb * f.n3;  // (11)
      const double h = 3e-4;
      const auto d_dt = [&](const std::function<Eigen::Vector3d(const Frame&)>& get) {
        const auto at = [&](double t) { return get(frame(p, alpha + ad * t, beta + bd * t)); };
        return Eigen::Vector3d((-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h));
      };
      rates((d_dt([](const Frame& F) { return F.n1; }) - Omega.cross(f.n1)).norm());
      rates((d_dt([](const Frame& F) { return F.n2; }) - Omega.cross(f.n2)).norm());
      rates((d_dt([](const Frame& F) { return F.n3; }) - Omega.cross(f.n3)).norm());
      const Eigen::Vector3d vG = ad * (R - rho * cb) * f.n1 + bd * rho * f.n3;  // (13)
      rates((d_dt([&](const Frame& F) { return Eigen::Vector3d(F.rOC + r * F.n2); }) - vG).norm() / R);
      // The ballistic rule of land() against a free flight of G from the frame: the state
      // (beta, omega, u) gives v_G = v_C + omega x (r n2) (17); G falls freely until z = 0.
      bb::Slipping y;
      y << beta, w(rng), w(rng), w(rng), u(rng), u(rng);
      const Eigen::Vector3d omega = y(1) * f.n1 + y(2) * f.n2 + y(3) * f.n3;
      const Eigen::Vector3d v = y(4) * f.n1 + y(5) * f.n3 + omega.cross(r * f.n2);
      const double z0 = rOG.z(), tc = z0 > 0 ? (v.z() + std::sqrt(v.z() * v.z() + 2 * p.g * z0)) / p.g : 0.0;
      const Eigen::Vector3d landing = rOG + v * tc - 0.5 * p.g * tc * tc * Eigen::Vector3d::UnitZ();
      const bb::Model::Landing L = m.land(y);
      flight(std::abs(L.t_cross - tc) / (tc + 1e-3));
      flight(std::abs(L.d_cross - landing.head<2>().norm()) / R);
      if (std::abs(landing.head<2>().norm() - R) > 1e-9 * R) {
        EXPECT_EQ(L.in, landing.head<2>().norm() < R);
      }
      if (z0 > 0) {
        EXPECT_NEAR(landing.z(), 0.0, 1e-12);  // the crossing time solves z = 0
      }
    }
  }
}

}  // namespace

// Unit tests of the friction model library (paper 000): series coefficients, the Chebyshev
// conversion (84)-(85), the approximate models' structure, the limit-direction classification and
// the input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "core/math.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {
using cm::pi;
using fr::Pressure;

// The series coefficients are sums of a few products of binomial-type rationals: rounding only.
constexpr double coef_tol = 1e-15;

TEST(Series, UniformCoefficientsFromKandE) {
  const fr::SeriesCoefficients& s = fr::series_coefficients(Pressure::uniform);
  // D-SER of the spec (sympy): Q_eps1 = eps - eps^3/8 - eps^5/64 - 5 eps^7/1024 - 35 eps^9/16384 ...
  const double q[] = {1.0,           -1.0 / 8,        -1.0 / 64,        -5.0 / 1024,
                      -35.0 / 16384, -147.0 / 131072, -693.0 / 1048576, -14157.0 / 33554432};
  for (int k = 0; k < 8; ++k) EXPECT_NEAR(s.q1[k], q[k], coef_tol) << k;
  // T_eps1 = 1 - 3 eps^2/4 + 9 eps^4/64 + 5 eps^6/256 + 105 eps^8/16384
  const double t1[] = {1.0, -0.75, 9.0 / 64, 5.0 / 256, 105.0 / 16384};
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(s.t1[k], t1[k], coef_tol) << k;
  // T_eps2 = 3x/8 + x^3/32 + 9x^5/1024 + 15x^7/4096 + 245 x^9/131072 + ...
  const double t2[] = {3.0 / 8,        1.0 / 32,       9.0 / 1024,         15.0 / 4096,
                       245.0 / 131072, 567.0 / 524288, 22869.0 / 33554432, 61347.0 / 134217728};
  for (int k = 0; k < 8; ++k) EXPECT_NEAR(s.t2[k], t2[k], coef_tol) << k;
}

TEST(Series, HertzCoefficientsFromArcsin) {
  const fr::SeriesCoefficients& s = fr::series_coefficients(Pressure::hertz);
  const double q2[] = {1.0,         -1.0 / 10,     -3.0 / 280,    -1.0 / 336,
                       -5.0 / 4224, -21.0 / 36608, -21.0 / 66560, -33.0 / 174080};
  for (int k = 0; k < 8; ++k) EXPECT_NEAR(s.q2[k], q2[k], coef_tol) << k;
  const double t2[] = {16.0 / 15,    8.0 / 105,    2.0 / 105,    5.0 / 693,
                       35.0 / 10296, 21.0 / 11440, 77.0 / 70720, 143.0 / 206720};
  for (int k = 0; k < 8; ++k) EXPECT_NEAR(s.t2[k] * pi, t2[k], 4 * coef_tol) << k;
}

TEST(Series, ContinuousAtTheSwitchPoints) {
  // closed form and series agree at eps = 1/2 and 2 to a few units of rounding (1e-14 absolute)
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    for (double e : {0.5, 2.0}) {
      const fr::QT a = fr::closed_form_eps(p, e), b = fr::series_eps(p, e);
      EXPECT_NEAR(a.Q, b.Q, 1e-14);
      EXPECT_NEAR(a.T, b.T, 1e-14);
    }
  }
}

TEST(Chebyshev, TableOfTheConversion) {
  // spec 000 §2.11: P_i and U_i for i = 1..4 (exact small integers)
  const std::vector<std::vector<double>> P{{1}, {1, -4}, {1, -12, 16}, {1, -24, 80, -64}};
  const std::vector<std::vector<double>> U{{1}, {3, -4}, {5, -20, 16}, {7, -56, 112, -64}};
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(fr::chebyshev_P(i), P[i - 1]) << i;
    EXPECT_EQ(fr::chebyshev_U(i), U[i - 1]) << i;
  }
}

TEST(Harmonic, ConversionOfDegreeTwoIsEquation94) {
  fr::HarmonicCoefficients h{{0.9, 0.1}, {0.8, -0.07}};
  const fr::PolynomialModel m = fr::harmonic_model(h, 2);
  EXPECT_DOUBLE_EQ(m.C_coefficients()[0], 0.9 + 0.1);       // C1 = c1 + c2
  EXPECT_DOUBLE_EQ(m.C_coefficients()[1], -4 * 0.1);        // C2 = -4 c2
  EXPECT_DOUBLE_EQ(m.S_coefficients()[0], 0.8 - 3 * 0.07);  // S1 = s1 + 3 s2
  EXPECT_DOUBLE_EQ(m.S_coefficients()[1], 4 * 0.07);        // S2 = -4 s2
}

// An expansion of degree N = 1..5 in its polynomial form (84)-(88), `polynomial(N)`, against its
// series form `series(N, theta)` on a theta grid.
template <class Series, class Polynomial>
void expect_polynomial_equals_series(const Series& series, const Polynomial& polynomial) {
  for (int N = 1; N <= 5; ++N) {
    const fr::PolynomialModel m = polynomial(N);
    for (double th = -1.5; th <= 1.5; th += 0.01) {
      const fr::QT f = series(N, th), g = m.theta_form(th);
      // polynomial evaluation of degree <= 8 in w3 with coefficients up to ~300: 1e-13
      EXPECT_NEAR(f.Q, g.Q, 1e-13) << N << " " << th;
      EXPECT_NEAR(f.T, g.T, 1e-13) << N << " " << th;
    }
  }
}

TEST(Harmonic, PolynomialEqualsFourierForm) {
  fr::HarmonicCoefficients h{{0.97, 0.08, -0.03, -0.02, 0.001}, {0.97, -0.08, -0.06, 0.002, 0.016}};
  expect_polynomial_equals_series([&](int N, double th) { return fr::harmonic_theta(h, N, th); },
                                  [&](int N) { return fr::harmonic_model(h, N); });
}

// Legendre polynomials (Sect. 6.1) against their explicit forms, and the series' three forms
// (recurrence, monomials, sum) against each other: small rationals, rounding only.
TEST(Legendre, PolynomialsAreTheExplicitOnes) {
  const std::vector<std::vector<double>> P{{1}, {0, 1}, {-0.5, 0, 1.5}, {0, -1.5, 0, 2.5}, {0.375, 0, -3.75, 0, 4.375}};
  for (int n = 0; n <= 4; ++n) {
    const std::vector<double> m = fr::legendre_monomials(n);
    ASSERT_EQ(m.size(), P[n].size()) << n;
    for (std::size_t j = 0; j < m.size(); ++j) EXPECT_NEAR(m[j], P[n][j], coef_tol) << n << " " << j;
  }
  for (double x = -1.0; x <= 1.0; x += 0.05) {
    EXPECT_NEAR(fr::legendre_P(7, x),
                (429 * std::pow(x, 7) - 693 * std::pow(x, 5) + 315 * std::pow(x, 3) - 35 * x) / 16, coef_tol * 50);
    EXPECT_NEAR(fr::legendre_sum({0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0}, x), fr::legendre_P(7, x), coef_tol);
  }
}

// A polynomial of degree <= n is its own Legendre series of degree n: the projection returns it to
// rounding, and its coefficients beyond its degree are 0. Checked with an independent
// representation of the polynomial (monomials, Horner), for no parity and for each parity.
TEST(Legendre, ReproducesPolynomialsOfItsDegree) {
  const std::vector<double> c{0.3, -1.2, 0.7, 2.1, -0.4, 0.9, -1.7, 0.25};  // degree 7
  const auto poly = [](const std::vector<double>& a, double x) {
    double s = 0.0;
    for (auto it = a.rbegin(); it != a.rend(); ++it) s = s * x + *it;
    return s;
  };
  std::vector<double> even = c, odd = c;
  for (std::size_t j = 0; j < c.size(); ++j) (j % 2 == 0 ? odd : even)[j] = 0.0;
  struct Case {
    std::vector<double> a;
    fr::Parity parity;
    std::vector<double> breaks;
  };
  for (const Case& k :
       {Case{c, fr::Parity::none, {-0.3, 0.4}}, Case{even, fr::Parity::even, {0.5}}, Case{odd, fr::Parity::odd, {}}}) {
    for (int n : {7, 10}) {
      const std::vector<double> a =
          fr::legendre_series([&](double x) { return poly(k.a, x); }, n, k.parity, k.breaks, 1e-14, "test");
      ASSERT_EQ(a.size(), static_cast<std::size_t>(n) + 1);
      for (int j = 8; j <= n; ++j) EXPECT_NEAR(a[j], 0.0, 1e-14) << j;
      // a Gauss-Kronrod rule exact for degree 91 on each piece: rounding of sums of O(1) terms
      for (double x = -1.0; x <= 1.0; x += 0.01) EXPECT_NEAR(fr::legendre_sum(a, x), poly(k.a, x), 1e-13) << x;
    }
  }
}

// The projection of |x|, known in closed form: a_0 = 1/2 and
// a_2k = (-1)^(k+1) (4k + 1) (2k - 2)! / (2^(2k) (k - 1)! (k + 1)!), k >= 1.
// Its series converges like 1/n in the maximum norm (the kink at x = 0): the error at x = 0 of the
// series of degree 2m falls monotonically and halves, within 10 %, when the degree doubles.
TEST(Legendre, ProjectionOfAbsConverges) {
  const auto f = [](double x) { return std::abs(x); };
  // quadrature at 1e-12 relative to the L1 norm of |x| P_n, times 2n + 1 <= 129: 1e-10
  const std::vector<double> a = fr::legendre_series(f, 64, fr::Parity::even, {}, 1e-12, "|x|");
  EXPECT_NEAR(a[0], 0.5, 1e-10);
  double factorial_ratio = 0.5;  // (2k - 2)! / ((k - 1)! (k + 1)!) at k = 1
  for (int k = 1; 2 * k <= 64; ++k) {
    const double closed = ((k % 2 == 1) ? 1.0 : -1.0) * (4.0 * k + 1.0) * factorial_ratio / std::pow(4.0, k);
    EXPECT_NEAR(a[2 * k], closed, 1e-10) << 2 * k;
    factorial_ratio *= (2.0 * k - 1.0) * (2.0 * k) / (k * (k + 2.0));  // k -> k + 1
  }
  const auto error_at_kink = [&](int n) {
    return std::abs(fr::legendre_sum(std::vector<double>(a.begin(), a.begin() + n + 1), 0.0));
  };
  double previous = INFINITY;
  for (int n = 2; n <= 64; n += 2) {
    EXPECT_LT(error_at_kink(n), previous) << n;
    previous = error_at_kink(n);
  }
  for (int n : {16, 32}) EXPECT_NEAR(error_at_kink(2 * n) / error_at_kink(n), 0.5, 0.05) << n;
}

// The Legendre expansion of the friction law (Sect. 6.1) in its polynomial form (84)-(88) equals
// its series form, for either force function.
TEST(Legendre, PolynomialEqualsSeriesForm) {
  for (fr::LegendreForce force : {fr::LegendreForce::w12, fr::LegendreForce::w3}) {
    const fr::LegendreCoefficients l{force, {0.92, 0.06, -0.03, -0.01, 0.004}, {0.94, -0.05, -0.04, 0.003, 0.01}};
    expect_polynomial_equals_series([&](int N, double th) { return fr::legendre_theta(l, N, th); },
                                    [&](int N) { return fr::legendre_model(l, N); });
  }
}

TEST(Legendre, RejectsNegativeDegrees) {
  EXPECT_THROW(fr::legendre_P(-1, 0.5), cm::InputError);
  EXPECT_THROW(fr::legendre_monomials(-2), cm::InputError);
  EXPECT_THROW(fr::legendre_series([](double x) { return x; }, -1, fr::Parity::odd, {}, 1e-12, "x"), cm::InputError);
  EXPECT_THROW(fr::legendre_coefficients(Pressure::uniform, 1.0, 0, fr::LegendreForce::w12), cm::InputError);
  const fr::LegendreCoefficients l{fr::LegendreForce::w12, {1.0}, {1.0}};
  EXPECT_THROW(fr::legendre_theta(l, 2, 0.3), cm::InputError);
  EXPECT_THROW(fr::legendre_model(l, 0), cm::InputError);
}

TEST(Models, FittedLinearIsMinusW) {
  const fr::FittedLinearModel m;
  const Eigen::Vector3d w = Eigen::Vector3d(0.3, -0.4, 0.5).normalized();
  EXPECT_EQ(m.n(w), -w);
  // (71): Q = cos(theta), T = sin(theta)
  EXPECT_NEAR(m.theta_form(0.7).Q, std::cos(0.7), 1e-16);
  EXPECT_NEAR(m.theta_form(0.7).T, std::sin(0.7), 1e-16);
}

TEST(Models, SeriesModelPrintedAndCorrected) {
  // (79) at eps = 1: 0.4101563 (5/384) vs 0.4034675 (5/584); branch 2 at eps = 1 gives 0.4150391
  EXPECT_NEAR(fr::series_model_eps(1.0, false).T, 1.5 * (2.0 / 3 - 0.5 + 3.0 / 32 + 5.0 / 384), 1e-15);
  EXPECT_NEAR(fr::series_model_eps(1.0, true).T, 1.5 * (2.0 / 3 - 0.5 + 3.0 / 32 + 5.0 / 584), 1e-15);
}

TEST(Models, MakeModelRejectsUnknownNames) {
  fr::HarmonicCoefficients h{{1.0}, {1.0}};
  EXPECT_THROW(fr::make_model("k", "N2", Pressure::uniform, 1.0, h), cm::InputError);
  EXPECT_THROW(fr::make_model("k", "nonsense", Pressure::uniform, 1.0, h), cm::InputError);
  EXPECT_THROW(fr::make_model("k", "series", Pressure::hertz, 1.0, h), cm::InputError);
  EXPECT_NO_THROW(fr::make_model("k", "N1", Pressure::uniform, 1.0, h));
}

TEST(Exact, RejectsBadArguments) {
  EXPECT_THROW(fr::exact_eps(Pressure::uniform, -1.0), cm::InputError);
  EXPECT_THROW(fr::exact_eps(Pressure::uniform, NAN), cm::InputError);
  EXPECT_THROW(fr::exact_w3(Pressure::uniform, 1.0, 1.5), cm::InputError);
  EXPECT_THROW(fr::pressure_from_name("parabolic"), cm::InputError);
  EXPECT_THROW(fr::exact_resultant(Pressure::uniform, 1.0, Eigen::Vector3d::Zero()), cm::InputError);
}

TEST(Dynamics, TestProblemCoefficients) {
  // (126): disc a = kappa rho/(j Rbar^2) = 8/9 with rho = kappa = 2R/3, j = 1/2, Rbar = R
  const fr::TestProblem d = fr::disc_problem(0.5, 2.0 / 3, 2.0 / 3, 1.0, 0.0);
  EXPECT_NEAR(d.a, 8.0 / 9, 1e-15);
  EXPECT_EQ(d.b, 1.0);
  // (139): ball b = 7/2, a = 45 pi^2/(512 lambda^2)
  const double k = 3 * pi / 16;
  const fr::TestProblem b = fr::ball_problem(0.4, k, k, 5.0, 0.0);
  EXPECT_NEAR(b.b, 3.5, 1e-15);
  EXPECT_NEAR(b.a, 45 * pi * pi / (512 * 25), 1e-15);
}

TEST(Dynamics, LinearModelLimitDirectionsAreEquation135) {
  // (135): w1 = f/(C1 - 8/9 S1) for the fitted model (C1 = S1 = 1): w1 = 9 f
  const fr::FittedLinearModel m;
  fr::LimitDirectionAnalysis A(m, fr::disc_problem(0.5, 2.0 / 3, 2.0 / 3, 1.0, 0.05));
  int found = 0;
  for (const fr::LimitDirection& ld : A.limit_directions()) {
    if (ld.trivial) continue;
    EXPECT_NEAR(ld.w(0), 9 * 0.05, 1e-12);  // root finding to full precision
    EXPECT_EQ(ld.colour, fr::Colour::blue);
    ++found;
  }
  EXPECT_EQ(found, 2);
}

TEST(Dynamics, FibonacciSeedsAreUnitVectors) {
  for (const Eigen::Vector3d& w : fr::fibonacci_sphere(50)) EXPECT_NEAR(w.norm(), 1.0, 1e-15);
}

}  // namespace

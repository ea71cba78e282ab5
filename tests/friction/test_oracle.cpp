// Oracle tests of paper 000: the exact resultants against direct 2-D quadrature of the pressure
// field (20)-(23), the symmetric and limiting cases, the closed forms of Sect. 7 and identities.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core/errors.hpp"
#include "core/math.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"
#include "friction/properties.hpp"

namespace {
using cm::pi;
using fr::Pressure;

Eigen::Vector3d random_direction(std::mt19937_64& gen) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Eigen::Vector3d(n(gen), n(gen), n(gen)).normalized();
}

// The acceptance: closed forms (with the series switch) agree with direct 2-D quadrature of
// the pressure field to 1e-10 on a sweep of slip directions (both pressures, rho = kappa and R).
// The quadrature is converged to ~1e-13, so 1e-10 leaves a margin for rounding of both routes.
TEST(ExactVsDirect, SweepOfDirections) {
  std::mt19937_64 gen(20240917);
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    for (double rho : {fr::kappa_closed_form(p), 1.0}) {
      for (int i = 0; i < 12; ++i) {
        const Eigen::Vector3d w = random_direction(gen);
        const Eigen::Vector3d a = fr::exact_resultant(p, rho, w), b = fr::direct_resultant(p, rho, w, 1e-12);
        EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-10) << fr::pressure_name(p) << " w = " << w.transpose();
      }
      // and at the special slip-spin ratios: eps = 1 (ICR on the edge), small and large eps
      for (double eps : {1e-3, 0.5, 1.0, 2.0, 50.0}) {
        const double w12 = eps / std::hypot(eps, rho), w3 = rho / std::hypot(eps, rho);
        const Eigen::Vector3d w(-0.6 * w12, 0.8 * w12, -w3);
        const Eigen::Vector3d a = fr::exact_resultant(p, rho, w), b = fr::direct_resultant(p, rho, w, 1e-12);
        EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-10) << fr::pressure_name(p) << " eps = " << eps;
      }
    }
  }
}

// The ring integral (a third route) against the closed forms over eps: 1e-11 (quadrature at 1e-13).
TEST(ExactVsRing, SweepOfEps) {
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    for (int i = 0; i <= 60; ++i) {
      const double e = std::pow(10.0, -2.0 + 4.0 * i / 60.0);
      const fr::QT a = fr::exact_eps(p, e), b = fr::ring_eps(p, e);
      EXPECT_NEAR(a.Q, b.Q, 1e-11) << e;
      EXPECT_NEAR(a.T, b.T, 1e-11) << e;
    }
  }
}

// Prop. 2: pure translation (40) and pure spin (41), exactly.
TEST(Limits, PureSlipAndPureSpinAreExact) {
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    for (double rho : {fr::kappa_closed_form(p), 1.0}) {
      const Eigen::Vector3d slip = fr::exact_resultant(p, rho, Eigen::Vector3d(0.6, -0.8, 0.0));
      EXPECT_EQ(slip, Eigen::Vector3d(-0.6, 0.8, 0.0));
      const Eigen::Vector3d spin = fr::exact_resultant(p, rho, Eigen::Vector3d(0.0, 0.0, -2.0));
      EXPECT_EQ(spin, Eigen::Vector3d(0.0, 0.0, fr::kappa_closed_form(p) / rho));
      // the direct quadrature gives the same to its accuracy (1e-12)
      EXPECT_LT((fr::direct_resultant(p, rho, Eigen::Vector3d(0.6, -0.8, 0.0)) - slip).norm(), 1e-12);
      EXPECT_LT((fr::direct_resultant(p, rho, Eigen::Vector3d(0.0, 0.0, -2.0)) - spin).norm(), 1e-12);
    }
    // (55): the eps forms at 0 and infinity
    EXPECT_EQ(fr::exact_eps(p, 0.0).Q, 0.0);
    EXPECT_EQ(fr::exact_eps(p, 0.0).T, 1.0);
    EXPECT_EQ(fr::exact_eps(p, INFINITY).Q, 1.0);
    EXPECT_EQ(fr::exact_eps(p, INFINITY).T, 0.0);
  }
}

// O3: values at eps = 1, where K(1) = inf multiplies 0; both branches meet (2 ulp).
TEST(Limits, ValuesAtEpsOne) {
  EXPECT_NEAR(fr::exact_eps(Pressure::uniform, 1.0).Q, 8.0 / (3 * pi), 1e-15);
  EXPECT_NEAR(fr::exact_eps(Pressure::uniform, 1.0).T, 4.0 / (3 * pi), 1e-15);
  EXPECT_NEAR(fr::exact_eps(Pressure::hertz, 1.0).Q, 9 * pi / 32, 1e-15);
  EXPECT_NEAR(fr::exact_eps(Pressure::hertz, 1.0).T, 3.0 / 8, 1e-15);
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    const fr::QT lo = fr::exact_eps(p, 1.0 - 1e-12), hi = fr::exact_eps(p, 1.0 + 1e-12);
    // the log terms of K near m = 1 leave ~1e-11 of slope-times-step: 1e-10
    EXPECT_NEAR(lo.Q, hi.Q, 1e-10);
    EXPECT_NEAR(lo.T, hi.T, 1e-10);
  }
}

// O1: kappa (39) and the load (38) by quadrature: 2/3, 3 pi/16, pi/4 (rounding: 1e-14).
TEST(Limits, KappaAndLoad) {
  for (Pressure p : {Pressure::uniform, Pressure::hertz, Pressure::galin}) {
    EXPECT_NEAR(fr::kappa_by_quadrature(p), fr::kappa_closed_form(p), 1e-14);
    EXPECT_NEAR(fr::load_by_quadrature(p), 1.0, 1e-14);
  }
  EXPECT_NEAR(fr::kappa_closed_form(Pressure::uniform), 2.0 / 3, 0.0);
  EXPECT_NEAR(fr::kappa_closed_form(Pressure::hertz), 3 * pi / 16, 0.0);
}

// O4: Q(eps) = eps Q(1/eps) for the uniform pressure (an identity of (59)); rounding only.
TEST(Identities, UniformInversion) {
  for (int i = 0; i <= 100; ++i) {
    const double e = std::pow(10.0, -3.0 + 6.0 * i / 100.0);
    EXPECT_NEAR(fr::exact_eps(Pressure::uniform, e).Q, e * fr::exact_eps(Pressure::uniform, 1.0 / e).Q,
                1e-15 * std::max(1.0, e));  // a few ulp of the two evaluations
  }
}

// Props. 1, 3, 4, 5 and dissipation (O8) for the exact law and every approximate model.
TEST(Symmetries, PropositionsOneToFive) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> ang(-pi, pi), lam(0.1, 10.0);
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    const double rho = fr::kappa_closed_form(p);
    const fr::HarmonicCoefficients h = fr::harmonic_coefficients(p, rho, 4);
    for (const std::string name : {"exact", "fitted", "N1", "N2", "N3", "N4"}) {
      const auto m = fr::make_model("test", name, p, rho, h);
      for (int i = 0; i < 200; ++i) {
        const Eigen::Vector3d w = random_direction(gen);
        const Eigen::Vector3d n = m->n(w);
        // Prop. 1 (24): homogeneity of degree 0 (the exact law also off the unit sphere)
        if (name == "exact") {
          const double l = lam(gen);
          EXPECT_LT((fr::exact_resultant(p, rho, l * w) - fr::exact_resultant(p, rho, w)).norm(), 1e-14);
        }
        // Prop. 3 (42): omega -> -omega keeps Q_x, Q_y and flips T_z; (43): u -> -u flips Q, keeps T
        const Eigen::Vector3d a = m->n(Eigen::Vector3d(w(0), w(1), -w(2)));
        EXPECT_NEAR(a(0), n(0), 1e-14);
        EXPECT_NEAR(a(1), n(1), 1e-14);
        EXPECT_NEAR(a(2), -n(2), 1e-14);
        const Eigen::Vector3d b = m->n(Eigen::Vector3d(-w(0), -w(1), w(2)));
        EXPECT_NEAR(b(0), -n(0), 1e-14);
        EXPECT_NEAR(b(1), -n(1), 1e-14);
        EXPECT_NEAR(b(2), n(2), 1e-14);
        // Prop. 4 (44): Q_x u_y - Q_y u_x = 0
        EXPECT_NEAR(n(0) * w(1) - n(1) * w(0), 0.0, 1e-15);
        // Prop. 5 (45) with the sign typo corrected: rotating u rotates Q, keeps T
        const double al = ang(gen), c = std::cos(al), s = std::sin(al);
        const Eigen::Vector3d r = m->n(Eigen::Vector3d(c * w(0) - s * w(1), s * w(0) + c * w(1), w(2)));
        EXPECT_NEAR(r(0), c * n(0) - s * n(1), 1e-14);
        EXPECT_NEAR(r(1), s * n(0) + c * n(1), 1e-14);  // Q_y' = Q_x sin(a) + Q_y cos(a)
        EXPECT_NEAR(r(2), n(2), 1e-14);
        // O8: dissipation, Q . x_o < 0 with Q/(mu P) = (n1, n2, (kappa/rho) n3)
        EXPECT_LT(n(0) * w(0) + n(1) * w(1) + (fr::kappa_closed_form(p) / rho) * n(2) * w(2), 0.0);
      }
    }
  }
}

// The checks of the study `properties` on random velocities of random size (not its grid), other
// rho and other lambda and alpha: Props. 1, 3, 4 and 5 hold to the rounding of a quadrature run at
// 1e-13 (1e-12: ten times that, for the sums of O(1) terms); the printed (45) does not hold.
TEST(Properties, PropositionsOnRandomVelocities) {
  std::mt19937_64 gen(2718);
  std::uniform_real_distribution<double> size(0.01, 100.0);
  std::vector<Eigen::Vector3d> x;
  for (int i = 0; i < 8; ++i) x.push_back(size(gen) * random_direction(gen));
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    for (double rho : {0.3, 2.5}) {
      EXPECT_LT(fr::homogeneity_error(p, rho, x, {0.03, 7.3, 250.0}, 1e-13), 1e-12);
      EXPECT_LT(fr::reflection_error(p, rho, x, 1e-13), 1e-12);
      EXPECT_LT(fr::collinearity_error(p, rho, {x[0].normalized(), x[1].normalized()}, 1e-13), 1e-12);
      EXPECT_LT(fr::rotation_covariance_error(p, rho, x, {-1.1, 0.2, 3.0}, 1.0, 1e-13), 1e-12);
      EXPECT_GT(fr::rotation_covariance_error(p, rho, x, {-1.1, 0.2, 3.0}, -1.0, 1e-13), 0.1);
    }
  }
}

// (75): the centred quadrature of the point-contact check against the exact law (closed forms) at
// finite R; the error falls like R^2 (its leading term is a power series in (R omega_z/|u|)^2, so
// the ratio for R and R/10 is 100 to within 1e-2) and is below 1e-12 at R = 1e-7.
TEST(Properties, PointContactLimit) {
  std::mt19937_64 gen(31);
  std::uniform_real_distribution<double> comp(-2.0, 2.0);
  int checked = 0;
  for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
    for (int i = 0; i < 6; ++i) {
      const Eigen::Vector3d v(comp(gen), comp(gen), comp(gen));
      const double un = std::hypot(v(0), v(1));
      if (un < 0.2) continue;
      ++checked;
      const double R = 0.05;
      const Eigen::Vector3d q = fr::exact_resultant(p, 1.0, Eigen::Vector3d(v(0), v(1), R * v(2)));
      const double expected = std::max({std::abs(q(0) + v(0) / un), std::abs(q(1) + v(1) / un), std::abs(R * q(2))});
      EXPECT_NEAR(fr::point_contact_error(p, {v}, R, 1e-13), expected, 1e-12);
      const double e3 = fr::point_contact_error(p, {v}, 1e-3, 1e-13), e4 = fr::point_contact_error(p, {v}, 1e-4, 1e-13);
      EXPECT_NEAR(e3 / e4, 100.0, 1.0);
      EXPECT_LT(fr::point_contact_error(p, {v}, 1e-7, 1e-13), 1e-12);
    }
  }
  EXPECT_GE(checked, 8);
  // the instantaneous centre inside the contact, or no translation, is refused
  EXPECT_THROW(fr::point_contact_error(Pressure::uniform, {Eigen::Vector3d(1.0, 0.0, 1.0)}, 0.6, 1e-13),
               cm::InputError);
  EXPECT_THROW(fr::point_contact_error(Pressure::uniform, {Eigen::Vector3d(0.0, 0.0, 1.0)}, 1e-3, 1e-13),
               cm::InputError);
}

// (72) is (70)-(71) through (35), (54) for any rho/R; the velocity grid is on the unit sphere with
// no pole.
TEST(Properties, LinearFormsAndGrid) {
  std::vector<double> eps;
  for (int i = 0; i <= 400; ++i) eps.push_back(0.05 * i);
  for (double r : {0.01, 0.4, 7.0}) EXPECT_LT(fr::linear72_vs_71_error(r, eps), 1e-15);
  const std::vector<Eigen::Vector3d> x = fr::velocity_grid(5, 4);
  ASSERT_EQ(x.size(), 20u);
  for (const Eigen::Vector3d& v : x) {
    EXPECT_NEAR(v.norm(), 1.0, 1e-15);
    EXPECT_GT(std::hypot(v(0), v(1)), 0.1);
  }
}

// O11-O13: bifurcation values of the exact model in closed form (root finding to ~1e-11).
TEST(LimitDirections, ExactDiscAndBall) {
  const double k = 2.0 / 3;
  fr::ExactModel disc_model(Pressure::uniform, k);
  fr::LimitDirectionAnalysis disc(disc_model, fr::disc_problem(0.5, k, k, 1.0, 0.0));
  EXPECT_NEAR(disc.tangency_force(0.0, 10.0), 1.0, 1e-10);  // F_T = mu m g
  EXPECT_NEAR(disc.pitchfork_force(-5.0, 5.0), 0.5, 1e-9);  // F_P = mu m g (1 - kappa R tau_inf/(j Rbar^2))
  for (double lambda : {2.0, 5.0, 10.0}) {
    const double kb = 3 * pi / 16;
    fr::ExactModel ball_model(Pressure::hertz, kb);
    fr::LimitDirectionAnalysis ball(ball_model, fr::ball_problem(0.4, kb, kb, lambda, 0.0));
    EXPECT_NEAR(ball.g_at_zero(), 3.5 - 0.5 / (lambda * lambda), 1e-9);  // O12
    EXPECT_TRUE(ball.folds().empty());
  }
  // O13: the force-free stop direction solves Q(eps)/eps = (4/3) T(eps)
  const auto roots = disc.force_free_roots();
  ASSERT_EQ(roots.size(), 1u);
  const double eps0 = k / std::tan(roots[0]);
  const fr::QT q = fr::exact_eps(Pressure::uniform, eps0);
  EXPECT_NEAR(q.Q / eps0, 4.0 / 3 * q.T, 1e-10);
}

// O15 and (119): closed-form eigenvalues at the trivial LDs against the Eigen decomposition.
TEST(LimitDirections, EigenvaluesAtTrivialDirections) {
  const fr::HarmonicCoefficients h = fr::harmonic_coefficients(Pressure::uniform, 2.0 / 3, 2);
  const fr::PolynomialModel m = fr::harmonic_model(h, 2);
  const double k1 = m.C_coefficients()[0] - 8.0 / 9 * m.S_coefficients()[0];
  for (double f : {0.02, 0.2, 0.7, 1.2}) {
    fr::LimitDirectionAnalysis A(m, fr::disc_problem(0.5, 2.0 / 3, 2.0 / 3, 1.0, f));
    double li = 0, lo = 0;
    A.eigen_on_circle(0.0, li, lo);
    // fourth-order differences with h = 1e-3 on polynomials of degree <= 4: 1e-10
    EXPECT_NEAR(lo, -f, 1e-10);
    EXPECT_NEAR(li, k1 - f, 1e-10);
    A.eigen_on_circle(pi, li, lo);
    EXPECT_NEAR(lo, f, 1e-10);
    EXPECT_NEAR(li, k1 + f, 1e-10);
    EXPECT_NEAR(A.Rstar(Eigen::Vector3d(1, 0, 0)), -m.C_coefficients()[0] + f, 1e-15);  // (129)
    // central-difference Jacobian (h = 1e-6): ~1e-9
    const Eigen::Vector3cd ev = A.eigen_full(Eigen::Vector3d(1, 0, 0));
    std::vector<double> got{ev(0).real(), ev(1).real(), ev(2).real()}, want{0.0, k1 - f, -f};
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-8);
  }
}

// Spec-derived reference values [D] (mpmath, 20-45 digits): harmonic coefficients (83) for the
// uniform pressure with rho = kappa. Tolerance 1e-11: the quadrature runs at 1e-13.
TEST(Regression, HarmonicCoefficientsUniformKappa) {
  const fr::HarmonicCoefficients h = fr::harmonic_coefficients(Pressure::uniform, 2.0 / 3, 6);
  const double c[] = {0.9659891385842,   0.08133146576906,  -0.0344578247846,
                      -0.02077629515076, 0.001398834915136, 0.007005004861808};
  const double s[] = {0.9746106187583,   -0.07845763904438, -0.06141563810346,
                      0.001520714208718, 0.01594328347557,  0.004894998505819};
  // the [D] values are printed to 13 significant digits: 1e-11 covers their rounding
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(h.c[i], c[i], 1e-11) << i;
    EXPECT_NEAR(h.s[i], s[i], 1e-11) << i;
  }
}

// The Legendre expansion of the exact law (Sect. 6.1) is the L2 projection in the Legendre weight:
// its squared error over [0, 1] (T_w in w3, Qbar_w in w12, both odd) is Parseval's
// ||f||^2 - sum_i a_i^2 / (4i - 1) and never grows with N. The norms here come from composite
// Simpson on 20000 panels, independent of the projection's adaptive quadrature; its error on the
// C^1 law is below 1e-9, so Parseval is checked to 1e-8.
TEST(Legendre, ProjectionOfTheExactLawIsOptimal) {
  const double rho = 2.0 / 3;
  const int N_max = 8;
  const fr::LegendreCoefficients l = fr::legendre_coefficients(Pressure::uniform, rho, N_max, fr::LegendreForce::w12);
  const auto simpson = [](const auto& g) {
    const int n = 20000;
    double sum = g(0.0) + g(1.0);
    for (int j = 1; j < n; ++j) sum += (j % 2 == 1 ? 4.0 : 2.0) * g(static_cast<double>(j) / n);
    return sum / (3.0 * n);
  };
  for (int which = 0; which < 2; ++which) {  // 0: T_w(w3) at theta = asin w3, 1: Qbar_w(w12) at theta = acos w12
    const auto f = [&](double x) {
      return which == 0 ? fr::exact_theta(Pressure::uniform, rho, std::asin(x)).T
                        : fr::exact_theta(Pressure::uniform, rho, std::acos(x)).Q;
    };
    const std::vector<double>& a = which == 0 ? l.b : l.a;
    double norm2 = simpson([&](double x) { return f(x) * f(x); }), previous = INFINITY, bessel = norm2;
    for (int N = 1; N <= N_max; ++N) {
      const double err2 = simpson([&](double x) {
        const double theta = which == 0 ? std::asin(x) : std::acos(x);
        const fr::QT m = fr::legendre_theta(l, N, theta);
        const double e = (which == 0 ? m.T : m.Q) - f(x);
        return e * e;
      });
      bessel -= a[N - 1] * a[N - 1] / (4.0 * N - 1.0);  // ||P_(2N-1)||^2 over [0, 1]
      EXPECT_NEAR(err2, bessel, 1e-8) << which << " N=" << N;
      EXPECT_LT(err2, previous) << which << " N=" << N;
      previous = err2;
    }
  }
}

}  // namespace

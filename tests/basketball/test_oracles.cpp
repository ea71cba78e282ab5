// Oracles of paper 004 (spec 004 §5.3): exact and closed-form properties of the basketball model.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "common/sundials.hpp"

namespace {

const double pi = 3.14159265358979323846;

// Integrates the rolling system (33)-(36) from x0 to t with CVODE (Adams) at tight tolerances.
bb::Rolling integrate(const bb::Model& m, const bb::Rolling& x0, double t, double rtol = 1e-12) {
  auto ode =
      cm::make_integrator("cvode_adams", [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = m.rolling_rhs(x); },
                          Eigen::VectorXd(x0), 0.0, {rtol, 1e-14});
  ode->set_stop_time(t);
  return ode->advance(t).y;
}

bb::Rolling random_state(std::mt19937& rng) {
  std::uniform_real_distribution<double> b(-pi, pi), w(-20, 20);
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
    if (std::abs(std::abs(b0) - pi / 2) < 0.05) continue;
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
    EXPECT_NEAR(udot(L.phi1 + pi), -B - L.C, 1e-9 * (1 + B + std::abs(L.C)));
    EXPECT_NEAR(udot(L.phi1), B - L.C, 1e-9 * (1 + B + std::abs(L.C)));
    EXPECT_EQ(B - L.C > 0, m.slip_margin(x) < 0);  // phi1 repels iff (39) is violated
  }
}

TEST(Oracles, FloquetDeterminantAndLimit) {  // OR-17
  for (double q : {0.0, 0.3, 0.5778, 0.9}) {
    const Eigen::Matrix2d M = bb::monodromy(q, 2.0 / 3.0, 4000);
    EXPECT_NEAR(M.determinant(), 1.0, 1e-8);  // Liouville: exactly 1; RK4 error ~1e-12
  }
  EXPECT_NEAR(bb::monodromy(0.0, 2.0 / 3.0, 4000).trace(), 2 * std::cos(2 * pi * std::sqrt(0.4)), 1e-8);
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
  o.rtol = 1e-12, o.atol = 1e-14;
  const bb::Outcome out = bb::simulate(m, bb::Rolling(b0, 1e-4, 35, w3), o);
  ASSERT_EQ(out.code, bb::Code::periodic);
  // Amplitude 1e-4: the period differs from 2 pi/sqrt(-h) at O(amplitude^2).
  EXPECT_NEAR(out.period, 2 * pi / std::sqrt(-m.h(b0, w3)), 1e-6);
  // One more period returns to the start (Prop. 4).
  const bb::Rolling x1 =
      integrate(m, bb::Rolling(b0, 0.5, 35, w3), bb::simulate(m, bb::Rolling(b0, 0.5, 35, w3), o).period);
  EXPECT_LT((x1 - bb::Rolling(b0, 0.5, 35, w3)).norm(), 1e-7 * 40);  // event location and rtol 1e-12
}

}  // namespace

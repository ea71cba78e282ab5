// Oracle tests of the rolling ball and disk (spec 002, section 5.3): closed forms, equilibria,
// conservation laws, the planar reduction, Newton's law by finite differences, the rolling
// constraint, the actuation integrals and ODE = DAE. None uses a published number.
#include <gtest/gtest.h>

#include <cmath>

#include "numerics/rotation.hpp"
#include "rollingball/ball.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/initial_configuration.hpp"
#include "rollingball/march.hpp"
#include "support.hpp"

namespace {

using rb::Vec3;

Eigen::VectorXd paper_ball_state(const rb::Ball& ball, const Eigen::Vector3d& theta) {
  return ball.initial_state(theta, Eigen::VectorXd::Zero(3), cm::Quaternion(1, 0, 0, 0), Vec3::Zero(),
                            Eigen::Vector2d::Zero());
}

TEST(Oracle, DiskClosedFormAtTimeZero) {
  const rb::Disk disk(rbtest::paper_disk());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(10);
  x.head(4).setConstant(-cm::pi / 2);
  const rb::DiskContact c = disk.contact(0.0, x);
  // sum K_i = 0, so phi'' = 0, N = M g = 5 and F_fr,1 = sum u_i r_i = -8/15 (spec 5.3, item 1); rounding only
  EXPECT_NEAR(c.phiddot, 0.0, 1e-15);
  EXPECT_NEAR(c.N, 5.0, 1e-14);
  EXPECT_NEAR(c.Ffr1, -8.0 / 15.0, 1e-14);
  EXPECT_NEAR(c.fs / c.N, 8.0 / 75.0, 1e-14);
  EXPECT_NEAR(disk.centre_of_mass(x)(1), -0.4, 1e-15);
}

TEST(Oracle, StaticEquilibriumOfTheBall) {
  auto p = rbtest::paper_ball();
  p.actuation.amp = 0.0;  // u = 0
  const rb::Ball ball(p);
  const auto ic = rb::solve_initial_configuration(ball, Eigen::Vector3d(0, 2.0369, 0.7044), {1, 2}, true);
  const Eigen::VectorXd x = paper_ball_state(ball, ic.theta);
  const rb::BallContact c = ball.contact(0.0, x);
  EXPECT_LT(c.Omegadot.norm(), 1e-14);  // CM on the vertical to 1e-16: rounding only
  EXPECT_NEAR(c.N, ball.total_mass(), 1e-14);
  EXPECT_LT(c.fs, 1e-14);
  // and it stays at rest (an unstable equilibrium: CM above the GC, so only a short horizon)
  rb::March march(rbtest::ball_factory(ball, 1e-12), rbtest::options(2.0, 0.1));
  const auto res = march.run(x, [](double, const Eigen::VectorXd&, bool) {});
  EXPECT_LT((res.y_end - x).lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(Oracle, FrozenMassesConserveEnergy) {
  auto p = rbtest::paper_ball();
  p.actuation.amp = 0.0;
  const rb::Ball ball(p);
  const Eigen::VectorXd x = ball.initial_state(Eigen::Vector3d(0.4, 1.2, -0.7), Eigen::VectorXd::Zero(3),
                                               cm::Quaternion(0.9, 0.1, -0.3, 0.2).normalized(), Vec3(0.3, -0.2, 0.5),
                                               Eigen::Vector2d::Zero());
  const double E0 = ball.energy(x);
  double drift = 0.0;
  rb::March march(rbtest::ball_factory(ball, 1e-12), rbtest::options(10.0, 0.05));
  march.run(x, [&](double, const Eigen::VectorXd& y, bool) { drift = std::max(drift, std::abs(ball.energy(y) - E0)); });
  EXPECT_LT(drift, 1e-9);  // tolerance 1e-12 over 10 time units; a sign error in (3.2) gives O(0.1)

  const rb::Disk disk([] {
    auto d = rbtest::paper_disk();
    d.actuation.amp = 0.0;
    return d;
  }());
  Eigen::VectorXd xd(10);
  xd << 0.3, -1.0, 2.0, 0.5, 0, 0, 0, 0, 0.2, 0.4;
  const double Ed = disk.energy(xd);
  double dd = 0.0;
  rb::March dm(rbtest::disk_factory(disk, 1e-12), rbtest::options(10.0, 0.05));
  dm.run(xd, [&](double, const Eigen::VectorXd& y, bool) { dd = std::max(dd, std::abs(disk.energy(y) - Ed)); });
  EXPECT_LT(dd, 1e-9);  // same reason
}

TEST(Oracle, ChaplyginBallConservesAngularMomentumAboutTheContactPoint) {
  rb::BallParameters p;  // n = 0, balanced, anisotropic
  p.zeta0 = Vec3::Zero();
  p.d = Vec3(0.4, 0.7, 1.3);
  const rb::Ball ball(p);
  const Eigen::VectorXd x = ball.initial_state(Eigen::VectorXd(0), Eigen::VectorXd(0), cm::Quaternion(1, 0, 0, 0),
                                               Vec3(0.5, -0.8, 1.1), Eigen::Vector2d::Zero());
  const auto momentum = [&](const Eigen::VectorXd& y) {
    const rb::BallContact c = ball.contact(0.0, y);
    const Vec3 s = p.r * c.Gamma, Om = y.segment<3>(ball.i_Omega());
    return Vec3(c.Lambda * (p.d.asDiagonal() * Om + p.m0 * s.cross(Om.cross(s))));
  };
  const Vec3 K0 = momentum(x);
  const double E0 = ball.energy(x);
  double dK = 0.0, dE = 0.0, dN = 0.0;
  rb::March march(rbtest::ball_factory(ball, 1e-12), rbtest::options(10.0, 0.05));
  march.run(x, [&](double t, const Eigen::VectorXd& y, bool) {
    dK = std::max(dK, (momentum(y) - K0).norm());
    dE = std::max(dE, std::abs(ball.energy(y) - E0));
    dN = std::max(dN, std::abs(ball.contact(t, y).N - p.m0 * p.g));
  });
  EXPECT_LT(dK, 1e-9);  // tolerance 1e-12 over 10 time units
  EXPECT_LT(dE, 1e-9);
  EXPECT_LT(dN, 1e-12);  // balanced ball: N = m0 g exactly ((3.3) with zeta0 = 0: <Omega' x s, Gamma> = 0)

  p.d = Vec3(0.4, 0.4, 0.4);  // isotropic: Omega constant, f_s = 0
  const rb::Ball iso(p);
  const rb::BallContact c = iso.contact(0.0, x);
  EXPECT_LT(c.Omegadot.norm(), 1e-15);
  EXPECT_LT(c.fs, 1e-15);
}

TEST(Oracle, SmallOscillationPeriodOfTheUnbalancedDisk) {
  rb::DiskParameters p;  // n = 0, zeta0 = (0, -l)
  const double l = 0.3;
  p.zeta03 = -l;
  const rb::Disk disk(p);
  Eigen::VectorXd x(2);
  x << 1e-3, 0.0;
  rb::MarchOptions o = rbtest::options(25.0, 0.1);
  o.kinks.clear();
  rb::March march(rbtest::disk_factory(disk, 1e-12), o);
  march.root([](double, cm::ConstVectorRef y, cm::VectorRef g) { g(0) = y(0); }, 0, false);
  const auto res = march.run(x, [](double, const Eigen::VectorXd&, bool) {});
  ASSERT_GE(res.crossings.size(), 3u);
  const double T = res.crossings[2].t - res.crossings[0].t;
  const double T0 = 2 * cm::pi * std::sqrt((1.0 + (1.0 - l) * (1.0 - l)) / l);  // 14.00272
  EXPECT_NEAR(T / T0, 1.0, 1e-6);  // amplitude 1e-3: nonlinear correction ~ amplitude^2 / 16
}

TEST(Oracle, PlanarBallEqualsDisk) {
  const rb::Disk disk(rbtest::paper_disk());
  rb::BallParameters p;
  p.zeta0 = Vec3::Zero();
  p.d = Vec3(0.7, 1.0, 1.3);  // d1, d3 arbitrary; d2 = the disk's
  p.m = {1, 1, 1, 1};
  for (double r : {0.9, 19.0 / 30.0, 11.0 / 30.0, 0.1}) p.rails.push_back({r, rb::Mat3::Identity()});
  p.actuation.sign = {-1, 1, -1, 1};
  const rb::Ball ball(p);
  Eigen::VectorXd xd = Eigen::VectorXd::Zero(10);
  xd.head(4).setConstant(-cm::pi / 2);
  Eigen::VectorXd xb = Eigen::VectorXd::Zero(17);
  xb.head(4).setConstant(-cm::pi / 2);
  xb(8) = 1.0;
  std::vector<Eigen::VectorXd> ds, bs;
  rb::March md(rbtest::disk_factory(disk, 1e-12), rbtest::options(3.0, 0.25));
  md.run(xd, [&](double, const Eigen::VectorXd& y, bool out) {
    if (out) ds.push_back(y);
  });
  rb::March mb(rbtest::ball_factory(ball, 1e-12), rbtest::options(3.0, 0.25));
  mb.run(xb, [&](double, const Eigen::VectorXd& y, bool out) {
    if (out) bs.push_back(y);
  });
  ASSERT_EQ(ds.size(), bs.size());
  for (std::size_t k = 0; k < ds.size(); ++k) {
    const double t = 0.25 * k;
    const rb::DiskContact cd = disk.contact(t, ds[k]);
    const rb::BallContact cb = ball.contact(t, bs[k]);
    EXPECT_NEAR(bs[k](ball.i_Omega() + 1), -ds[k](9), 1e-9);  // Omega_2 = -phi' (A.2); tolerance 1e-12 runs
    EXPECT_NEAR(bs[k](ball.i_Omega()), 0.0, 1e-12);
    EXPECT_NEAR(bs[k](ball.i_z()), -ds[k](8), 1e-9);  // z1 = -r phi
    EXPECT_NEAR(cb.N, cd.N, 1e-9);
    EXPECT_NEAR(cb.Ffr(0), cd.Ffr1, 1e-9);
    EXPECT_NEAR(cb.Ffr(1), 0.0, 1e-12);
  }
}

TEST(Oracle, NewtonsLawByFiniteDifferencesOfThePositions) {
  // (2.16): N e3 - f_s sigma = sum m_i (z_i'' + g e3) - F_e, with z_i'' from 4th-order central
  // differences of z_i(t) = z_GC + Lambda zeta_i, independent of (3.3)/(3.4).
  const rb::Ball ball(rbtest::paper_ball());
  const Eigen::VectorXd x0 = paper_ball_state(ball, Eigen::Vector3d(0, 2.0369, 0.7044));
  rb::March march(rbtest::ball_factory(ball, 1e-13), rbtest::options(3.0, 0.5));
  const double h = 1e-3;
  for (double t : {0.5, 1.7, 2.9}) {
    // states at t + k h, k = -2..2, all integrated forward from t - 2h
    const Eigen::VectorXd base = march.state_at(0.0, x0, t - 2 * h);
    const auto at = [&](double s) { return march.state_at(t - 2 * h, base, s); };
    const Eigen::VectorXd x = at(t);
    Vec3 force = Vec3::Zero();
    for (int i = 0; i <= ball.n(); ++i) {
      const double m = i == 0 ? ball.parameters().m0 : ball.parameters().m[i - 1];
      Vec3 acc = Vec3::Zero();
      const double w[5] = {-1.0 / 12, 4.0 / 3, -5.0 / 2, 4.0 / 3, -1.0 / 12};
      for (int k = -2; k <= 2; ++k) acc += w[k + 2] * ball.position(i, at(t + k * h));
      force += m * (acc / (h * h) + ball.parameters().g * Vec3::UnitZ());
    }
    const rb::BallContact c = ball.contact(t, x);
    EXPECT_NEAR(force(2), c.N, 1e-6);  // h^4 truncation ~1e-12, rounding/tolerance 1e-13 / h^2 ~ 1e-7
    EXPECT_NEAR(force(0), c.Ffr(0), 1e-6);
    EXPECT_NEAR(force(1), c.Ffr(1), 1e-6);
  }
}

TEST(Oracle, ContactPointHasZeroVelocity) {
  // The material point at the contact at time t (body-fixed) has zero spatial velocity there: the
  // rolling constraint (2.3), checked from the integrated z and q, not from the right-hand side.
  const rb::Ball ball(rbtest::paper_ball());
  const Eigen::VectorXd x0 = paper_ball_state(ball, Eigen::Vector3d(0, 2.0369, 0.7044));
  rb::March march(rbtest::ball_factory(ball, 1e-13), rbtest::options(6.0, 0.5));
  const double h = 1e-4;
  for (double t : {1.3, 5.5}) {
    const Eigen::VectorXd base = march.state_at(0.0, x0, t - h);
    const auto at = [&](double s) { return march.state_at(t - h, base, s); };
    const Eigen::VectorXd x = at(t);
    const Vec3 body_point = -ball.parameters().r * cm::vertical_in_body(x.segment<4>(ball.i_q()));
    const auto where = [&](const Eigen::VectorXd& y) {
      return Vec3(Vec3(y(ball.i_z()), y(ball.i_z() + 1), 0) + cm::attitude(y.segment<4>(ball.i_q())) * body_point);
    };
    const Vec3 v = (where(at(t + h)) - where(base)) / (2 * h);
    EXPECT_LT(v.norm(), 1e-7);  // central difference: h^2 |z'''| ~ 1e-8, plus tolerance 1e-13 / h
    const Eigen::Vector2d gc = (at(t + h).segment<2>(ball.i_z()) - base.segment<2>(ball.i_z())) / (2 * h);
    EXPECT_GT(gc.norm(), 1e-3);  // the ball does move, so the test can fail
  }
}

TEST(Oracle, ActuationIntegralsAlongARun) {
  const rb::Disk disk(rbtest::paper_disk());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(10);
  x.head(4).setConstant(-cm::pi / 2);
  rb::March march(rbtest::disk_factory(disk, 1e-12, "arkode_dp5"), rbtest::options(1.0, 0.05));
  const rb::StepRamp& a = disk.parameters().actuation;
  double err = 0.0;
  march.run(x, [&](double t, const Eigen::VectorXd& y, bool) {
    for (int i = 0; i < 4; ++i) {
      err = std::max(err, std::abs(y(i) + cm::pi / 2 - a.sign[i] * a.p(t)));
      err = std::max(err, std::abs(y(4 + i) - a.sign[i] * a.pdot(t)));
    }
  });
  EXPECT_LT(err, 1e-11);  // tolerance 1e-12 on polynomial pieces
}

TEST(Oracle, OdeAndDaeAgree) {
  const rb::Ball ball(rbtest::paper_ball());
  const Eigen::VectorXd x0 = paper_ball_state(ball, Eigen::Vector3d(0, 2.0369, 0.7044));
  const double tol = 1e-10;
  rb::MarchOptions o = rbtest::options(3.0, 0.1);
  rb::March ode(rbtest::ball_factory(ball, tol, "arkode_dp5"), o);
  std::vector<Eigen::VectorXd> a, b;
  ode.run(x0, [&](double, const Eigen::VectorXd& y, bool out) {
    if (out) a.push_back(y);
  });
  o.fresh_restart = true;
  rb::March dae(
      [&ball, tol](double t0, const Eigen::VectorXd& y0) {
        Eigen::VectorXd yp(y0.size());
        ball.rhs(t0, y0, yp);
        return cm::make_dae_integrator([&ball](double t, cm::ConstVectorRef y, cm::ConstVectorRef ypp,
                                               cm::VectorRef F) { ball.residual(t, y, ypp, F); },
                                       y0, yp, ball.differential_components(), t0, {tol, tol}, false);
      },
      o);
  double qerr = 0.0;
  dae.run(x0, [&](double, const Eigen::VectorXd& y, bool out) {
    if (out) b.push_back(y);
    qerr = std::max(qerr, std::abs(y.segment<4>(ball.i_q()).norm() - 1.0));
  });
  ASSERT_EQ(a.size(), b.size());
  double diff = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) diff = std::max(diff, (a[k] - b[k]).lpNorm<Eigen::Infinity>());
  EXPECT_LT(diff, 1e-7);  // both at tolerance 1e-10 on a short span (the global error is still small)
  EXPECT_LT(qerr, 1e-9);  // the DAE keeps |q| = 1 to its tolerance
}

}  // namespace

namespace {

// The bare disk (no internal masses) and the Chaplygin ball (a ball with none): valid bodies that
// keep rolling at constant velocity with N = M g when balanced and unforced.
TEST(Oracle, BareDiskRollsOnWithNEqualToMg) {
  rb::DiskParameters p;
  p.m0 = 2.0;
  p.g = 1.5;
  p.actuation.sign.clear();
  const rb::Disk disk(p);
  ASSERT_EQ(disk.n(), 0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(disk.state_size());
  x(disk.i_phidot()) = -0.7;
  const rb::DiskContact c = disk.contact(0.3, x);
  EXPECT_NEAR(c.phiddot, 0.0, 1e-15);  // no torque: phi' constant; rounding only
  EXPECT_NEAR(c.N, 3.0, 1e-14);        // N = m0 g
  EXPECT_NEAR(c.Ffr1, 0.0, 1e-15);
  Eigen::VectorXd xdot(disk.state_size());
  disk.rhs(0.3, x, xdot);
  EXPECT_NEAR(xdot(disk.i_phi()), -0.7, 1e-15);
}

TEST(Oracle, ChaplyginBallRollsOnWithNEqualToMg) {
  auto p = rbtest::paper_ball();
  p.m.clear();
  p.rails.clear();
  p.actuation.sign.clear();
  p.zeta0 = Vec3::Zero();  // balanced: the CM at the GC
  p.m0 = 2.0;
  const rb::Ball ball(p);
  ASSERT_EQ(ball.n(), 0);
  // spinning about the principal axis e2 while rolling: a steady motion
  const Eigen::VectorXd x = ball.initial_state(Eigen::VectorXd(0), Eigen::VectorXd(0), cm::Quaternion(1, 0, 0, 0),
                                               Vec3(0, 1, 0), Eigen::Vector2d::Zero());
  const rb::BallContact c = ball.contact(0.0, x);
  EXPECT_NEAR(c.Omegadot.norm(), 0.0, 1e-15);  // rounding only
  EXPECT_NEAR(c.N, 2.0 * p.g, 1e-14);          // N = M g
  EXPECT_NEAR(c.fs, 0.0, 1e-15);
}

}  // namespace

namespace {

// N_min is refined between grid points to solver precision: it must not depend on the scan grid
// analysis.dt (the grid minimum does, by O(dt^2) for a smooth minimum).
TEST(Oracle, RefinedNMinDoesNotDependOnTheScanGrid) {
  const rb::Disk disk(rbtest::paper_disk());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(disk.state_size());
  x.head(4).setConstant(-cm::pi / 2);
  const rb::Factory make = [&disk](double t0, const Eigen::VectorXd& y0) {
    return cm::make_integrator("cvode_adams",
                               [&disk](double t, cm::ConstVectorRef y, cm::VectorRef yd) { disk.rhs(t, y, yd); }, y0,
                               t0, {1e-12, 1e-12});
  };
  const auto run = [&](double dt) {
    rb::MarchOptions o;
    o.a = 0.0;
    o.b = 20.0;  // N is least near t = 19.7 (Fig. 5.4(a))
    o.kinks = {0.1, 0.2};
    o.dt_scan = dt;
    o.dt_output = 0.5;
    rb::March march(make, o);
    march.minimise([&disk](double t, const Eigen::VectorXd& y) { return disk.contact(t, y).N; });
    return march.run(x, [](double, const Eigen::VectorXd&, bool) {});
  };
  const rb::MarchResult fine = run(1e-3), coarse = run(3e-2);
  // the grid minima differ (the test could not pass by sampling alone) ...
  EXPECT_GT(std::abs(fine.grid_low_value - coarse.grid_low_value), 1e-7);
  // ... the refined ones agree to the integration tolerance (1e-12) amplified by a few restarts:
  // 1e-9 on N, and on t_N_min the golden-section bracket 1e-9 relative (sqrt of N's flatness
  // makes t less sharp: 1e-4).
  EXPECT_NEAR(fine.low_value, coarse.low_value, 1e-9);
  EXPECT_NEAR(fine.low_t, coarse.low_t, 1e-4);
}

}  // namespace

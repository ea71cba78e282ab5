// The SUNDIALS layer against closed forms: every ODE method on a rotation (harmonic
// oscillator), roots, stop times and restarts, dense output, IDA on an index-1 DAE, and the
// error paths (exceptions carried through C, failures reported as NumericalError).
#include <gtest/gtest.h>

#include <cmath>

#include "core/options.hpp"
#include "numerics/sundials.hpp"

namespace {

// x'' = -x as a first-order system: y = (cos t, -sin t) from (1, 0).
void oscillator(double, cm::ConstVectorRef y, cm::VectorRef ydot) {
  ydot[0] = y[1];
  ydot[1] = -y[0];
}

}  // namespace

TEST(Sundials, EveryMethodFollowsTheClosedForm) {
  for (const auto& method : cm::ode_methods()) {
    auto ode = cm::make_integrator(method, oscillator, Eigen::Vector2d(1, 0), 0.0, {1e-10, 1e-12});
    const auto step = ode->advance(10.0);
    // Global error of a tolerance-1e-10 integration over ~1.6 periods: allow 1e-7 (methods
    // differ by a factor of ~100 in how tightly they meet the local tolerance).
    EXPECT_NEAR(step.y[0], std::cos(10.0), 1e-7) << method;
    EXPECT_NEAR(step.y[1], -std::sin(10.0), 1e-7) << method;
    // Dense output inside the last step, and its derivative.
    const double tm = ode->current_time() - 0.5 * ode->statistics().last_step;
    EXPECT_NEAR(ode->dense(tm)[0], std::cos(tm), 1e-6) << method;
    EXPECT_NEAR(ode->dense(tm, 1)[0], -std::sin(tm), 1e-5) << method;
    EXPECT_GT(ode->statistics().steps, 0) << method;
  }
}

TEST(Sundials, RootsStopAtTheEvent) {
  for (const auto& method : cm::ode_methods()) {
    auto ode = cm::make_integrator(method, oscillator, Eigen::Vector2d(1, 0), 0.0, {1e-10, 1e-12});
    // cos t falls through 0 at pi/2 (the rising root at 3 pi/2 is filtered by direction).
    ode->set_roots(1, [](double, cm::ConstVectorRef y, cm::VectorRef g) { g[0] = y[0]; }, {-1});
    const auto step = ode->advance(10.0);
    ASSERT_TRUE(step.root) << method;
    EXPECT_EQ(step.roots.at(0), -1);
    EXPECT_NEAR(step.t, cm::pi / 2 * 1.0, 1e-8) << method;  // root located to ~tolerance
  }
}

TEST(Sundials, StopTimeAndRestart) {
  auto ode = cm::make_integrator("cvode_adams", oscillator, Eigen::Vector2d(1, 0), 0.0, {1e-10, 1e-12});
  ode->set_stop_time(1.0);
  auto step = ode->advance(5.0);
  EXPECT_EQ(step.t, 1.0);  // never past the stop time
  ode->reinit(step.t, step.y);
  step = ode->advance(2.0);
  EXPECT_NEAR(step.y[0], std::cos(2.0), 1e-8);
}

TEST(Sundials, IdaSolvesAnIndexOneDae) {
  // y0' = y1, y1 = -sin(t) ... as the algebraic equation y1 + sin t = 0, y0(0) = 1: y0 = cos t.
  auto F = [](double t, cm::ConstVectorRef y, cm::ConstVectorRef yp, cm::VectorRef r) {
    r[0] = yp[0] - y[1];
    r[1] = y[1] + std::sin(t);
  };
  auto dae = cm::make_dae_integrator(F, Eigen::Vector2d(1, 0), Eigen::Vector2d(0, -1), Eigen::Vector2d(1, 0), 0.0,
                                     {1e-10, 1e-12}, true);
  dae->set_stop_time(1.0);
  auto step = dae->advance(1.0);
  dae->reinit(step.t, step.y);  // y' carried over from the interpolant
  step = dae->advance(3.0);
  EXPECT_NEAR(step.y[0], std::cos(3.0), 1e-7);  // BDF with tolerance 1e-10: ~1e-8 global error
  EXPECT_NEAR(step.y[1], -std::sin(3.0), 1e-9);
}

TEST(Sundials, ExceptionsCrossTheCLibrary) {
  auto f = [](double t, cm::ConstVectorRef, cm::VectorRef ydot) {
    if (t > 0.5) throw cm::InputError("model.x: refused inside the right-hand side");
    ydot.setZero();
  };
  for (const auto& method : cm::ode_methods()) {
    auto ode = cm::make_integrator(method, f, Eigen::Vector2d(1, 0), 0.0, {1e-8, 1e-8});
    EXPECT_THROW(ode->advance(1.0), cm::InputError) << method;
  }
}

TEST(Sundials, FailuresAreNumericalErrors) {
  // y' = y^2 from 1 blows up at t = 1.
  auto f = [](double, cm::ConstVectorRef y, cm::VectorRef ydot) { ydot[0] = y[0] * y[0]; };
  auto ode = cm::make_integrator("cvode_bdf", f, Eigen::VectorXd::Constant(1, 1.0), 0.0, {1e-8, 1e-8});
  ode->set_max_steps(200);
  EXPECT_THROW(ode->advance(2.0), cm::NumericalError);
  EXPECT_THROW(cm::make_integrator("cvode_adams", f, Eigen::VectorXd::Constant(1, 1.0), 0.0, {0.0, 1e-8}),
               cm::InputError);
  EXPECT_THROW(cm::make_integrator("euler", f, Eigen::VectorXd::Constant(1, 1.0), 0.0, {1e-8, 1e-8}), cm::InputError);
}

// Unit tests of the rolling-ball model's pieces: rotations, actuation, rails, state layout,
// the initial-configuration solver and input validation (spec 002, section 5.3).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "numerics/rotation.hpp"
#include "rollingball/ball.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/initial_configuration.hpp"
#include "rollingball/rails.hpp"
#include "support.hpp"

namespace {

using rb::Mat3;
using rb::Vec3;

TEST(Rotation, HatVeeAndCrossProduct) {
  const Vec3 a(0.3, -1.2, 2.5), b(-0.7, 0.4, 1.1);
  EXPECT_LT((cm::hat(a) * b - a.cross(b)).norm(), 1e-15);  // rounding of a few products
  EXPECT_LT((cm::vee(cm::hat(a)) - a).norm(), 1e-15);
}

TEST(Rotation, HamiltonProductMatchesEigen) {
  const cm::Quaternion p(0.3, -0.4, 0.5, 0.1), q(-0.2, 0.7, 0.1, -0.6);
  const Eigen::Quaterniond ep(p(0), p(1), p(2), p(3)), eq(q(0), q(1), q(2), q(3));
  const Eigen::Quaterniond er = ep * eq;  // Eigen is Hamilton with (w, x, y, z)
  const cm::Quaternion r = cm::quaternion_product(p, q);
  EXPECT_NEAR(r(0), er.w(), 1e-15);  // rounding only
  EXPECT_NEAR(r(1), er.x(), 1e-15);
  EXPECT_NEAR(r(2), er.y(), 1e-15);
  EXPECT_NEAR(r(3), er.z(), 1e-15);
  const cm::Quaternion one = cm::quaternion_product(q, cm::quaternion_inverse(q));
  EXPECT_LT((one - cm::Quaternion(1, 0, 0, 0)).norm(), 1e-15);
}

TEST(Rotation, AttitudeIsARotationEvenForNonUnitQ) {
  const cm::Quaternion q(1.3, -0.2, 0.7, 0.4);  // |q| != 1: Lambda is built from q/|q|
  const Mat3 L = cm::attitude(q);
  EXPECT_LT((L * L.transpose() - Mat3::Identity()).norm(), 1e-14);  // rounding of 3x3 products
  EXPECT_NEAR(L.determinant(), 1.0, 1e-14);
  // Lambda v = (q v# q^-1)_flat and Gamma = Lambda^T e3 = (q^-1 e3# q)_flat
  const Vec3 v(0.2, -0.5, 0.9);
  const Vec3 w = cm::flat(cm::quaternion_product(cm::quaternion_product(q, cm::sharp(v)), cm::quaternion_inverse(q)));
  EXPECT_LT((L * v - w).norm(), 1e-14);
  const Vec3 G =
      cm::flat(cm::quaternion_product(cm::quaternion_product(cm::quaternion_inverse(q), cm::sharp(Vec3::UnitZ())), q));
  EXPECT_LT((cm::vertical_in_body(q) - G).norm(), 1e-14);
}

TEST(Rotation, DiskQuaternionGivesA1) {
  const double phi = 0.7;
  const Mat3 L = cm::attitude({std::cos(phi / 2), 0.0, -std::sin(phi / 2), 0.0});
  Mat3 A1;
  A1 << std::cos(phi), 0, -std::sin(phi), 0, 1, 0, std::sin(phi), 0, std::cos(phi);  // eq. (A.1)
  EXPECT_LT((L - A1).norm(), 1e-15);
  EXPECT_LT(
      (cm::vertical_in_body({std::cos(phi / 2), 0.0, -std::sin(phi / 2), 0.0}) - Vec3(std::sin(phi), 0, std::cos(phi)))
          .norm(),
      1e-15);  // eq. (A.2)
}

TEST(Rotation, QuaternionRateGivesBodyAngularVelocity) {
  // Lambda^T dLambda/dt = hat(Omega) for q' = q Omega# / 2 (finite difference, h = 1e-6: error ~1e-12)
  const cm::Quaternion q = cm::Quaternion(0.8, 0.1, -0.5, 0.3).normalized();
  const Vec3 Omega(0.4, -1.1, 0.6);
  const double h = 1e-6;
  const cm::Quaternion qd = cm::quaternion_rate(q, Omega);
  const Mat3 Ld = (cm::attitude(q + h * qd) - cm::attitude(q - h * qd)) / (2 * h);
  EXPECT_LT((cm::vee(cm::attitude(q).transpose() * Ld) - Omega).norm(), 1e-8);
}

TEST(Actuation, IntegralsOfTheStepRamp) {
  rb::StepRamp a;
  a.sign = {1.0};
  EXPECT_DOUBLE_EQ(a.u(0, 0.05), 1.0);
  EXPECT_NEAR(a.u(0, 0.15), -10 * 0.15 + 2, 1e-15);  // eq. (6.11)
  EXPECT_EQ(a.u(0, 0.25), 0.0);
  EXPECT_NEAR(a.p(0.1), 0.005, 1e-16);  // closed forms of spec section 2.8, rounding only
  EXPECT_NEAR(a.p(0.2), 11.0 / 600.0, 1e-16);
  EXPECT_NEAR(a.p(20.0), 2.98833333333333333, 1e-13);
  EXPECT_NEAR(a.pdot(0.2), 0.15, 1e-16);
  EXPECT_NEAR(a.pdot(7.0), 0.15, 1e-16);
  // p is the double integral of the shape: Simpson's rule on the ramp (exact for cubics)
  const double t = 0.17, m = 0.5 * (0.1 + t);
  EXPECT_NEAR(a.pdot(t) - a.pdot(0.1), (t - 0.1) / 6 * (a.shape(0.1) + 4 * a.shape(m) + a.shape(t)), 1e-15);
}

TEST(Rails, FrisvadBasesOfSection6) {
  const std::vector<Vec3> n{rb::spherical_to_cartesian(0, 0, 1), rb::spherical_to_cartesian(cm::pi / 2, 0, 1),
                            rb::spherical_to_cartesian(cm::pi / 4, cm::pi / 4, 1)};
  for (const std::string& order : rb::basis_orders())
    for (const Vec3& v : n) {
      const Mat3 B = rb::rail_basis(v, order);
      EXPECT_LT((B.transpose() * B - Mat3::Identity()).norm(), 1e-14) << order;  // rounding
      EXPECT_NEAR(B.determinant(), 1.0, 1e-14) << order;
    }
  Mat3 B2;  // spec 002, section 2.9 (rail 2, [n, b2, -b1])
  B2 << 0, 0, -1, 1, 0, 0, 0, -1, 0;
  EXPECT_LT((rb::rail_basis(n[1], "n_b2_mb1") - B2).norm(), 1e-15);
  const Mat3 B3 = rb::rail_basis(n[2], "n_b2_mb1");
  EXPECT_NEAR(B3(0, 2), -(2 + std::sqrt(2.0)) / 4, 1e-15);
  EXPECT_NEAR(B3(1, 1), (2 + std::sqrt(2.0)) / 4, 1e-15);
  EXPECT_NEAR(B3(2, 0), std::sqrt(2.0) / 2, 1e-15);
}

TEST(Model, StateSizesAndMasses) {
  const rb::Ball ball(rbtest::paper_ball());
  EXPECT_EQ(ball.state_size(), 15);  // 2n + 9, Sect. 6
  EXPECT_EQ(ball.total_mass(), 4.0);
  EXPECT_EQ(ball.differential_components().sum(), 14.0);  // q0 is the one algebraic component (6.6)
  EXPECT_EQ(ball.differential_components()(6), 0.0);
  const rb::Disk disk(rbtest::paper_disk());
  EXPECT_EQ(disk.state_size(), 10);  // 2n + 2, (5.1)
  EXPECT_EQ(disk.total_mass(), 5.0);
}

TEST(Model, InvalidParametersAreInputErrors) {
  auto p = rbtest::paper_ball();
  p.m[1] = -1.0;
  EXPECT_THROW(rb::Ball{p}, cm::InputError);
  auto q = rbtest::paper_disk();
  q.radius.pop_back();
  EXPECT_THROW(rb::Disk{q}, cm::InputError);
  EXPECT_THROW(rb::rail_basis(Vec3::UnitZ(), "n_b1_mb2"), cm::InputError);
}

TEST(Model, ContactPointInertiaIsPositiveDefinite) {
  // sum m_i hat(s_i)^2 - I = -J_CP must be negative definite for any configuration (spec 5.3, item 12).
  const rb::Ball ball(rbtest::paper_ball());
  std::srand(7);
  for (int k = 0; k < 200; ++k) {
    Eigen::VectorXd x = Eigen::VectorXd::Random(ball.state_size()) * 3.0;
    Mat3 A = -Mat3(ball.parameters().d.asDiagonal());
    const Vec3 G = cm::vertical_in_body(x.segment<4>(ball.i_q()));
    for (int i = 0; i <= ball.n(); ++i) {
      const double m = i == 0 ? ball.parameters().m0 : ball.parameters().m[i - 1];
      const Mat3 h = cm::hat(ball.parameters().r * G + ball.zeta(i, x));
      A += m * h * h;
    }
    EXPECT_LT(Eigen::SelfAdjointEigenSolver<Mat3>(A).eigenvalues().maxCoeff(), -0.5);  // bounded by -min(d)
  }
}

TEST(InitialConfiguration, ReproducesTable62) {
  const rb::Ball ball(rbtest::paper_ball());
  Eigen::VectorXd guess(3);
  guess << 0.0, 2.0369, 0.7044;
  const auto ic = rb::solve_initial_configuration(ball, guess, {1, 2}, true);
  EXPECT_NEAR(ic.theta(1), 2.03688467, 1e-8);  // spec's prototype root, printed to 8 decimals
  EXPECT_NEAR(ic.theta(2), 0.70442448, 1e-8);
  EXPECT_GT(ic.cB(2), 0.0);
  EXPECT_LT(ic.residual, 1e-14);
  // The analytic Jacobian of the Newton step against central differences (h = 1e-6: error ~1e-11).
  const double h = 1e-6;
  for (int j : {1, 2}) {
    Eigen::VectorXd tp = ic.theta, tm = ic.theta;
    tp(j) += h;
    tm(j) -= h;
    const Vec3 fd = (ball.centre_of_mass(tp) - ball.centre_of_mass(tm)) * ball.total_mass() / (2 * h);
    const Vec3 an = ball.parameters().m[j] * ball.parameters().rails[j].dzeta(ic.theta(j));
    EXPECT_LT((fd - an).head<2>().norm(), 1e-9);
  }
  // The below-GC root exists too and is different.
  const auto below = rb::solve_initial_configuration(ball, guess, {1, 2}, false);
  EXPECT_LT(below.cB(2), 0.0);
}

}  // namespace

// Rotation algebra of paper 003 (Sect. 2) in solvers/numerics/rotation.hpp: the oracles O-1 to O-5
// of spec 003 §5.2, cross-checked against the Euler-Rodrigues formula (1) and quaternions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/math.hpp"
#include "dem/model.hpp"
#include "numerics/rotation.hpp"

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

/// Random Rodrigues vectors with |alpha| spread over 1e-6 ... 1e3 (log-uniform), fixed seed.
std::vector<Vector3d> random_alphas(int n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> expo(-6.0, 3.0);
  std::vector<Vector3d> out;
  for (int k = 0; k < n; ++k) {
    const Vector3d e = Vector3d(normal(gen), normal(gen), normal(gen)).normalized();
    out.push_back(std::pow(10.0, expo(gen)) * e);
  }
  return out;
}

/// Eq. (1): Q = I + sin(theta)/theta Theta + (1 - cos theta)/theta^2 Theta^2.
Matrix3d euler_rodrigues(const Vector3d& theta) {
  const double a = theta.norm();
  const Matrix3d T = cm::hat(theta);
  if (a == 0.0) return Matrix3d::Identity();
  return Matrix3d::Identity() + std::sin(a) / a * T + (1.0 - std::cos(a)) / (a * a) * T * T;
}

// O-1: Q(alpha) of Eq. (10*) is a rotation. Its entries are O(1) sums of O(1) terms: 1e-14 allows a
// few roundings (the spec asks 1e-14); the determinant, a sum of triple products, gets 4e-14.
TEST(Rodrigues, TensorIsRotation) {
  for (const Vector3d& a : random_alphas(2000, 1)) {
    const Matrix3d Q = cm::rotation_from_rodrigues(a);
    EXPECT_LT((Q.transpose() * Q - Matrix3d::Identity()).cwiseAbs().maxCoeff(), 1e-14) << a.transpose();
    EXPECT_NEAR(Q.determinant(), 1.0, 4e-14) << a.transpose();
  }
}

// O-2: (10*) equals (1) with theta = 2 atan(alpha/2) and the attitude of the quaternion; Q u by cross
// products equals Q times u. Entries O(1): 1e-13 (spec 003 O-2).
TEST(Rodrigues, TensorEqualsEulerRodriguesAndQuaternion) {
  const Vector3d u(0.3, -1.2, 0.7);
  for (const Vector3d& a : random_alphas(2000, 2)) {
    const Matrix3d Q = cm::rotation_from_rodrigues(a);
    const Vector3d theta = cm::rotation_vector_from_rodrigues(a);
    EXPECT_LT((Q - euler_rodrigues(theta)).cwiseAbs().maxCoeff(), 1e-13);
    EXPECT_LT((Q - cm::attitude(cm::quaternion_from_rodrigues(a))).cwiseAbs().maxCoeff(), 1e-13);
    EXPECT_LT((cm::rotate_by_rodrigues(a, u) - Q * u).norm(), 1e-13);
    EXPECT_LT(theta.norm(), cm::pi);
  }
}

// Round trips between the rotation vector, the Rodrigues vector and the quaternion, relative to
// |alpha| (1e-12: tan and atan of arguments up to 1e3 lose a few digits near theta = pi).
TEST(Rodrigues, RoundTrips) {
  for (const Vector3d& a : random_alphas(2000, 3)) {
    const Vector3d back = cm::rodrigues_from_rotation_vector(cm::rotation_vector_from_rodrigues(a));
    EXPECT_LT((back - a).norm(), 1e-12 * a.norm());
    EXPECT_LT((cm::rodrigues_from_quaternion(cm::quaternion_from_rodrigues(a)) - a).norm(), 1e-12 * a.norm());
  }
}

// O-3: Eq. (11) composes alpha1 first, then alpha2: Q(alpha_1+2) = Q(alpha2) Q(alpha1), which differs
// from Q(alpha1) Q(alpha2). Pairs with a composed angle away from pi (|alpha| <= 2, theta <= pi/2 each
// and alpha1 . alpha2 < 3) keep the division of (11) well conditioned: 1e-12.
TEST(Rodrigues, CompositionOrder) {
  std::mt19937_64 gen(4);
  std::uniform_real_distribution<double> u(-1.15, 1.15);
  int noncommuting = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vector3d a1(u(gen), u(gen), u(gen)), a2(u(gen), u(gen), u(gen));
    if (a1.dot(a2) > 3.0) continue;
    const Matrix3d Q12 = cm::rotation_from_rodrigues(cm::compose_rodrigues(a1, a2));
    const Matrix3d Q1 = cm::rotation_from_rodrigues(a1), Q2 = cm::rotation_from_rodrigues(a2);
    EXPECT_LT((Q12 - Q2 * Q1).cwiseAbs().maxCoeff(), 1e-12);
    if ((Q12 - Q1 * Q2).cwiseAbs().maxCoeff() > 1e-3) ++noncommuting;
    // the quaternion product q2 q1 gives the same rotation (spec 003 §2.1, Eq. (8))
    const cm::Quaternion q =
        cm::quaternion_product(cm::quaternion_from_rodrigues(a2), cm::quaternion_from_rodrigues(a1));
    EXPECT_LT((cm::attitude(q) - Q12).cwiseAbs().maxCoeff(), 1e-12);
  }
  EXPECT_GT(noncommuting, 1900);  // the order matters for almost every random pair
}

// O-4: coaxial rotations add their angles: 2 tan((theta1 + theta2)/2) e. Relative 1e-12 below pi.
TEST(Rodrigues, CoaxialComposition) {
  const Vector3d e = Vector3d(1.0, -2.0, 0.5).normalized();
  for (double t1 = -1.5; t1 <= 1.5; t1 += 0.1)
    for (double t2 = -1.5; t2 <= 1.5; t2 += 0.1) {
      if (std::fabs(t1 + t2) > 3.0) continue;
      const Vector3d a = cm::compose_rodrigues(2.0 * std::tan(t1 / 2) * e, 2.0 * std::tan(t2 / 2) * e);
      const Vector3d expected = 2.0 * std::tan((t1 + t2) / 2) * e;
      EXPECT_LT((a - expected).norm(), 1e-12 * (1.0 + expected.norm()));
    }
}

// O-5: the inverse and the identity. Exact arithmetic up to one rounding per component: 1e-15.
TEST(Rodrigues, InverseAndIdentity) {
  for (const Vector3d& a : random_alphas(500, 5)) {
    EXPECT_LT(cm::compose_rodrigues(a, -a).norm(), 1e-15 * (1.0 + a.norm()));
    EXPECT_LT((cm::compose_rodrigues(a, Vector3d::Zero()) - a).norm(), 1e-15 * a.norm());
    EXPECT_LT((cm::compose_rodrigues(Vector3d::Zero(), a) - a).norm(), 1e-15 * a.norm());
  }
}

// Spec 003 T1: the printed factor 4/(1 + alpha^2) of Eqs. (10), (27) is not a rotation; its small-angle
// limit is I + 4 Skew(alpha), four times the spin. The corrected factor passes O-1 (above).
TEST(Rodrigues, PrintedFactorIsNotARotation) {
  const Vector3d a = Vector3d(1.0, 2.0, 2.0) / 3.0;  // |alpha| = 1
  const Matrix3d Qp = dem::rotation_tensor(a, dem::Correction::printed);
  EXPECT_GT((Qp.transpose() * Qp - Matrix3d::Identity()).norm(), 1.0);
  const Vector3d small = 1e-6 * a;
  const Matrix3d Qs = dem::rotation_tensor(small, dem::Correction::printed);
  // (Q - I) / Skew: 4 with the printed factor, to O(alpha): 1e-5 relative
  EXPECT_NEAR((Qs - Matrix3d::Identity())(1, 0) / cm::hat(small)(1, 0), 4.0, 1e-5);
  const Matrix3d Qc = dem::rotation_tensor(small, dem::Correction::corrected);
  EXPECT_NEAR((Qc - Matrix3d::Identity())(1, 0) / cm::hat(small)(1, 0), 1.0, 1e-5);
}

// Small arguments: the series branches of the conversions agree with the closed forms at the switch
// (|theta| = 1e-4, where the next series term is 1e-17 relative): 1e-15 relative.
TEST(Rodrigues, SeriesBranches) {
  const Vector3d e = Vector3d(0.2, 0.9, -0.4).normalized();
  for (const double a : {0.99e-4, 1.01e-4}) {
    const Vector3d alpha = cm::rodrigues_from_rotation_vector(a * e);
    EXPECT_NEAR(alpha.norm(), 2.0 * std::tan(a / 2), 1e-15 * a);
    EXPECT_NEAR(cm::rotation_vector_from_rodrigues(a * e).norm(), 2.0 * std::atan(a / 2), 1e-15 * a);
  }
}

}  // namespace

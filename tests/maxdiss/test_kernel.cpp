// Unit tests of the single-contact kernel's pieces: the quartic, the candidate angles of a
// trigonometric polynomial, the Appendix-A constants, and each branch of the structogram (Fig. 5).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/math.hpp"
#include "maxdiss/single_contact.hpp"
#include "random_problems.hpp"

using namespace md;

namespace {

// A complex quartic with known roots is solved to near machine precision.
TEST(Quartic, RecoversKnownRoots) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  double worst = 0.0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<cplx, 4> r;
    for (auto& z : r) z = cplx(U(rng), U(rng));
    const cplx lead(U(rng), U(rng));
    // p(y) = lead (y - r0)(y - r1)(y - r2)(y - r3)
    std::array<cplx, 5> p{lead, 0, 0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      std::array<cplx, 5> q{};
      for (int i = 0; i <= k; ++i) {
        q[i] += p[i];
        q[i + 1] -= p[i] * r[k];
      }
      p = q;
    }
    auto y = detail::quartic_roots(p[0], p[1], p[2], p[3], p[4]);
    for (auto& yi : y) yi = detail::polish_polynomial<4>(p, yi, 2);
    for (const auto& z : r) {
      double d = 1e300;
      for (const auto& yi : y) d = std::min(d, std::abs(yi - z));
      worst = std::max(worst, d);
    }
  }
  // Well separated random roots of size ~2: after two Newton steps the error is a few ulps of
  // the root size; 1e-9 leaves room for the occasional close pair (error ~ sqrt(eps) * gap).
  EXPECT_LT(worst, 1e-9);
}

// g(alpha) = prod_i sin((alpha - r_i)/2) for 4 roots is a trigonometric polynomial of degree 2.
Trig2 trig_from_roots(const std::array<double, 4>& r, double scale) {
  // sin((a - r1)/2) sin((a - r2)/2) = 1/2 [cos((r2 - r1)/2) - cos(a - (r1 + r2)/2)]
  auto pair = [](double r1, double r2, double& k, double& c, double& s) {
    k = 0.5 * std::cos(0.5 * (r2 - r1));
    const double m = 0.5 * (r1 + r2);
    c = -0.5 * std::cos(m);
    s = -0.5 * std::sin(m);
  };
  double k1, c1, s1, k2, c2, s2;
  pair(r[0], r[1], k1, c1, s1);
  pair(r[2], r[3], k2, c2, s2);
  // (k1 + c1 cos + s1 sin)(k2 + c2 cos + s2 sin)
  Trig2 g;
  g.a0 = k1 * k2 + 0.5 * (c1 * c2 + s1 * s2);
  g.a1c = k1 * c2 + k2 * c1;
  g.a1s = k1 * s2 + k2 * s1;
  g.a2c = 0.5 * (c1 * c2 - s1 * s2);
  g.a2s = 0.5 * (c1 * s2 + s1 * c2);
  g.a0 *= scale;
  g.a1c *= scale;
  g.a1s *= scale;
  g.a2c *= scale;
  g.a2s *= scale;
  return g;
}

TEST(Trig2, CandidatesContainEveryRealRoot) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> U(-cm::pi, cm::pi);
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<double, 4> r{U(rng), U(rng), U(rng), U(rng)};
    const Trig2 g = trig_from_roots(r, 1.0 + trial);
    // the construction itself: g vanishes at the roots (1e-12: a few ulps of the O(1..2000) scale)
    for (double ri : r) ASSERT_NEAR(g(ri) / (1.0 + trial), 0.0, 1e-12);
    const auto cand = trig2_candidates(g);
    for (double ri : r) {
      double d = 1e300;
      for (int i = 0; i < cand.count; ++i) {
        double diff = std::fmod(std::fabs(cand.alpha[i] - ri), two_pi);
        d = std::min(d, std::min(diff, two_pi - diff));
      }
      // Roots closer than ~1e-4 form a near-double root, found to ~sqrt(eps) relative accuracy;
      // 1e-6 rad is far below any change of f_obj that matters (f changes by ~ (1e-6)^2).
      EXPECT_LT(d, 1e-6) << "trial " << trial << " root " << ri;
    }
  }
}

TEST(Trig2, DegreeReductionWhenOuterCoefficientsVanish) {
  // g = cos(alpha - 0.3): only the first harmonic; roots 0.3 +- pi/2.
  Trig2 g{0.0, std::cos(0.3), std::sin(0.3), 0.0, 0.0};
  const auto cand = trig2_candidates(g);
  int hits = 0;
  for (int i = 0; i < cand.count; ++i)
    if (std::fabs(g(cand.alpha[i])) < 1e-14) ++hits;  // exact roots to rounding of O(1) values
  EXPECT_GE(hits, 2);
}

// O7: the Appendix-A form of Eq. (8) equals d f_obj / d alpha times mu^2 b_n^2 / rbar^3 and the
// direct form G(alpha) of the spec (Sect. 2.9).
TEST(AppendixA, EqualsDerivativeOfObjective) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    auto p = test::random_problem(rng, trial % 6);
    p.b(0) = std::fabs(p.b(0)) + 0.1;
    if (p.mu == 0.0) p.mu = 0.5;
    const Reduced red(p.A, p.b, p.mu, p.b(0));
    const Trig2 g = appendix_a(p.A, p.b, p.mu).trig();
    for (int i = 0; i < 49; ++i) {
      const double a = -cm::pi + (i + 0.5) * two_pi / 49;
      const double c = std::cos(a), s = std::sin(a);
      const double fr = red.fr(c, s);
      if (fr <= 1e-3 * red.Ann) continue;
      // Direct form G(alpha) of the spec, k = (A_nt, A_no), u_perp = (-s, c)
      const Vector2d u(c, s), up(-s, c);
      const double kup = red.k.dot(up);
      const double G = -p.mu * p.mu * red.bn * kup * u.dot(red.Ahat * u) + p.mu * fr * kup * u.dot(red.bhat) +
                       p.mu * red.bn * fr * up.dot(red.Ahat * u) - fr * fr * up.dot(red.bhat);
      // analytic derivative of f_obj: t(alpha)^T (Ahat gamma - bhat), Eq. (7)
      const double r = red.rbar(a);
      const double dr = r * r / red.bn * red.k.norm() * std::sin(a - red.alpha0());
      const Vector2d t(dr * c - r * s, dr * s + r * c);
      const double eq7 = t.dot(red.Ahat * (r * u) - red.bhat);
      const double eq8 = eq7 * p.mu * p.mu * red.bn * red.bn / (r * r * r);
      const double scale = g.scale();
      // All three are the same polynomial: agreement to rounding of the O(scale) terms.
      EXPECT_NEAR(g(a), eq8, 1e-10 * scale);
      EXPECT_NEAR(g(a), G, 1e-10 * scale);
    }
  }
}

// The spec's printed tangent (first form) has sin/cos swapped; check that the derivative of
// f_obj is the second form (used above) by finite differences.
TEST(AppendixA, TangentSecondFormIsTheDerivative) {
  std::mt19937_64 rng(14);
  auto p = test::random_problem(rng, 0);
  p.b(0) = 0.7;
  p.mu = 0.4;
  const Reduced red(p.A, p.b, p.mu, p.b(0));
  for (double a = -3.0; a < 3.0; a += 0.37) {
    if (red.fr(std::cos(a), std::sin(a)) <= 0.1) continue;
    const double h = 1e-6;
    const double fd = (red.fobj(a + h) - red.fobj(a - h)) / (2 * h);
    const double r = red.rbar(a);
    const double dr = r * r / red.bn * red.k.norm() * std::sin(a - red.alpha0());
    const Vector2d t(dr * std::cos(a) - r * std::sin(a), dr * std::sin(a) + r * std::cos(a));
    const double eq7 = t.dot(red.Ahat * (r * Vector2d(std::cos(a), std::sin(a))) - red.bhat);
    // central difference with h = 1e-6: truncation ~h^2 f''' and rounding ~eps f / h ~ 1e-10
    EXPECT_NEAR(eq7, fd, 1e-7 * (1.0 + std::fabs(fd)));
  }
}

// ---- Branches of Fig. 5 (O3) ----------------------------------------------------------------

Matrix3d example_A() {
  Matrix3d A;
  A << 1, -0.3, 1, -0.3, 0.6, -0.5, 1, -0.5, 2.9;
  return A;
}

TEST(Branch, Separating) {
  const auto s = solve(example_A(), Vector3d(-0.1, 1, 2), 0.8);
  EXPECT_EQ(s.branch, Branch::separating);
  EXPECT_EQ(s.x, Vector3d::Zero());
}

TEST(Branch, Frictionless) {
  const Matrix3d A = example_A();
  const auto s = solve(A, Vector3d(0.7, 1, 2), 0.0);
  EXPECT_EQ(s.branch, Branch::frictionless);
  EXPECT_DOUBLE_EQ(s.x(0), 0.7 / A(0, 0));
  EXPECT_EQ(s.x(1), 0.0);
  EXPECT_EQ(s.x(2), 0.0);
}

TEST(Branch, StickingHasZeroPostImpactVelocity) {
  const Matrix3d A = example_A();
  const Vector3d b(1.0, 0.1, 0.2);
  const auto s = solve(A, b, 5.0);
  ASSERT_EQ(s.branch, Branch::sticking);
  // dv = A x_0 - b = 0 to rounding of O(1) data
  EXPECT_LT((A * s.x - b).norm(), 1e-14);
}

TEST(Branch, SlidingIsOnPlaneAndConeBoundary) {
  const Matrix3d A = example_A();
  const Vector3d b(1, -1, -3);
  const auto s = solve(A, b, 1.2);
  ASSERT_EQ(s.branch, Branch::sliding);
  EXPECT_FALSE(s.fallback);
  // dv_n = 0 (plane of maximum compression) and ||x_to|| = mu x_n, to rounding of O(1) values
  EXPECT_NEAR((A * s.x - b)(0), 0.0, 1e-14);
  EXPECT_NEAR(s.x.tail<2>().norm(), 1.2 * s.x(0), 1e-13);
  // The spec's example (Sect. 4, S-F4): x_* = (2.685730, -2.207648, -2.348025), printed to 1e-6.
  EXPECT_NEAR(s.x(0), 2.685730, 1e-6);
  EXPECT_NEAR(s.x(1), -2.207648, 1e-6);
  EXPECT_NEAR(s.x(2), -2.348025, 1e-6);
}

TEST(Branch, DegeneratePoint) {
  // b_n = 0 and A_nn > mu sqrt(A_nt^2 + A_no^2) (P2): only 0 is feasible.
  const Matrix3d A = example_A();
  const auto s = solve(A, Vector3d(0.0, 1.0, 0.5), 0.3);
  EXPECT_EQ(s.branch, Branch::degenerate_point);
  EXPECT_EQ(s.x, Vector3d::Zero());
}

TEST(Branch, DegenerateRayIsOptimalAndOnTheCone) {
  const Matrix3d A = example_A();  // mu sqrt(A_nt^2 + A_no^2) = 2 * 1.044 > A_nn = 1: hyperbola
  const Vector3d b(0.0, 1.0, 2.0);
  const auto s = solve(A, b, 2.0);
  ASSERT_EQ(s.branch, Branch::degenerate_ray);
  EXPECT_GT(s.x.norm(), 0.1);                              // a non-trivial ray solution
  EXPECT_NEAR(s.x.tail<2>().norm(), 2.0 * s.x(0), 1e-13);  // on the cone, rounding of O(1) values
  EXPECT_NEAR(A.row(0).dot(s.x), 0.0, 1e-14);              // on the plane a_n^T x = 0
}

// Parabola exactly: A_nn = mu sqrt(A_nt^2 + A_no^2); one ray along -(A_nt, A_no) (spec 6.5 item 7).
TEST(Branch, DegenerateParabolaRayIsMinusK) {
  Matrix3d A;
  A << 1.0, 0.5, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0;
  const double mu = 2.0;  // mu * 0.5 = A_nn
  const auto s = solve(A, Vector3d(0.0, 1.0, 0.0), mu);
  ASSERT_EQ(s.branch, Branch::degenerate_ray);
  // The feasible ray points along -k = (-0.5, 0): x_t <= 0. Minimising -x_t b_t with b_t = 1 > 0
  // along it gives r = 0, so the solution is 0 -- and along the printed ray +k it would be > 0.
  EXPECT_LE(s.x(1), 0.0);
  const auto s2 = solve(A, Vector3d(0.0, -1.0, 0.3), mu);
  ASSERT_EQ(s2.branch, Branch::degenerate_ray);
  // along -k = (-1, 0) r = u^T bhat / u^T Ahat u = 1 / 0.75; x_n = 0.5 r (rounding of O(1) values)
  EXPECT_NEAR(s2.x(1), -1.0 / 0.75, 1e-14);
  EXPECT_NEAR(s2.x(2), 0.0, 1e-14);
  EXPECT_NEAR(s2.x(0), 0.5 / 0.75, 1e-14);
}

TEST(Branch, BnSnapsToZeroWithinTolerance) {
  const Matrix3d A = example_A();
  const auto s = solve(A, Vector3d(1e-17, 1.0, 0.5), 0.3);  // |b_n| <= 1e-14 ||b||
  EXPECT_EQ(s.branch, Branch::degenerate_point);
}

TEST(Branch, SphereClosedFormAndGeneralPathAgree) {
  const Matrix3d A = Vector3d(2.0, 7.0, 7.0).asDiagonal();
  const Vector3d b(1.0, 3.0, -4.0);
  SolverOptions general;
  general.use_sphere_path = false;
  const auto s1 = solve(A, b, 0.4);
  const auto s2 = solve(A, b, 0.4, general);
  EXPECT_TRUE(s1.sphere);
  EXPECT_FALSE(s2.sphere);
  EXPECT_EQ(s1.branch, Branch::sliding);
  EXPECT_EQ(s2.branch, Branch::sliding);
  EXPECT_FALSE(s2.fallback);
  // both are exact formulas of O(1) values: agreement to rounding
  EXPECT_LT((s1.x - s2.x).norm(), 1e-13);
}

TEST(Fallback, ForcedFallbackAgreesWithAnalyticPath) {
  std::mt19937_64 rng(15);
  SolverOptions forced;
  forced.force_fallback = true;
  int sliding = 0;
  for (int i = 0; i < 300; ++i) {
    const auto p = test::random_problem(rng, i % 6);
    const auto a = solve(p.A, p.b, p.mu), f = solve(p.A, p.b, p.mu, forced);
    if (a.branch != Branch::sliding) continue;
    ++sliding;
    EXPECT_TRUE(f.fallback);
    const double fa = objective(p.A, p.b, a.x), ff = objective(p.A, p.b, f.x);
    // the fallback's golden section + Newton polish reach the same minimum to ~1e-12 relative
    EXPECT_LE(fa, ff + 1e-11 * std::fabs(fa));
    EXPECT_NEAR(ff, fa, 1e-9 * std::fabs(fa));
  }
  EXPECT_GT(sliding, 50);
}

}  // namespace

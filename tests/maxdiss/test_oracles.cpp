// Oracle tests of spec 001, Sect. 5.2 (O1-O13): exact identities, closed forms, symmetries and
// global optimality against an independent brute-force minimisation.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "core/math.hpp"
#include "maxdiss/bodies.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/reference.hpp"
#include "maxdiss/single_contact.hpp"
#include "random_problems.hpp"

using namespace md;

namespace {

// ---- O1, O2: energy identity and gradient = post-impact relative velocity ----------------------
TEST(Oracle, O1_O2_EnergyIdentityAndGradient) {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.2, 2.0);
  for (int trial = 0; trial < 200; ++trial) {
    // Two bodies with random mass, inertia (inertial frame) and lever arms.
    const double m1 = P(rng), m2 = P(rng);
    const Matrix3d I1 = test::random_spd(rng, 0.1), I2 = test::random_spd(rng, 0.1);
    const Vector3d r1(U(rng), U(rng), U(rng)), r2(U(rng), U(rng), U(rng));
    Eigen::Matrix<double, 12, 12> M = Eigen::Matrix<double, 12, 12>::Zero();
    M.block<3, 3>(0, 0) = m1 * Matrix3d::Identity();
    M.block<3, 3>(3, 3) = m2 * Matrix3d::Identity();
    M.block<3, 3>(6, 6) = I1;
    M.block<3, 3>(9, 9) = I2;
    // W: contact reactions act positively on body 1, negatively on body 2 (Sect. 2.3 of the spec);
    // state order (v1, v2, w1, w2).
    Eigen::Matrix<double, 12, 3> W = Eigen::Matrix<double, 12, 3>::Zero();
    W.block<3, 3>(0, 0) = Matrix3d::Identity();
    W.block<3, 3>(3, 0) = -Matrix3d::Identity();
    W.block<3, 3>(6, 0) = cross_matrix(r1);
    W.block<3, 3>(9, 0) = -cross_matrix(r2);
    Eigen::Matrix<double, 12, 1> u;
    for (int i = 0; i < 12; ++i) u(i) = U(rng);
    const Matrix3d A = W.transpose() * M.inverse() * W;
    const Vector3d b = -W.transpose() * u;  // minus the free relative velocity
    // Eq. (2) gives the same block
    const Matrix3d A2 = delassus_eq2(1 / m1, I1.inverse(), r1, 1 / m2, I2.inverse(), r2);
    EXPECT_LT((A - A2).norm(), 1e-12 * A.norm());  // rounding of two matrix products
    const Vector3d L(U(rng), U(rng), U(rng));
    const auto up = u + M.inverse() * W * L;
    const double dT = 0.5 * up.dot(M * up) - 0.5 * u.dot(M * u);
    // O1: E+ - E- = 1/2 L^T A L - L^T b (rel. 1e-12: rounding of sums of O(1) terms)
    EXPECT_NEAR(dT, objective(A, b, L), 1e-12 * (std::fabs(dT) + u.dot(M * u)));
    // O2: A L - b = W^T u+
    EXPECT_LT((A * L - b - W.transpose() * up).norm(), 1e-12 * (1 + b.norm()));
  }
}

// ---- O3 / O4 / O6: randomized global optimality against dense sampling -------------------------
TEST(Oracle, O4_AnalyticNeverBeatenByBruteForce) {
  std::mt19937_64 rng(22);
  int counts[branch_count] = {};
  int fallbacks = 0, n = 0;
  double worst_gap = 0.0;
  for (int i = 0; i < 10000; ++i) {
    const auto p = test::random_problem(rng, i);
    const auto s = solve(p.A, p.b, p.mu);
    ++counts[static_cast<int>(s.branch)];
    fallbacks += s.fallback;
    ++n;
    const double f = objective(p.A, p.b, s.x);
    // the natural energy scale of the problem: b^T A^{-1} b (twice the unconstrained dissipation)
    const double scale = p.b.dot(p.A.ldlt().solve(p.b));
    // feasible to rounding (1e-12 relative)
    ASSERT_LE(feasibility_violation(p.A, p.b, p.mu, s.x), 1e-12) << "problem " << i;
    const Reference ref = brute_force(p.A, p.b, p.mu, 2000, 60);
    // O4: no sampled feasible point is lower (1e-12 relative: rounding of the objective)
    ASSERT_LE(f, ref.objective + 1e-12 * scale) << "problem " << i << " branch " << branch_name(s.branch);
    // and the brute force, refined, comes within 1e-8 (golden sections of 60 steps on a
    // 2000-sample grid reach the minimiser to ~1e-12 rad: objective error ~1e-16; 1e-8 allows
    // for the flat directions of ill-conditioned problems)
    worst_gap = std::max(worst_gap, (ref.objective - f) / scale);
    EXPECT_LE(ref.objective - f, 1e-8 * scale) << "problem " << i;
    // O6: a colliding contact dissipates at least the frictionless amount
    if (p.b(0) > 0.0) {
      EXPECT_LE(f, -p.b(0) * p.b(0) / (2 * p.A(0, 0)) + 1e-12 * scale);
    }
    // O3: branch properties
    const Vector3d dv = p.A * s.x - p.b;
    switch (s.branch) {
      case Branch::separating:
        EXPECT_EQ(s.x, Vector3d::Zero());
        break;
      case Branch::sticking:
        EXPECT_LE(dv.norm(), 1e-10 * (p.b.norm() + (p.A * s.x).norm()));
        break;
      case Branch::sliding:
        EXPECT_NEAR(dv(0), 0.0, 1e-12 * (p.b.norm() + (p.A * s.x).norm()));
        EXPECT_NEAR(s.x.tail<2>().norm(), p.mu * s.x(0), 1e-11 * s.x.norm());
        break;
      default:
        break;
    }
  }
  // every branch of Fig. 5 except the b_n = 0 ones occurs in this mix (those have their own tests)
  EXPECT_GT(counts[static_cast<int>(Branch::separating)], 100);
  EXPECT_GT(counts[static_cast<int>(Branch::sticking)], 100);
  EXPECT_GT(counts[static_cast<int>(Branch::sliding)], 100);
  // The analytic path should essentially never need the fallback on this mix.
  EXPECT_LE(fallbacks, n / 1000) << "fallbacks " << fallbacks;
  RecordProperty("fallbacks", fallbacks);
}

// Degenerate b_n = 0 problems: rays and the degenerate point, against brute force; and the
// printed ray rule of Eq. (9) recorded against the best-of-two-rays rule.
TEST(Oracle, O4_DegenerateBnZeroAndEq9Rule) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  SolverOptions paper;
  paper.ray_rule = RayRule::paper;
  int rays = 0, paper_worse = 0;
  for (int i = 0; i < 3000; ++i) {
    Matrix3d A = test::random_spd(rng, 0.05);
    const Vector3d b(0.0, 2 * U(rng), 2 * U(rng));
    const double mu = 0.2 + 3.8 * P(rng);
    const auto s = solve(A, b, mu);
    const double f = objective(A, b, s.x);
    const Reference ref = brute_force(A, b, mu, 2000, 60);
    const double scale = b.dot(A.ldlt().solve(b));  // energy scale as above
    ASSERT_LE(feasibility_violation(A, b, mu, s.x), 1e-12);
    ASSERT_LE(f, ref.objective + 1e-12 * scale) << i;  // never beaten (rounding)
    EXPECT_LE(ref.objective - f, 1e-8 * scale) << i;   // see O4 above
    if (s.branch == Branch::degenerate_ray) {
      ++rays;
      const auto sp = solve(A, b, mu, paper);
      const double fp = objective(A, b, sp.x);
      EXPECT_LE(f, fp + 1e-14 * scale);  // best of two is never worse than the printed rule
      if (fp > f + 1e-12 * scale) ++paper_worse;
    }
  }
  EXPECT_GT(rays, 300);
  // The printed rule picks the worse ray in a few per cent of cases (spec 2.9 reports 2.2 %);
  // recorded, not asserted to a value.
  RecordProperty("eq9_paper_rule_worse", paper_worse);
  RecordProperty("eq9_rays", rays);
  std::printf("Eq. (9) printed rule chose the worse ray in %d of %d ray cases\n", paper_worse, rays);
}

// ---- O5: maximum dissipation dissipates at least as much as every Coulomb solution -------------
TEST(Oracle, O5_MaxDissipationBelowEveryCoulombSolution) {
  std::mt19937_64 rng(24);
  int coulomb_total = 0, multi = 0;
  for (int i = 0; i < 2000; ++i) {
    auto p = test::random_problem(rng, i % 6);
    p.b(0) = std::fabs(p.b(0));  // colliding
    const auto s = solve(p.A, p.b, p.mu);
    const double f = objective(p.A, p.b, s.x);
    const auto set = coulomb_solutions(p.A, p.b, p.mu);
    EXPECT_FALSE(set.solutions.empty()) << i;  // a colliding contact has a Coulomb solution
    coulomb_total += static_cast<int>(set.solutions.size());
    multi += set.solutions.size() > 1;
    for (const auto& c : set.solutions) {
      // each reported Coulomb solution satisfies the law (1e-9: the roots are polished to
      // ~1e-14 rad; the slip-direction residual amplifies by the conditioning of A)
      EXPECT_LE(coulomb_residual(p.A, p.b, p.mu, c.x), 1e-9) << i;
      EXPECT_LE(f, objective(p.A, p.b, c.x) + 1e-12 * std::fabs(f)) << i;
    }
  }
  EXPECT_GT(coulomb_total, 2000);
  RecordProperty("problems_with_several_coulomb_solutions", multi);
}

// The quartic and the scan find the same Coulomb solutions.
TEST(Oracle, CoulombQuarticAgreesWithScan) {
  std::mt19937_64 rng(25);
  for (int i = 0; i < 300; ++i) {
    auto p = test::random_problem(rng, i % 6);
    const auto q = coulomb_solutions(p.A, p.b, p.mu, CoulombMethod::quartic);
    const auto s = coulomb_solutions(p.A, p.b, p.mu, CoulombMethod::scan, 20000);
    ASSERT_EQ(q.solutions.size(), s.solutions.size()) << i;
    for (const auto& a : q.solutions) {
      double d = 1e300;
      for (const auto& c : s.solutions) d = std::min(d, (a.x - c.x).norm());
      // bisection to machine precision vs Newton-polished quartic: both ~1e-14 rad
      EXPECT_LT(d, 1e-8 * (1 + a.x.norm())) << i;
    }
  }
}

// ---- O8: scaling ----------------------------------------------------------------------------------
TEST(Oracle, O8_Scaling) {
  std::mt19937_64 rng(26);
  std::uniform_real_distribution<double> S(0.1, 10.0);
  for (int i = 0; i < 1000; ++i) {
    const auto p = test::random_problem(rng, i);
    const double s = S(rng);
    const auto x = solve(p.A, p.b, p.mu).x;
    const auto xb = solve(p.A, s * p.b, p.mu).x;
    const auto xa = solve(s * p.A, p.b, p.mu).x;
    // exact in exact arithmetic; the kernel's rounding is ~1e-13 relative, except near the
    // flat minima of ill-conditioned problems where alpha_* is determined to ~1e-8
    EXPECT_LT((xb - s * x).norm(), 1e-7 * (1 + s * x.norm())) << i;
    EXPECT_LT((xa - x / s).norm(), 1e-7 * (1 + x.norm() / s)) << i;
  }
}

// ---- O9: rotation covariance in the tangential plane ------------------------------------------------
TEST(Oracle, O9_TangentialRotation) {
  std::mt19937_64 rng(27);
  std::uniform_real_distribution<double> B(-cm::pi, cm::pi);
  for (int i = 0; i < 1000; ++i) {
    const auto p = test::random_problem(rng, i);
    const double beta = B(rng);
    Matrix3d R = Matrix3d::Identity();
    R.block<2, 2>(1, 1) << std::cos(beta), -std::sin(beta), std::sin(beta), std::cos(beta);
    // New frame (t', o') = (t, o) R: components transform with R^T.
    const Matrix3d Ar = R.transpose() * p.A * R;
    const Vector3d br = R.transpose() * p.b;
    const auto x = solve(p.A, p.b, p.mu).x;
    const auto xr = solve(Ar, br, p.mu).x;
    // as O8
    EXPECT_LT((xr - R.transpose() * x).norm(), 1e-7 * (1 + x.norm())) << i;
    EXPECT_NEAR(objective(Ar, br, xr), objective(p.A, p.b, x), 1e-10 * (1 + std::fabs(objective(p.A, p.b, x))));
  }
}

// ---- O10: limits in mu ----------------------------------------------------------------------------
TEST(Oracle, O10_LimitsInMu) {
  std::mt19937_64 rng(28);
  for (int i = 0; i < 300; ++i) {
    auto p = test::random_problem(rng, i % 6);
    p.b(0) = std::fabs(p.b(0)) + 0.05;
    const Vector3d x0 = p.A.ldlt().solve(p.b);
    if (x0(0) > 1e-3) {
      const auto x = solve(p.A, p.b, 1e8).x;  // the cone swallows x_0
      EXPECT_LT((x - x0).norm(), 1e-9 * (1 + x0.norm()));
    }
    const auto xf = solve(p.A, p.b, 1e-9).x;  // nearly frictionless: x -> (b_n / A_nn, 0, 0)
    // |x - x_frictionless| = O(mu) = 1e-9 times the data scale
    EXPECT_LT((xf - Vector3d(p.b(0) / p.A(0, 0), 0, 0)).norm(), 1e-7 * (1 + p.b.norm() / p.A(0, 0)));
  }
}

// ---- O11: sphere contacts -------------------------------------------------------------------------
TEST(Oracle, O11_SphereContactsMaxDissipationEqualsCoulomb) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.1, 2.0);
  for (int i = 0; i < 1000; ++i) {
    const double m1 = P(rng), m2 = P(rng);
    // equal or sphere-wall contacts: diag(1/m1 + 1/m2, 7/2 (..), 7/2 (..)) (spec 2.6)
    const double inv = 1 / m1 + 1 / m2, att = inv + 2.5 / m1 + 2.5 / m2;
    const Matrix3d A = Vector3d(inv, att, att).asDiagonal();
    const Vector3d b(std::fabs(U(rng)), U(rng), U(rng));
    const double mu = P(rng);
    const auto s = solve(A, b, mu);
    const double xn = b(0) / inv;
    Vector2d xto = b.tail<2>() / att;
    if (xto.norm() > mu * xn) xto *= mu * xn / xto.norm();                             // radial clip
    EXPECT_LT((s.x - Vector3d(xn, xto(0), xto(1))).norm(), 1e-14 * (1 + s.x.norm()));  // same formula
    const auto set = coulomb_solutions(A, b, mu);
    ASSERT_EQ(set.solutions.size(), 1u) << i;  // unique Coulomb solution
    // Coulomb roots are polished to ~1e-15 rad
    EXPECT_LT((set.solutions[0].x - s.x).norm(), 1e-10 * (1 + s.x.norm())) << i;
  }
}

// ---- O12: the rod of Sect. 4.2 (P16-P25) ------------------------------------------------------------
TEST(Oracle, O12_RodClosedForms) {
  const double m = 1.7, l = 0.8, v0 = 1.3;
  for (int i = 1; i < 90; ++i) {
    const double th = i * cm::pi / 180.0;
    const auto rod = rod_problem(th, m, l, v0);
    const Matrix3d P = rod_A_printed(th, m);
    // P16: the in-plane block of Eq. (2) equals the printed one; A_zz = 4/m from Eq. (2)
    // (1e-14: rounding of O(1/m) entries)
    EXPECT_LT((rod.A_world.block<2, 2>(0, 0) - P.block<2, 2>(0, 0)).norm(), 1e-14 * 4 / m);
    EXPECT_NEAR(rod.A_world(2, 2), 4.0 / m, 1e-14 * 4 / m);
    // P17: n^T A (mu, 1, 0)^T = (1 + 3 cos (cos - mu sin)) / m
    const double mu = 0.37 * i / 10.0;
    const double c = std::cos(th), s = std::sin(th);
    EXPECT_NEAR(Vector3d::UnitY().dot(rod.A_world * Vector3d(mu, 1, 0)), (1 + 3 * c * (c - mu * s)) / m, 1e-13 / m);
    // P18: mu_* is the root of that coefficient
    const double ms = rod_mu_star(th);
    EXPECT_NEAR(1 + 3 * c * (c - ms * s), 0.0, 1e-12 * (1 + ms));
    // P21: Lambda_0 = A^{-1} v0 e_x equals the printed closed form
    const Vector3d L0 = rod.A_world.ldlt().solve(Vector3d(v0, 0, 0));
    EXPECT_LT((L0 - rod_Lambda0_printed(th, m, v0)).norm(), 1e-12 * L0.norm());
    // P22: ||Lambda_0,to|| = mu_* Lambda_0,n (contact frame: n = y, t = x)
    EXPECT_NEAR(std::hypot(L0(0), L0(2)), ms * L0(1), 1e-12 * L0.norm());
    // P23: A_nn = mu_* sqrt(A_nt^2 + A_no^2)
    EXPECT_NEAR(rod.A(0, 0), ms * std::hypot(rod.A(0, 1), rod.A(0, 2)), 1e-12 * rod.A(0, 0));
    // P24: the MDP impulse is Lambda_0 iff mu >= mu_*, else 0
    for (double f : {0.5, 0.99, 1.01, 2.0}) {
      const auto sol = solve(rod.A, rod.b, f * ms);
      const Vector3d L = rod.Q * sol.x;  // inertial components
      if (f < 1) {
        EXPECT_EQ(sol.branch, Branch::degenerate_point);
        EXPECT_EQ(sol.x, Vector3d::Zero());
      } else {
        EXPECT_EQ(sol.branch, Branch::sticking);
        EXPECT_LT((L - L0).norm(), 1e-12 * L0.norm());
      }
      // P25: 0 is always a Coulomb solution, Lambda_0 iff mu >= mu_*
      EXPECT_LE(coulomb_residual(rod.A, rod.b, f * ms, Vector3d::Zero()), 0.0);
      const Vector3d L0c = rod.Q.transpose() * L0;
      if (f > 1) {
        EXPECT_LE(coulomb_residual(rod.A, rod.b, f * ms, L0c), 1e-12);
      }
      if (f < 1) {
        EXPECT_GT(coulomb_residual(rod.A, rod.b, f * ms, L0c), 1e-6);
      }
    }
    // P25 at mu = mu_*: every s Lambda_0, s in [0, 1], satisfies the Coulomb-like law
    const Vector3d L0c = rod.Q.transpose() * L0;
    for (double sc : {0.0, 0.25, 0.5, 0.75, 1.0})
      EXPECT_LE(coulomb_residual(rod.A, rod.b, ms, sc * L0c), 1e-12) << sc;  // rounding of mu_* and A
  }
}

// ---- O13: the rod's time-step limit (spec 5.2) -------------------------------------------------------
TEST(Oracle, O13_RodTimeStepLimit) {
  const double m = 1.0, g0 = 9.81, v0 = 1.0, th = cm::pi / 3;
  const auto rod = rod_problem(th, m, 1.0, v0);
  const double ms = rod_mu_star(th);
  const double c = std::cos(th), s = std::sin(th);
  // mu < mu_*: sliding with lambda_n / dt = m g0 / (1 + 3 cos (cos - mu sin)) exactly
  for (double dt : {1e-2, 1e-3, 1e-4}) {
    const double mu = 0.5 * ms;
    const auto sol = solve(rod.A, rod.b + Vector3d(g0 * dt, 0, 0), mu);
    EXPECT_EQ(sol.branch, Branch::sliding);
    const double expected = m * g0 / (1 + 3 * c * (c - mu * s));
    EXPECT_NEAR(sol.x(0) / dt, expected, 1e-9 * expected);  // 1e-9: rounding amplified by 1/dt
  }
  // mu > mu_*: sticking, converging to Lambda_0 at O(dt)
  const Vector3d L0 = rod.Q.transpose() * rod.A_world.ldlt().solve(Vector3d(v0, 0, 0));
  double prev = 0.0;
  for (double dt : {1e-3, 5e-4, 2.5e-4}) {
    const auto sol = solve(rod.A, rod.b + Vector3d(g0 * dt, 0, 0), 1.2 * ms);
    EXPECT_EQ(sol.branch, Branch::sticking);
    const double err = (sol.x - L0).norm();
    if (prev > 0) {
      EXPECT_NEAR(prev / err, 2.0, 0.01);  // first order: halving dt halves the error
    }
    prev = err;
  }
}

// ---- Table 1 structure (Sect. 4.1) ----------------------------------------------------------------------
TEST(Oracle, AcademicProblemStructure) {
  AcademicBody body{10, 1, 1, 0.03, 65, 50, Vector3d(0.25, 0.36, -0.9), Vector3d(0.06, 0.7, 0.23), false};
  const auto cp = academic_problem(body);
  const double mu = 3.7;
  const Reduced red(cp.A, cp.b, mu, cp.b(0));
  EXPECT_TRUE(red.ellipse());  // P15
  const auto s = solve(cp.A, cp.b, mu);
  EXPECT_EQ(s.branch, Branch::sliding);
  EXPECT_FALSE(s.fallback);
  const auto set = coulomb_solutions(cp.A, cp.b, mu);
  EXPECT_EQ(set.solutions.size(), 3u);  // P13, all sliding ("dynamic")
  for (const auto& c : set.solutions) EXPECT_EQ(c.kind, CoulombKind::sliding);
  int rejected = 0;
  for (const auto& r : set.roots) rejected += !r.accepted;
  EXPECT_EQ(rejected, 1);
  const double f = objective(cp.A, cp.b, s.x);
  for (const auto& c : set.solutions) EXPECT_LT(f, objective(cp.A, cp.b, c.x));  // O5
  // brute force confirms the MDP solution (P14: the minimiser of a strictly convex problem)
  const auto ref = brute_force(cp.A, cp.b, mu, 20000, 100);
  EXPECT_LE(f, ref.objective + 1e-13 * std::fabs(f));
  EXPECT_LT((ref.x - s.x).norm(), 1e-5 * s.x.norm());  // golden section: |dx| ~ sqrt(eps) rel.
}

}  // namespace

// Unit tests of the hard-contact engine's pieces (solvers/maxdiss/granular/), also run under the
// sanitizers: the per-contact laws on sphere contacts (spec 001, 6.4), the obstacle's signed
// distance, the contact frame, independence of the thread count, the lanes and the slab order (on
// states of the small channel of granular_fixtures.hpp). The channel's own unit tests are
// tests/maxdiss/test_channel_unit.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "granular_fixtures.hpp"
#include "maxdiss/channel/channel.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/granular/engine.hpp"
#include "numerics/optimize.hpp"

namespace {

using namespace md::granular;
using Eigen::Matrix3d;
using md::granular::testing::options;
using md::granular::testing::small_channel;

// --- the per-contact laws agree on sphere contacts (spec 001, 6.4) -------------------------------

TEST(Granular, LawsAgreeOnSphereContacts) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.1, 2.0);
  EngineOptions o;
  o.kernel.want_alpha = false;
  double worst_exact = 0, worst_decoupling = 0, worst_enumerated = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double Ann = pos(rng), Att = Ann * (1.0 + 2.5 * std::fabs(u(rng)));  // sphere blocks: A_tt >= A_nn
    const Vector3d b(std::fabs(u(rng)) + 1e-3, u(rng), u(rng));                // colliding
    const double mu = 0.05 + std::fabs(u(rng));
    const Vector3d xm = solve_block(BlockSolver::maxdiss, Ann, Att, b, mu, o);
    const Vector3d xc = coulomb_exact(Ann, Att, b, mu);
    const Vector3d xd = coulomb_decoupling(Vector3d(Ann, Att, Att).asDiagonal(), b, mu, 20, 60);
    const double scale = xm.norm();
    worst_exact = std::max(worst_exact, (xm - xc).norm() / scale);
    worst_decoupling = std::max(worst_decoupling, (xm - xd).norm() / scale);
    // The general enumeration of every Coulomb solution (coulomb.hpp) finds exactly one: the same.
    const md::CoulombSet set = md::coulomb_solutions(Vector3d(Ann, Att, Att).asDiagonal(), b, mu);
    ASSERT_EQ(set.solutions.size(), 1u) << "trial " << trial;
    worst_enumerated = std::max(worst_enumerated, (set.solutions[0].x - xm).norm() / scale);
  }
  // The same unique solution: rounding only (a few ulp) for the closed forms and the polished
  // roots of the enumeration; a golden section compares function values, which are flat to
  // rounding within sqrt(eps) = 1.5e-8 of the minimum, so 60 steps reach the angle to that: 1e-7.
  EXPECT_LT(worst_exact, 1e-14);
  EXPECT_LT(worst_enumerated, 1e-10);
  EXPECT_LT(worst_decoupling, 1e-7);
  // With pe's 20 golden-section steps the bracket is 0.618^20 pi = 2e-4: the decoupled Coulomb
  // impulse differs from the maximally dissipative one at that level (the only source of a
  // difference between the laws on spheres, besides rounding and chaos).
  double worst20 = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const double Ann = pos(rng), Att = 3.5 * Ann;
    const Vector3d b(std::fabs(u(rng)) + 1e-3, 5 * u(rng), 5 * u(rng));
    const Vector3d xm = solve_block(BlockSolver::maxdiss, Ann, Att, b, 0.4, o);
    const Vector3d xd = coulomb_decoupling(Vector3d(Ann, Att, Att).asDiagonal(), b, 0.4, 20, 20);
    worst20 = std::max(worst20, (xm - xd).norm() / xm.norm());
  }
  EXPECT_LT(worst20, 1e-3);
  EXPECT_GT(worst20, 1e-8);  // and does differ: the sub-solver is genuinely another algorithm
}

TEST(Granular, SphereKernelIsTheSolversSpherePath) {
  // The sweep calls md::solve_sphere on the block's two numbers instead of md::solve on the 3 x 3
  // block: the same solution, bit for bit, on every branch (separating, b_n snapped to 0,
  // frictionless, sticking, sliding).
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.1, 2.0);
  md::SolverOptions o;
  int branches[md::branch_count] = {};
  for (int trial = 0; trial < 4000; ++trial) {
    const double Ann = pos(rng), Att = Ann * (1.0 + 2.5 * std::fabs(u(rng)));
    Vector3d b(u(rng), u(rng), u(rng));
    if (trial % 50 == 0) b(0) = 1e-16 * b.norm();  // snapped to b_n = 0
    const double mu = trial % 7 == 0 ? 0.0 : std::fabs(u(rng));
    const md::Solution s = md::solve_sphere(Ann, Att, b, mu, o);
    const md::Solution g = md::solve(Vector3d(Ann, Att, Att).asDiagonal(), b, mu, o);
    ASSERT_EQ(s.branch, g.branch) << "trial " << trial;
    for (int k = 0; k < 3; ++k) ASSERT_EQ(s.x(k), g.x(k)) << "trial " << trial << ", component " << k;
    ++branches[static_cast<int>(s.branch)];
  }
  for (md::Branch b : {md::Branch::separating, md::Branch::frictionless, md::Branch::sticking, md::Branch::sliding,
                       md::Branch::degenerate_point})
    EXPECT_GT(branches[static_cast<int>(b)], 0) << md::branch_name(b);
}

TEST(Granular, GoldenSectionsTakenTogetherAreTheSingleSectionsBitForBit) {
  // The sweep of the decoupled Coulomb law takes a colour's golden sections eight (SSE2) or
  // sixteen (AVX2) at a time (golden_on_circles). Each minimiser must be
  // cm::golden_section_minimum's, bit for bit, in either set of registers. So it must be for
  // isotropic blocks (spheres: both sides of the first step tie, rounding decides), general SPD
  // blocks, counts that fill no batch, and any number of steps. After about 75 steps near
  // s = +-1 the bracket stops shrinking, and the single section stops there.
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.1, 2.0);
  std::vector<FrictionCircle> circles(150);
  for (std::size_t j = 0; j < circles.size(); ++j) {
    FrictionCircle& fc = circles[j];
    const double a = pos(rng), off = j % 2 == 0 ? 0.0 : 0.4 * a * u(rng);
    fc.At << a, off, off, j % 2 == 0 ? a : a * (1.0 + std::fabs(u(rng)));
    fc.bt = Eigen::Vector2d(u(rng), u(rng));
    const Eigen::Vector2d y = fc.At.ldlt().solve(fc.bt);
    // every fifth faces away from the minimum, which then lies at an end of the bracket, s = -1 or 1
    const double turn = 3.0 + 0.1 * u(rng);
    fc.c = j % 5 == 4 ? Eigen::Vector2d(std::cos(turn) * y(0) - std::sin(turn) * y(1),
                                        std::sin(turn) * y(0) + std::cos(turn) * y(1))
                            .normalized()
                      : y.normalized();
    fc.perp = Eigen::Vector2d(-fc.c(1), fc.c(0));
    fc.r = 0.5 * pos(rng);
    fc.xn = fc.r / 0.4;
  }
  std::vector<VectorWidth> sets{VectorWidth::widest, VectorWidth::sse2};
  if (avx2_available()) sets.push_back(VectorWidth::avx2);  // else the widest is SSE2
  if (avx512_available()) sets.push_back(VectorWidth::avx512);
  for (const VectorWidth lanes : sets) {
    for (const int count : {1, 7, 8, 13, 16, 17, 150}) {
      for (const int iterations : {0, 1, 20, 200}) {
        std::vector<double> s(static_cast<std::size_t>(count));
        golden_on_circles(circles.data(), count, iterations, s.data(), lanes);
        for (int j = 0; j < count; ++j) {
          const FrictionCircle& fc = circles[static_cast<std::size_t>(j)];
          const double one =
              cm::golden_section_minimum([&fc](double x) { return fc.f(x); }, -1.0, 1.0, 0.0, iterations).x;
          ASSERT_EQ(std::memcmp(&s[static_cast<std::size_t>(j)], &one, sizeof one), 0)
              << "registers " << static_cast<int>(lanes) << ", circle " << j << " of " << count << ", " << iterations
              << " steps: " << s[static_cast<std::size_t>(j)] << " against " << one;
        }
      }
    }
  }
}

TEST(Granular, LawsDifferOnAGeneralBlock) {
  // A block with normal-tangential coupling (the academic problem's kind, Sect. 4.1): the laws
  // need not agree, and here they do not, which is why the channel is a weak test of the law.
  Matrix3d A;
  A << 1.0, -0.3, 0.4, -0.3, 0.6, -0.5, 0.4, -0.5, 2.9;
  const Vector3d b(1.0, 1.0, 1.0);
  const md::Solution mdp = md::solve(A, b, 0.5);
  const Vector3d xd = coulomb_decoupling(A, b, 0.5, 50, 80);
  EXPECT_GT((mdp.x - xd).norm(), 1e-3 * mdp.x.norm());
  EXPECT_LE(md::objective(A, b, mdp.x), md::objective(A, b, xd) + 1e-14);  // max dissipation dissipates most
}

// --- geometry and frames -----------------------------------------------------------------------

TEST(Granular, ObstacleSignedDistance) {
  Obstacle ob;  // axis (0.04, 0.04), radius 0.01, box to x = 0.05
  Vector3d n;
  EXPECT_NEAR(ob.distance(Vector3d(0.02, 0.04, 0.01), n), 0.01, 1e-15);  // upstream of the arc
  EXPECT_NEAR((n - Vector3d(-1, 0, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(ob.distance(Vector3d(0.045, 0.052, 0.0), n), 0.002, 1e-15);  // beside the box
  EXPECT_NEAR((n - Vector3d(0, 1, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(ob.distance(Vector3d(0.053, 0.054, 0.0), n), 0.005, 1e-15);  // at the edge (0.05, 0.05)
  EXPECT_NEAR((n - Vector3d(0.6, 0.8, 0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR(ob.distance(Vector3d(0.049, 0.04, 0.0), n), -0.001, 1e-15);              // inside, near the back face
  EXPECT_NEAR(ob.distance(Vector3d(0.04 - 0.006, 0.04 + 0.008, 0.0), n), 0.0, 1e-15);  // on the arc
  EXPECT_NEAR(ob.area(), 0.5 * md::two_pi / 2 * 1e-4 + 2e-4, 1e-18);
}

TEST(Granular, ContactFrameIsOrthonormalAndRightHanded) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  for (int k = 0; k < 1000; ++k) {
    const Vector3d n = Vector3d(g(rng), g(rng), g(rng)).normalized();
    const Vector3d t = contact_tangent(n);  // the frame the sweep uses: n, t, o = n x t
    Matrix3d Q;
    Q << n, t, n.cross(t);
    EXPECT_LT((Q.transpose() * Q - Matrix3d::Identity()).norm(), 1e-14);
    EXPECT_NEAR(Q.determinant(), 1.0, 1e-14);
  }
}

// --- detection -----------------------------------------------------------------------------------

TEST(Granular, DetectionFindsEveryPairWithinReachOnceWhateverTheLanes) {
  // Spheres of two sizes: the cells are as large as the big ones' contact distance. So in a corner
  // crowded with small spheres a cell holds dozens, and a range of candidates runs past the eight
  // places that detection tests at once (a sphere's ranges taken one candidate at a time).
  // Elsewhere a cell holds one or two (its ranges tested eight places at once). Every pair
  // with gap < threshold is found once, as a brute force over all pairs finds it, and in the same
  // order whatever the width of the candidates' registers.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> corner(0.0, 4e-3), anywhere(0.0, 12e-3);
  const auto detect = [&](VectorWidth lanes) {
    EngineOptions o = options();
    o.vector_width = lanes;
    Box box;
    box.lo = Vector3d::Zero();
    box.hi = Vector3d::Constant(12e-3);
    Engine e(o, box, 1e-3);
    rng.seed(5);
    const auto add = [&](auto& u, int count, double R) {
      for (int k = 0; k < count; ++k)
        e.spheres.add(Vector3d(u(rng), u(rng), u(rng)), Vector3d::Zero(), Vector3d::Zero(), R, 1e-9);
    };
    add(corner, 600, 1e-4);
    add(anywhere, 300, 1e-4);
    add(anywhere, 40, 1e-3);
    e.detect();
    std::vector<std::pair<std::uint64_t, std::uint64_t>> found;
    for (const Contact& c : e.contacts()) {
      const std::uint64_t a = e.spheres.id[static_cast<std::size_t>(c.a)],
                          b = e.spheres.id[static_cast<std::size_t>(c.b)];
      found.emplace_back(std::min(a, b), std::max(a, b));
    }
    return std::make_pair(found, e.spheres);
  };
  const auto [one, spheres] = detect(VectorWidth::one);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> brute;
  const double threshold = options().threshold;
  for (std::size_t i = 0; i < spheres.size(); ++i)
    for (std::size_t j = i + 1; j < spheres.size(); ++j)
      if ((spheres.x[i] - spheres.x[j]).norm() - spheres.R[i] - spheres.R[j] < threshold)
        brute.emplace_back(std::min(spheres.id[i], spheres.id[j]), std::max(spheres.id[i], spheres.id[j]));
  auto sorted = one;
  std::sort(sorted.begin(), sorted.end());
  std::sort(brute.begin(), brute.end());
  EXPECT_GT(brute.size(), 100u);  // some 160 contacts, most of them in the crowded corner
  EXPECT_EQ(sorted, brute);
  std::vector<VectorWidth> sets{VectorWidth::sse2};
  if (avx2_available()) sets.push_back(VectorWidth::avx2);
  if (avx512_available()) sets.push_back(VectorWidth::avx512);
  for (VectorWidth lanes : sets) EXPECT_EQ(detect(lanes).first, one) << "lanes " << static_cast<int>(lanes);
}

// --- determinism -------------------------------------------------------------------------------

TEST(Granular, ThreadCountDoesNotChangeTheData) {
  ChannelOptions c = small_channel();
  for (SweepOrder order : {SweepOrder::colour, SweepOrder::slabs}) {
    std::vector<Vector3d> x[2];
    for (int threads : {1, 2}) {
      EngineOptions o = options();
      o.order = order;
      o.threads = threads;
      o.parallel_min = 1;  // colour: every colour shared by the threads, however few its contacts
      o.slab_columns = 1;  // slabs: the thinnest slabs, whose neighbours of one parity lie closest
      Channel ch(c, o);
      for (int s = 0; s < 200; ++s) ch.step();
      x[threads - 1] = ch.engine.spheres.x;
    }
    ASSERT_EQ(x[0].size(), x[1].size());
    for (std::size_t i = 0; i < x[0].size(); ++i)
      ASSERT_EQ(x[0][i], x[1][i]) << "sphere " << i << ", order " << static_cast<int>(order);  // bit for bit
  }
}

TEST(Granular, OneSlabIsRelaxedByOneThread) {
  // With slabs wider than the grid the slab order has one slab, and its groups are colours, which
  // share spheres: no two threads may take them at once. The sweep then meets no barrier, and two
  // threads give one thread's bits.
  ChannelOptions c = small_channel();
  std::vector<Vector3d> x[2];
  for (int threads : {1, 2}) {
    EngineOptions o = options();
    o.order = SweepOrder::slabs;
    o.threads = threads;
    o.slab_columns = 1000000;
    Channel ch(c, o);
    for (int s = 0; s < 50; ++s) ch.step();
    EXPECT_EQ(ch.engine.sweep_barriers(), 0) << threads << " threads";
    x[threads - 1] = ch.engine.spheres.x;
  }
  ASSERT_EQ(x[0].size(), x[1].size());
  for (std::size_t i = 0; i < x[0].size(); ++i) ASSERT_EQ(x[0][i], x[1][i]) << "sphere " << i;  // bit for bit
}

TEST(Granular, ContactsRelaxedInLanesAreTheOneContactPathBitForBit) {
  // The colour order relaxes several contacts at once (EngineOptions::vector_width): the maximum-
  // dissipation law's and the closed-form Coulomb law's sphere-sphere contacts two (SSE2) or four
  // (AVX2) to a vector register, the decoupled Coulomb law's golden sections eight or sixteen
  // together. Each lane does the one-contact path's operations in their order, every branch of the
  // kernel (separating, frictionless, sticking, sliding) a mask. From the small channel after 100
  // steps (about 200 contacts, 150 of them between spheres), 100 more steps in lanes give the same
  // bits as one contact at a time. So they do for both laws, with and without friction,
  // over-relaxed, with the paper's contact point (unequal lever arms) and with a single
  // decoupling sweep. So they do with spheres of three densities: the lanes read each sphere's 1/m
  // and 1/I from its line of Velocities, the one-contact path from the Contact detection wrote. A
  // lane that took one sphere's for the other's differs here, where equal spheres could not tell.
  std::vector<VectorWidth> sets{VectorWidth::sse2};
  if (avx2_available()) sets.push_back(VectorWidth::avx2);
  if (avx512_available()) sets.push_back(VectorWidth::avx512);
  struct Case {
    BlockSolver law;
    double mu, relaxation;
    ContactPoint point;  // the paper's: unequal lever arms l_1 != l_2
    int decoupling_sweeps = 20;
    bool unequal = false;  // spheres of densities 0.6, 1 and 2.5 times the channel's, in turn
  };
  for (const Case& k : {Case{BlockSolver::maxdiss, 0.4, 1.0, ContactPoint::midpoint},
                        Case{BlockSolver::maxdiss, 0.4, 1.0, ContactPoint::body2_surface},
                        Case{BlockSolver::maxdiss, 0.0, 1.0, ContactPoint::midpoint},
                        Case{BlockSolver::maxdiss, 0.4, 0.7, ContactPoint::midpoint},
                        Case{BlockSolver::maxdiss, 0.4, 1.0, ContactPoint::body2_surface, 20, true},
                        Case{BlockSolver::coulomb_decoupling, 0.4, 1.0, ContactPoint::midpoint},
                        Case{BlockSolver::coulomb_decoupling, 0.0, 1.0, ContactPoint::midpoint},
                        Case{BlockSolver::coulomb_decoupling, 0.4, 0.7, ContactPoint::body2_surface},
                        Case{BlockSolver::coulomb_decoupling, 0.4, 1.0, ContactPoint::midpoint, 1},
                        Case{BlockSolver::coulomb_decoupling, 0.4, 1.0, ContactPoint::body2_surface, 20, true},
                        Case{BlockSolver::coulomb_exact, 0.4, 1.0, ContactPoint::midpoint},
                        Case{BlockSolver::coulomb_exact, 0.0, 1.0, ContactPoint::midpoint},
                        Case{BlockSolver::coulomb_exact, 0.4, 0.7, ContactPoint::body2_surface},
                        Case{BlockSolver::coulomb_exact, 0.4, 1.0, ContactPoint::body2_surface, 20, true}}) {
    EngineOptions o = options(k.law);
    o.mu = k.mu;
    o.relaxation = k.relaxation;
    o.contact_point = k.point;
    o.decoupling_sweeps = k.decoupling_sweeps;
    o.vector_width = VectorWidth::one;
    Channel start(small_channel(), o);
    for (int s = 0; s < 100; ++s) start.step();
    if (k.unequal) {
      for (std::size_t i = 0; i < start.engine.spheres.size(); ++i) {
        const double density = std::array{0.6, 1.0, 2.5}[start.engine.spheres.id[i] % 3];  // m and I scale with it
        start.engine.spheres.vw[i].inv_m /= density;
        start.engine.spheres.vw[i].inv_I /= density;
      }
    }
    const auto go_on = [&](VectorWidth lanes) {
      Channel ch = start;
      o.vector_width = lanes;
      ch.engine.set_options(o);
      long contacts = 0;
      for (int s = 0; s < 100; ++s) contacts += ch.step().sphere_contacts;
      EXPECT_GT(contacts, 100 * 100);
      return ch.engine.spheres;
    };
    const Spheres one = go_on(VectorWidth::one);
    for (const VectorWidth lanes : sets) {
      const Spheres many = go_on(lanes);
      ASSERT_EQ(many.size(), one.size());
      const auto same = [](const Vector3d& p, const Vector3d& q) { return std::memcmp(&p, &q, sizeof p) == 0; };
      for (std::size_t i = 0; i < one.size(); ++i)
        ASSERT_TRUE(same(many.x[i], one.x[i]) && same(many.vw[i].v, one.vw[i].v) && same(many.vw[i].w, one.vw[i].w))
            << "sphere " << i << ", law " << static_cast<int>(k.law) << ", mu " << k.mu << ", relaxation "
            << k.relaxation << ", contact point " << static_cast<int>(k.point) << ", decoupling sweeps "
            << k.decoupling_sweeps << ", unequal " << k.unequal << ", lanes " << static_cast<int>(lanes) << ": v "
            << many.vw[i].v.transpose() << " against " << one.vw[i].v.transpose();
    }
  }
}

TEST(Granular, SlabOrderIsAGaussSeidelOrderOfTheSameContacts) {
  // The slab order relaxes the same contacts in another order: the step's contacts agree, and the
  // sweeps converge to the same impulses (a small pile, many sweeps).
  ChannelOptions c = small_channel();
  EngineOptions o = options();
  o.sweeps = 200;
  std::vector<Velocities> v[2];
  long contacts[2] = {0, 0};
  for (SweepOrder order : {SweepOrder::colour, SweepOrder::slabs}) {
    o.order = order;
    Channel ch(c, o);
    for (int s = 0; s < 50; ++s) contacts[static_cast<int>(order)] = ch.step().contacts;
    v[static_cast<int>(order)] = ch.engine.spheres.vw;
  }
  EXPECT_EQ(contacts[0], contacts[1]);
  ASSERT_EQ(v[0].size(), v[1].size());
  double largest = 0.0;
  for (std::size_t i = 0; i < v[0].size(); ++i) largest = std::max(largest, (v[0][i].v - v[1][i].v).norm());
  // 50 steps of 200 sweeps each: the orders differ by the sweeps' unconverged remainder only (4e-8
  // m/s measured); a contact the slabs left out would let its spheres approach at g dt = 1e-4 m/s
  // more each step
  EXPECT_LT(largest, 1e-6);
}

}  // namespace

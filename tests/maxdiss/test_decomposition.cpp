// Oracles of the channel cut into subdomains (decomposition.hpp) on a grid of 2 x 1 x 1 subdomains
// split at x = 10 mm, carried over MPI (md_test_decomposition, under mpirun -np 2) and on fibers in
// one process, on one thread and on two (md_test_decomposition_fibers):
//   - a sphere sliding on the floor crosses from rank 0 to rank 1 while friction brings it to
//     rolling: it arrives on rank 1 with the state the whole-domain engine computes, bit for bit
//     (omega = 1: the blend leaves a sphere without shared contacts as it is), and rolls at 5/7 v0;
//   - two spheres collide obliquely across the boundary, the contact relaxed by one subdomain (by
//     either rule of mpi.treat) and blended by pe's weighted Jacobi (omega = 0.75): linear and
//     angular momentum are conserved to rounding, and the contact is resolved (no approach left)
//     within what the blend leaves after the sweeps, (1 - omega)^sweeps of the approach;
//   - the split never changes a count: contacts and spheres are summed over the subdomains;
//   - balanced cuts (mpi.cuts) give each slab an equal share of the load, whatever the order of
//     the points, and a grid so cut assigns each point to the slab between its cuts.
// The fibers' own collectives (fibers.hpp) are tested in test_fibers.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>

#include "maxdiss/channel/decomposition.hpp"
#ifdef CM_TEST_OVER_MPI
#include <mpi.h>

#include "maxdiss/channel/mpi_transport.hpp"
#else
#include "maxdiss/channel/fibers.hpp"
#endif

namespace {

using namespace md::granular;

constexpr double R = 1e-3, m = 2650.0 * 4.0 / 3.0 * 3.141592653589793 * R * R * R;

SubdomainGrid split_at_10mm() {
  SubdomainGrid g;
  g.p = {2, 1, 1};
  g.box.lo = Vector3d::Zero();
  g.box.hi = Vector3d(0.02, 0.01, 0.01);
  return g;
}

/// A sphere added where its owner is (every rank numbers it the same).
void add(Engine& e, const SubdomainCoupling* c, const Vector3d& x, const Vector3d& v, const Vector3d& w) {
  if (c && !c->owns(x))
    e.spheres.skip_id();
  else
    e.spheres.add(x, v, w, R, m);
}

void sliding_sphere_crosses_the_boundary_and_rolls(Transport& transport) {
  EngineOptions eo;
  eo.dt = 1e-4;
  eo.mu = 0.4;
  eo.solver = BlockSolver::maxdiss;
  const SubdomainGrid grid = split_at_10mm();
  const double v0 = 0.5;
  auto setup = [&](Engine& e, const SubdomainCoupling* c) {
    Plane floor;
    floor.n = Vector3d::UnitZ();
    floor.mu = 0.4;
    e.planes.push_back(floor);
    add(e, c, Vector3d(0.004, 0.005, R), Vector3d(v0, 0, 0), Vector3d::Zero());
  };
  SubdomainCoupling coupling(transport, grid, 2 * R + eo.threshold, 1.0, GhostContacts::smaller_id);
  Engine split(eo, coupling.box(), R), whole(eo, grid.box, R);
  split.set_coupling(&coupling);
  setup(split, &coupling);
  setup(whole, nullptr);
  int crossed_at = -1;
  for (int k = 0; k < 600; ++k) {  // 60 ms: rolling from t = 2 v0 / (7 mu g) = 36 ms on
    const StepStats st = split.step(k * eo.dt);
    whole.step(k * eo.dt);
    EXPECT_EQ(st.contacts, 1) << "step " << k << ": the floor contact, counted once over both ranks";
    if (crossed_at < 0 && coupling.rank() == 1 && split.spheres.size() == 1) crossed_at = k;
  }
  const Spheres all = coupling.gather(split.spheres);  // on rank 0
  EXPECT_EQ(split.spheres.size(), coupling.rank() == 1 ? 1u : 0u) << "the sphere ends on rank 1";
  if (coupling.rank() == 1) {
    EXPECT_GT(crossed_at, 0) << "it started on rank 0";
    EXPECT_EQ(all.size(), 0u) << "the gathered spheres are rank 0's alone";
    return;
  }
  ASSERT_EQ(all.size(), 1u);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(all.x[0](a), whole.spheres.x[0](a)) << "position " << a;
    EXPECT_EQ(all.vw[0].v(a), whole.spheres.vw[0].v(a)) << "velocity " << a;
    EXPECT_EQ(all.vw[0].w(a), whole.spheres.vw[0].w(a)) << "angular velocity " << a;
  }
  // rolling at 5/7 v0 (the time-stepping scheme holds it to the iteration, not to the step)
  EXPECT_NEAR(all.vw[0].v(0), 5.0 / 7.0 * v0, 1e-9);
  EXPECT_NEAR(all.vw[0].w(1) * R, all.vw[0].v(0), 1e-9);
}

void oblique_collision_across_the_boundary_conserves_momentum(Transport& transport, GhostContacts treat) {
  EngineOptions eo;
  eo.dt = 1e-5;
  eo.mu = 0.4;
  eo.gravity = Vector3d::Zero();
  eo.solver = BlockSolver::maxdiss;
  const double omega = 0.75;
  const SubdomainGrid grid = split_at_10mm();
  SubdomainCoupling coupling(transport, grid, 2 * R + eo.threshold, omega, treat);
  Engine e(eo, coupling.box(), R);
  e.set_coupling(&coupling);
  // A on rank 0, B on rank 1, touching with an offset 0.3 R across the line of centres, closing
  // at 1 m/s along x, with spins
  const double dx = std::sqrt(4.0 - 0.09) * R;
  add(e, &coupling, Vector3d(0.01 - 0.5 * dx, 0.005 + 0.3 * R, 0.005), Vector3d(0.5, 0.1, 0.0),
      Vector3d(0.0, 0.0, 30.0));
  add(e, &coupling, Vector3d(0.01 + 0.5 * dx, 0.005, 0.005), Vector3d(-0.5, 0.0, 0.05), Vector3d(10.0, 0.0, 0.0));
  const Vector3d n = Vector3d(-dx, 0.3 * R, 0.0) / (2.0 * R);                            // from B to A
  const double closing = -(Vector3d(0.5, 0.1, 0.0) - Vector3d(-0.5, 0.0, 0.05)).dot(n);  // 0.974 m/s
  auto momenta = [&](Vector3d& p, Vector3d& L) {
    const Spheres S = coupling.gather(e.spheres);
    p.setZero();
    L.setZero();
    for (std::size_t i = 0; i < S.size(); ++i) {
      p += S.vw[i].v / S.vw[i].inv_m;
      L += S.x[i].cross(S.vw[i].v) / S.vw[i].inv_m + S.vw[i].w / S.vw[i].inv_I;  // about the origin
    }
  };
  Vector3d p0, L0;
  momenta(p0, L0);
  const StepStats first = e.step(0.0);
  EXPECT_EQ(first.contacts, 1) << "the contact, relaxed by one rank";
  EXPECT_EQ(first.sphere_contacts, 1);
  Vector3d p1, L1;
  momenta(p1, L1);
  if (coupling.rank() == 0) {
    // rounding of some hundred operations on values of order 1: 1e-13 of the momenta's scale
    EXPECT_LE((p1 - p0).norm(), 1e-13 * p0.norm() + 1e-13 * m) << "linear momentum";
    EXPECT_LE((L1 - L0).norm(), 1e-12 * (L0.norm() + 0.02 * m)) << "angular momentum";
  }
  // the normal approach left after the step: each sweep blends omega of the correction, so
  // (1 - omega)^sweeps of the approach is left, measured along the normal at detection. The serial
  // engine leaves none: a sphere block is diag(A_nn, A_tt, A_tt), its normal row solved exactly.
  // 0.1 % of it for the gap's own rate (xi / dt of a gap of rounding size)
  const Spheres S = coupling.gather(e.spheres);
  if (coupling.rank() != 0) return;  // the momenta and the approach are rank 0's, from every sphere
  ASSERT_EQ(S.size(), 2u);
  const std::size_t a = S.id[0] == 0 ? 0 : 1, b = 1 - a;
  const double approach = -(S.vw[a].v - S.vw[b].v).dot(n);
  const double left = closing * std::pow(1.0 - omega, eo.sweeps);
  EXPECT_NEAR(approach, left, 1e-3 * left) << "closing speed left after the contact";
}

/// A packing of a thousand spheres on a jittered lattice closer than a diameter, in a box of 2 x 2 x 2
/// subdomains (2 x 1 x 1 on two ranks). Every contact of the whole box is detected by exactly one
/// subdomain, under either rule of mpi.treat: the counts and the deepest penetration over the
/// subdomains are the whole box's.
void every_contact_is_detected_once(Transport& transport, GhostContacts treat) {
  EngineOptions eo;
  SubdomainGrid grid;
  grid.p = transport.size() == 8 ? std::array<int, 3>{2, 2, 2} : std::array<int, 3>{2, 1, 1};
  grid.box.lo = Vector3d::Zero();
  grid.box.hi = Vector3d(0.02, 0.02, 0.02);
  SubdomainCoupling coupling(transport, grid, 2 * R + eo.threshold, 0.75, treat);
  Engine split(eo, coupling.box(), R), whole(eo, grid.box, R);
  split.set_coupling(&coupling);
  std::uint64_t state = 12345;  // a linear congruential generator: the same jitter on every rank
  auto jitter = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5) * 0.1 * R;
  };
  const double spacing = 1.98 * R;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      for (int k = 0; k < 10; ++k) {
        const Vector3d x = Vector3d(R + i * spacing + jitter(), R + j * spacing + jitter(), R + k * spacing + jitter());
        add(split, &coupling, x, Vector3d::Zero(), Vector3d::Zero());
        add(whole, nullptr, x, Vector3d::Zero(), Vector3d::Zero());
      }
  const StepStats parts = split.detect(), all = whole.detect();
  ASSERT_GT(all.contacts, 1500);  // of the 2700 lattice neighbours, those the jitter leaves overlapping
  EXPECT_EQ(parts.contacts, all.contacts);
  EXPECT_EQ(parts.sphere_contacts, all.sphere_contacts);
  EXPECT_EQ(parts.max_penetration, all.max_penetration);
}

#ifdef CM_TEST_OVER_MPI
TEST(Decomposition, EveryContactIsDetectedOnce) {
  for (GhostContacts treat : {GhostContacts::smaller_id, GhostContacts::contact_point}) {
    MpiTransport ranks(MPI_COMM_WORLD);
    every_contact_is_detected_once(ranks, treat);
  }
}

TEST(Decomposition, SlidingSphereCrossesTheBoundaryAndRolls) {
  MpiTransport ranks(MPI_COMM_WORLD);
  sliding_sphere_crosses_the_boundary_and_rolls(ranks);
}

TEST(Decomposition, ObliqueCollisionAcrossTheBoundaryConservesMomentum) {
  for (GhostContacts treat : {GhostContacts::smaller_id, GhostContacts::contact_point}) {
    MpiTransport ranks(MPI_COMM_WORLD);
    oblique_collision_across_the_boundary_conserves_momentum(ranks, treat);
  }
}
#else
TEST(DecompositionOnFibers, EveryContactIsDetectedOnce) {
  for (GhostContacts treat : {GhostContacts::smaller_id, GhostContacts::contact_point})
    for (int subdomains : {2, 8})
      run_on_fibers(subdomains, 2, [treat](Transport& t) { every_contact_is_detected_once(t, treat); });
}

TEST(DecompositionOnFibers, SlidingSphereCrossesTheBoundaryAndRolls) {
  for (int threads : {1, 2}) run_on_fibers(2, threads, sliding_sphere_crosses_the_boundary_and_rolls);
}

TEST(DecompositionOnFibers, ObliqueCollisionAcrossTheBoundaryConservesMomentum) {
  for (GhostContacts treat : {GhostContacts::smaller_id, GhostContacts::contact_point})
    for (int threads : {1, 2})
      run_on_fibers(2, threads,
                    [treat](Transport& t) { oblique_collision_across_the_boundary_conserves_momentum(t, treat); });
}
#endif

}  // namespace

#ifndef CM_TEST_OVER_MPI  // these need no carrier: once, with the fibers' tests
TEST(Decomposition, BalancedCutsShareTheLoadEvenly) {
  // ten points of load 1 at x = 0 .. 9, in another order: halves cut at 4.5; thirds at 3.5 and
  // 6.5 (the fewest points carrying 10/3 and 20/3 of the load: four, then seven)
  std::vector<Load> points;
  for (const int x : {7, 2, 9, 0, 4, 5, 1, 8, 3, 6}) points.push_back({static_cast<double>(x), 1.0});
  EXPECT_EQ(balanced_cuts(points, 2), std::vector<double>{4.5});
  EXPECT_EQ(balanced_cuts(points, 3), (std::vector<double>{3.5, 6.5}));
  EXPECT_TRUE(balanced_cuts(points, 1).empty());
  // one point carrying half the load: the cut right after it
  points[3].weight = 9.0;  // x = 0
  EXPECT_EQ(balanced_cuts(points, 2), std::vector<double>{0.5});
  EXPECT_THROW(balanced_cuts(std::vector<Load>(2, Load{0.0, 1.0}), 3), std::invalid_argument);
  EXPECT_THROW(balanced_cuts({{0.0, 1.0}, {1.0, 0.0}}, 2), std::invalid_argument);
}

TEST(Decomposition, CutGridOwnsEachPointBetweenItsCuts) {
  SubdomainGrid g;
  g.p = {3, 1, 1};
  g.box.lo = Vector3d::Zero();
  g.box.hi = Vector3d(0.02, 0.01, 0.01);
  g.cuts[0] = {0.002, 0.015};
  const auto at = [&g](double x) { return g.owner(Vector3d(x, 0.005, 0.005)); };
  EXPECT_EQ(at(0.001), 0);
  EXPECT_EQ(at(0.002), 1);  // on a cut: the slab above it, as with even cuts
  EXPECT_EQ(at(0.0149), 1);
  EXPECT_EQ(at(0.015), 2);
  EXPECT_EQ(at(1.0), 2);  // beyond the box: the nearest slab
  EXPECT_EQ(at(-1.0), 0);
  EXPECT_EQ(at(std::nan("")), 0);
  const Box middle = g.clipped(1);
  EXPECT_EQ(middle.lo(0), 0.002);
  EXPECT_EQ(middle.hi(0), 0.015);
  EXPECT_EQ(g.clipped(0).lo(0), 0.0);
  EXPECT_EQ(g.clipped(2).hi(0), 0.02);
  EXPECT_TRUE(std::isinf(g.extent(0).lo(0)) && std::isinf(g.extent(2).hi(0)));
  EXPECT_EQ(g.extent(1).lo(0), 0.002);
}

#else
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {  // one rank reports; every rank checks (and fails the run if it fails)
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    std::unique_ptr< ::testing::TestEventListener> silenced(listeners.Release(listeners.default_result_printer()));
  }
  const int result = RUN_ALL_TESTS();  // (the silenced printer lives until here)
  int worst = result;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
#endif

// pe's count of contacts on a grid of blocks (solvers/maxdiss/granular/pe_count.hpp), against
// hand-counted cases and against a count block by block: each block's spheres (their boxes meet
// it) gathered one block at a time, and the contacts between the spheres it holds counted there.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "maxdiss/granular/pe_count.hpp"

namespace {

using namespace md::granular;

Spheres spheres_at(const std::vector<Vector3d>& centres, double R) {
  Spheres S;
  std::uint64_t id = 0;
  for (const Vector3d& x : centres) S.push(x, Vector3d::Zero(), Vector3d::Zero(), R, 1.0, 1.0, id++);
  return S;
}

SubdomainGrid grid_of(int px, int py, int pz, const Vector3d& hi) {
  SubdomainGrid g;
  g.p = {px, py, pz};
  g.box.lo = Vector3d::Zero();
  g.box.hi = hi;
  return g;
}

TEST(PeCount, AContactAcrossACutCountsInEachBlockThatHoldsBoth) {
  const SubdomainGrid g = grid_of(2, 1, 1, Vector3d(2.0, 1.0, 1.0));
  // A's box [0.85, 1.05] meets both blocks along x, B's [1.01, 1.21] the second alone
  const Spheres S = spheres_at({Vector3d(0.95, 0.5, 0.5), Vector3d(1.11, 0.5, 0.5)}, 0.1);
  EXPECT_EQ(pe_contact_count({{0, 1}}, S, g, 0.0), 1);   // held together by the second block alone
  EXPECT_EQ(pe_contact_count({{0, -1}}, S, g, 0.0), 2);  // A and a boundary: in both blocks
  EXPECT_EQ(pe_contact_count({{1, -1}}, S, g, 0.0), 1);
  // both spheres reaching over the cut: the pair in both blocks
  const Spheres T = spheres_at({Vector3d(0.95, 0.5, 0.5), Vector3d(1.05, 0.5, 0.5)}, 0.1);
  EXPECT_EQ(pe_contact_count({{0, 1}}, T, g, 0.0), 2);
  // the same cut placed by hand (a grid of uneven cuts, mpi.cuts = balanced) counts the same
  SubdomainGrid cut = g;
  cut.cuts[0] = {1.0};
  EXPECT_EQ(pe_contact_count({{0, 1}}, S, cut, 0.0), 1);
  EXPECT_EQ(pe_contact_count({{0, 1}}, T, cut, 0.0), 2);
}

TEST(PeCount, ASphereAtACornerOfFourBlocksIsHeldByAllFour) {
  const SubdomainGrid g = grid_of(2, 2, 3, Vector3d(2.0, 2.0, 3.0));
  const Spheres S = spheres_at({Vector3d(1.0, 1.0, 1.5)}, 0.1);  // middle of the blocks along z
  EXPECT_EQ(pe_contact_count({{0, -1}}, S, g, 0.0), 4);
  // the margin widens the box: a sphere 0.1 + 1e-3 from a cut reaches it with a margin of 2e-3
  const Spheres T = spheres_at({Vector3d(1.101, 0.5, 0.5)}, 0.1);
  EXPECT_EQ(pe_contact_count({{0, -1}}, T, g, 0.0), 1);
  EXPECT_EQ(pe_contact_count({{0, -1}}, T, g, 2e-3), 2);
}

TEST(PeCount, EqualsTheCountTakenBlockByBlock) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Vector3d L(1.0 + u(rng), 0.5 + u(rng), 0.3 + 0.5 * u(rng));
    const SubdomainGrid g = grid_of(1 + trial % 5, 1 + trial % 3, 1 + trial % 4, L);
    const double R = 0.04 + 0.03 * u(rng), margin = 1e-3 * u(rng);
    std::vector<Vector3d> centres(300);
    for (Vector3d& x : centres) x = Vector3d(L(0) * u(rng), L(1) * u(rng), L(2) * u(rng));
    const Spheres S = spheres_at(centres, R);
    // the contacts: every pair within reach, and every sphere near the floor z = 0
    std::vector<ContactEnds> ends;
    for (std::size_t i = 0; i < centres.size(); ++i) {
      if (centres[i](2) < R + margin) ends.push_back({static_cast<std::int32_t>(i), -1});
      for (std::size_t j = i + 1; j < centres.size(); ++j)
        if ((centres[i] - centres[j]).norm() < 2 * R + margin)
          ends.push_back({static_cast<std::int32_t>(i), static_cast<std::int32_t>(j)});
    }
    ASSERT_GT(ends.size(), 50u);
    // block by block: its extent (the outer ones reach to infinity), the spheres whose box meets it
    long expected = 0;
    for (int i = 0; i < g.p[0]; ++i)
      for (int j = 0; j < g.p[1]; ++j)
        for (int k = 0; k < g.p[2]; ++k) {
          const std::array<int, 3> at{i, j, k};
          std::vector<char> held(centres.size(), 1);
          for (int a = 0; a < 3; ++a) {
            const double h = L(a) / g.p[static_cast<std::size_t>(a)];
            const int c = at[static_cast<std::size_t>(a)];
            const double lo = c == 0 ? -1e300 : c * h,
                         hi = c + 1 == g.p[static_cast<std::size_t>(a)] ? 1e300 : (c + 1) * h;
            for (std::size_t s = 0; s < centres.size(); ++s)
              if (centres[s](a) + R + margin < lo || centres[s](a) - R - margin > hi) held[s] = 0;
          }
          for (const ContactEnds& e : ends)
            expected += held[static_cast<std::size_t>(e.a)] && (e.b < 0 || held[static_cast<std::size_t>(e.b)]);
        }
    EXPECT_EQ(pe_contact_count(ends, S, g, margin), expected) << "trial " << trial;
  }
}

TEST(PeCount, OneBlockCountsEachContactOnce) {
  const SubdomainGrid g = grid_of(1, 1, 1, Vector3d(1.0, 1.0, 1.0));
  const Spheres S = spheres_at({Vector3d(0.5, 0.5, 0.5), Vector3d(0.6, 0.5, 0.5), Vector3d(0.5, 0.6, 0.5)}, 0.06);
  EXPECT_EQ(pe_contact_count({{0, 1}, {0, 2}, {1, -1}}, S, g, 1e-8), 3);
}

}  // namespace

// Unit tests of the granular channel (channel.hpp), the paper's study model on the hard-contact
// engine, also run under the sanitizers: the inflow count, and the peaks of g(r) at the distances
// of the initial grid (rdf_peaks.hpp). They stood with the engine's unit tests
// (granular/test_granular_unit.cpp) and keep their names (maxdiss.unit.granular.*).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "granular/granular_fixtures.hpp"
#include "maxdiss/channel/channel.hpp"
#include "maxdiss/channel/rdf_peaks.hpp"

namespace {

using namespace md::granular;
using md::granular::testing::options;
using md::granular::testing::small_channel;

// --- the inflow ----------------------------------------------------------------------------------

TEST(Granular, InflowInsertsOneLayerPerTwoRadiiOfPlateTravel) {
  ChannelOptions c = small_channel();
  c.initial_fill = false;
  EngineOptions o = options();
  Channel ch(c, o);
  EXPECT_EQ(ch.layer_size(), 10 * 4);
  const long steps = 1000;
  for (long s = 0; s < steps; ++s) ch.step();
  // a layer each time the plate has moved 2R = 0.94 mm, i.e. every 94 steps of 10 um: 10 layers
  const long layers = steps / std::lround(2 * c.R / (o.dt * c.inflow_velocity));
  EXPECT_EQ(ch.inserted(), layers * ch.layer_size());
  EXPECT_EQ(ch.deleted(), 0);
  for (std::size_t i = 0; i < ch.engine.spheres.size(); ++i) EXPECT_TRUE(ch.engine.spheres.x[i].allFinite());
}

// An inserted sphere draws its v_z, then its v_y: a fixed order, the same under every compiler. The
// draws were once the arguments of one call, whose order C++ leaves to the compiler: GCC and
// Clang filled the same channel differently.
TEST(Granular, InflowDrawsVzBeforeVy) {
  ChannelOptions c = small_channel();
  c.initial_fill = true;
  Channel ch(c, options());
  std::mt19937_64 rng(c.seed);
  const auto draw = [&] { return c.perturbation * (2.0 * static_cast<double>(rng() >> 11) * 0x1.0p-53 - 1.0); };
  const double vz = draw();
  const double vy = draw();
  ASSERT_GT(ch.engine.spheres.size(), 0u);
  const Eigen::Vector3d expected(c.inflow_velocity, vy, vz);
  EXPECT_EQ(ch.engine.spheres.vw[0].v, expected);  // bit for bit: the same arithmetic
}

// --- peaks of g(r) at the distances of the initial grid (rdf_peaks.hpp) -------------------------

constexpr double kBin = 0.02;  // diameters, the channel's rdf.dr_over_d

// g per bin of a dense random packing, made up to have its features: the contact spike at one
// diameter, a decay, a dip, and the split second peak at sqrt(3) and 2 diameters; `extra` adds to it.
template <class Extra>
std::vector<double> random_packing_g(Extra extra) {
  std::vector<double> g(250);
  for (std::size_t b = 0; b < g.size(); ++b) {
    const double r = (static_cast<double>(b) + 0.5) * kBin;
    if (r < 1.0) continue;
    g[b] = (b == 50 ? 6.0 : 1.0) + 2.5 * std::exp(-(r - 1.0) / 0.08) - 0.4 * std::exp(-(r - 1.45) * (r - 1.45) / 0.02) +
           0.8 * std::exp(-(r - 1.73) * (r - 1.73) / 0.005) + 0.9 * std::exp(-(r - 2.0) * (r - 2.0) / 0.005) + extra(r);
  }
  return g;
}

// Pairs as a channel region of some thousand spheres counts them: proportional to g.
std::vector<double> pairs_of(const std::vector<double>& g, double per_unit_g) {
  std::vector<double> pairs(g.size());
  for (std::size_t b = 0; b < g.size(); ++b) pairs[b] = std::round(per_unit_g * g[b]);
  return pairs;
}

std::size_t peaks_in(const std::vector<DistancePeak>& tested) {
  std::size_t n = 0;
  for (const DistancePeak& p : tested) n += p.peak ? 1 : 0;
  return n;
}

TEST(RdfPeaks, TheInitialGridsDistancesFollowFromItsSpacing) {
  // The channel's grid: 1 mm spacing, spheres of 0.94 mm: 1.06, 1.50, 1.84 and 2.13 diameters.
  const std::vector<double> r = initial_grid_distances(1e-3, 0.94e-3);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_NEAR(r[0], 1.0 / 0.94, 1e-15);
  EXPECT_NEAR(r[1], std::sqrt(2.0) / 0.94, 1e-15);
  EXPECT_NEAR(r[2], std::sqrt(3.0) / 0.94, 1e-15);
  EXPECT_NEAR(r[3], 2.0 / 0.94, 1e-15);
}

TEST(RdfPeaks, TheSplitSecondPeakOfARandomPackingIsNoPeakAtTheGridsDistances) {
  const std::vector<double> g = random_packing_g([](double) { return 0.0; });
  const auto tested = distance_peaks(g, pairs_of(g, 2e4), kBin, initial_grid_distances(1e-3, 0.94e-3), 0.04, 3.0);
  ASSERT_EQ(tested.size(), 4u);
  EXPECT_EQ(peaks_in(tested), 0u);
  for (const DistancePeak& p : tested) EXPECT_LT(p.excess, 0.0) << p.r_over_d;  // no local maximum at all
}

TEST(RdfPeaks, ABumpAtAGridDistanceIsAPeak) {
  // What is left of the grid, a bump of g at sqrt(2) spacings, is found there and nowhere else.
  const double at = std::sqrt(2.0) / 0.94;
  const std::vector<double> g =
      random_packing_g([at](double r) { return 0.5 * std::exp(-(r - at) * (r - at) / (2 * 0.02 * 0.02)); });
  const auto tested = distance_peaks(g, pairs_of(g, 2e4), kBin, initial_grid_distances(1e-3, 0.94e-3), 0.04, 3.0);
  EXPECT_EQ(peaks_in(tested), 1u);
  EXPECT_TRUE(tested[1].peak);
  EXPECT_GT(tested[1].significance, 3.0);
  // The same bump counted from ten thousand times fewer pairs is within the counting noise.
  const auto few = distance_peaks(g, pairs_of(g, 2), kBin, initial_grid_distances(1e-3, 0.94e-3), 0.04, 3.0);
  EXPECT_FALSE(few[1].peak);
}

TEST(RdfPeaks, TheGridItselfHasAPeakAtEachDistance) {
  const std::vector<double> r = initial_grid_distances(1e-3, 0.94e-3);
  std::vector<double> g(250, 0.0), pairs(250, 0.0);
  for (double x : r) {
    g[static_cast<std::size_t>(x / kBin)] = 10.0;
    pairs[static_cast<std::size_t>(x / kBin)] = 100.0;
  }
  EXPECT_EQ(peaks_in(distance_peaks(g, pairs, kBin, r, 0.04, 3.0)), 4u);
}

TEST(RdfPeaks, CountingNoiseOnAFlatGIsNoPeak) {
  // g = 1 with the scatter of 1000 pairs of spheres per bin (standard error 1/sqrt(1000)).
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0.0, 1.0 / std::sqrt(1000.0));
  std::vector<double> g(250), pairs(250, 2000.0);
  for (double& x : g) x = 1.0 + noise(rng);
  EXPECT_EQ(peaks_in(distance_peaks(g, pairs, kBin, initial_grid_distances(1e-3, 0.94e-3), 0.04, 3.0)), 0u);
}

TEST(RdfPeaks, DistancesBeyondTheBinsAreRefused) {
  const std::vector<double> g(100, 1.0), pairs(100, 10.0);  // up to 2 diameters
  EXPECT_THROW(distance_peaks(g, pairs, kBin, {2.13}, 0.04, 3.0), std::invalid_argument);
  EXPECT_THROW(distance_peaks(g, pairs, kBin, {0.02}, 0.04, 3.0), std::invalid_argument);
  EXPECT_THROW(distance_peaks(g, std::vector<double>(99, 1.0), kBin, {1.0}, 0.04, 3.0), std::invalid_argument);
}

}  // namespace

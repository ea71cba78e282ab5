// Unit tests of the stationarity measures (numerics/stationarity.hpp): a series with a known drift is
// called drifting by the amount put in, a flat one not; batch means give the standard error that
// independent noise of a known sigma has, and a larger one for correlated noise.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "numerics/stationarity.hpp"

namespace {

TEST(Stationarity, ADriftPutInIsMeasured) {
  std::vector<double> t, x;
  for (int i = 0; i <= 300; ++i) {
    t.push_back(0.03 + 1e-4 * i);
    x.push_back(1000.0 * (1.0 + 0.05 * i / 300.0));  // +5 % across the window, exactly linear
  }
  // The line's change over the mean: 50 / 1025.
  EXPECT_NEAR(cm::relative_drift(t, x), 50.0 / 1025.0, 1e-12);
  EXPECT_GT(std::fabs(cm::relative_drift(t, x)), 0.01);  // not steady at the 1 % of average.max_drift
}

TEST(Stationarity, AFlatNoisySeriesHasNoDriftBeyondItsNoise) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<double> t, x;
  for (int i = 0; i < 10000; ++i) {
    t.push_back(i);
    x.push_back(100.0 + noise(random));
  }
  // The slope of independent unit noise over n points has a standard deviation of
  // sqrt(12 / n^3); across the window, over the mean 100: about 3.5e-4 / 100. Six of those bound it.
  EXPECT_LT(std::fabs(cm::relative_drift(t, x)), 6.0 * std::sqrt(12.0 / 1e12) * 1e4 / 100.0);
}

TEST(Stationarity, BatchMeansOfIndependentNoiseGiveSigmaOverRootN) {
  std::mt19937_64 random(11);
  std::normal_distribution<double> noise(0.0, 2.0);
  std::vector<double> x;
  for (int i = 0; i < 20000; ++i) x.push_back(5.0 + noise(random));
  const cm::BatchMeans b = cm::batch_means(x, 20);
  EXPECT_EQ(b.batches, 20);
  const double expected = 2.0 / std::sqrt(20000.0);
  // The estimate from 20 batches has a relative spread of 1 / sqrt(2 * 19), about 16 %: three of
  // those bound it for this seed and any other.
  EXPECT_NEAR(b.standard_error / expected, 1.0, 0.5);
  EXPECT_NEAR(b.mean, 5.0, 4.0 * expected);
}

TEST(Stationarity, BatchMeansSeeTheCorrelationThatTheNaiveErrorMisses) {
  // AR(1) noise with phi = 0.9: the error of the mean is sqrt((1 + phi) / (1 - phi)) = 4.36 times
  // the naive sigma / sqrt(n).
  std::mt19937_64 random(3);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<double> x;
  double e = 0.0;
  const double phi = 0.9;
  for (int i = 0; i < 100000; ++i) {
    e = phi * e + std::sqrt(1.0 - phi * phi) * noise(random);
    x.push_back(e);
  }
  const cm::BatchMeans b = cm::batch_means(x, 20);
  const double naive = 1.0 / std::sqrt(100000.0);
  EXPECT_NEAR(b.standard_error / naive, std::sqrt(1.9 / 0.1), 0.5 * std::sqrt(1.9 / 0.1));
}

TEST(Stationarity, RatiosAndEdgeCases) {
  const std::vector<double> contacts{10, 12, 14, 16}, spheres{10, 10, 10, 10};
  const cm::BatchMeans r = cm::batch_ratio(contacts, spheres, 2.0, 2);  // batches {10, 12}, {14, 16}
  EXPECT_DOUBLE_EQ(r.mean, 0.5 * (2.0 * 22.0 / 20.0 + 2.0 * 30.0 / 20.0));
  EXPECT_DOUBLE_EQ(r.standard_error, 0.4);  // values 2.2 and 3.0: spread 0.4 * sqrt(2) / sqrt(2)
  const cm::BatchMeans one = cm::batch_means({1.0}, 10);
  EXPECT_EQ(one.batches, 1);
  EXPECT_TRUE(std::isnan(one.standard_error));
  EXPECT_TRUE(std::isnan(cm::relative_drift({1.0}, {2.0})));
  EXPECT_TRUE(std::isnan(cm::relative_drift({1.0, 1.0}, {2.0, 3.0})));
  // Left-over samples are the earliest ones: 7 samples in 3 batches leave out the first.
  const cm::BatchMeans b = cm::batch_means({100, 1, 1, 2, 2, 3, 3}, 3);
  EXPECT_DOUBLE_EQ(b.mean, 2.0);
}

}  // namespace

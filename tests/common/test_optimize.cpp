// Unit tests of solvers/numerics/optimize.hpp: golden-section search and bisection.
#include <gtest/gtest.h>

#include <cmath>

#include "numerics/optimize.hpp"

namespace {

TEST(Optimize, GoldenSectionFindsTheMinimumOfAParabola) {
  const cm::Extremum e =
      cm::golden_section_minimum([](double x) { return (x - 0.3) * (x - 0.3) + 2; }, -1, 2, 1e-12, 200);
  // The bracket shrinks to 1e-12, but a parabola's minimum is only located to about sqrt(eps) ~ 1e-8
  // in x (its values differ by ~x^2 there), so 1e-7.
  EXPECT_NEAR(e.x, 0.3, 1e-7);
  EXPECT_NEAR(e.f, 2.0, 1e-14);
}

TEST(Optimize, GoldenSectionKeepsTheLeftmostOfEqualValues) {
  // Flat on [0, 1]: on ties the left part of the bracket is kept, so the search ends at the left end.
  const cm::Extremum e = cm::golden_section_minimum([](double) { return 1.0; }, 0, 1, 1e-9, 200);
  EXPECT_LT(e.x, 1e-8);
}

TEST(Optimize, BisectionReachesTheLastBit) {
  const double root = cm::bisect([](double x) { return x * x - 2; }, 0, 2);
  // Adjacent doubles bracket sqrt(2): the result is within one unit in the last place.
  EXPECT_LE(std::abs(root - std::sqrt(2.0)), 4.5e-16);
}

TEST(Optimize, BisectionOnAnExactZeroAndWithoutASignChange) {
  EXPECT_EQ(cm::bisect([](double x) { return x - 1; }, 1, 3), 1.0);                // f(lo) = 0
  EXPECT_EQ(cm::bisect([](double x) { return x - 3; }, 1, 3), 3.0);                // f(hi) = 0
  EXPECT_TRUE(std::isnan(cm::bisect([](double x) { return x * x + 1; }, -1, 1)));  // no sign change
  // Decreasing functions work as well as increasing ones.
  EXPECT_NEAR(cm::bisect([](double x) { return std::cos(x); }, 0, 3), std::acos(0.0), 4.5e-16);
}

}  // namespace

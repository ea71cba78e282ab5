// Unit tests of cm_verify's statistical comparison (tools/verify_tool.hpp, averages_agree): under
// --batch_means a re-run whose data differ is WITHIN-ERROR when each average with a batch-means
// standard error lies within sigmas = 3 combined standard errors sqrt(se_x^2 + se_y^2) of the
// archived one. The errors below are 3 and 4, so that the combined error is 5 exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "tools/verify_tool.hpp"

namespace {

using cm::pipeline::Agreement;
using cm::pipeline::averages_agree;
using nlohmann::json;

/// A run's scalars: each name with its value (null where the value is NaN).
json scalars_of(std::initializer_list<std::pair<const char*, double>> values) {
  json scalars = json::object();
  for (const auto& [name, value] : values)
    scalars[name] = {{"value", std::isnan(value) ? json(nullptr) : json(value)}, {"unit", "1"}};
  return scalars;
}

/// The WITHIN-ERROR rule of cm_verify at its default sigmas.
bool within_error(const Agreement& a) { return a.compared > 0 && a.worst <= 3.0; }

TEST(AveragesAgree, ThreeCombinedErrorsIsTheEdge) {
  const json archived = scalars_of({{"v", 10.0}, {"se_v", 3.0}});
  const Agreement at_edge = averages_agree(archived, scalars_of({{"v", 25.0}, {"se_v", 4.0}}));
  EXPECT_EQ(at_edge.compared, 1u);
  EXPECT_DOUBLE_EQ(at_edge.worst, 3.0);
  EXPECT_EQ(at_edge.where, "scalar v");
  EXPECT_TRUE(within_error(at_edge));

  const Agreement beyond = averages_agree(archived, scalars_of({{"v", 25.5}, {"se_v", 4.0}}));
  EXPECT_DOUBLE_EQ(beyond.worst, 3.1);
  EXPECT_FALSE(within_error(beyond));

  // Below the archived value as above it.
  const Agreement below = averages_agree(archived, scalars_of({{"v", 0.0}, {"se_v", 4.0}}));
  EXPECT_DOUBLE_EQ(below.worst, 2.0);
  EXPECT_TRUE(within_error(below));
}

TEST(AveragesAgree, TheWorstAverageDecides) {
  const json archived = scalars_of({{"a", 1.0}, {"se_a", 3.0}, {"b", 1.0}, {"se_b", 3.0}, {"c", 1.0}, {"se_c", 3.0}});
  const json again = scalars_of({{"a", 6.0}, {"se_a", 4.0}, {"b", 21.0}, {"se_b", 4.0}, {"c", 1.0}, {"se_c", 4.0}});
  const Agreement a = averages_agree(archived, again);
  EXPECT_EQ(a.compared, 3u);
  EXPECT_DOUBLE_EQ(a.worst, 4.0);
  EXPECT_EQ(a.where, "scalar b");
  EXPECT_FALSE(within_error(a));
}

TEST(AveragesAgree, OnlyAveragesWithAnErrorAreCompared) {
  // x has no se_x; se_y has no y: neither is an average with a batch-means error.
  const json archived = scalars_of({{"x", 1.0}, {"se_y", 1.0}, {"z", 2.0}, {"se_z", 3.0}});
  const json again = scalars_of({{"x", 100.0}, {"se_y", 1.0}, {"z", 2.5}, {"se_z", 4.0}});
  const Agreement a = averages_agree(archived, again);
  EXPECT_EQ(a.compared, 1u);
  EXPECT_DOUBLE_EQ(a.worst, 0.1);
  EXPECT_EQ(a.where, "scalar z");

  const Agreement none = averages_agree(scalars_of({{"x", 1.0}}), scalars_of({{"x", 2.0}}));
  EXPECT_EQ(none.compared, 0u);
  EXPECT_EQ(none.where, "-");
  EXPECT_FALSE(within_error(none));
}

TEST(AveragesAgree, MissingOrNullIsInfinitelyFar) {
  const json archived = scalars_of({{"v", 10.0}, {"se_v", 3.0}});
  const Agreement missing = averages_agree(archived, scalars_of({{"se_v", 4.0}}));
  EXPECT_EQ(missing.compared, 1u);
  EXPECT_TRUE(std::isinf(missing.worst));
  EXPECT_FALSE(within_error(missing));

  const Agreement null_value = averages_agree(archived, scalars_of({{"v", NAN}, {"se_v", 4.0}}));
  EXPECT_TRUE(std::isinf(null_value.worst));

  const Agreement no_error_again = averages_agree(archived, scalars_of({{"v", 10.5}}));
  EXPECT_TRUE(std::isinf(no_error_again.worst));
}

TEST(AveragesAgree, ZeroErrorsAgreeOnlyWhenEqual) {
  const json archived = scalars_of({{"v", 2.0}, {"se_v", 0.0}});
  const Agreement equal = averages_agree(archived, scalars_of({{"v", 2.0}, {"se_v", 0.0}}));
  EXPECT_EQ(equal.worst, 0.0);
  EXPECT_TRUE(within_error(equal));

  const Agreement different = averages_agree(archived, scalars_of({{"v", 2.0 + 1e-12}, {"se_v", 0.0}}));
  EXPECT_TRUE(std::isinf(different.worst));
  EXPECT_FALSE(within_error(different));
}

}  // namespace

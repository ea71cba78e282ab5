// Unit tests of the comparison with published values: each relation at its boundary, the
// handling of known differences, and missing, null and malformed results.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "common/errors.hpp"
#include "tools/compare.hpp"
#include "tools/runs.hpp"

namespace {

using namespace cm::pipeline;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

PublishedRow equal_row(double value, double abs_tol, double rel_tol) {
  PublishedRow row;
  row.id = "P1";
  row.scalar = "disk/mu_hat";
  row.study = "disk";
  row.name = "mu_hat";
  row.relation = Relation::equal;
  row.value = value;
  row.value_text = std::to_string(value);
  row.abs_tol = abs_tol;
  row.rel_tol = rel_tol;
  return row;
}

PublishedRow bound_row(Relation relation, double value) {
  PublishedRow row = equal_row(value, 0, 0);
  row.relation = relation;
  return row;
}

Reproduction found(double x) { return {true, x, "0123456789abcdef", ""}; }

// The boundaries below use values that are exact in binary (halves and quarters), chosen so that
// the difference x - v of a value one ulp beyond the boundary is itself exact: "on the boundary"
// and "one ulp beyond" are then exact statements, not rounding accidents.

TEST(Relation, EqualWithAbsoluteToleranceIncludesItsBoundary) {
  const PublishedRow row = equal_row(1.0, 0.25, 0.0);
  EXPECT_TRUE(relation_holds(row, 1.25));
  EXPECT_TRUE(relation_holds(row, 0.75));
  EXPECT_FALSE(relation_holds(row, std::nextafter(1.25, inf)));
  EXPECT_FALSE(relation_holds(row, std::nextafter(0.75, -inf)));
}

TEST(Relation, EqualWithRelativeToleranceScalesWithThePublishedValue) {
  const PublishedRow row = equal_row(-2.0, 0.0, 0.25);  // allowed: 0.25 * |-2| = 0.5
  EXPECT_TRUE(relation_holds(row, -2.5));
  EXPECT_TRUE(relation_holds(row, -1.5));
  EXPECT_FALSE(relation_holds(row, std::nextafter(-2.5, -inf)));
  EXPECT_FALSE(relation_holds(row, std::nextafter(-1.5, inf)));
}

TEST(Relation, EqualAddsAbsoluteAndRelativeTolerances) {
  const PublishedRow row = equal_row(2.0, 0.25, 0.25);  // allowed: 0.25 + 0.25 * 2 = 0.75
  EXPECT_TRUE(relation_holds(row, 2.75));
  EXPECT_FALSE(relation_holds(row, std::nextafter(2.75, inf)));
}

TEST(Relation, ExactComparisonWithZeroTolerance) {
  const PublishedRow row = equal_row(0.0, 0.0, 0.0);
  EXPECT_TRUE(relation_holds(row, 0.0));
  EXPECT_TRUE(relation_holds(row, -0.0));
  EXPECT_FALSE(relation_holds(row, std::numeric_limits<double>::denorm_min()));
}

TEST(Relation, Bounds) {
  const double v = 0.5;
  const double below = std::nextafter(v, -inf);
  const double above = std::nextafter(v, inf);
  EXPECT_TRUE(relation_holds(bound_row(Relation::less, v), below));
  EXPECT_FALSE(relation_holds(bound_row(Relation::less, v), v));
  EXPECT_TRUE(relation_holds(bound_row(Relation::less_equal, v), v));
  EXPECT_FALSE(relation_holds(bound_row(Relation::less_equal, v), above));
  EXPECT_TRUE(relation_holds(bound_row(Relation::greater, v), above));
  EXPECT_FALSE(relation_holds(bound_row(Relation::greater, v), v));
  EXPECT_TRUE(relation_holds(bound_row(Relation::greater_equal, v), v));
  EXPECT_FALSE(relation_holds(bound_row(Relation::greater_equal, v), below));
}

TEST(Relation, NonFiniteValuesSatisfyNothing) {
  for (double x : {nan, inf, -inf}) {
    EXPECT_FALSE(relation_holds(equal_row(1.0, 1e300, 0.0), x));
    EXPECT_FALSE(relation_holds(bound_row(Relation::less, 1.0), x));
    EXPECT_FALSE(relation_holds(bound_row(Relation::greater, 1.0), x));
  }
}

TEST(Evaluate, MatchWithErrors) {
  const Outcome o = evaluate(equal_row(2.0, 0.5, 0.0), found(2.25));
  EXPECT_EQ(o.status, Status::match);
  EXPECT_EQ(o.abs_error, 0.25);
  EXPECT_EQ(o.rel_error, 0.125);
  EXPECT_TRUE(o.remark.empty());
}

TEST(Evaluate, RelativeErrorOfAZeroValueIsUndefined) {
  const Outcome o = evaluate(equal_row(0.0, 0.5, 0.0), found(0.25));
  EXPECT_EQ(o.status, Status::match);
  EXPECT_TRUE(std::isnan(o.rel_error));
}

TEST(Evaluate, ExpectedMatchOutsideToleranceFails) {
  EXPECT_EQ(evaluate(equal_row(2.0, 0.5, 0.0), found(2.75)).status, Status::fail);
  EXPECT_EQ(evaluate(bound_row(Relation::less, 1.0), found(1.0)).status, Status::fail);
}

TEST(Evaluate, MissingScalarIsNotReproducedYet) {
  Reproduction missing;
  missing.missing = "no run results/x/disk";
  const Outcome o = evaluate(equal_row(2.0, 0.5, 0.0), missing);
  EXPECT_EQ(o.status, Status::not_reproduced_yet);
  EXPECT_EQ(o.remark, "no run results/x/disk");
  EXPECT_TRUE(std::isnan(o.abs_error));
}

TEST(Evaluate, NullScalarFailsEvenAsAKnownDifference) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  EXPECT_EQ(evaluate(row, found(nan)).status, Status::fail);
  row.expected = Expected::known_difference;
  row.evidence = "see Fig. 7";
  const Outcome o = evaluate(row, found(nan));
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_NE(o.remark.find("not finite"), std::string::npos);
}

TEST(Evaluate, KnownDifferenceWithoutDiffValue) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::known_difference;
  row.evidence = "see Fig. 7";
  EXPECT_EQ(evaluate(row, found(3.0)).status, Status::known_difference);
  EXPECT_EQ(evaluate(row, found(-30.0)).status, Status::known_difference);
}

TEST(Evaluate, KnownDifferenceWithDiffValueStaysWhereItIsKnownToBe) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::known_difference;
  row.evidence = "see Fig. 7";
  row.diff_value = 3.0;
  row.diff_tol = 0.25;
  EXPECT_EQ(evaluate(row, found(3.25)).status, Status::known_difference);  // on the boundary
  EXPECT_EQ(evaluate(row, found(2.75)).status, Status::known_difference);
  const Outcome moved = evaluate(row, found(std::nextafter(3.25, inf)));
  EXPECT_EQ(moved.status, Status::fail);
  EXPECT_NE(moved.remark.find("known difference moved"), std::string::npos);
  EXPECT_EQ(evaluate(row, found(4.0)).status, Status::fail);
}

TEST(Evaluate, KnownDifferenceThatNowMatchesIsAMatchWithARemark) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::known_difference;
  row.evidence = "see Fig. 7";
  row.diff_value = 3.0;
  row.diff_tol = 0.25;
  const Outcome o = evaluate(row, found(2.0));
  EXPECT_EQ(o.status, Status::match);
  EXPECT_NE(o.remark.find("now matches"), std::string::npos);
}

TEST(Counts, SentenceSaysWhatWasReproduced) {
  Counts c;
  for (int i = 0; i < 12; ++i) c.add(Status::match);
  c.add(Status::known_difference);
  c.add(Status::known_difference);
  EXPECT_EQ(count_sentence(c),
            "12 of 14 published values reproduced, 2 known differences explained, 0 failures, 0 not reproduced yet");
  Counts one;
  one.add(Status::fail);
  EXPECT_EQ(count_sentence(one),
            "0 of 1 published value reproduced, 0 known differences explained, 1 failure, 0 not reproduced yet");
}

TEST(Tolerance, Text) {
  EXPECT_EQ(tolerance_text(equal_row(1, 5e-5, 0)), "abs 5e-05");
  EXPECT_EQ(tolerance_text(equal_row(1, 0, 1e-3)), "rel 0.001");
  EXPECT_EQ(tolerance_text(equal_row(1, 1e-6, 1e-3)), "abs 1e-06 + rel 0.001");
  EXPECT_EQ(tolerance_text(equal_row(1, 0, 0)), "exact");
  EXPECT_EQ(tolerance_text(bound_row(Relation::less, 1)), "bound");
}

TEST(ComparisonTsv, RoundTripsThroughTheReportsReader) {
  PublishedRow a = equal_row(2.0, 0.5, 0.0);
  a.quote = "a quote\twith a tab";
  PublishedRow b = bound_row(Relation::less, 1.0);
  b.id = "P2";
  const std::vector<ComparedRow> rows{{a, found(2.25), evaluate(a, found(2.25))},
                                      {b, Reproduction{}, evaluate(b, Reproduction{})}};
  const ComparisonTable table = parse_comparison(comparison_tsv(rows), "comparison.tsv");
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].at("status"), "MATCH");
  EXPECT_EQ(table.rows[0].at("reproduced"), "2.25");
  EXPECT_EQ(table.rows[0].at("quote"), "a quote with a tab");
  EXPECT_EQ(table.rows[0].at("run_id"), "0123456789abcdef");
  EXPECT_EQ(table.rows[1].at("status"), "NOT-REPRODUCED-YET");
  EXPECT_EQ(table.rows[1].at("reproduced"), "-");
  EXPECT_EQ(table.counts.match, 1u);
  EXPECT_EQ(table.counts.not_reproduced_yet, 1u);
}

TEST(ComparisonTsv, UnknownStatusIsAnInputError) {
  std::string text;
  for (const auto& c : comparison_columns()) text += c + (c == "remark" ? "\n" : "\t");
  std::string line;
  for (const auto& c : comparison_columns())
    line += (c == "status" ? "GOOD" : "x") + std::string(c == "remark" ? "\n" : "\t");
  EXPECT_THROW(parse_comparison(text + line, "comparison.tsv"), cm::InputError);
}

/// A scratch results directory, removed at the end of the test.
class Results : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cm_pipeline_test_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& study, const std::string& json) {
    std::filesystem::create_directories(dir_ / study);
    std::ofstream(dir_ / study / "run.json") << json;
  }
  std::filesystem::path dir_;
};

const char* disk_run = R"({"schema": "cm-run 1", "study": "disk", "run_id": "0123456789abcdef",
  "scalars": {"mu_hat": {"value": 0.29512, "unit": "1"}, "lift_off": {"value": null, "unit": "s"}}})";

TEST_F(Results, LooksUpEachRowsScalar) {
  write("disk", disk_run);
  PublishedRow mu = equal_row(0.2951, 5e-5, 0);
  PublishedRow lift = equal_row(3.5, 0.05, 0);
  lift.id = "P2";
  lift.name = "lift_off";
  PublishedRow absent = equal_row(1, 0, 0);
  absent.id = "P3";
  absent.name = "no_such_scalar";
  PublishedRow no_run = equal_row(1, 0, 0);
  no_run.id = "P4";
  no_run.study = "ball";
  const auto rows = compare_with_results({mu, lift, absent, no_run}, dir_);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].outcome.status, Status::match);
  EXPECT_EQ(rows[0].reproduction.run_id, "0123456789abcdef");
  EXPECT_EQ(rows[1].outcome.status, Status::fail);  // null: the run computed a non-finite value
  EXPECT_TRUE(rows[1].reproduction.found);
  EXPECT_EQ(rows[2].outcome.status, Status::not_reproduced_yet);
  EXPECT_EQ(rows[2].outcome.remark, "run 0123456789abcdef has no scalar no_such_scalar");
  EXPECT_EQ(rows[3].outcome.status, Status::not_reproduced_yet);
  EXPECT_EQ(rows[3].reproduction.run_id, "");
}

TEST_F(Results, MalformedRunJsonIsAnInputError) {
  write("disk", R"({"schema": "cm-run 1", "run_id": "x", "scalars": {)");
  EXPECT_THROW(compare_with_results({equal_row(1, 0, 0)}, dir_), cm::InputError);
}

TEST(RunJson, Validation) {
  EXPECT_NO_THROW(parse_run_json(disk_run, "run.json"));
  EXPECT_THROW(parse_run_json("[1, 2]", "run.json"), cm::InputError);
  EXPECT_THROW(parse_run_json(R"({"schema": "cm-run 2", "run_id": "x", "scalars": {}})", "run.json"), cm::InputError);
  EXPECT_THROW(parse_run_json(R"({"schema": "cm-run 1", "scalars": {}})", "run.json"), cm::InputError);
  EXPECT_THROW(parse_run_json(R"({"schema": "cm-run 1", "run_id": "x"})", "run.json"), cm::InputError);
  EXPECT_THROW(parse_run_json(R"({"schema": "cm-run 1", "run_id": "x", "scalars": {"a": {"value": "1"}}})", "run.json"),
               cm::InputError);
  EXPECT_THROW(parse_run_json(R"({"schema": "cm-run 1", "run_id": "x", "scalars": {"a": 1}})", "run.json"),
               cm::InputError);
  EXPECT_THROW(parse_run_json(R"({"schema": "cm-run 1", "run_id": "x", "scalars": {}, "notes": "x"})", "run.json"),
               cm::InputError);
}

}  // namespace

// Unit tests of the comparison with published values: each relation at its boundary, the
// handling of known differences, and missing, null and malformed results.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/errors.hpp"
#include "core/run_reader.hpp"
#include "scratch.hpp"
#include "tools/compare.hpp"

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

Reproduction found(double x) { return {true, x, "0123456789abcdef", "", std::nullopt, ""}; }

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

TEST(Evaluate, NoRunIsNotReproducedYetOnlyWhenExpectedSo) {
  Reproduction missing;
  missing.missing = "no run results/x/disk";
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::not_reproduced_yet;
  const Outcome o = evaluate(row, missing);
  EXPECT_EQ(o.status, Status::not_reproduced_yet);
  EXPECT_EQ(o.remark, "no run results/x/disk");
  EXPECT_TRUE(std::isnan(o.abs_error));
}

TEST(Evaluate, NoRunOfARowExpectedToMatchIsAMissingRun) {
  Reproduction missing;
  missing.missing = "no run results/x/disk";
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  for (Expected expected : {Expected::match, Expected::known_difference}) {
    row.expected = expected;
    const Outcome o = evaluate(row, missing);
    EXPECT_EQ(o.status, Status::missing_run);
    EXPECT_EQ(o.remark,
              "no run results/x/disk, but the row expects " + to_string(expected) + ": the study did not run");
  }
}

TEST(Evaluate, ARowNotReproducedYetWhoseRunExistsIsComparedAndFlagged) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::not_reproduced_yet;
  const Outcome match = evaluate(row, found(2.25));
  EXPECT_EQ(match.status, Status::match);
  EXPECT_NE(match.remark.find("set the row's expected (NOT-REPRODUCED-YET)"), std::string::npos);
  const Outcome fail = evaluate(row, found(3.0));
  EXPECT_EQ(fail.status, Status::fail);
  EXPECT_NE(fail.remark.find("set the row's expected"), std::string::npos);
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

// A disagreement is held where it is known to be, as a known difference is; one that now matches
// is a MATCH that its row does not expect, which make all reports as a changed status.
TEST(Evaluate, DisagreementStaysWhereItIsKnownToBe) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::disagrees;
  row.evidence = "steady, at the paper's scale; tried a finer step";
  EXPECT_EQ(evaluate(row, found(-30.0)).status, Status::disagrees);  // no diff_value: anywhere outside
  row.diff_value = 3.0;
  row.diff_tol = 0.25;
  EXPECT_EQ(evaluate(row, found(3.25)).status, Status::disagrees);  // on the boundary
  const Outcome moved = evaluate(row, found(std::nextafter(3.25, inf)));
  EXPECT_EQ(moved.status, Status::fail);
  EXPECT_NE(moved.remark.find("disagreement moved"), std::string::npos);
  const Outcome now = evaluate(row, found(2.0));
  EXPECT_EQ(now.status, Status::match);
  EXPECT_NE(now.remark.find("expected DISAGREES but now matches"), std::string::npos);
  EXPECT_FALSE(as_expected(row, now.status));
  EXPECT_EQ(evaluate(row, found(nan)).status, Status::fail);
}

TEST(Evaluate, AsExpectedNamesTheSameStatusAndNeverAFailure) {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  EXPECT_TRUE(as_expected(row, Status::match));
  EXPECT_FALSE(as_expected(row, Status::not_at_paper_scale));  // a match whose window turned unsteady
  EXPECT_FALSE(as_expected(row, Status::fail));
  EXPECT_FALSE(as_expected(row, Status::missing_run));
  for (Expected e :
       {Expected::known_difference, Expected::not_at_paper_scale, Expected::disagrees, Expected::not_reproduced_yet}) {
    row.expected = e;
    EXPECT_TRUE(as_expected(row, *status_from(to_string(e))));
    EXPECT_FALSE(as_expected(row, Status::match));
  }
}

TEST(Counts, SentenceSaysWhatWasReproduced) {
  Counts c;
  for (int i = 0; i < 12; ++i) c.add(Status::match);
  c.add(Status::known_difference);
  c.add(Status::known_difference);
  EXPECT_EQ(count_sentence(c),
            "12 of 14 published values reproduced, 2 known differences explained, 0 not at the paper's scale, "
            "0 disagreements, 0 failures, 0 missing runs, 0 not reproduced yet");
  Counts one;
  one.add(Status::fail);
  one.add(Status::missing_run);
  one.add(Status::not_reproduced_yet);
  one.add(Status::disagrees);
  EXPECT_EQ(count_sentence(one),
            "0 of 4 published values reproduced, 0 known differences explained, 0 not at the paper's scale, "
            "1 disagreement, 1 failure, 1 missing run, 1 not reproduced yet");
  EXPECT_EQ(one.failures(), 2u);
}

// A value from a run that differs from the paper's setup in size or duration is still compared
// (its errors computed, the remark saying how it compares) but has a status of its own, whether the
// relation holds or not.
PublishedRow not_at_scale_row() {
  PublishedRow row = equal_row(2.0, 0.5, 0.0);
  row.expected = Expected::not_at_paper_scale;
  row.evidence = "the channel is 8 cm long, not 15 cm";
  return row;
}

TEST(Evaluate, ARowNotAtThePapersScaleIsComparedButCountedApart) {
  const PublishedRow row = not_at_scale_row();
  const Outcome within = evaluate(row, found(2.25));
  EXPECT_EQ(within.status, Status::not_at_paper_scale);
  EXPECT_EQ(within.abs_error, 0.25);
  EXPECT_EQ(within.rel_error, 0.125);
  EXPECT_EQ(within.remark,
            "within the tolerance at this run's scale, which is not the paper's: not counted as "
            "reproduced");
  const Outcome outside = evaluate(row, found(3.0));
  EXPECT_EQ(outside.status, Status::not_at_paper_scale);
  EXPECT_EQ(outside.abs_error, 1.0);
  EXPECT_EQ(outside.remark,
            "outside the tolerance at this run's scale, which is not the paper's: not counted as "
            "the paper's error");
  PublishedRow bound = not_at_scale_row();
  bound.relation = Relation::less;
  bound.value = 1.0;
  EXPECT_EQ(evaluate(bound, found(0.5)).remark.rfind("the bound holds at this run's scale", 0), 0u);
  EXPECT_EQ(evaluate(bound, found(1.5)).remark.rfind("the bound fails at this run's scale", 0), 0u);
}

TEST(Evaluate, ARowNotAtThePapersScaleFailsWhenItMovesOrIsNotFinite) {
  PublishedRow row = not_at_scale_row();
  row.diff_value = 3.0;
  row.diff_tol = 0.25;
  EXPECT_EQ(evaluate(row, found(3.25)).status, Status::not_at_paper_scale);  // on the boundary
  const Outcome moved = evaluate(row, found(std::nextafter(3.25, inf)));
  EXPECT_EQ(moved.status, Status::fail);
  EXPECT_NE(moved.remark.find("value not at the paper's scale moved"), std::string::npos);
  EXPECT_EQ(evaluate(row, found(2.0)).status, Status::fail);  // even where it would match the paper
  EXPECT_EQ(evaluate(not_at_scale_row(), found(nan)).status, Status::fail);
  Reproduction missing;
  missing.missing = "no run results/x/channel";
  EXPECT_EQ(evaluate(row, missing).status, Status::missing_run);
}

// A run whose averaging window is not steady says nothing of the paper's steady flow: whatever the
// row expects, its value is compared and shown but never counted MATCH or FAIL from it, and the
// reason is the run's, not published.tsv's.
TEST(Evaluate, AWindowThatIsNotSteadyIsNeverAMatchNorAFail) {
  Reproduction unsteady = found(2.25);
  unsteady.unsteady = "window not steady: the run's steady_maxdiss is 0";
  for (Expected expected : {Expected::match, Expected::known_difference, Expected::not_at_paper_scale}) {
    PublishedRow row = equal_row(2.0, 0.5, 0.0);
    row.expected = expected;
    const Outcome within = evaluate(row, unsteady);
    EXPECT_EQ(within.status, Status::not_at_paper_scale);
    EXPECT_EQ(within.remark, "within the tolerance over a window that is not steady: not counted as reproduced");
    Reproduction far = unsteady;
    far.value = 5.0;
    const Outcome outside = evaluate(row, far);
    EXPECT_EQ(outside.status, Status::not_at_paper_scale);
    EXPECT_EQ(outside.remark,
              "outside the tolerance over a window that is not steady: not counted as the paper's error");
  }
  // What says something of the code still fails: a value that is not finite, or one that moved
  // from where the run is known to put it.
  Reproduction null = unsteady;
  null.value = nan;
  EXPECT_EQ(evaluate(equal_row(2.0, 0.5, 0.0), null).status, Status::fail);
  PublishedRow known = equal_row(2.0, 0.5, 0.0);
  known.diff_value = 9.0;
  known.diff_tol = 0.5;
  EXPECT_EQ(evaluate(known, unsteady).status, Status::fail);
}

// A batch-means standard error widens an `=` tolerance by itself and no more; a bound is not widened.
TEST(Evaluate, AStandardErrorWidensTheToleranceByNoMoreThanItself) {
  const PublishedRow row = equal_row(1.0, 0.25, 0.0);
  Reproduction r = found(1.5);
  r.standard_error = 0.25;  // allowed: 0.25 + 0.25
  EXPECT_EQ(evaluate(row, r).status, Status::match);
  r.value = std::nextafter(1.5, inf);
  EXPECT_EQ(evaluate(row, r).status, Status::fail);
  EXPECT_EQ(evaluate(row, found(1.5)).status, Status::fail);  // no error measured: no widening
  PublishedRow bound = bound_row(Relation::less, 1.0);
  Reproduction above = found(1.125);
  above.standard_error = 0.5;
  EXPECT_EQ(evaluate(bound, above).status, Status::fail);
  EXPECT_EQ(tolerance_text(row, 0.25),
            "abs 0.25 + se 0.25 (widened by the run's batch-means standard error of the value)");
  EXPECT_EQ(tolerance_text(equal_row(1, 0, 0), 0.5),
            "se 0.5 (widened by the run's batch-means standard error of the value)");
  EXPECT_EQ(tolerance_text(bound, 0.5), "bound");
}

TEST(Counts, ValuesNotAtThePapersScaleAreNeitherReproducedNorFailures) {
  Counts c;
  c.add(Status::match);
  c.add(Status::not_at_paper_scale);
  c.add(Status::not_at_paper_scale);
  EXPECT_EQ(c.not_at_paper_scale, 2u);
  EXPECT_EQ(c.failures(), 0u);
  EXPECT_EQ(count_sentence(c),
            "1 of 3 published values reproduced, 0 known differences explained, 2 not at the paper's scale, "
            "0 disagreements, 0 failures, 0 missing runs, 0 not reproduced yet");
  EXPECT_EQ(status_from("NOT-AT-PAPER-SCALE"), Status::not_at_paper_scale);
  EXPECT_EQ(to_string(Status::not_at_paper_scale), "NOT-AT-PAPER-SCALE");
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
  b.expected = Expected::not_reproduced_yet;
  PublishedRow c = bound_row(Relation::less, 1.0);
  c.id = "P3";
  const std::vector<ComparedRow> rows{{a, found(2.25), evaluate(a, found(2.25)), ""},
                                      {b, Reproduction{}, evaluate(b, Reproduction{}), ""},
                                      {c, Reproduction{}, evaluate(c, Reproduction{}), ""}};
  const ComparisonTable table = parse_comparison(comparison_tsv(rows), "comparison.tsv");
  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.rows[0].at("status"), "MATCH");
  EXPECT_EQ(table.rows[0].at("reproduced"), "2.25");
  EXPECT_EQ(table.rows[0].at("quote"), "a quote with a tab");
  EXPECT_EQ(table.rows[0].at("run_id"), "0123456789abcdef");
  EXPECT_EQ(table.rows[1].at("status"), "NOT-REPRODUCED-YET");
  EXPECT_EQ(table.rows[1].at("expected"), "NOT-REPRODUCED-YET");
  EXPECT_EQ(table.rows[1].at("reproduced"), "-");
  EXPECT_EQ(table.rows[2].at("status"), "MISSING-RUN");
  EXPECT_EQ(table.counts.match, 1u);
  EXPECT_EQ(table.counts.not_reproduced_yet, 1u);
  EXPECT_EQ(table.counts.missing_run, 1u);
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
class Results : public cm::pipeline::test_support::ScratchTest {
 protected:
  void write(const std::string& study, const std::string& json) {
    std::filesystem::create_directories(dir_ / study);
    std::ofstream(dir_ / study / "run.json") << json;
  }
};

const char* disk_run = R"({"schema": "cm-run 1", "study": "disk", "run_id": "0123456789abcdef",
  "scalars": {"mu_hat": {"value": 0.29512, "unit": "1"}, "lift_off": {"value": null, "unit": "s"}}})";

TEST_F(Results, LooksUpEachRowsScalar) {
  write("disk", disk_run);
  PublishedRow mu = equal_row(0.2951, 5e-5, 0);
  PublishedRow lift = equal_row(3.5, 0.05, 0);
  lift.id = "P2";
  lift.name = "lift_off";
  PublishedRow no_run = equal_row(1, 0, 0);
  no_run.id = "P4";
  no_run.study = "ball";
  PublishedRow not_yet = no_run;
  not_yet.id = "P5";
  not_yet.expected = Expected::not_reproduced_yet;
  const auto rows = compare_with_results({mu, lift, no_run, not_yet}, dir_);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].outcome.status, Status::match);
  EXPECT_EQ(rows[0].reproduction.run_id, "0123456789abcdef");
  EXPECT_EQ(rows[1].outcome.status, Status::fail);  // null: the run computed a non-finite value
  EXPECT_TRUE(rows[1].reproduction.found);
  EXPECT_EQ(rows[2].outcome.status, Status::missing_run);
  EXPECT_EQ(rows[2].reproduction.run_id, "");
  EXPECT_EQ(rows[3].outcome.status, Status::not_reproduced_yet);
}

TEST_F(Results, AScalarTheRunDoesNotHaveIsATypo) {
  write("disk", disk_run);
  PublishedRow typo = equal_row(1, 0, 0);
  typo.file = "configs/x/published.tsv";
  typo.line = 7;
  typo.scalar = "disk/mu_hta";
  typo.name = "mu_hta";
  for (Expected expected : {Expected::match, Expected::not_reproduced_yet}) {
    typo.expected = expected;
    try {
      compare_with_results({equal_row(0.2951, 5e-5, 0), typo}, dir_);
      FAIL() << "no error for a scalar the run does not have";
    } catch (const cm::InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("configs/x/published.tsv:7: P1: the run ", 0), 0u) << message;
      EXPECT_NE(message.find("has no scalar 'mu_hta' (a typo in the column scalar 'disk/mu_hta'?); "
                             "the run has: lift_off, mu_hat"),
                std::string::npos)
          << message;
    }
  }
}

TEST_F(Results, MalformedRunJsonIsAnInputError) {
  write("disk", R"({"schema": "cm-run 1", "run_id": "x", "scalars": {)");
  EXPECT_THROW(compare_with_results({equal_row(1, 0, 0)}, dir_), cm::InputError);
}

TEST_F(Results, LeftoversOfInterruptedRunsAreNoRuns) {
  write("disk", disk_run);
  write(".disk.partial-4242", R"({"schema": "cm-run 1", "study": "disk", "run_id": "deadbeef", "scalars": {}})");
  write(".ball.old-4243", R"({"schema": "cm-run 1", "study": "ball", "run_id": "deadbeef", "scalars": {}})");
  const auto runs = cm::load_runs(dir_);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].study, "disk");
  EXPECT_EQ(runs[0].run_id, "0123456789abcdef");
}

TEST_F(Results, ARunInTheDirectoryOfAnotherStudyIsAnInputError) {
  write("ball", disk_run);
  EXPECT_THROW(cm::load_runs(dir_), cm::InputError);
}

TEST_F(Results, NoResultsDirectoryIsAnInputError) {
  EXPECT_THROW(cm::load_runs(dir_ / "no_such"), cm::InputError);
  write("disk", disk_run);
  EXPECT_THROW(cm::check_results_directory(dir_ / "disk" / "run.json"), cm::InputError);
  EXPECT_NO_THROW(cm::check_results_directory(dir_));
}

// Two synthetic channel runs, one whose window is steady and one whose window drifts: the same
// published rows are MATCH from the first (within a tolerance widened by the run's standard
// error) and NOT-AT-PAPER-SCALE from the second, with the reason generated from the run.
std::string channel_run(bool steady) {
  return std::string(R"({"schema": "cm-run 1", "study": "channel", "run_id": "00112233445566778899",
  "config": {"values": {"average.max_drift": "0.01"}},
  "scalars": {"avg_particles_maxdiss": {"value": 1040, "unit": "1"},
              "se_avg_particles_maxdiss": {"value": 20, "unit": "1"},
              "drift_particles_maxdiss": {"value": )") +
         (steady ? "0.002" : "0.05") + R"(, "unit": "1"},
              "drift_contacts_maxdiss": {"value": 0.001, "unit": "1"},
              "steady_maxdiss": {"value": )" +
         (steady ? "1" : "0") + R"(, "unit": "1"},
              "drift_particles_coulomb": {"value": 0.5, "unit": "1"},
              "steady_coulomb": {"value": 0, "unit": "1"},
              "time_steps": {"value": 6000, "unit": "1"},
              "steady": {"value": 0, "unit": "1"}}})";
}

TEST_F(Results, AWindowThatIsNotSteadyIsCountedApartWithTheRunsReason) {
  PublishedRow average = equal_row(1000.0, 0.0, 0.03);  // 30, and the run's 20: |1040 - 1000| = 40 within 50
  average.scalar = "channel/avg_particles_maxdiss";
  average.study = "channel";
  average.name = "avg_particles_maxdiss";
  PublishedRow steps = equal_row(6000.0, 0.0, 0.0);  // a scalar of the whole run: the run's `steady`
  steps.id = "P2";
  steps.scalar = "channel/time_steps";
  steps.study = "channel";
  steps.name = "time_steps";

  write("channel", channel_run(true));
  const auto steady = compare_with_results({average, steps}, dir_);
  EXPECT_EQ(steady[0].outcome.status, Status::match);
  EXPECT_EQ(steady[0].reproduction.standard_error, 20.0);
  EXPECT_EQ(steady[0].reproduction.unsteady, "");
  EXPECT_EQ(steady[1].outcome.status, Status::not_at_paper_scale);  // steady is 0: the Coulomb window drifts
  EXPECT_NE(steady[1].reproduction.unsteady.find("particles_coulomb 50 %"), std::string::npos);
  average.relation = Relation::equal;
  average.rel_tol = 0.01;  // 10 + 20 < 40: outside even when widened
  EXPECT_EQ(compare_with_results({average}, dir_)[0].outcome.status, Status::fail);
  average.rel_tol = 0.03;

  write("channel", channel_run(false));
  const auto unsteady = compare_with_results({average, steps}, dir_);
  EXPECT_EQ(unsteady[0].outcome.status, Status::not_at_paper_scale);
  EXPECT_EQ(unsteady[0].reproduction.unsteady,
            "window not steady: the run's steady_maxdiss is 0; relative drift across the window: contacts 0.1 %, "
            "particles 5 % (steady when each is below average.max_drift = 0.01)");
  // comparison.tsv carries the reason in the evidence, and the error beside the value.
  const ComparisonTable table = parse_comparison(comparison_tsv(unsteady), "comparison.tsv");
  EXPECT_EQ(table.rows[0].at("status"), "NOT-AT-PAPER-SCALE");
  EXPECT_EQ(table.rows[0].at("standard_error"), "20");
  EXPECT_EQ(table.rows[0].at("evidence").rfind("window not steady: the run's steady_maxdiss is 0", 0), 0u);
  EXPECT_EQ(table.rows[0].at("tolerance"),
            "rel 0.03 + se 20 (widened by the run's batch-means standard error of the value)");
  EXPECT_EQ(table.rows[1]
                .at("evidence")
                .rfind("window not steady: the run's steady is 0; relative drift across "
                       "the window: contacts_maxdiss 0.1 %, particles_coulomb 50 %",
                       0),
            0u);
  EXPECT_EQ(table.counts.not_at_paper_scale, 2u);
  EXPECT_EQ(table.counts.match + table.counts.fail, 0u);
}

// The evidence's citations are filled in from the row's run: the value, and its standard error
// where the run has one; a citation the run does not have is a typo, named like a row's scalar.
TEST_F(Results, TheEvidenceCitesTheRunsValues) {
  write("channel", channel_run(true));
  PublishedRow average = equal_row(1000.0, 0.0, 0.03);
  average.scalar = "channel/avg_particles_maxdiss";
  average.study = "channel";
  average.name = "avg_particles_maxdiss";
  average.evidence = "the run gives {avg_particles_maxdiss} spheres over {time_steps} steps";
  const auto rows = compare_with_results({average}, dir_);
  EXPECT_EQ(rows[0].evidence, "the run gives 1040 ± 20 spheres over 6000 steps");
  // an error of three digits and more to two significant digits, without an exponent
  std::string larger = channel_run(true);
  larger.replace(larger.find("\"value\": 20,"), 12, "\"value\": 382.0042,");
  write("channel", larger);
  EXPECT_EQ(compare_with_results({average}, dir_)[0].evidence, "the run gives 1040 ± 380 spheres over 6000 steps");
  write("channel", channel_run(true));
  const ComparisonTable table = parse_comparison(comparison_tsv(rows), "comparison.tsv");
  EXPECT_EQ(table.rows[0].at("evidence"), "the run gives 1040 ± 20 spheres over 6000 steps");

  average.file = "configs/x/published.tsv";
  average.line = 9;
  average.evidence = "the run gives {avg_spheres_maxdiss}";
  try {
    compare_with_results({average}, dir_);
    FAIL() << "no error for a citation the run does not have";
  } catch (const cm::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("configs/x/published.tsv:9: P1: the evidence cites {avg_spheres_maxdiss}, "
                                          "which the run ",
                                          0),
              0u)
        << e.what();
  }
  // without a run the evidence is shown as written
  average.study = "ball";
  EXPECT_EQ(compare_with_results({average}, dir_)[0].evidence, "the run gives {avg_spheres_maxdiss}");
}

TEST_F(Results, ARunThatSaysNothingOfStationarityIsComparedAsBefore) {
  write("disk", disk_run);
  const auto rows = compare_with_results({equal_row(0.2951, 5e-5, 0)}, dir_);
  EXPECT_EQ(rows[0].outcome.status, Status::match);
  EXPECT_FALSE(rows[0].reproduction.standard_error);
  EXPECT_EQ(rows[0].reproduction.unsteady, "");
}

TEST(RunJson, Validation) {
  EXPECT_NO_THROW(cm::parse_run_json(disk_run, "run.json"));
  EXPECT_THROW(cm::parse_run_json("[1, 2]", "run.json"), cm::InputError);
  EXPECT_THROW(cm::parse_run_json(R"({"schema": "cm-run 2", "run_id": "x", "scalars": {}})", "run.json"),
               cm::InputError);
  EXPECT_THROW(cm::parse_run_json(R"({"schema": "cm-run 1", "scalars": {}})", "run.json"), cm::InputError);
  EXPECT_THROW(cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "x"})", "run.json"), cm::InputError);
  EXPECT_THROW(
      cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "x", "scalars": {"a": {"value": "1"}}})", "run.json"),
      cm::InputError);
  EXPECT_THROW(cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "x", "scalars": {"a": 1}})", "run.json"),
               cm::InputError);
  EXPECT_THROW(cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "x", "scalars": {}, "notes": "x"})", "run.json"),
               cm::InputError);
}

/// The message of the InputError parse_run_json throws for `text`, or "" when none is thrown.
std::string run_json_error(const std::string& text) {
  try {
    cm::parse_run_json(text, "run.json");
  } catch (const cm::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RunJson, EveryErrorOfTheFileIsBadInputNamingIt) {
  const std::string head = R"({"schema": "cm-run 1", "run_id": "x", )";
  // A number beyond the range of a double (nlohmann's out_of_range, not a parse_error).
  EXPECT_EQ(run_json_error(head + R"("scalars": {"a": {"value": 1e999}}})").rfind("run.json: not valid JSON", 0), 0u);
  EXPECT_EQ(run_json_error(head + R"("scalars": {"a": {"value": 1}, "a": {"value": 2}}})"),
            "run.json: the key 'a' appears twice in one object");
  EXPECT_EQ(run_json_error(R"({"schema": "cm-run 1", "run_id": "", "scalars": {}})"), "run.json: no run_id string");
  EXPECT_EQ(run_json_error(head + R"("scalars": {"a": {"value": 1, "unit": 1}}})"),
            "run.json: scalar 'a': unit is not a string");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "study": 3})"), "run.json: study is not a string");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "wall_time_s": "1 s"})"), "run.json: wall_time_s is not a number");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "solver": {"modified": "yes"}})"),
            "run.json: solver.modified is not true or false");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "build": {"type": 1}})"), "run.json: build.type is not a string");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "config": {"values": []}})"),
            "run.json: config.values is not an object");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "statistics": {"cvode": {"steps": "12"}}})"),
            "run.json: statistics.cvode.steps is not a number");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "assumptions": [{"key": "k", "note": 1}]})"),
            "run.json: assumptions: note is not a string");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "assumptions": ["k"]})"),
            "run.json: an entry of assumptions is not {\"key\": ..., ...}");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "notes": [1]})"), "run.json: an entry of notes is not a string");
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "files": [{"description": "d"}]})"),
            "run.json: an entry of files is not {\"name\": ..., ...}");
  EXPECT_EQ(run_json_error("{\"schema\": \"cm-run 1\", \"run_id\": \"\xff\", \"scalars\": {}}")
                .rfind("run.json: not valid JSON", 0),
            0u);
  EXPECT_EQ(run_json_error(head + R"("scalars": {}, "notes": ["a"], "files": [{"name": "t.tsv"}]})"), "");
}

}  // namespace

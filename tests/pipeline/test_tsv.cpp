// Unit tests of cm-tsv parsing and of the value-by-value comparison behind cm_tsvdiff.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "tools/tsv.hpp"

namespace {

using namespace cm::pipeline;

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

const std::string head = "# schema: cm-tsv 1\n# run: 0123456789abcdef\n# disk state\n# columns: t[1]\tphi[rad]\tN[1]\n";

std::string tsv_error_of(const std::string& text) {
  try {
    parse_tsv(text, "data.tsv");
  } catch (const cm::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Tsv, ParsesColumnsRowsAndBlocks) {
  const TsvData d = parse_tsv(head + "0\t0\t5\n0.5\tnan\t-inf\n\n\n1\t2\t3\n", "data.tsv");
  ASSERT_EQ(d.columns.size(), 3u);
  EXPECT_EQ(d.columns[1].name, "phi");
  EXPECT_EQ(d.columns[1].unit, "rad");
  EXPECT_EQ(d.columns[1].label(), "phi[rad]");
  ASSERT_EQ(d.rows.size(), 3u);
  EXPECT_TRUE(std::isnan(d.rows[1][1]));
  EXPECT_EQ(d.rows[1][2], -infinity);
  EXPECT_EQ(d.lines, (std::vector<std::size_t>{5, 6, 9}));
  EXPECT_EQ(d.blocks, (std::vector<std::size_t>{0, 0, 1}));
}

TEST(Tsv, FullPrecisionRoundTrips) {
  const TsvData d = parse_tsv(head + "0.10000000000000001\t-1.7976931348623157e+308\t4.9406564584124654e-324\n", "d");
  EXPECT_EQ(d.rows[0][0], 0.1);
  EXPECT_EQ(d.rows[0][1], -std::numeric_limits<double>::max());
  EXPECT_EQ(d.rows[0][2], std::numeric_limits<double>::denorm_min());
}

TEST(Tsv, MalformedFilesAreInputErrors) {
  EXPECT_EQ(tsv_error_of("# columns: t[1]\n0\n"), "data.tsv:2: data before the line '# schema: cm-tsv 1'");
  EXPECT_EQ(tsv_error_of("# schema: cm-tsv 1\n0\n"), "data.tsv:2: data before the line '# columns: ...'");
  EXPECT_EQ(tsv_error_of("# schema: cm-tsv 2\n"), "data.tsv:1: schema 'cm-tsv 2', expected 'cm-tsv 1'");
  EXPECT_EQ(tsv_error_of(""), "data.tsv: no line '# schema: cm-tsv 1'");
  EXPECT_EQ(tsv_error_of(head + "0\t0\n"), "data.tsv:5: 2 values, the file has 3 columns");
  EXPECT_EQ(tsv_error_of(head + "0\t0\t5x\n"), "data.tsv:5: column N[1]: '5x' is not a number");
  EXPECT_EQ(tsv_error_of("# schema: cm-tsv 1\n# columns: t\n"), "data.tsv:2: column 't' is not of the form name[unit]");
  EXPECT_EQ(tsv_error_of("# schema: cm-tsv 1\n# columns: t[1]\tt[s]\n"), "data.tsv:2: column 't' appears twice");
}

TEST(Within, ToleranceIsAbsolutePlusRelativeToTheReference) {
  // Values exact in binary, so the boundary is exact.
  EXPECT_TRUE(within(2.0, 3.0, {0.5, 0.25}));  // allowed 0.5 + 0.25 * 2 = 1
  EXPECT_FALSE(within(2.0, std::nextafter(3.0, infinity), {0.5, 0.25}));
  EXPECT_FALSE(within(4.0, 5.0, {0.0, 0.125}));  // relative to the reference 4: 0.5
  EXPECT_TRUE(within(5.0, 4.0, {0.0, 0.25}));    // relative to the reference 5: 1.25
  EXPECT_TRUE(within(1.0, 1.0, {0.0, 0.0}));
  EXPECT_FALSE(within(1.0, std::nextafter(1.0, infinity), {0.0, 0.0}));
}

TEST(Within, NanEqualsOnlyNanAndInfinityOnlyItself) {
  EXPECT_TRUE(within(not_a_number, not_a_number, {}));
  EXPECT_FALSE(within(not_a_number, 0.0, {1e300, 1e300}));
  EXPECT_FALSE(within(0.0, not_a_number, {1e300, 1e300}));
  EXPECT_TRUE(within(infinity, infinity, {}));
  EXPECT_FALSE(within(infinity, -infinity, {1e300, 1e300}));
  EXPECT_FALSE(within(1e308, infinity, {1e300, 1e300}));
}

TEST(ColumnTolerances, ParsesOverrides) {
  const DiffOptions o = parse_column_tolerances("N:1e-9:1e-7, phi:0:1e-10", {1e-12, 1e-10});
  EXPECT_EQ(o.fallback.abs, 1e-12);
  ASSERT_EQ(o.per_column.size(), 2u);
  EXPECT_EQ(o.per_column.at("N").abs, 1e-9);
  EXPECT_EQ(o.per_column.at("N").rel, 1e-7);
  EXPECT_EQ(o.per_column.at("phi").rel, 1e-10);
  EXPECT_TRUE(parse_column_tolerances("", {}).per_column.empty());
}

TEST(ColumnTolerances, MalformedIsAnInputErrorNamingTheKey) {
  for (const char* text : {"N", "N:1", "N:a:1", ":1:1", "N:-1:0", "N:1:1,N:2:2", "N:not_a_number:0"}) {
    try {
      parse_column_tolerances(text, {});
      ADD_FAILURE() << "accepted " << text;
    } catch (const cm::InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("columns: ", 0), 0u) << e.what();
    }
  }
}

TEST(Diff, EqualWithinToleranceIncludingNanAndBlocks) {
  const TsvData a = parse_tsv(head + "0\t0\t5\n1\tnan\t4\n\n2\t1\t-infinity\n", "a");
  const TsvData b = parse_tsv(head + "0\t1e-11\t5\n1\tnan\t4\n\n2\t1\t-infinity\n", "b");
  const DiffReport r = diff_tsv(a, b, {{1e-10, 0}, {}});
  EXPECT_TRUE(r.equal());
  EXPECT_EQ(r.compared, 9u);
  EXPECT_EQ(r.max_column, "phi[rad]");
}

TEST(Diff, PerColumnToleranceOverridesTheDefault) {
  const TsvData a = parse_tsv(head + "0\t0\t4\n", "a");
  const TsvData b = parse_tsv(head + "0\t0\t4.5\n", "b");
  const DiffReport strict = diff_tsv(a, b, parse_column_tolerances("", {1e-12, 1e-12}));
  EXPECT_FALSE(strict.equal());
  ASSERT_EQ(strict.first.size(), 1u);
  EXPECT_EQ(strict.first[0].column, "N[1]");
  EXPECT_EQ(strict.first[0].row, 1u);
  EXPECT_EQ(strict.first[0].reference_line, 5u);
  EXPECT_EQ(strict.first[0].error, 0.5);
  // The override loosens N only: 0.125 * 4 = 0.5 allowed, exactly the difference.
  EXPECT_TRUE(diff_tsv(a, b, parse_column_tolerances("N:0:0.125", {1e-12, 1e-12})).equal());
  EXPECT_FALSE(diff_tsv(a, b, parse_column_tolerances("phi:1:1", {1e-12, 1e-12})).equal());
  EXPECT_THROW(diff_tsv(a, b, parse_column_tolerances("Q:1:1", {})), cm::InputError);
}

TEST(Diff, NanAgainstANumberDiffers) {
  const TsvData a = parse_tsv(head + "0\tnan\t4\n", "a");
  const TsvData b = parse_tsv(head + "0\t0\t4\n", "b");
  const DiffReport r = diff_tsv(a, b, {{1e300, 1e300}, {}});
  EXPECT_FALSE(r.equal());
  EXPECT_EQ(r.differing, 1u);
  EXPECT_NE(describe(r, a, b).find("NaN matches only NaN"), std::string::npos);
}

TEST(Diff, RowCountMismatchIsAShapeDifference) {
  const TsvData a = parse_tsv(head + "0\t0\t4\n1\t1\t1\n", "a");
  const TsvData b = parse_tsv(head + "0\t0\t4\n", "b");
  const DiffReport r = diff_tsv(a, b, {});
  EXPECT_FALSE(r.equal());
  ASSERT_EQ(r.structure.size(), 1u);
  EXPECT_EQ(r.structure[0], "row counts differ: reference 2, candidate 1");
  EXPECT_EQ(r.differing, 0u);
}

TEST(Diff, ColumnAndBlockMismatches) {
  const TsvData a = parse_tsv(head + "0\t0\t4\n1\t1\t1\n", "a");
  const TsvData units = parse_tsv("# schema: cm-tsv 1\n# columns: t[s]\tphi[rad]\tN[1]\n0\t0\t4\n1\t1\t1\n", "b");
  EXPECT_NE(diff_tsv(a, units, {}).structure.at(0).find("columns differ"), std::string::npos);
  const TsvData split = parse_tsv(head + "0\t0\t4\n\n1\t1\t1\n", "c");
  EXPECT_NE(diff_tsv(a, split, {}).structure.at(0).find("data blocks differ"), std::string::npos);
}

TEST(Diff, KeepsTheFirstDifferencesAndCountsAll) {
  std::string ra = head, rb = head;
  for (int i = 0; i < 30; ++i) {
    ra += std::to_string(i) + "\t0\t0\n";
    rb += std::to_string(i) + "\t1\t0\n";
  }
  const DiffReport r = diff_tsv(parse_tsv(ra, "a"), parse_tsv(rb, "b"), {}, 10);
  EXPECT_EQ(r.differing, 30u);
  EXPECT_EQ(r.first.size(), 10u);
  EXPECT_EQ(r.first.back().row, 10u);
}

}  // namespace

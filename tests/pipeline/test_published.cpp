// Unit tests of published.tsv parsing: every malformed row is a cm::InputError naming file,
// line and column, so a typo in a paper's values never passes silently.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "tools/published.hpp"

namespace {

using namespace cm::pipeline;

const std::string header =
    "id\tscalar\trelation\tvalue\tabs_tol\trel_tol\ttol_why\tsource\tquote\tkind\texpected\tevidence\t"
    "diff_value\tdiff_tol\n";

std::string row(const std::string& relation = "=", const std::string& value = ".2951",
                const std::string& abs_tol = "5e-5", const std::string& rel_tol = "0",
                const std::string& expected = "MATCH", const std::string& evidence = "-",
                const std::string& diff_value = "-", const std::string& diff_tol = "-",
                const std::string& scalar = "disk/mu_hat", const std::string& id = "P1",
                const std::string& kind = "number") {
  return id + "\t" + scalar + "\t" + relation + "\t" + value + "\t" + abs_tol + "\t" + rel_tol +
         "\thalf a unit\tSect. 5\tmu = .2951\t" + kind + "\t" + expected + "\t" + evidence + "\t" + diff_value + "\t" +
         diff_tol + "\n";
}

/// The message of the InputError thrown by parsing `text`, or "" when none is thrown.
std::string error_of(const std::string& text) {
  try {
    parse_published(text, "published.tsv");
  } catch (const cm::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Published, ParsesARowWithEveryField) {
  const auto rows = parse_published(header + row(), "published.tsv");
  ASSERT_EQ(rows.size(), 1u);
  const PublishedRow& r = rows[0];
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(r.id, "P1");
  EXPECT_EQ(r.study, "disk");
  EXPECT_EQ(r.name, "mu_hat");
  EXPECT_EQ(r.relation, Relation::equal);
  EXPECT_EQ(r.value_text, ".2951");
  EXPECT_EQ(r.value, 0.2951);
  EXPECT_EQ(r.abs_tol, 5e-5);
  EXPECT_EQ(r.rel_tol, 0.0);
  EXPECT_EQ(r.expected, Expected::match);
  EXPECT_FALSE(r.diff_value.has_value());
}

TEST(Published, SkipsCommentsAndBlankLinesAndCountsLines) {
  const auto rows =
      parse_published("# the paper's values\n" + header + "\n# section 5\n" + row() + "\r\n", "published.tsv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].line, 5u);
}

TEST(Published, EvaluatesClosedForms) {
  // A closed form is evaluated by cm::parse_real, exact to rounding.
  const auto rows = parse_published(header + row("=", "2/7", "0", "1e-12"), "published.tsv");
  EXPECT_EQ(rows[0].value, 2.0 / 7.0);
  EXPECT_EQ(rows[0].value_text, "2/7");
}

TEST(Published, ReadsEveryRelation) {
  const std::string text = header + row("<", "1", "-", "-", "MATCH", "-", "-", "-", "a/x", "B1", "bound") +
                           row("<=", "1", "-", "-", "MATCH", "-", "-", "-", "a/x", "B2", "bound") +
                           row(">", "1", "-", "-", "MATCH", "-", "-", "-", "a/x", "B3", "bound") +
                           row(">=", "1", "-", "-", "MATCH", "-", "-", "-", "a/x", "B4", "bound");
  const auto rows = parse_published(text, "published.tsv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].relation, Relation::less);
  EXPECT_EQ(rows[1].relation, Relation::less_equal);
  EXPECT_EQ(rows[2].relation, Relation::greater);
  EXPECT_EQ(rows[3].relation, Relation::greater_equal);
}

TEST(Published, ReadsAKnownDifference) {
  const auto rows = parse_published(
      header + row("=", "0.02", "0.005", "0", "KNOWN-DIFFERENCE", "reproduces 0.031, see Fig. 7", "0.031", "0.001"),
      "published.tsv");
  EXPECT_EQ(rows[0].expected, Expected::known_difference);
  EXPECT_EQ(rows[0].evidence, "reproduces 0.031, see Fig. 7");
  EXPECT_EQ(*rows[0].diff_value, 0.031);
  EXPECT_EQ(*rows[0].diff_tol, 0.001);
}

// A value compared from a run that is not at the paper's scale (a shorter channel, a shorter run)
// is a status of its own, with the reason and, like a known difference, where it is known to be.
TEST(Published, ReadsARowNotAtThePapersScale) {
  const auto rows =
      parse_published(header + row("=", "2.47e5", "0", "0.03", "NOT-AT-PAPER-SCALE",
                                   "the channel is 8 cm long, not 15 cm; this run: 107142", "107142", "1.07e4"),
                      "published.tsv");
  EXPECT_EQ(rows[0].expected, Expected::not_at_paper_scale);
  EXPECT_EQ(to_string(rows[0].expected), "NOT-AT-PAPER-SCALE");
  EXPECT_EQ(rows[0].evidence, "the channel is 8 cm long, not 15 cm; this run: 107142");
  EXPECT_EQ(*rows[0].diff_value, 107142.0);
  EXPECT_EQ(*rows[0].diff_tol, 1.07e4);
  const auto bare =
      parse_published(header + row("=", "2.59", "0", "0.05", "NOT-AT-PAPER-SCALE", "8 cm, not 15 cm"), "published.tsv");
  EXPECT_FALSE(bare[0].diff_value);
  EXPECT_EQ(expected_from("NOT-AT-PAPER-SCALE"), Expected::not_at_paper_scale);
  EXPECT_EQ(expected_from("not-at-paper-scale"), std::nullopt);
}

TEST(Published, ARowNotAtThePapersScaleNeedsItsReason) {
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "NOT-AT-PAPER-SCALE")),
            "published.tsv:2: column evidence: a NOT-AT-PAPER-SCALE row needs its reason (how the run differs from "
            "the paper's setup in size or duration)");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "NOT-AT-PAPER-SCALE", "8 cm, not 15 cm", "-", "0.1")),
            "published.tsv:2: column diff_value: diff_value and diff_tol go together (both or neither)");
}

TEST(Published, NamesFileLineAndColumnOfEachError) {
  EXPECT_EQ(error_of(""),
            "published.tsv: no header line (expected the columns id, scalar, relation, value, "
            "abs_tol, rel_tol, tol_why, source, quote, kind, expected, evidence, diff_value, diff_tol)");
  EXPECT_EQ(error_of("id\tscalar\n"), "published.tsv:1: header lacks the column 'relation'");
  EXPECT_EQ(error_of(header.substr(0, header.size() - 1) + "\textra\n"), "published.tsv:1: unknown column 'extra'");
  EXPECT_EQ(error_of(header + "P1\tdisk/mu_hat\n"), "published.tsv:2: 2 tab-separated fields, the header has 14");
  EXPECT_EQ(error_of(header + row("~")), "published.tsv:2: column relation: '~' is none of =, <, <=, >, >=");
  EXPECT_EQ(error_of(header + row("=", "0.29x")), "published.tsv:2: column value: '0.29x' is not a finite number");
  EXPECT_EQ(error_of(header + row("=", "1", "-1e-3")), "published.tsv:2: column abs_tol: '-1e-3' is negative");
  EXPECT_EQ(error_of(header + row("=", "1", "-")),
            "published.tsv:2: column abs_tol: a value compared with = needs abs_tol and rel_tol (0 when not used)");
  EXPECT_EQ(error_of(header + row("<", "1", "1e-3", "0")),
            "published.tsv:2: column abs_tol: a bound (<) has no tolerance: write - or 0");
  EXPECT_EQ(error_of(header + row("<", "1", "0", "0")), "");  // zero tolerances are no tolerance
  EXPECT_EQ(error_of(header + row() + row()), "published.tsv:3: column id: 'P1' appears twice (lines 2 and 3)");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "MATCH", "-", "-", "-", "mu_hat")),
            "published.tsv:2: column scalar: 'mu_hat' is not of the form study/scalar");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "MATCH", "-", "-", "-", "a/b/c")),
            "published.tsv:2: column scalar: 'a/b/c' is not of the form study/scalar");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "MATCH", "-", "-", "-", "a/x", "P1", "guess")),
            "published.tsv:2: column kind: 'guess' is none of number, bound, closed-form, claim");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "MAYBE")),
            "published.tsv:2: column expected: 'MAYBE' is none of MATCH, KNOWN-DIFFERENCE, NOT-AT-PAPER-SCALE, "
            "DISAGREES, NOT-REPRODUCED-YET");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "DISAGREES")),
            "published.tsv:2: column evidence: a DISAGREES row needs its evidence (what was measured and what was "
            "tried)");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "KNOWN-DIFFERENCE")),
            "published.tsv:2: column evidence: a KNOWN-DIFFERENCE needs its evidence");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "KNOWN-DIFFERENCE", "see Fig. 7", "1.1")),
            "published.tsv:2: column diff_tol: diff_value and diff_tol go together (both or neither)");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "MATCH", "-", "1.1", "0.1")),
            "published.tsv:2: column diff_value: only a KNOWN-DIFFERENCE, DISAGREES or NOT-AT-PAPER-SCALE row has a "
            "diff_value (write -)");
  EXPECT_EQ(error_of(header + row("=", "nan")), "published.tsv:2: column value: 'nan' is not a finite number");
}

// The evidence cites a measured value as {scalar} of the row's run (filled in by cm_compare): a
// citation that cannot be a scalar's name is an error of the file, never text passed on.
TEST(Published, EvidenceCitesScalarsByName) {
  const auto evidence = [](const std::string& text) {
    return error_of(header + row("=", "1", "0", "0", "MATCH", text));
  };
  EXPECT_EQ(evidence("between two spheres {avg_sphere_contacts_coulomb} and {n2}"), "");
  EXPECT_EQ(evidence("open {avg"), "published.tsv:2: column evidence: the citation at character 6 is not closed");
  EXPECT_EQ(evidence("a } alone"), "published.tsv:2: column evidence: a '}' at character 3 closes no citation");
  EXPECT_EQ(evidence("{}"), "published.tsv:2: column evidence: an empty citation {} at character 1");
  EXPECT_EQ(evidence("{a{b}}"), "published.tsv:2: column evidence: a '{' at character 3 opens inside a citation");
  EXPECT_EQ(evidence("{a b}"),
            "published.tsv:2: column evidence: the citation at character 1 is not a scalar's name "
            "({name}: letters, digits and _ only)");
}

TEST(Published, ReadsADisagreementWithItsEvidence) {
  const auto rows = parse_published(
      header + row("=", "1", "0", "0", "DISAGREES", "steady, measured, tried x", "1.1", "0.1"), "published.tsv");
  EXPECT_EQ(rows[0].expected, Expected::disagrees);
  EXPECT_EQ(to_string(rows[0].expected), "DISAGREES");
  EXPECT_EQ(rows[0].diff_value, 1.1);
  EXPECT_EQ(rows[0].diff_tol, 0.1);
}

TEST(Published, ReadsAValueNotReproducedYet) {
  const auto rows = parse_published(header + row("=", "1", "0", "0", "NOT-REPRODUCED-YET"), "published.tsv");
  EXPECT_EQ(rows[0].expected, Expected::not_reproduced_yet);
  EXPECT_EQ(rows[0].file, "published.tsv");
  EXPECT_EQ(where(rows[0]), "published.tsv:2");
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "NOT-REPRODUCED-YET", "-", "1.1", "0.1")),
            "published.tsv:2: column diff_value: only a KNOWN-DIFFERENCE, DISAGREES or NOT-AT-PAPER-SCALE row has a "
            "diff_value (write -)");
}

TEST(Published, TheSameComparisonTwiceNamesBothLines) {
  // Another id, the same scalar, relation and value (printed differently): counted twice.
  const std::string twice = header + row() + row("<", "1", "-", "-", "MATCH", "-", "-", "-", "disk/mu_hat", "P2") +
                            row("=", "0.29510", "1e-4", "0", "MATCH", "-", "-", "-", "disk/mu_hat", "P3");
  EXPECT_EQ(error_of(twice),
            "published.tsv:4: column scalar: 'disk/mu_hat' = 0.29510 is compared twice (lines 2 and 4)");
  // Two printed values of one scalar (2/3 and its rounding 0.667), or two bounds, are two values.
  EXPECT_EQ(error_of(header + row("=", "2/3", "1e-12", "0") +
                     row("=", "0.667", "5e-4", "0", "MATCH", "-", "-", "-", "disk/mu_hat", "P2") +
                     row(">", "0.5", "-", "-", "MATCH", "-", "-", "-", "disk/mu_hat", "P3") +
                     row(">", "0.6", "-", "-", "MATCH", "-", "-", "-", "disk/mu_hat", "P4")),
            "");
}

TEST(Published, AStudyIsNoHiddenDirectory) {
  EXPECT_EQ(error_of(header + row("=", "1", "0", "0", "MATCH", "-", "-", "-", ".disk.partial-12/mu_hat")),
            "published.tsv:2: column scalar: '.disk.partial-12/mu_hat': a study's name does not start with a dot");
}

TEST(Published, EveryToleranceSaysWhy) {
  std::string text = header + row();
  text.replace(text.find("half a unit"), std::string("half a unit").size(), "-");
  EXPECT_EQ(error_of(text), "published.tsv:2: column tol_why: empty (required)");
}

TEST(Published, MissingFileIsAnInputError) { EXPECT_THROW(read_published("no/such/published.tsv"), cm::InputError); }

}  // namespace

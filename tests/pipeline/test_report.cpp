// Unit tests of the report's building blocks: Markdown escaping, captions, the order and the
// alarms of a report, the index.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "scratch.hpp"
#include "tools/bench.hpp"
#include "tools/report.hpp"

namespace {

using namespace cm::pipeline;

TEST(Markdown, EscapesWhatWouldBeMarkup) {
  EXPECT_EQ(markdown_escape("a|b"), "a\\|b");
  EXPECT_EQ(markdown_escape("2*pi"), "2\\*pi");
  EXPECT_EQ(markdown_escape("$x$"), "\\$x\\$");
  EXPECT_EQ(markdown_escape("[1]"), "\\[1\\]");
  EXPECT_EQ(markdown_escape("<b>"), "\\<b>");
  EXPECT_EQ(markdown_escape("x < 1"), "x < 1");
  EXPECT_EQ(markdown_escape("B_i"), "B_i");
  EXPECT_EQ(markdown_escape("_x_"), "\\_x\\_");
  EXPECT_EQ(markdown_escape("a\tb\nc"), "a b c");
}

/// A scratch directory, removed at the end of the test.
class Scratch : public cm::pipeline::test_support::ScratchTest {
 protected:
  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
};

TEST_F(Scratch, CaptionIsTheFirstLineOfTheScript) {
  EXPECT_EQ(read_caption(write("a.gp", "# caption: Energy against time.\nplot x\n")), "Energy against time.");
  EXPECT_THROW(read_caption(write("b.gp", "plot x\n# caption: late\n")), cm::InputError);
  EXPECT_THROW(read_caption(write("c.gp", "# caption:   \n")), cm::InputError);
  EXPECT_THROW(read_caption(dir_ / "missing.gp"), cm::InputError);
}

TEST_F(Scratch, TableIsTheSecondLineOfTheScript) {
  EXPECT_EQ(read_table_source(write("a.gp", "# caption: C.\n# table: channel_ablation/ablation.tsv\nplot x\n")),
            "channel_ablation/ablation.tsv");
  EXPECT_EQ(read_table_source(write("b.gp", "# caption: C.\nplot x\n# table: a/b.tsv\n")), "");
  EXPECT_EQ(read_table_source(write("c.gp", "# caption: C.\n")), "");
  // a name that would leave the paper's results, or go deeper than a study's folder, is refused
  for (const char* bad : {"../a/b.tsv", "a/../b.tsv", "/b.tsv", "a/b/c.tsv", "a.tsv", "a/", "a/b c.tsv", ""})
    EXPECT_THROW(read_table_source(write("d.gp", std::string("# caption: C.\n# table: ") + bad + "\n")), cm::InputError)
        << bad;
}

TEST_F(Scratch, RelativeLinks) {
  std::filesystem::create_directories(dir_ / "reports/p/figures");
  EXPECT_EQ(relative_link(dir_ / "reports/p/figures/f.png", dir_ / "reports/p"), "figures/f.png");
  EXPECT_EQ(relative_link(dir_ / "reports/p/index.html", dir_ / "reports"), "p/index.html");
}

ReportInput sample() {
  ReportInput in;
  in.paper = "rollingball";
  in.title = "Rolling ball";
  in.results = "results/rollingball";
  ComparisonTable table;
  table.rows.push_back({{"id", "P1"},
                        {"scalar", "disk/mu_hat"},
                        {"relation", "="},
                        {"published", ".2951"},
                        {"reproduced", "0.29512000000000002"},
                        {"abs_error", "2e-05"},
                        {"rel_error", "6.78e-05"},
                        {"tolerance", "abs 5e-05"},
                        {"status", "MATCH"},
                        {"expected", "MATCH"},
                        {"source", "Sect. 5"},
                        {"quote", "mu = .2951"},
                        {"evidence", "-"},
                        {"remark", "-"}});
  table.rows.push_back({{"id", "P2"},
                        {"scalar", "disk/drift"},
                        {"relation", "="},
                        {"published", "0.02"},
                        {"reproduced", "0.031"},
                        {"status", "KNOWN-DIFFERENCE"},
                        {"expected", "KNOWN-DIFFERENCE"},
                        {"source", "Fig. 7"},
                        {"evidence", "the prototype values give 0.031"}});
  table.counts.add(Status::match);
  table.counts.add(Status::known_difference);
  in.comparison = table;
  in.intro = "## The paper\n\nIntroduction.\n";
  // A figure shown, and one whose PNG and PDF were not rendered.
  FigureEntry present, missing;
  present.name = "fig5_3";
  present.caption = "Trajectory.";
  present.script = "pipeline/rollingball/fig5_3.gp";
  present.png = "figures/fig5_3.png";
  present.pdf = "figures/fig5_3.pdf";
  present.have_png = present.have_pdf = true;
  missing.name = "fig5_4";
  missing.caption = "Energy.";
  missing.script = "pipeline/rollingball/fig5_4.gp";
  missing.png = "figures/fig5_4.png";
  missing.pdf = "figures/fig5_4.pdf";
  in.figures = {present, missing};
  cm::RunRecord run;
  run.study = "disk";
  run.run_id = "0123456789abcdef";
  run.json = cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "0123456789abcdef", "scalars": {},
    "solver": {"name": "rb_disk", "version": "0.1.0", "revision": "abc", "modified": true},
    "assumptions": [{"key": "rails.basis", "value": "n_b2_mb1", "note": "RECONSTRUCTED"}],
    "notes": ["a note"], "statistics": {"cvode_adams": {"steps": 12}}})",
                                "run.json");
  cm::RunRecord other = run;
  other.study = "ball";
  in.runs = {other, run};
  return in;
}

TEST(Report, SectionsComeInTheDocumentedOrder) {
  const std::string md = render_report(sample(), Flavor::markdown);
  EXPECT_EQ(md.rfind("# Rolling ball\n\n**1 of 2 published values reproduced, 1 known difference explained, "
                     "0 not at the paper's scale, 0 disagreements, 0 failures, 0 missing runs, 0 not reproduced yet**",
                     0),
            0u);
  std::size_t at = 0;
  for (const char* part : {"## Comparison", "| P1 |", "the prototype values give 0.031", "## The paper", "## Figures",
                           "![Trajectory.](figures/fig5_3.png)", "[PDF](figures/fig5_3.pdf)", "MISSING FIGURE fig5_4",
                           "## Assumptions in effect", "| `rails.basis` | `n_b2_mb1` |", "## Notes of the runs",
                           "a note", "## Provenance", "`0123456789abcdef`", "cvode_adams: steps 12"}) {
    const std::size_t found = md.find(part, at);
    ASSERT_NE(found, std::string::npos) << part;
    at = found;
  }
  // The union of assumptions lists both runs holding it.
  EXPECT_NE(md.find("RECONSTRUCTED | ball, disk |"), std::string::npos);
  EXPECT_NE(md.find("1 figure is missing"), std::string::npos);
  EXPECT_NE(md.find("modified tree"), std::string::npos);
}

TEST(Report, ShowsAFiguresDataAsATableAndSaysWhenItIsMissing) {
  ReportInput in = sample();
  in.figures[0].table_source = "disk/table.tsv";
  in.figures[0].table = cm::parse_tsv("# schema: cm-tsv 1\n# columns: k[1]\tz[um]\n0\t2.31249\n1\tnan\n", "table.tsv");
  in.figures[1].table_source = "disk/gone.tsv";
  in.figures[1].table_error = "no such file";
  const std::string md = render_report(in, Flavor::markdown);
  std::size_t at = 0;
  for (const char* part : {"![Trajectory.](figures/fig5_3.png)", "Data of the figure, `disk/table.tsv`:",
                           "| k \\[1\\] | z \\[um\\] |\n|---:|---:|\n| 0 | 2.312 |\n| 1 | nan |\n",
                           "MISSING FIGURE fig5_4", "MISSING TABLE disk/gone.tsv: no such file"}) {
    const std::size_t found = md.find(part, at);
    ASSERT_NE(found, std::string::npos) << part << "\n" << md;
    at = found;
  }
}

TEST(Report, HtmlFlavorUsesBadges) {
  const std::string md = render_report(sample(), Flavor::pandoc);
  EXPECT_NE(md.find("[MATCH]{.badge .match}"), std::string::npos);
  EXPECT_NE(md.find("[KNOWN-DIFFERENCE]{.badge .known-difference}"), std::string::npos);
  EXPECT_NE(md.find("{.alarm}"), std::string::npos);
}

TEST(Report, ValuesNotReproducedYetAreListedWithTheirNotes) {
  ReportInput in = sample();
  in.comparison->rows.push_back({{"id", "PV06"},
                                 {"scalar", "spin/v_roll_closed_form"},
                                 {"relation", "="},
                                 {"published", "8.95"},
                                 {"status", "NOT-REPRODUCED-YET"},
                                 {"expected", "NOT-REPRODUCED-YET"},
                                 {"evidence", "the paper evaluates (51) at the rounded t"},
                                 {"remark", "no run results/dem/spin"}});
  in.comparison->counts.add(Status::not_reproduced_yet);
  const std::string md = render_report(in, Flavor::markdown);
  EXPECT_NE(md.find("| PV06 | `spin/v_roll_closed_form` | 8.95 | — |"), std::string::npos);
  EXPECT_NE(md.find("- **PV06** (NOT-REPRODUCED-YET): the paper evaluates (51) at the rounded t; no run "
                    "results/dem/spin"),
            std::string::npos);
  EXPECT_NE(md.find("1 not reproduced yet"), std::string::npos);
}

TEST(Report, NoComparisonIsSaidLoudly) {
  ReportInput in = sample();
  in.comparison.reset();
  in.comparison_name = "reports/rollingball/comparison.tsv";
  EXPECT_NE(render_report(in, Flavor::markdown).find("**No comparison with the published values yet.**"),
            std::string::npos);
}

Counts counts(std::initializer_list<Status> statuses) {
  Counts c;
  for (Status s : statuses) c.add(s);
  return c;
}

TEST(Index, LinksEachPaperWithItsCounts) {
  const std::vector<IndexEntry> entries{
      {"dem", "DEM", "dem/index.html", counts({Status::not_reproduced_yet, Status::not_reproduced_yet}), "", ""},
      {"friction", "Friction", "friction/index.html",
       counts({Status::match, Status::match, Status::known_difference, Status::fail, Status::missing_run,
               Status::not_reproduced_yet}),
       "friction/errata.html", "friction/friction.pdf"}};
  const std::string md = render_index(entries, Flavor::markdown);
  EXPECT_NE(md.find("| paper | published values | reproduced | known differences | not at the paper's scale | "
                    "disagreements | failures | missing runs | not reproduced yet | also |"),
            std::string::npos);
  EXPECT_NE(md.find("| [DEM](dem/index.html) | 2 | 0 | 0 | 0 | 0 | 0 | 0 | 2 | - |"), std::string::npos);
  EXPECT_NE(md.find("[errata](friction/errata.html) · [PDF](friction/friction.pdf) |"), std::string::npos);
  EXPECT_NE(md.find("| [Friction](friction/index.html) | 6 | 2 | 1 | 0 | 0 | **1** | **1** | 1 |"), std::string::npos);
  const std::string html = render_index(entries, Flavor::pandoc);
  EXPECT_NE(html.find("| 0 | [1]{.badge .fail} | [1]{.badge .missing-run} |"), std::string::npos);
  // A disagreement keeps the index red: never hidden, never counted as reproduced.
  const std::vector<IndexEntry> disagreeing{
      {"maxdiss", "Maxdiss", "maxdiss/index.html", counts({Status::match, Status::disagrees}), "", ""}};
  EXPECT_NE(
      render_index(disagreeing, Flavor::markdown).find("| [Maxdiss](maxdiss/index.html) | 2 | 1 | 0 | 0 | **1** | 0 |"),
      std::string::npos);
  EXPECT_NE(render_index(disagreeing, Flavor::pandoc).find("| [1]{.badge .disagrees} | 0 |"), std::string::npos);
}

TEST(Index, ShowsAFigureOfEachPaperThatHasOne) {
  IndexEntry with{"dem", "DEM", "dem/index.html", counts({Status::match}), "", ""};
  with.figure_link = "dem/figures/fig9.png";
  const IndexEntry without{"friction", "Friction", "friction/index.html", counts({Status::match}), "", ""};
  const std::string md = render_index({with, without}, Flavor::pandoc);
  EXPECT_NE(md.find("| also | at a glance |"), std::string::npos);
  EXPECT_NE(md.find("| - | [![](dem/figures/fig9.png){height=90px}](dem/index.html) |"), std::string::npos);
  EXPECT_NE(md.find("| [Friction](friction/index.html) | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | - | - |"), std::string::npos);
}

TEST(Bench, ParsesTheList) {
  const auto list = parse_bench_list("# bench\n\ndisk\trb_disk --config x.ini\nball\tsleep 0\n", "bench.list");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "disk");
  EXPECT_EQ(list[0].command, "rb_disk --config x.ini");
  EXPECT_THROW(parse_bench_list("disk rb_disk\n", "l"), cm::InputError);
  EXPECT_THROW(parse_bench_list("di-sk\ttrue\n", "l"), cm::InputError);
  EXPECT_THROW(parse_bench_list("a\ttrue\na\ttrue\n", "l"), cm::InputError);
  EXPECT_THROW(parse_bench_list("a\t\n", "l"), cm::InputError);
  EXPECT_THROW(parse_bench_list("# nothing\n", "l"), cm::InputError);
}

TEST(Bench, Median) {
  EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median({4.0, 1.0, 2.0, 3.0}), 2.5);
  EXPECT_EQ(median({7.0}), 7.0);
  EXPECT_THROW(median({}), std::invalid_argument);
}

}  // namespace

TEST(Figures, NumbersNamedBySources) {
  using S = std::set<std::string>;
  EXPECT_EQ(figure_numbers("Sect. 5.3, Figs. 10 and 12"), (S{"10", "12"}));
  EXPECT_EQ(figure_numbers("Sect. 6; Fig. 6.3(a),(c) captions (DAE (6.5), radau5)"), (S{"6.3"}));
  EXPECT_EQ(figure_numbers("Figs. 9-12"), (S{"9", "10", "11", "12"}));
  EXPECT_EQ(figure_numbers("(76), Sect. 5.3"), S{});
  EXPECT_EQ(figure_number("fig10"), "10");
  EXPECT_EQ(figure_number("fig6_3a"), "6.3");
  EXPECT_EQ(figure_number("rod_map"), "");
}

// A row compared from a run that is not at the paper's scale: neither reproduced nor a known
// difference, in a column of its own in the index.
TEST(Index, CountsValuesNotAtThePapersScaleInAColumnOfTheirOwn) {
  const std::vector<IndexEntry> entries{{"maxdiss", "Maximal dissipation", "maxdiss/index.html",
                                         counts({Status::match, Status::known_difference, Status::not_at_paper_scale,
                                                 Status::not_at_paper_scale, Status::not_at_paper_scale}),
                                         "maxdiss/errata.html", ""}};
  const std::string md = render_index(entries, Flavor::markdown);
  EXPECT_NE(md.find("| [Maximal dissipation](maxdiss/index.html) | 5 | 1 | 1 | 3 | 0 | 0 | 0 |"), std::string::npos);
}

namespace {

// The sample report with a value not at the paper's scale and a failure beside its known difference.
ReportInput sample_with_scale_and_failure() {
  ReportInput in = sample();
  in.comparison->rows.push_back({{"id", "P26"},
                                 {"scalar", "channel/avg_particles_coulomb"},
                                 {"relation", "="},
                                 {"published", "246992.2917082917"},
                                 {"reproduced", "107142"},
                                 {"abs_error", "1.4e+05"},
                                 {"rel_error", "0.566"},
                                 {"tolerance", "rel 0.03"},
                                 {"status", "NOT-AT-PAPER-SCALE"},
                                 {"expected", "NOT-AT-PAPER-SCALE"},
                                 {"source", "Tab. 2"},
                                 {"quote", "avg. number of particles"},
                                 {"evidence", "the channel is 8 cm long, not 15 cm"},
                                 {"remark", "outside the tolerance at this run's scale"}});
  in.comparison->counts.add(Status::not_at_paper_scale);
  in.comparison->rows.push_back({{"id", "P9"},
                                 {"scalar", "disk/energy"},
                                 {"relation", "="},
                                 {"published", "1.5"},
                                 {"reproduced", "2.5"},
                                 {"status", "FAIL"},
                                 {"expected", "MATCH"},
                                 {"source", "Sect. 9"},
                                 {"evidence", "-"}});
  in.comparison->counts.add(Status::fail);
  return in;
}

}  // namespace

TEST(Report, CountsValuesNotAtThePapersScaleApartAndGivesTheirReason) {
  const std::string md = render_report(sample_with_scale_and_failure(), Flavor::markdown);
  EXPECT_EQ(md.rfind("# Rolling ball\n\n**1 of 4 published values reproduced, 1 known difference explained, "
                     "1 not at the paper's scale, 0 disagreements, 1 failure, 0 missing runs, 0 not reproduced yet**",
                     0),
            0u);
  // Still compared and shown: its error, tolerance and status in the table, its reason and how it
  // compares below it.
  EXPECT_NE(md.find("| P26 | `channel/avg_particles_coulomb` | 246992.2917082917 | 107142 | 1.4e+05 (57 %) | rel "
                    "0.03 | NOT-AT-PAPER-SCALE |"),
            std::string::npos);
  EXPECT_NE(md.find("- **P26** (NOT-AT-PAPER-SCALE): the channel is 8 cm long, not 15 cm; outside the tolerance at "
                    "this run's scale"),
            std::string::npos);
  const std::string html = render_report(sample_with_scale_and_failure(), Flavor::pandoc);
  EXPECT_NE(html.find("[NOT-AT-PAPER-SCALE]{.badge .not-at-paper-scale}"), std::string::npos);
}

// A FAIL whose row gives its evidence (what is known of the difference) has it below the table,
// and one without says only that it is outside the tolerance.
TEST(Report, GivesTheEvidenceOfAFailure) {
  ReportInput in = sample_with_scale_and_failure();
  in.comparison->rows.push_back({{"id", "P30"},
                                 {"scalar", "channel_steady/avg_contacts_coulomb"},
                                 {"relation", "="},
                                 {"published", "320276.5"},
                                 {"reproduced", "347811"},
                                 {"status", "FAIL"},
                                 {"expected", "MATCH"},
                                 {"source", "Tab. 2"},
                                 {"evidence", "the same 8 % over two windows"}});
  in.comparison->counts.add(Status::fail);
  const std::string md = render_report(in, Flavor::markdown);
  EXPECT_NE(md.find("- **P30** (**FAIL**): the same 8 % over two windows\n"), std::string::npos);
  EXPECT_NE(md.find("- **P9** (**FAIL**): the reproduced value is outside the tolerance\n"), std::string::npos);
}

// A time average is shown as mean ± its standard error, and a row counted apart because its
// window is not steady gives that reason below the table, even when it was expected to match.
TEST(Report, ShowsTheStandardErrorAndTheReasonOfAWindowNotSteady) {
  ReportInput in = sample();
  in.comparison->rows.push_back({{"id", "P27"},
                                 {"scalar", "channel/avg_particles_maxdiss"},
                                 {"relation", "="},
                                 {"published", "247005.05094905096"},
                                 {"reproduced", "246000.5"},
                                 {"standard_error", "1234.5678"},
                                 {"status", "NOT-AT-PAPER-SCALE"},
                                 {"expected", "MATCH"},
                                 {"evidence", "window not steady: the run's steady_maxdiss is 0"},
                                 {"remark", "within the tolerance over a window that is not steady"}});
  in.comparison->counts.add(Status::not_at_paper_scale);
  const std::string md = render_report(in, Flavor::markdown);
  EXPECT_NE(md.find("| 246000.5 ± 1200 |"), std::string::npos);
  EXPECT_NE(md.find("- **P27** (NOT-AT-PAPER-SCALE): window not steady: the run's steady_maxdiss is 0; within "
                    "the tolerance over a window that is not steady"),
            std::string::npos);
  EXPECT_EQ(render_errata(in, Flavor::markdown).find("P27"), std::string::npos);
}

// The errata page holds the paper's own errors only: the known difference, not the value compared
// at another scale nor the unexplained failure.
TEST(Errata, ListsOnlyThePapersOwnErrors) {
  const std::string md = render_errata(sample_with_scale_and_failure(), Flavor::markdown);
  EXPECT_NE(md.find("- **P2** (Fig. 7), KNOWN-DIFFERENCE: the paper gives 0.02"), std::string::npos);
  EXPECT_NE(md.find("Evidence: the prototype values give 0.031"), std::string::npos);
  EXPECT_EQ(md.find("P26"), std::string::npos);
  EXPECT_EQ(md.find("**P9**"), std::string::npos);
  EXPECT_EQ(md.find("NOT-AT-PAPER-SCALE"), std::string::npos);
  ReportInput none = sample_with_scale_and_failure();
  std::erase_if(none.comparison->rows, [](const auto& row) { return row.at("status") == "KNOWN-DIFFERENCE"; });
  EXPECT_NE(render_errata(none, Flavor::markdown).find("None: no published value is shown wrong."), std::string::npos);
}

// A disagreement has a section of its own in the report, with the paper's words and the evidence,
// and stays off the errata page: it is not the paper's error.
TEST(Report, GivesEachDisagreementItsSectionAndKeepsItOffTheErrata) {
  ReportInput in = sample_with_scale_and_failure();
  in.comparison->rows.push_back({{"id", "P30"},
                                 {"scalar", "channel_steady/avg_contacts_coulomb"},
                                 {"relation", "="},
                                 {"published", "320276.5"},
                                 {"reproduced", "347811"},
                                 {"standard_error", "370"},
                                 {"status", "DISAGREES"},
                                 {"expected", "DISAGREES"},
                                 {"source", "Tab. 2"},
                                 {"quote", "avg. number of contacts"},
                                 {"evidence", "steady; tried two windows"}});
  in.comparison->counts.add(Status::disagrees);
  const std::string md = render_report(in, Flavor::markdown);
  const std::size_t section = md.find("## Disagreements with the paper\n");
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(
      md.find("- **P30** (Tab. 2), DISAGREES: the paper gives 320276.5 for `channel_steady/avg_contacts_coulomb`, "
              "the reproduction 347811 ± 370",
              section),
      std::string::npos);
  EXPECT_NE(md.find("; the paper: “avg. number of contacts”. Evidence: steady; tried two windows\n", section),
            std::string::npos);
  EXPECT_NE(md.find("1 disagreement, 1 failure"), std::string::npos);
  EXPECT_EQ(render_errata(in, Flavor::markdown).find("P30"), std::string::npos);
  EXPECT_EQ(render_report(sample(), Flavor::markdown).find("## Disagreements"), std::string::npos);
}

// A correction of the paper's text (a TYPO assumption) is listed once, with every study whose run
// has it; another value of the same key is another line.
TEST(Errata, ListsEachCorrectionOnceWithItsStudies) {
  ReportInput in = sample();
  const auto typo = [](const std::string& study, const std::string& value) {
    cm::RunRecord r;
    r.study = study;
    r.run_id = "0123456789abcdef";
    r.json = cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "0123456789abcdef", "scalars": {},
      "assumptions": [{"key": "particles.radius", "value": ")" +
                                    value + R"(", "note": "TYPO: a radius, not a diameter"}]})",
                                "run.json");
    return r;
  };
  in.runs = {typo("channel", "0.00047"), typo("steady", "0.00047"), typo("quick", "0.001")};
  const std::string md = render_errata(in, Flavor::markdown);
  EXPECT_NE(md.find("- `particles.radius` = `0.00047` (studies channel, steady): TYPO: a radius, not a diameter\n"),
            std::string::npos);
  EXPECT_NE(md.find("- `particles.radius` = `0.001` (study quick): TYPO"), std::string::npos);
  EXPECT_EQ(md.find("(study channel)"), std::string::npos);
}

namespace {

// The sample report with its study disk a run of record (records/index.tsv) made at `revision`,
// on the machine "lab", in 2 hours.
ReportInput sample_with_record(const std::string& revision, bool modified) {
  ReportInput in = sample();
  in.runs.back().json = cm::parse_run_json(R"({"schema": "cm-run 1", "run_id": "0123456789abcdef", "scalars": {},
    "solver": {"name": "rb_disk", "version": "0.1.0", "revision": ")" +
                                               revision + R"(", "modified": )" + (modified ? "true" : "false") +
                                               R"(}, "host": "lab", "start_utc": "2026-01-01T00:00:00Z",
    "wall_time_s": 7200, "config": {"file": "configs/rollingball/disk.ini"}})",
                                           "run.json");
  in.records = {{"a0a0", "0123456789abcdef", "disk"}, {"b1b1", "fedcba9876543210", "ball"}};
  in.build_revision = "abc";
  return in;
}

}  // namespace

// A run of record is named with its run id, archive, revision, machine and hours, and the rows
// compared from it; a record whose run id is not the one the index names is no record.
TEST(Records, NameTheRunArchiveRevisionMachineAndHours) {
  const std::string md = render_records(sample_with_record("abc", false), Flavor::markdown);
  EXPECT_NE(md.find("## Runs of record"), std::string::npos);
  EXPECT_NE(md.find("- run `0123456789abcdef`"), std::string::npos);
  EXPECT_NE(md.find("- archive `a0a0`, `records/a0a0.tar.gz`"), std::string::npos);
  EXPECT_NE(md.find("at revision `abc` (clean tree) on the machine `lab`, started 2026-01-01T00:00:00Z, in 2 hours"),
            std::string::npos);
  EXPECT_NE(md.find("- compared from it: P1, P2"), std::string::npos);
  EXPECT_NE(md.find("The record was made at this build's revision."), std::string::npos);
  EXPECT_EQ(md.find("### ball"), std::string::npos);  // the index names another run id for ball
  EXPECT_NE(render_report(sample_with_record("abc", false), Flavor::markdown).find("## Runs of record"),
            std::string::npos);
}

// A record made at another revision than this build's is said to be older, loudly; one of a
// modified tree is said to be so.
TEST(Records, SayWhenTheRecordIsOlderThanTheBuild) {
  const std::string md = render_records(sample_with_record("0ld", false), Flavor::markdown);
  EXPECT_NE(md.find("**The record is older than this build: it was made at revision 0ld, and this build's solvers "
                    "are at abc."),
            std::string::npos);
  EXPECT_NE(md.find("make verify ARCHIVE=records/a0a0.tar.gz re-runs it"), std::string::npos);
  EXPECT_NE(render_records(sample_with_record("abc", true), Flavor::markdown).find("but from a modified tree"),
            std::string::npos);
}

// A record made at another revision than the build's, with no change to the solvers' sources
// between them (both among --same-solvers), is what this build writes and is said to be so; one
// made before the solvers' last change is older, and so is any when the build is not among them.
TEST(Records, SayWhenTheSolversAreTheSameAtAnotherRevision) {
  ReportInput in = sample_with_record("0ld", false);
  in.same_solvers = {"abc", "0ld"};
  std::string md = render_records(in, Flavor::markdown);
  EXPECT_NE(md.find("The record was made at revision `0ld`, this build at `abc`: no source of the paper's solvers "
                    "changed between them, so its values are what this build writes."),
            std::string::npos);
  EXPECT_EQ(md.find("older than this build"), std::string::npos);
  in.same_solvers = {"abc"};  // the solvers changed after the record
  EXPECT_NE(render_records(in, Flavor::markdown).find("**The record is older than this build"), std::string::npos);
  in.same_solvers = {"0ld", "new"};  // this build is not at the checkout's solvers
  EXPECT_NE(render_records(in, Flavor::markdown).find("**The record is older than this build"), std::string::npos);
  in.same_solvers = {"abc", "0ld"};
  in.build_modified = true;
  EXPECT_NE(render_records(in, Flavor::markdown).find("this build is of a modified tree"), std::string::npos);
}

// A record made in parts (restart.from) says what the whole took: its solver records the wall time
// of the runs it went on from.
TEST(Records, SayTheHoursWithTheRunsGoneOnFrom) {
  ReportInput in = sample_with_record("abc", false);
  nlohmann::json j = in.runs.back().json;
  j["statistics"] = {{"restart", {{"earlier_runs_wall_seconds", 3600.0}}}};
  in.runs.back().json = cm::parse_run_json(j.dump(), "run.json");
  EXPECT_NE(render_records(in, Flavor::markdown)
                .find("in 2 hours (7200 s of wall time; 3 hours with the runs it goes on from (3600 s before it))"),
            std::string::npos);
}

// No run of record: no section.
TEST(Records, NoRecordNoSection) {
  EXPECT_EQ(render_records(sample(), Flavor::markdown), "");
  EXPECT_EQ(render_report(sample(), Flavor::markdown).find("Runs of record"), std::string::npos);
}

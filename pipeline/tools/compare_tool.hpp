// cm_compare: the reproduced scalars against the paper's values.
//
// For each row of configs/<paper>/published.tsv, the scalar `study/name` is looked up in
// <results>/<study>/run.json and compared with the printed value (pipeline/README.md). The status
// is MATCH, KNOWN-DIFFERENCE (the paper's error, still where it is known to be),
// NOT-AT-PAPER-SCALE (from a run of another size or duration than the paper's), DISAGREES (at the
// paper's scale, neither its error nor ours), FAIL, MISSING-RUN or NOT-REPRODUCED-YET. A row whose
// run says its averaging window is not steady (steady_<law> or steady is 0) is NOT-AT-PAPER-SCALE
// whatever it expects, with the run's reason in its evidence. A run's batch-means standard error
// of a value (se_<scalar>) widens the row's tolerance by itself (compare.hpp). Hidden directories
// of <results> (leftovers of interrupted runs) are no runs. The table goes to comparison.tsv (read
// by cm_report); the count and every failure are printed.
//
//   cm_compare --published=configs/rollingball/published.tsv --results=results/rollingball
//              --out=reports/rollingball/comparison.tsv
//   cm_compare ... --studies=disk,ball --require-all=true   # the published-value tests
//   cm_compare ... --strict=true          # make check-published STRICT=1: a disagreement fails too
//
// A row expected NOT-REPRODUCED-YET names a study not built yet: with a run it is compared like any
// other row, and the output says to update it. A row expecting anything else without its run is a
// MISSING-RUN, a failure. A row naming a scalar that its run does not have is bad input (a typo).
//
// Exit status: 0 every row has the status its `expected` column records (with --require-all, every
// row is reproduced too; with --strict, no row DISAGREES). 1 a row's status changed in either
// direction: a FAIL, a missing run, a difference that now matches, a match now unsteady, each such
// row printed. 2 bad input: a missing or malformed published.tsv, a --results that is no directory,
// a malformed run.json, a scalar no run has, a --studies entry with no row. 74 an I/O error (a file
// that exists but cannot be read, --out that cannot be written). 70 an internal error.
//
// The class CompareTool below is the tool; its main, cm_compare.cpp, is one line over cm::tool_main.
#pragma once

#include <string>
#include <vector>

#include "core/tool.hpp"
#include "tools/compare.hpp"

namespace cm::pipeline {

class CompareTool {
 public:
  static constexpr cm::ToolInfo info{
      "cm_compare", "Compares reproduced scalars with a paper's published values",
      "Exit status: 0 every value has the status published.tsv expects, 1 a status changed (or, with\n"
      "require-all, a value is not reproduced yet; with strict, a value disagrees), 2 bad input, 74 an I/O\n"
      "error, 70 an internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  /// The rows of published.tsv, only those of --studies when given.
  std::vector<PublishedRow> rows_asked(const cm::Config& config) const;

  /// A row whose status is not the one published.tsv expects; with --require-all a value not
  /// reproduced yet, with --strict a disagreement, though expected.
  bool failing(const ComparedRow& r) const;

  /// A remark on a row as expected: a row not at the paper's scale always says how it compares,
  /// which is in the report, not printed here.
  static bool shown(const ComparedRow& r);

  static void print_row(const ComparedRow& r);

  std::string published_, results_, out_;
  std::vector<std::string> only_;
  bool require_all_ = false;
  bool strict_ = false;
};

}  // namespace cm::pipeline

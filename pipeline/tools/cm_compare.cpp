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
#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "common/options.hpp"
#include "common/tool.hpp"
#include "tools/compare.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"

namespace {

using namespace cm::pipeline;

class Compare {
 public:
  static constexpr cm::ToolInfo info{
      "cm_compare", "Compares reproduced scalars with a paper's published values",
      "Exit status: 0 every value has the status published.tsv expects, 1 a status changed (or, with\n"
      "require-all, a value is not reproduced yet; with strict, a value disagrees), 2 bad input, 74 an I/O\n"
      "error, 70 an internal error."};

  void declare(cm::Config& config) {
    config.add("published", &published_, "the paper's values: configs/<paper>/published.tsv")
        .required("the path of published.tsv");
    config
        .add("results", &results_, "the paper's run directories: results/<paper> (runs in <results>/<study>/run.json)")
        .required("the directory results/<paper>");
    config.add("out", &out_, "comparison.tsv to write (none when empty)");
    config.add("studies", &only_, "compare only the rows of these studies (comma list; all when empty)");
    config.add("require-all", &require_all_, "a value not reproduced yet counts as a failure");
    config.add("strict", &strict_, "a value that DISAGREES with the paper counts as a failure, though expected");
  }

  int run(const cm::Config& config) {
    check_results_directory(results_);
    const std::vector<ComparedRow> compared = compare_with_results(rows_asked(config), results_);
    if (!out_.empty()) write_atomic(out_, comparison_tsv(compared));
    Counts counts;
    for (const ComparedRow& row : compared) counts.add(row.outcome.status);
    std::printf("%s\n", count_sentence(counts).c_str());
    bool failed = false;
    for (const ComparedRow& r : compared) {
      failed = failed || failing(r);
      if (failing(r) || shown(r)) print_row(r);
    }
    return failed ? 1 : 0;
  }

 private:
  /// The rows of published.tsv, only those of --studies when given.
  std::vector<PublishedRow> rows_asked(const cm::Config& config) const {
    std::vector<PublishedRow> rows = read_published(published_);
    if (only_.empty()) return rows;
    const std::set<std::string> studies(only_.begin(), only_.end());
    // A study with no row would make a published-value test compare nothing and pass.
    for (const std::string& study : studies) {
      if (std::none_of(rows.begin(), rows.end(), [&](const PublishedRow& row) { return row.study == study; })) {
        config.fail("studies", "no row of " + published_ + " names the study '" + study + "'");
      }
    }
    std::erase_if(rows, [&](const PublishedRow& row) { return !studies.count(row.study); });
    return rows;
  }

  /// A row whose status is not the one published.tsv expects; with --require-all a value not
  /// reproduced yet, with --strict a disagreement, though expected.
  bool failing(const ComparedRow& r) const {
    const Status status = r.outcome.status;
    return !as_expected(r.published, status) || (require_all_ && status == Status::not_reproduced_yet) ||
           (strict_ && status == Status::disagrees);
  }

  /// A remark on a row as expected: a row not at the paper's scale always says how it compares,
  /// which is in the report, not printed here.
  static bool shown(const ComparedRow& r) {
    return r.outcome.status != Status::not_at_paper_scale && r.outcome.status != Status::not_reproduced_yet &&
           !r.outcome.remark.empty();
  }

  static void print_row(const ComparedRow& r) {
    std::string line = "  " + to_string(r.outcome.status) + " " + r.published.id + " " + r.published.scalar +
                       ": published " + to_string(r.published.relation) + " " + r.published.value_text;
    if (r.reproduction.found) {
      line += ", reproduced " + format_g(r.reproduction.value, 10) + " (error " + format_g(r.outcome.abs_error, 3) +
              ", tolerance " + tolerance_text(r.published, r.reproduction.standard_error) + ")";
    }
    if (!r.outcome.remark.empty())
      line += "; " + r.outcome.remark;
    else if (!as_expected(r.published, r.outcome.status))
      line += "; expected " + to_string(r.published.expected);
    std::printf("%s [%s]\n", line.c_str(), r.published.source.c_str());
  }

  std::string published_, results_, out_;
  std::vector<std::string> only_;
  bool require_all_ = false;
  bool strict_ = false;
};

}  // namespace

int main(int argc, char** argv) { return cm::tool_main<Compare>(argc, argv); }

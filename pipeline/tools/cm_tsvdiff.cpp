// cm_tsvdiff: two data files of runs (cm-tsv), value by value, within tolerances.
//
// A candidate value b matches the reference value a when |a - b| <= abs + rel |a| (NaN matches
// NaN only); the columns (names and units), the row count and the data blocks must agree.
// The regression tests compare a quick run with its stored reference this way.
//
//   cm_tsvdiff --reference=tests/rollingball/reference/disk.tsv --candidate=scratch/disk.tsv
//              --abs=1e-10 --rel=1e-8 --columns=N:1e-9:1e-7,phi:0:1e-10
//
// Exit status: 0 equal within tolerance, 1 different, 2 bad input (a file missing or not cm-tsv,
// a reference without data rows, a malformed tolerance), 74 an I/O error (a file that exists but
// cannot be read), 70 an internal error.
#include <cstdio>
#include <string>

#include "common/options.hpp"
#include "common/tool.hpp"
#include "tools/tsv.hpp"

namespace {

using namespace cm::pipeline;

class Tsvdiff {
 public:
  static constexpr cm::ToolInfo info{
      "cm_tsvdiff", "Compares two cm-tsv data files column by column",
      "Exit status: 0 equal within tolerance, 1 different, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config) {
    config.add("reference", &reference_file_, "the stored reference data file").required("the reference data file");
    config.add("candidate", &candidate_file_, "the data file to check").required("the data file to check");
    config.add("abs", &abs_, "absolute tolerance of every column").unit("column unit").range(cm::Range::nonnegative());
    config.add("rel", &rel_, "relative tolerance of every column (times |reference|)").range(cm::Range::nonnegative());
    config.add("columns", &columns_, "per-column tolerances overriding abs and rel: name:abs:rel,name:abs:rel");
  }

  int run(const cm::Config& config) {
    const DiffOptions options = parse_column_tolerances(columns_, {abs_, rel_});
    const TsvData reference = read_tsv(reference_file_);
    // A reference without data would make every candidate without data equal: a test that
    // cannot fail.
    if (reference.rows.empty()) config.fail("reference", reference.name + " has no data rows: nothing to compare");
    const TsvData candidate = read_tsv(candidate_file_);
    const DiffReport report = diff_tsv(reference, candidate, options);
    std::fputs(describe(report, reference, candidate).c_str(), stdout);
    return report.equal() ? 0 : 1;
  }

 private:
  std::string reference_file_, candidate_file_, columns_;
  double abs_ = 0.0, rel_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) { return cm::tool_main<Tsvdiff>(argc, argv); }

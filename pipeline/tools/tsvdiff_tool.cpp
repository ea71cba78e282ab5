#include "tools/tsvdiff_tool.hpp"

#include <cstdio>
#include <string>

#include "core/options.hpp"
#include "tools/tsv.hpp"

namespace cm::pipeline {

void TsvdiffTool::declare(cm::Config& config) {
  config.add("reference", &reference_file_, "the stored reference data file").required("the reference data file");
  config.add("candidate", &candidate_file_, "the data file to check").required("the data file to check");
  config.add("abs", &abs_, "absolute tolerance of every column").unit("column unit").range(cm::Range::nonnegative());
  config.add("rel", &rel_, "relative tolerance of every column (times |reference|)").range(cm::Range::nonnegative());
  config.add("columns", &columns_, "per-column tolerances overriding abs and rel: name:abs:rel,name:abs:rel");
}

int TsvdiffTool::run(const cm::Config& config) {
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

}  // namespace cm::pipeline

#include "tools/compare_tool.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run_reader.hpp"
#include "tools/compare.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

void CompareTool::declare(cm::Config& config) {
  config.add("published", &published_, "the paper's values: configs/<paper>/published.tsv")
      .required("the path of published.tsv");
  config.add("results", &results_, "the paper's run directories: results/<paper> (runs in <results>/<study>/run.json)")
      .required("the directory results/<paper>");
  config.add("out", &out_, "comparison.tsv to write (none when empty)");
  config.add("studies", &only_, "compare only the rows of these studies (comma list; all when empty)");
  config.add("require-all", &require_all_, "a value not reproduced yet counts as a failure");
  config.add("strict", &strict_, "a value that DISAGREES with the paper counts as a failure, though expected");
}

int CompareTool::run(const cm::Config& config) {
  cm::check_results_directory(results_);
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

std::vector<PublishedRow> CompareTool::rows_asked(const cm::Config& config) const {
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

bool CompareTool::failing(const ComparedRow& r) const {
  const Status status = r.outcome.status;
  return !as_expected(r.published, status) || (require_all_ && status == Status::not_reproduced_yet) ||
         (strict_ && status == Status::disagrees);
}

bool CompareTool::shown(const ComparedRow& r) {
  return r.outcome.status != Status::not_at_paper_scale && r.outcome.status != Status::not_reproduced_yet &&
         !r.outcome.remark.empty();
}

void CompareTool::print_row(const ComparedRow& r) {
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

}  // namespace cm::pipeline

// cm_compare: the reproduced scalars against the paper's values.
//
// For each row of configs/<paper>/published.tsv, the scalar `study/name` is looked up in
// <results>/<study>/run.json and compared with the printed value (pipeline/README.md): MATCH,
// KNOWN-DIFFERENCE (expected, and still where it is known to be), FAIL or NOT-REPRODUCED-YET.
// The table goes to comparison.tsv (read by cm_report); the count and every failure are printed.
//
//   cm_compare --published=configs/rollingball/published.tsv --results=results/rollingball
//              --out=reports/rollingball/comparison.tsv
//   cm_compare ... --studies=disk,ball --require-all=true   # the published-value tests
//
// Exit status: 0 all rows MATCH or KNOWN-DIFFERENCE (or not reproduced yet), 1 any FAIL (or a row
// not reproduced yet with --require-all), 2 bad input (published.tsv or a run.json malformed).
#include <cstdio>
#include <set>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "tools/compare.hpp"
#include "tools/text.hpp"

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string published, results, out;
    std::vector<std::string> only;
    bool require_all = false;
    cm::Config config("cm_compare", "Compares reproduced scalars with a paper's published values");
    config.add("published", &published, "the paper's values: configs/<paper>/published.tsv");
    config.add("results", &results, "the paper's run directories: results/<paper> (runs in <results>/<study>/run.json)");
    config.add("out", &out, "comparison.tsv to write (none when empty)");
    config.add("studies", &only, "compare only the rows of these studies (comma list; all when empty)");
    config.add("require-all", &require_all, "a value not reproduced yet counts as a failure");
    config.set_usage("usage: cm_compare --published=FILE --results=DIR [--out=FILE] [--studies=a,b] [--require-all=true]\nExit status: 0 no value FAILs, 1 a value FAILs (or, with require-all, is not reproduced), 2 bad input.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (published.empty()) config.fail("published", "required: the path of published.tsv");
    if (results.empty()) config.fail("results", "required: the directory results/<paper>");

    std::vector<PublishedRow> rows = read_published(published);
    if (!only.empty()) {
      const std::set<std::string> studies(only.begin(), only.end());
      std::erase_if(rows, [&](const PublishedRow& row) { return !studies.count(row.study); });
    }
    const std::vector<ComparedRow> compared = compare_with_results(rows, results);
    if (!out.empty()) write_atomic(out, comparison_tsv(compared));

    Counts counts;
    for (const ComparedRow& row : compared) counts.add(row.outcome.status);
    std::printf("%s\n", count_sentence(counts).c_str());
    for (const ComparedRow& r : compared) {
      const Status status = r.outcome.status;
      const bool shown = status == Status::fail || (require_all && status == Status::not_reproduced_yet) ||
                         (status == Status::match && !r.outcome.remark.empty());
      if (!shown) continue;
      std::string line = "  " + to_string(status) + " " + r.published.id + " " + r.published.scalar + ": published " +
                         to_string(r.published.relation) + " " + r.published.value_text;
      if (r.reproduction.found) {
        line += ", reproduced " + format_g(r.reproduction.value, 10) + " (error " + format_g(r.outcome.abs_error, 3) +
                ", tolerance " + tolerance_text(r.published) + ")";
      }
      if (!r.outcome.remark.empty()) line += "; " + r.outcome.remark;
      std::printf("%s [%s]\n", line.c_str(), r.published.source.c_str());
    }
    const bool failed = counts.fail > 0 || (require_all && counts.not_reproduced_yet > 0);
    return failed ? 1 : 0;
  });
}

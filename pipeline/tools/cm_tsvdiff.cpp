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

#include "common/errors.hpp"
#include "common/options.hpp"
#include "tools/tsv.hpp"

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string reference_file, candidate_file, columns;
    double abs = 0.0, rel = 0.0;
    cm::Config config("cm_tsvdiff", "Compares two cm-tsv data files column by column");
    config.add("reference", &reference_file, "the stored reference data file");
    config.add("candidate", &candidate_file, "the data file to check");
    config.add("abs", &abs, "absolute tolerance of every column").unit("column unit").range(cm::Range::nonnegative());
    config.add("rel", &rel, "relative tolerance of every column (times |reference|)").range(cm::Range::nonnegative());
    config.add("columns", &columns, "per-column tolerances overriding abs and rel: name:abs:rel,name:abs:rel");
    config.set_usage(
        "usage: cm_tsvdiff --reference=FILE --candidate=FILE [--abs=A] [--rel=R] [--columns=name:abs:rel,...]\nExit "
        "status: 0 equal within tolerance, 1 different, 2 bad input, 74 an I/O error, 70 an internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (reference_file.empty()) config.fail("reference", "required: the reference data file");
    if (candidate_file.empty()) config.fail("candidate", "required: the data file to check");

    const DiffOptions options = parse_column_tolerances(columns, {abs, rel});
    const TsvData reference = read_tsv(reference_file);
    // A reference without data would make every candidate without data equal: a test that
    // cannot fail.
    if (reference.rows.empty()) config.fail("reference", reference.name + " has no data rows: nothing to compare");
    const TsvData candidate = read_tsv(candidate_file);
    const DiffReport report = diff_tsv(reference, candidate, options);
    std::fputs(describe(report, reference, candidate).c_str(), stdout);
    return report.equal() ? 0 : 1;
  });
}

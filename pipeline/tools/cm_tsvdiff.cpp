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
    cm::Config config("cm_tsvdiff", "pipeline", "tsvdiff", "Compares two cm-tsv data files column by column");
    config.add_text("reference", "", "the stored reference data file");
    config.add_text("candidate", "", "the data file to check");
    config.add_real("abs", 0.0, "column unit", "absolute tolerance of every column", cm::Range::nonnegative());
    config.add_real("rel", 0.0, "1", "relative tolerance of every column (times |reference|)",
                    cm::Range::nonnegative());
    config.add_text("columns", "", "per-column tolerances overriding abs and rel: name:abs:rel,name:abs:rel");
    config.set_usage(
        "usage: cm_tsvdiff --reference=FILE --candidate=FILE [--abs=A] [--rel=R] [--columns=name:abs:rel,...]\nExit "
        "status: 0 equal within tolerance, 1 different, 2 bad input, 74 an I/O error, 70 an internal error.");
    if (!config.parse(argc, argv)) return 0;
    if (config.text("reference").empty()) config.fail("reference", "required: the reference data file");
    if (config.text("candidate").empty()) config.fail("candidate", "required: the data file to check");

    const DiffOptions options =
        parse_column_tolerances(config.text("columns"), {config.real("abs"), config.real("rel")});
    const TsvData reference = read_tsv(config.text("reference"));
    // A reference without data would make every candidate without data equal: a test that
    // cannot fail.
    if (reference.rows.empty()) config.fail("reference", reference.name + " has no data rows: nothing to compare");
    const TsvData candidate = read_tsv(config.text("candidate"));
    const DiffReport report = diff_tsv(reference, candidate, options);
    std::fputs(describe(report, reference, candidate).c_str(), stdout);
    return report.equal() ? 0 : 1;
  });
}

// The comparison of reproduced scalars with the paper's values (pipeline/README.md, published.tsv):
// each row's status and the comparison.tsv that cm_compare writes and cm_report reads.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/run_reader.hpp"
#include "tools/published.hpp"

namespace cm::pipeline {

/// The status of a compared row (pipeline/README.md). FAIL and MISSING-RUN are failures; only
/// MATCH counts as reproduced; NOT-AT-PAPER-SCALE and DISAGREES are compared like any row and
/// counted apart, DISAGREES never as reproduced.
enum class Status { match, known_difference, not_at_paper_scale, disagrees, fail, missing_run, not_reproduced_yet };

/// "MATCH", "KNOWN-DIFFERENCE", "NOT-AT-PAPER-SCALE", "DISAGREES", "FAIL", "MISSING-RUN",
/// "NOT-REPRODUCED-YET".
std::string to_string(Status status);
std::optional<Status> status_from(const std::string& text);

/// Whether a row's status is the one its `expected` column records: what make all's exit status
/// checks, in either direction (a FAIL or MISSING-RUN is never expected).
bool as_expected(const PublishedRow& row, Status status);

/// What the results hold for a row's scalar.
///
/// A run that averages over a window of time (the granular channel) says how far its averages are
/// to be trusted: a flag `steady_<suffix>` (or `steady` for the whole run), 1 when the window is
/// stationary and 0 when it drifts, and a batch-means standard error `se_<scalar>` of each average
/// (numerics/stationarity.hpp). The comparison reads both from the run, never from published.tsv.
struct Reproduction {
  bool found = false;   ///< the run exists (and has the scalar: a run without it is an error)
  double value = 0.0;   ///< NaN when the run wrote null (a non-finite result)
  std::string run_id;   ///< empty when there is no run
  std::string missing;  ///< why not found ("no run results/<paper>/disk")
  /// The run's standard error of the value (its scalar se_<scalar>, finite and not negative).
  std::optional<double> standard_error;
  /// Why the run's window is not steady, generated from its flag and drifts ("window not steady:
  /// ..."); empty when the run says it is steady or says nothing of it.
  std::string unsteady;
};

/// The scalar of a run that says whether the window behind `name` is steady: steady_<suffix> for
/// the longest suffix of `name` after an underscore that the run has (avg_particles_maxdiss:
/// steady_maxdiss), else `steady`; empty when the run has neither.
std::string steady_scalar(const RunRecord& run, const std::string& name);

/// What the run says of the window behind the scalar `name`: its standard error and, when its
/// steady flag is 0, why it is not steady (the flag, each drift across the window, the threshold).
void read_stationarity(const RunRecord& run, const std::string& name, Reproduction& reproduction);

struct Outcome {
  Status status = Status::missing_run;
  double abs_error = 0.0;  ///< |x - v| (NaN when not reproduced or not finite)
  double rel_error = 0.0;  ///< |x - v| / |v| (NaN when v = 0)
  std::string remark;      ///< why the status is what it is, when that is not obvious
};

/// Whether x satisfies the row's relation to its value: for `=`, |x - v| <= abs_tol + rel_tol |v|
/// + se, where se is the standard error of x when the run measured one (a time average known no
/// better than that; never more), and 0 otherwise. A bound is not widened. A non-finite x
/// satisfies nothing.
bool relation_holds(const PublishedRow& row, double x, double se = 0.0);

/// The status of one row (README, "Statuses written by cm_compare"):
///   no run, expected NOT-REPRODUCED-YET NOT-REPRODUCED-YET
///   no run, expected otherwise          MISSING-RUN (a failure: the study should have run)
///   relation holds                      MATCH (with a remark when a known difference was expected)
///   fails, expected MATCH               FAIL
///   fails, expected KNOWN-DIFFERENCE    KNOWN-DIFFERENCE if no diff_value is given or
///                                       |x - diff_value| <= diff_tol, else FAIL
///   fails, expected DISAGREES           DISAGREES, under the same condition, else FAIL
///   fails, expected NOT-REPRODUCED-YET  FAIL
///   expected NOT-AT-PAPER-SCALE, or     NOT-AT-PAPER-SCALE whether the relation holds or not (the
///   any row whose run's window is       remark says which), FAIL when the value is not finite or
///   not steady                          |x - diff_value| > diff_tol (the run's own known value moved)
/// A row expected NOT-REPRODUCED-YET whose run exists is compared like any other, with a remark
/// that its `expected` is out of date.
Outcome evaluate(const PublishedRow& row, const Reproduction& reproduction);

/// The tolerance of a row as text: "abs 5e-05", "rel 0.001", "abs 1e-06 + rel 0.001", "exact", "bound";
/// widened by a standard error: "rel 0.03 + se 120 (the run's batch-means standard error)".
std::string tolerance_text(const PublishedRow& row, std::optional<double> se = std::nullopt);

/// The row's evidence with each citation {name} (published.hpp) filled in from the run: the
/// scalar's value, and "± <se>" (format_error) where the run has a finite se_<name>. A name the run does not
/// have is added to `unknown` (a message naming the row's line).
std::string filled_evidence(const PublishedRow& row, const RunRecord& run, std::vector<std::string>& unknown);

struct ComparedRow {
  PublishedRow published;
  Reproduction reproduction;
  Outcome outcome;
  /// The evidence as comparison.tsv gives it: the citations filled in from the run, or as written
  /// where there is no run.
  std::string evidence;
};

struct Counts {
  std::size_t total = 0, match = 0, known_difference = 0, not_at_paper_scale = 0, disagrees = 0, fail = 0,
              missing_run = 0, not_reproduced_yet = 0;
  void add(Status status);
  /// Rows that fail the comparison: FAIL and MISSING-RUN.
  std::size_t failures() const { return fail + missing_run; }
};

/// "12 of 17 published values reproduced, 2 known differences explained, 3 not at the paper's
/// scale, 1 disagreement, 0 failures, 0 missing runs, 0 not reproduced yet".
std::string count_sentence(const Counts& counts);

/// The columns of comparison.tsv, in order.
const std::vector<std::string>& comparison_columns();

/// comparison.tsv: a header line, then one row per compared value.
std::string comparison_tsv(const std::vector<ComparedRow>& rows);

/// Looks up each row's scalar in <results>/<study>/run.json and evaluates the row. A run.json
/// that exists but is malformed is a cm::InputError, and so is a row naming a scalar that its
/// study's run does not have (a typo: the message names the row's line, the scalar and the
/// scalars the run has). Only a study without a run is not reproduced (yet).
std::vector<ComparedRow> compare_with_results(const std::vector<PublishedRow>& rows,
                                              const std::filesystem::path& results);

/// Reads comparison.tsv back (cm_report): each row maps column name to field.
/// Throws cm::InputError naming the file and line on a malformed file or unknown status.
struct ComparisonTable {
  std::vector<std::map<std::string, std::string>> rows;
  Counts counts;
};
ComparisonTable parse_comparison(const std::string& text, const std::string& name);
ComparisonTable read_comparison(const std::filesystem::path& file);

}  // namespace cm::pipeline

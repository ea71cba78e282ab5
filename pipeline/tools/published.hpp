// The paper's values to compare with: configs/<paper>/published.tsv (format in pipeline/README.md).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cm::pipeline {

/// How the reproduced value x must relate to the published value v.
enum class Relation { equal, less, less_equal, greater, greater_equal };

/// "=", "<", "<=", ">", ">=".
std::string to_string(Relation relation);
std::optional<Relation> relation_from(const std::string& text);

/// What a row expects. MATCH: the value reproduced. KNOWN-DIFFERENCE: an error of the paper's own
/// (a misprint, a wrong coefficient, a false claim), shown by its evidence. NOT-AT-PAPER-SCALE,
/// with the reason: a value compared from a run that differs from the paper's setup in size or
/// duration, so that neither a match nor a difference says anything about the paper. DISAGREES,
/// with what was tried: a value measured at the paper's scale that differs, neither the paper's
/// error nor ours as far as the evidence goes. NOT-REPRODUCED-YET: no run yet, the study not built.
enum class Expected { match, known_difference, not_at_paper_scale, disagrees, not_reproduced_yet };
std::string to_string(Expected expected);
std::optional<Expected> expected_from(const std::string& text);

/// One row of published.tsv.
struct PublishedRow {
  std::string file;      ///< the published.tsv it came from, for messages
  std::size_t line = 0;  ///< line in the file (1-based), for messages
  std::string id;
  std::string scalar;  ///< "study/name"
  std::string study;   ///< the run results/<paper>/<study>
  std::string name;    ///< its scalar
  Relation relation = Relation::equal;
  std::string value_text;  ///< as printed in the paper
  double value = 0.0;
  double abs_tol = 0.0;  ///< for `=` only
  double rel_tol = 0.0;  ///< for `=` only
  std::string tol_why, source, quote, kind;
  Expected expected = Expected::match;
  std::string evidence;              ///< the paper's error, or how the run differs from the paper's setup
  std::optional<double> diff_value;  ///< the value a difference (or a run not at scale) is known to give
  std::optional<double> diff_tol;    ///< how far it may move before the row is a FAIL
};

/// A row's evidence cites a measured value instead of typing it (a measured number lives in a
/// run, never in prose): `{name}` stands for the scalar `name` of the row's own run, which
/// cm_compare fills in with its value and standard error (compare.hpp, filled_evidence).
/// Empty when every brace of `evidence` encloses a scalar's name ([A-Za-z0-9_]+, closed before
/// the next opens), else what is wrong.
std::string evidence_citation_error(const std::string& evidence);

/// A tab-separated file with a header line naming its columns; `#` lines and blank lines are
/// skipped. Each row maps column name to field; row_lines gives the line of each row.
struct HeaderTable {
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::size_t> row_lines;
};

/// Parses such a file; `required` columns must all be present, and no others when `exact`.
/// Throws cm::InputError "<name>:<line>: ..." on a malformed header or row.
HeaderTable parse_header_table(const std::string& text, const std::string& name,
                               const std::vector<std::string>& required, bool exact);

/// The columns of published.tsv, in their documented order.
const std::vector<std::string>& published_columns();

/// "<file>:<line>" of a row (published.tsv when the row has no file).
std::string where(const PublishedRow& row);

/// Parses published.tsv; every problem is a cm::InputError "<name>:<line>: column <col>: ...".
/// The same id twice, or the same comparison twice (scalar, relation and value), is an error
/// naming both lines: a value counted twice would make the report's counts dishonest.
std::vector<PublishedRow> parse_published(const std::string& text, const std::string& name);
std::vector<PublishedRow> read_published(const std::filesystem::path& file);

}  // namespace cm::pipeline

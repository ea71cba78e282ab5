// The comparison of data files of runs (`cm-tsv 1`, pipeline/README.md) column by column, the
// heart of the regression tests (cm_tsvdiff).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/run_reader.hpp"

namespace cm::pipeline {

// Reading data files is the run reader's (core/run_reader.hpp); the tools name it here too.
using cm::parse_tsv;
using cm::read_tsv;
using cm::TsvColumn;
using cm::TsvData;

/// A value b matches the reference a when |a - b| <= abs + rel |a|; NaN matches NaN only and
/// an infinity only the same infinity.
struct Tolerance {
  double abs = 0.0;
  double rel = 0.0;
};
bool within(double a, double b, const Tolerance& tolerance);

struct DiffOptions {
  Tolerance fallback;                           ///< for every column without an override
  std::map<std::string, Tolerance> per_column;  ///< by column name (without unit)
};

/// "N:1e-9:1e-7,phi:0:1e-10" (name:abs:rel, comma separated) over `fallback`; throws
/// cm::InputError naming the key `columns` on a malformed entry or a negative tolerance.
DiffOptions parse_column_tolerances(const std::string& text, const Tolerance& fallback);

struct Difference {
  std::size_t row = 0;  ///< data row, 1-based
  std::size_t reference_line = 0, candidate_line = 0;
  std::string column;  ///< name[unit]
  double reference = 0.0, candidate = 0.0;
  double error = 0.0;    ///< |a - b|
  double allowed = 0.0;  ///< abs + rel |a|
};

struct DiffReport {
  std::vector<std::string> structure;  ///< differences of shape: columns, row count, data blocks
  std::size_t compared = 0;            ///< values compared
  std::size_t differing = 0;           ///< values outside their tolerance
  std::vector<Difference> first;       ///< the first `keep` differences
  double max_ratio = 0.0;              ///< largest error / allowed over the finite values
  std::string max_column;              ///< where it occurred
  std::size_t max_row = 0;
  bool equal() const { return structure.empty() && differing == 0; }
};

/// Compares `candidate` with `reference` value by value. A per-column override naming no column
/// of the reference is a cm::InputError (key `columns`).
DiffReport diff_tsv(const TsvData& reference, const TsvData& candidate, const DiffOptions& options,
                    std::size_t keep = 10);

/// The report as printed by cm_tsvdiff: the shape differences, the first differences, a summary.
std::string describe(const DiffReport& report, const TsvData& reference, const TsvData& candidate);

}  // namespace cm::pipeline

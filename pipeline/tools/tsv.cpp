#include "tools/tsv.hpp"

#include <cmath>
#include <limits>
#include <set>

#include "core/errors.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

bool within(double a, double b, const Tolerance& tolerance) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= tolerance.abs + tolerance.rel * std::abs(a);
}

DiffOptions parse_column_tolerances(const std::string& text, const Tolerance& fallback) {
  DiffOptions options;
  options.fallback = fallback;
  if (trim(text).empty()) return options;
  for (const std::string& entry : split(text, ',')) {
    const std::vector<std::string> parts = split(trim(entry), ':');
    auto bad = [&](const std::string& why) {
      return InputError("columns: '" + trim(entry) + "' " + why + " (expected name:abs:rel, e.g. N:1e-9:1e-7)");
    };
    if (parts.size() != 3 || trim(parts[0]).empty()) throw bad("is malformed");
    const auto abs = to_double(trim(parts[1]));
    const auto rel = to_double(trim(parts[2]));
    if (!abs || !rel || !std::isfinite(*abs) || !std::isfinite(*rel)) throw bad("has a tolerance that is not a number");
    if (*abs < 0 || *rel < 0) throw bad("has a negative tolerance");
    if (!options.per_column.emplace(trim(parts[0]), Tolerance{*abs, *rel}).second) throw bad("names a column twice");
  }
  return options;
}

DiffReport diff_tsv(const TsvData& reference, const TsvData& candidate, const DiffOptions& options, std::size_t keep) {
  std::vector<Tolerance> tolerance;
  for (const TsvColumn& column : reference.columns) {
    const auto it = options.per_column.find(column.name);
    tolerance.push_back(it == options.per_column.end() ? options.fallback : it->second);
  }
  for (const auto& [name, t] : options.per_column) {
    bool known = false;
    for (const TsvColumn& column : reference.columns) known = known || column.name == name;
    if (!known) throw InputError("columns: '" + name + "' is no column of " + reference.name);
  }

  DiffReport report;
  std::vector<std::string> ref_labels, cand_labels;
  for (const auto& c : reference.columns) ref_labels.push_back(c.label());
  for (const auto& c : candidate.columns) cand_labels.push_back(c.label());
  if (ref_labels != cand_labels) {
    report.structure.push_back("columns differ: reference " + join(ref_labels, " ") + ", candidate " +
                               join(cand_labels, " "));
    return report;
  }
  if (reference.rows.size() != candidate.rows.size()) {
    report.structure.push_back("row counts differ: reference " + std::to_string(reference.rows.size()) +
                               ", candidate " + std::to_string(candidate.rows.size()));
  }
  const std::size_t rows = std::min(reference.rows.size(), candidate.rows.size());
  for (std::size_t r = 0; r < rows; ++r) {
    if (reference.blocks[r] != candidate.blocks[r]) {
      report.structure.push_back("data blocks differ: row " + std::to_string(r + 1) + " is in block " +
                                 std::to_string(reference.blocks[r] + 1) + " of the reference, block " +
                                 std::to_string(candidate.blocks[r] + 1) + " of the candidate");
      break;
    }
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < reference.columns.size(); ++c) {
      const double a = reference.rows[r][c];
      const double b = candidate.rows[r][c];
      ++report.compared;
      const bool ok = within(a, b, tolerance[c]);
      const double error = std::abs(a - b);
      const double allowed = tolerance[c].abs + tolerance[c].rel * std::abs(a);
      if (std::isfinite(error)) {
        const double ratio = allowed > 0 ? error / allowed : (error > 0 ? std::numeric_limits<double>::infinity() : 0);
        if (ratio > report.max_ratio) {
          report.max_ratio = ratio;
          report.max_column = reference.columns[c].label();
          report.max_row = r + 1;
        }
      }
      if (ok) continue;
      ++report.differing;
      if (report.first.size() < keep) {
        report.first.push_back(
            {r + 1, reference.lines[r], candidate.lines[r], reference.columns[c].label(), a, b, error, allowed});
      }
    }
  }
  return report;
}

std::string describe(const DiffReport& report, const TsvData& reference, const TsvData& candidate) {
  std::string text;
  for (const std::string& s : report.structure) text += "  " + s + "\n";
  for (const Difference& d : report.first) {
    const bool special = !std::isfinite(d.reference) || !std::isfinite(d.candidate);
    text += "  row " + std::to_string(d.row) + " (line " + std::to_string(d.reference_line) + "/" +
            std::to_string(d.candidate_line) + "), column " + d.column + ": reference " + format_full(d.reference) +
            ", candidate " + format_full(d.candidate) +
            (special ? std::string(" (NaN matches only NaN, an infinity only itself)")
                     : ", error " + format_g(d.error, 3) + " > allowed " + format_g(d.allowed, 3)) +
            "\n";
  }
  if (report.differing > report.first.size()) {
    text += "  ... and " + std::to_string(report.differing - report.first.size()) + " more\n";
  }
  const std::string files = reference.name + " vs " + candidate.name;
  if (report.equal()) {
    text += "equal within tolerance: " + std::to_string(report.compared) + " values in " +
            std::to_string(reference.columns.size()) + " columns (" + files + ")";
    if (report.max_ratio > 0) {
      text += "; largest error " + format_g(report.max_ratio, 2) + " of its tolerance, column " + report.max_column +
              ", row " + std::to_string(report.max_row);
    }
  } else {
    text += "DIFFERENT: " + std::to_string(report.differing) + " of " + std::to_string(report.compared) +
            " values outside tolerance";
    if (!report.structure.empty())
      text += ", " + plural(report.structure.size(), "shape difference", "shape differences");
    text += " (" + files + ")";
  }
  return text + "\n";
}

}  // namespace cm::pipeline

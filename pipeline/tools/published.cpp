#include "tools/published.hpp"

#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

std::string to_string(Relation relation) {
  switch (relation) {
    case Relation::equal:
      return "=";
    case Relation::less:
      return "<";
    case Relation::less_equal:
      return "<=";
    case Relation::greater:
      return ">";
    case Relation::greater_equal:
      return ">=";
  }
  return "?";
}

std::optional<Relation> relation_from(const std::string& text) {
  if (text == "=") return Relation::equal;
  if (text == "<") return Relation::less;
  if (text == "<=") return Relation::less_equal;
  if (text == ">") return Relation::greater;
  if (text == ">=") return Relation::greater_equal;
  return std::nullopt;
}

std::string to_string(Expected expected) {
  switch (expected) {
    case Expected::match:
      return "MATCH";
    case Expected::known_difference:
      return "KNOWN-DIFFERENCE";
    case Expected::not_at_paper_scale:
      return "NOT-AT-PAPER-SCALE";
    case Expected::disagrees:
      return "DISAGREES";
    case Expected::not_reproduced_yet:
      return "NOT-REPRODUCED-YET";
  }
  return "?";
}

std::optional<Expected> expected_from(const std::string& text) {
  for (Expected e : {Expected::match, Expected::known_difference, Expected::not_at_paper_scale, Expected::disagrees,
                     Expected::not_reproduced_yet}) {
    if (text == to_string(e)) return e;
  }
  return std::nullopt;
}

std::string where(const PublishedRow& row) {
  return (row.file.empty() ? std::string("published.tsv") : row.file) + ":" + std::to_string(row.line);
}

const std::vector<std::string>& published_columns() {
  static const std::vector<std::string> columns{"id",       "scalar",   "relation",   "value",   "abs_tol",
                                                "rel_tol",  "tol_why",  "source",     "quote",   "kind",
                                                "expected", "evidence", "diff_value", "diff_tol"};
  return columns;
}

HeaderTable parse_header_table(const std::string& text, const std::string& name,
                               const std::vector<std::string>& required, bool exact) {
  HeaderTable table;
  const std::vector<std::string> all = lines(text);
  std::size_t i = 0;
  auto skipped = [&](const std::string& line) { return trim(line).empty() || line.front() == '#'; };
  while (i < all.size() && skipped(all[i])) ++i;
  if (i == all.size()) {
    throw InputError(name + ": no header line (expected the columns " + join(required, ", ") + ")");
  }
  const std::size_t header_line = i + 1;
  table.columns = split(all[i], '\t');
  std::set<std::string> seen;
  for (std::string& column : table.columns) {
    column = trim(column);
    if (!seen.insert(column).second) {
      throw InputError(name + ":" + std::to_string(header_line) + ": column '" + column + "' appears twice");
    }
  }
  for (const std::string& column : required) {
    if (!seen.count(column)) {
      throw InputError(name + ":" + std::to_string(header_line) + ": header lacks the column '" + column + "'");
    }
  }
  if (exact) {
    const std::set<std::string> known(required.begin(), required.end());
    for (const std::string& column : table.columns) {
      if (!known.count(column)) {
        throw InputError(name + ":" + std::to_string(header_line) + ": unknown column '" + column + "'");
      }
    }
  }
  for (++i; i < all.size(); ++i) {
    if (skipped(all[i])) continue;
    const std::vector<std::string> fields = split(all[i], '\t');
    if (fields.size() != table.columns.size()) {
      throw InputError(name + ":" + std::to_string(i + 1) + ": " + std::to_string(fields.size()) +
                       " tab-separated fields, the header has " + std::to_string(table.columns.size()));
    }
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < fields.size(); ++c) row[table.columns[c]] = trim(fields[c]);
    table.rows.push_back(std::move(row));
    table.row_lines.push_back(i + 1);
  }
  return table;
}

namespace {

bool absent(const std::string& field) { return field.empty() || field == "-"; }

/// A number as printed; closed forms such as `2/7` or `pi/4` are evaluated exactly to rounding.
std::optional<double> number(const std::string& field) {
  if (auto x = to_double(field)) return std::isfinite(*x) ? x : std::nullopt;
  try {
    return parse_real("value", field);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace

std::string evidence_citation_error(const std::string& evidence) {
  bool inside = false;
  std::size_t open = 0;
  for (std::size_t i = 0; i < evidence.size(); ++i) {
    const char c = evidence[i];
    if (c == '{') {
      if (inside) return "a '{' at character " + std::to_string(i + 1) + " opens inside a citation";
      inside = true;
      open = i;
    } else if (c == '}') {
      if (!inside) return "a '}' at character " + std::to_string(i + 1) + " closes no citation";
      if (i == open + 1) return "an empty citation {} at character " + std::to_string(open + 1);
      inside = false;
    } else if (inside && !(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
      return "the citation at character " + std::to_string(open + 1) +
             " is not a scalar's name ({name}: letters, digits and _ only)";
    }
  }
  if (inside) return "the citation at character " + std::to_string(open + 1) + " is not closed";
  return "";
}

std::vector<PublishedRow> parse_published(const std::string& text, const std::string& name) {
  const HeaderTable table = parse_header_table(text, name, published_columns(), true);
  std::vector<PublishedRow> rows;
  std::map<std::string, std::size_t> ids;                                        // id -> line
  std::map<std::tuple<std::string, Relation, double>, std::size_t> comparisons;  // -> line
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& f = table.rows[r];
    PublishedRow row;
    row.file = name;
    row.line = table.row_lines[r];
    auto bad = [&](const std::string& column, const std::string& message) -> InputError {
      return InputError(name + ":" + std::to_string(row.line) + ": column " + column + ": " + message);
    };
    auto required = [&](const std::string& column) {
      const std::string& value = f.at(column);
      if (absent(value)) throw bad(column, "empty (required)");
      return value;
    };
    auto real = [&](const std::string& column) {
      const std::string& value = f.at(column);
      const auto x = number(value);
      if (!x) throw bad(column, "'" + value + "' is not a finite number");
      return *x;
    };
    auto tolerance = [&](const std::string& column) {
      const double x = real(column);
      if (x < 0) throw bad(column, "'" + f.at(column) + "' is negative");
      return x;
    };

    row.id = required("id");
    if (const auto [it, inserted] = ids.emplace(row.id, row.line); !inserted) {
      throw bad("id", "'" + row.id + "' appears twice (lines " + std::to_string(it->second) + " and " +
                          std::to_string(row.line) + ")");
    }
    row.scalar = required("scalar");
    const std::size_t slash = row.scalar.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == row.scalar.size() ||
        row.scalar.find('/', slash + 1) != std::string::npos) {
      throw bad("scalar", "'" + row.scalar + "' is not of the form study/scalar");
    }
    row.study = row.scalar.substr(0, slash);
    row.name = row.scalar.substr(slash + 1);
    if (row.study.front() == '.') {
      // Hidden directories of results/<paper> are leftovers of interrupted runs, never a study.
      throw bad("scalar", "'" + row.scalar + "': a study's name does not start with a dot");
    }

    const auto relation = relation_from(required("relation"));
    if (!relation) throw bad("relation", "'" + f.at("relation") + "' is none of =, <, <=, >, >=");
    row.relation = *relation;
    row.value_text = required("value");
    row.value = real("value");

    if (row.relation == Relation::equal) {
      if (absent(f.at("abs_tol")) || absent(f.at("rel_tol"))) {
        throw bad(absent(f.at("abs_tol")) ? "abs_tol" : "rel_tol",
                  "a value compared with = needs abs_tol and rel_tol (0 when not used)");
      }
      row.abs_tol = tolerance("abs_tol");
      row.rel_tol = tolerance("rel_tol");
    } else {
      // A bound holds or not: a tolerance would be silently ignored, so only - or 0 is accepted.
      for (const char* column : {"abs_tol", "rel_tol"}) {
        if (!absent(f.at(column)) && real(column) != 0.0) {
          throw bad(column, "a bound (" + to_string(row.relation) + ") has no tolerance: write - or 0");
        }
      }
    }
    row.tol_why = required("tol_why");  // CONVENTIONS.md: every tolerance says why it is what it is
    if (const auto [it, inserted] = comparisons.emplace(std::tuple{row.scalar, row.relation, row.value}, row.line);
        !inserted) {
      throw bad("scalar", "'" + row.scalar + "' " + to_string(row.relation) + " " + row.value_text +
                              " is compared twice (lines " + std::to_string(it->second) + " and " +
                              std::to_string(row.line) + ")");
    }
    row.source = required("source");
    row.quote = f.at("quote");
    row.kind = required("kind");
    if (row.kind != "number" && row.kind != "bound" && row.kind != "closed-form" && row.kind != "claim") {
      throw bad("kind", "'" + row.kind + "' is none of number, bound, closed-form, claim");
    }
    const std::string expected = required("expected");
    const auto parsed = expected_from(expected);
    if (!parsed) {
      throw bad(
          "expected",
          "'" + expected + "' is none of MATCH, KNOWN-DIFFERENCE, NOT-AT-PAPER-SCALE, DISAGREES, NOT-REPRODUCED-YET");
    }
    row.expected = *parsed;
    row.evidence = absent(f.at("evidence")) ? "" : f.at("evidence");
    if (const std::string wrong = evidence_citation_error(row.evidence); !wrong.empty()) throw bad("evidence", wrong);
    const bool has_value = !absent(f.at("diff_value"));
    const bool has_tol = !absent(f.at("diff_tol"));
    if (row.expected == Expected::known_difference || row.expected == Expected::not_at_paper_scale ||
        row.expected == Expected::disagrees) {
      if (row.evidence.empty()) {
        throw bad("evidence", row.expected == Expected::known_difference ? "a KNOWN-DIFFERENCE needs its evidence"
                              : row.expected == Expected::disagrees
                                  ? "a DISAGREES row needs its evidence (what was measured and what was tried)"
                                  : "a NOT-AT-PAPER-SCALE row needs its reason (how the run differs from the "
                                    "paper's setup in size or duration)");
      }
      if (has_value != has_tol) {
        throw bad(has_value ? "diff_tol" : "diff_value", "diff_value and diff_tol go together (both or neither)");
      }
      if (has_value) {
        row.diff_value = real("diff_value");
        row.diff_tol = tolerance("diff_tol");
      }
    } else if (has_value || has_tol) {
      throw bad(has_value ? "diff_value" : "diff_tol",
                "only a KNOWN-DIFFERENCE, DISAGREES or NOT-AT-PAPER-SCALE row has a diff_value (write -)");
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<PublishedRow> read_published(const std::filesystem::path& file) {
  return parse_published(read_text(file, "published"), file.string());
}

}  // namespace cm::pipeline

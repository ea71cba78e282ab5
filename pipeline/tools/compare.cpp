#include "tools/compare.hpp"

#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/run_reader.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

std::string to_string(Status status) {
  switch (status) {
    case Status::match:
      return "MATCH";
    case Status::known_difference:
      return "KNOWN-DIFFERENCE";
    case Status::not_at_paper_scale:
      return "NOT-AT-PAPER-SCALE";
    case Status::disagrees:
      return "DISAGREES";
    case Status::fail:
      return "FAIL";
    case Status::missing_run:
      return "MISSING-RUN";
    case Status::not_reproduced_yet:
      return "NOT-REPRODUCED-YET";
  }
  return "?";
}

std::optional<Status> status_from(const std::string& text) {
  for (Status s : {Status::match, Status::known_difference, Status::not_at_paper_scale, Status::disagrees, Status::fail,
                   Status::missing_run, Status::not_reproduced_yet}) {
    if (text == to_string(s)) return s;
  }
  return std::nullopt;
}

bool as_expected(const PublishedRow& row, Status status) { return to_string(status) == to_string(row.expected); }

bool relation_holds(const PublishedRow& row, double x, double se) {
  if (!std::isfinite(x)) return false;
  const double v = row.value;
  switch (row.relation) {
    case Relation::equal:
      return std::abs(x - v) <= row.abs_tol + row.rel_tol * std::abs(v) + se;
    case Relation::less:
      return x < v;
    case Relation::less_equal:
      return x <= v;
    case Relation::greater:
      return x > v;
    case Relation::greater_equal:
      return x >= v;
  }
  return false;
}

Outcome evaluate(const PublishedRow& row, const Reproduction& reproduction) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  Outcome outcome;
  if (!reproduction.found) {
    outcome.abs_error = outcome.rel_error = nan;
    if (row.expected == Expected::not_reproduced_yet) {
      outcome.status = Status::not_reproduced_yet;
      outcome.remark = reproduction.missing;
    } else {
      outcome.status = Status::missing_run;
      outcome.remark =
          reproduction.missing + ", but the row expects " + to_string(row.expected) + ": the study did not run";
    }
    return outcome;
  }
  const double x = reproduction.value;
  const double se = reproduction.standard_error.value_or(0.0);
  outcome.abs_error = std::abs(x - row.value);
  outcome.rel_error = row.value != 0.0 ? outcome.abs_error / std::abs(row.value) : nan;
  const std::string outdated =
      "the study has run now: set the row's expected (NOT-REPRODUCED-YET) in published.tsv to what it gives";

  const bool unsteady = !reproduction.unsteady.empty();
  if (row.expected == Expected::not_at_paper_scale || unsteady) {
    // The run is not the paper's setup (another size or duration), or its window is not the
    // steady flow the paper averaged over: the value is compared all the same and the comparison
    // shown, but neither a match nor a difference is counted as the paper's. Only a value that is
    // not finite, or that moved from where the run is known to put it, is a failure: that says
    // something of the code, not of the paper.
    if (!std::isfinite(x)) {
      outcome.status = Status::fail;
      outcome.remark = "the reproduced value is not finite (null in run.json)";
      return outcome;
    }
    if (row.diff_value && std::abs(x - *row.diff_value) > *row.diff_tol) {
      const double moved = std::abs(x - *row.diff_value);
      outcome.status = Status::fail;
      outcome.remark = "value not at the paper's scale moved: reproduced " + format_g(x, 10) + ", known to give " +
                       format_g(*row.diff_value, 10) + " within " + format_g(*row.diff_tol, 3) + " (off by " +
                       format_g(moved, 3) + ")";
      return outcome;
    }
    outcome.status = Status::not_at_paper_scale;
    const bool bound = row.relation != Relation::equal;
    const std::string where =
        unsteady ? " over a window that is not steady" : " at this run's scale, which is not the paper's";
    outcome.remark = relation_holds(row, x, se) ? std::string(bound ? "the bound holds" : "within the tolerance") +
                                                      where + ": not counted as reproduced"
                                                : std::string(bound ? "the bound fails" : "outside the tolerance") +
                                                      where + ": not counted as the paper's error";
    return outcome;
  }

  if (relation_holds(row, x, se)) {
    outcome.status = Status::match;
    if (row.expected == Expected::known_difference || row.expected == Expected::disagrees) {
      outcome.remark =
          "expected " + to_string(row.expected) + " but now matches: review the evidence and published.tsv";
    } else if (row.expected == Expected::not_reproduced_yet) {
      outcome.remark = outdated;
    }
    return outcome;
  }
  if (!std::isfinite(x)) {
    outcome.status = Status::fail;
    outcome.remark = "the reproduced value is not finite (null in run.json)";
    if (row.expected == Expected::not_reproduced_yet) outcome.remark += "; " + outdated;
    return outcome;
  }
  if (row.expected != Expected::known_difference && row.expected != Expected::disagrees) {
    outcome.status = Status::fail;
    if (row.expected == Expected::not_reproduced_yet) outcome.remark = outdated;
    return outcome;
  }
  // Expected KNOWN-DIFFERENCE or DISAGREES: so only while the reproduction stays where it is known
  // to be.
  const Status difference = row.expected == Expected::known_difference ? Status::known_difference : Status::disagrees;
  if (!row.diff_value) {
    outcome.status = difference;
    return outcome;
  }
  const double moved = std::abs(x - *row.diff_value);
  if (moved <= *row.diff_tol) {
    outcome.status = difference;
  } else {
    outcome.status = Status::fail;
    outcome.remark = (difference == Status::known_difference ? "known difference" : "disagreement") +
                     std::string(" moved: reproduced ") + format_g(x, 10) + ", known to give " +
                     format_g(*row.diff_value, 10) + " within " + format_g(*row.diff_tol, 3) + " (off by " +
                     format_g(moved, 3) + ")";
  }
  return outcome;
}

std::string tolerance_text(const PublishedRow& row, std::optional<double> se) {
  if (row.relation != Relation::equal) return "bound";
  std::string text;
  if (row.abs_tol != 0.0) text = "abs " + format_g(row.abs_tol, 6);
  if (row.rel_tol != 0.0) text += (text.empty() ? "" : " + ") + std::string("rel ") + format_g(row.rel_tol, 6);
  if (se && *se != 0.0)
    text += (text.empty() ? "" : " + ") + std::string("se ") + format_g(*se, 3) +
            " (widened by the run's batch-means standard error of the value)";
  return text.empty() ? "exact" : text;
}

std::string steady_scalar(const RunRecord& run, const std::string& name) {
  for (std::size_t at = name.find('_'); at != std::string::npos; at = name.find('_', at + 1)) {
    const std::string flag = "steady_" + name.substr(at + 1);
    if (find_scalar(run, flag).found) return flag;
  }
  return find_scalar(run, "steady").found ? "steady" : "";
}

void read_stationarity(const RunRecord& run, const std::string& name, Reproduction& reproduction) {
  const ScalarLookup se = find_scalar(run, "se_" + name);
  if (se.found && std::isfinite(se.value) && se.value >= 0.0) reproduction.standard_error = se.value;
  const std::string flag = steady_scalar(run, name);
  if (flag.empty()) return;
  const ScalarLookup steady = find_scalar(run, flag);
  if (steady.value == 1.0) return;
  // Not steady (0, or null): the drifts behind the flag, drift_<quantity>_<suffix> (every
  // drift_* for the run's own `steady`), and the threshold they were held to.
  const std::string suffix = flag == "steady" ? "" : flag.substr(std::string("steady").size());
  std::vector<std::string> drifts;
  for (const std::string& scalar : scalar_names(run)) {
    if (scalar.rfind("drift_", 0) != 0 || scalar.size() < suffix.size() ||
        scalar.compare(scalar.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string quantity = scalar.substr(6, scalar.size() - 6 - suffix.size());
    const double drift = find_scalar(run, scalar).value;
    drifts.push_back(quantity + " " + (std::isfinite(drift) ? format_g(100.0 * drift, 3) + " %" : "undefined"));
  }
  std::string text = "window not steady: the run's " + flag + " is " + format_g(steady.value, 3);
  if (!drifts.empty()) text += "; relative drift across the window: " + join(drifts, ", ");
  const std::string max_drift = json_text(run.json, {"config", "values", "average.max_drift"}, "");
  if (!max_drift.empty()) text += " (steady when each is below average.max_drift = " + max_drift + ")";
  reproduction.unsteady = text;
}

void Counts::add(Status status) {
  ++total;
  switch (status) {
    case Status::match:
      ++match;
      break;
    case Status::known_difference:
      ++known_difference;
      break;
    case Status::not_at_paper_scale:
      ++not_at_paper_scale;
      break;
    case Status::disagrees:
      ++disagrees;
      break;
    case Status::fail:
      ++fail;
      break;
    case Status::missing_run:
      ++missing_run;
      break;
    case Status::not_reproduced_yet:
      ++not_reproduced_yet;
      break;
  }
}

std::string count_sentence(const Counts& c) {
  return std::to_string(c.match) + " of " + plural(c.total, "published value", "published values") + " reproduced, " +
         plural(c.known_difference, "known difference", "known differences") + " explained, " +
         std::to_string(c.not_at_paper_scale) + " not at the paper's scale, " +
         plural(c.disagrees, "disagreement", "disagreements") + ", " + plural(c.fail, "failure", "failures") + ", " +
         plural(c.missing_run, "missing run", "missing runs") + ", " + std::to_string(c.not_reproduced_yet) +
         " not reproduced yet";
}

const std::vector<std::string>& comparison_columns() {
  static const std::vector<std::string> columns{
      "id",        "scalar",    "relation",  "published", "reproduced", "standard_error",
      "abs_error", "rel_error", "tolerance", "status",    "expected",   "source",
      "quote",     "kind",      "evidence",  "run_id",    "remark"};
  return columns;
}

namespace {

/// A field of a tab-separated file: tabs and line ends would break the row.
std::string field(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string comparison_tsv(const std::vector<ComparedRow>& rows) {
  std::string text = join(comparison_columns(), "\t") + "\n";
  for (const ComparedRow& r : rows) {
    const PublishedRow& p = r.published;
    const bool found = r.reproduction.found;
    std::string evidence = r.evidence;
    if (p.diff_value) {
      evidence += (evidence.empty() ? "" : " ") + std::string("(known to give ") + format_g(*p.diff_value, 10) +
                  " within " + format_g(*p.diff_tol, 3) + ")";
    }
    if (found && !r.reproduction.unsteady.empty()) evidence += (evidence.empty() ? "" : "; ") + r.reproduction.unsteady;
    const std::optional<double> se = found ? r.reproduction.standard_error : std::nullopt;
    const std::vector<std::string> fields{
        p.id,
        p.scalar,
        to_string(p.relation),
        p.value_text,
        found ? format_full(r.reproduction.value) : "-",
        se ? format_full(*se) : "-",
        found ? format_g(r.outcome.abs_error, 3) : "-",
        found && !std::isnan(r.outcome.rel_error) ? format_g(r.outcome.rel_error, 3) : "-",
        tolerance_text(p, se),
        to_string(r.outcome.status),
        to_string(p.expected),
        p.source,
        p.quote,
        p.kind,
        evidence,
        r.reproduction.run_id,
        r.outcome.remark};
    std::vector<std::string> cleaned;
    for (const std::string& f : fields) cleaned.push_back(field(f));
    text += join(cleaned, "\t") + "\n";
  }
  return text;
}

std::string filled_evidence(const PublishedRow& row, const RunRecord& run, std::vector<std::string>& unknown) {
  std::string text;
  std::size_t from = 0;
  for (std::size_t open = row.evidence.find('{'); open != std::string::npos; open = row.evidence.find('{', from)) {
    const std::size_t close = row.evidence.find('}', open);  // balanced: parse_published checked it
    const std::string name = row.evidence.substr(open + 1, close - open - 1);
    text += row.evidence.substr(from, open - from);
    from = close + 1;
    const ScalarLookup scalar = find_scalar(run, name);
    if (!scalar.found) {
      unknown.push_back(where(row) + ": " + row.id + ": the evidence cites {" + name + "}, which the run " +
                        (run.dir / "run.json").string() + " does not have");
      text += "{" + name + "}";
      continue;
    }
    text += format_g(scalar.value, 6);
    const ScalarLookup se = find_scalar(run, "se_" + name);
    if (se.found && std::isfinite(se.value)) text += " ± " + format_error(se.value);
  }
  return text + row.evidence.substr(from);
}

std::vector<ComparedRow> compare_with_results(const std::vector<PublishedRow>& rows,
                                              const std::filesystem::path& results) {
  std::map<std::string, std::optional<RunRecord>> runs;  // by study, each read once
  std::vector<ComparedRow> compared;
  std::vector<std::string> unknown;  // rows naming a scalar their run does not have
  for (const PublishedRow& row : rows) {
    auto it = runs.find(row.study);
    if (it == runs.end()) it = runs.emplace(row.study, load_run(results / row.study)).first;
    Reproduction reproduction;
    std::string evidence = row.evidence;
    if (!it->second) {
      reproduction.missing = "no run " + (results / row.study).string();
    } else {
      evidence = filled_evidence(row, *it->second, unknown);
      reproduction.run_id = it->second->run_id;
      const ScalarLookup scalar = find_scalar(*it->second, row.name);
      if (!scalar.found) {
        unknown.push_back(where(row) + ": " + row.id + ": the run " + (it->second->dir / "run.json").string() +
                          " has no scalar '" + row.name + "' (a typo in the column scalar '" + row.scalar +
                          "'?); the run has: " + join(scalar_names(*it->second), ", "));
        continue;
      }
      reproduction.found = true;
      reproduction.value = scalar.value;
      read_stationarity(*it->second, row.name, reproduction);
    }
    compared.push_back({row, reproduction, evaluate(row, reproduction), evidence});
  }
  if (!unknown.empty()) throw InputError(join(unknown, "\n"));
  return compared;
}

ComparisonTable parse_comparison(const std::string& text, const std::string& name) {
  const HeaderTable table = parse_header_table(text, name, comparison_columns(), false);
  ComparisonTable result;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto status = status_from(table.rows[r].at("status"));
    if (!status) {
      throw InputError(name + ":" + std::to_string(table.row_lines[r]) + ": column status: '" +
                       table.rows[r].at("status") + "' is not a status");
    }
    result.counts.add(*status);
    result.rows.push_back(table.rows[r]);
  }
  return result;
}

ComparisonTable read_comparison(const std::filesystem::path& file) {
  return parse_comparison(read_text(file, "comparison"), file.string());
}

}  // namespace cm::pipeline

#include "tools/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "tools/process.hpp"
#include "tools/report_css.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

std::string markdown_escape(const std::string& text) {
  // Only what could start markup in running text or a table cell is escaped, so that the
  // Markdown file stays readable: `_` between letters (intraword) and `<` before a blank are
  // plain text to pandoc and CommonMark alike.
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char before = i > 0 ? text[i - 1] : ' ';
    const char after = i + 1 < text.size() ? text[i + 1] : ' ';
    if (c == '\n' || c == '\t' || c == '\r') {
      out += ' ';
      continue;
    }
    bool escape = std::string("\\`*[]|$^~@").find(c) != std::string::npos;
    if (c == '_') escape = !(alnum(before) && alnum(after));
    if (c == '<') escape = alnum(after) || after == '/' || after == '!' || after == '?';
    if (c == '#' && i == 0) escape = true;
    if (escape) out += '\\';
    out += c;
  }
  return out;
}

namespace {

/// An inline code span that survives backticks in its text.
std::string code(const std::string& text) {
  const std::string clean = trim(text);
  if (clean.empty()) return "";
  const std::string fence = clean.find('`') == std::string::npos ? "`" : "`` ";
  const std::string close = fence == "`" ? "`" : " ``";
  std::string one_line = clean;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  std::replace(one_line.begin(), one_line.end(), '\t', ' ');
  return fence + one_line + close;
}

std::string status_cell(const std::string& status, Flavor flavor) {
  if (flavor == Flavor::markdown) return status == "FAIL" ? "**FAIL**" : status;
  std::string cls = status;
  std::transform(cls.begin(), cls.end(), cls.begin(), [](unsigned char c) { return std::tolower(c); });
  return "[" + status + "]{.badge ." + cls + "}";
}

/// A loud line: bold in Markdown, an alarm box in HTML.
std::string alarm(const std::string& text, Flavor flavor) {
  if (flavor == Flavor::markdown) return "**" + text + "**";
  return "[" + text + "]{.alarm}";
}

/// Significant digits of a number as printed (".2951" has 4).
int printed_digits(const std::string& text) {
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (!std::isdigit(static_cast<unsigned char>(c))) continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return std::max(digits, 1);
}

std::string field_or_dash(const std::map<std::string, std::string>& row, const std::string& key) {
  const auto it = row.find(key);
  return it == row.end() || it->second.empty() ? "-" : it->second;
}

/// The reproduced value with two digits more than the paper printed (at least 6), as mean ± its
/// standard error (two digits) where the run measured one.
std::string reproduced_cell(const std::map<std::string, std::string>& row) {
  const std::string text = field_or_dash(row, "reproduced");
  const auto x = to_double(text);
  if (!x) return "—";
  const std::string value = format_g(*x, std::max(6, printed_digits(field_or_dash(row, "published")) + 2));
  const auto se = to_double(field_or_dash(row, "standard_error"));
  return se ? value + " ± " + format_error(*se) : value;
}

std::string error_cell(const std::map<std::string, std::string>& row) {
  const std::string abs = field_or_dash(row, "abs_error");
  if (abs == "-" || field_or_dash(row, "relation") != "=") return "—";  // a bound holds or not
  std::string cell = abs;
  if (const auto rel = to_double(field_or_dash(row, "rel_error"))) cell += " (" + format_g(*rel * 100, 2) + " %)";
  return cell;
}

// The run that produced a value: its id (shortened), linked to the run's provenance below.
std::string run_cell(const std::map<std::string, std::string>& row, Flavor flavor) {
  const std::string id = field_or_dash(row, "run_id");
  if (id == "-" || id.empty()) return "-";
  const std::string shown = code(id.substr(0, 12));
  if (flavor == Flavor::markdown) return shown;
  return "[" + shown + "](#run-" + id.substr(0, 16) + ")";
}

void comparison_section(std::ostringstream& md, const ReportInput& in, Flavor flavor) {
  md << "## Comparison with the published values\n\n";
  if (!in.comparison) {
    md << alarm("No comparison: " + markdown_escape(in.comparison_name) + " was not found (run cm_compare first).",
                flavor)
       << "\n\n";
    return;
  }
  if (in.comparison->rows.empty()) {
    md << "No published values are listed for this paper.\n\n";
    return;
  }
  md << "Each reproduced scalar is compared with the value printed in the paper "
        "(configs/"
     << markdown_escape(in.paper)
     << "/published.tsv). "
        "The error is the absolute difference (and, in parentheses, relative to the published value); a "
        "published value with a relation (<, ≤, >, ≥) is a bound, which holds or not. A time average is "
        "shown as mean ± its batch-means standard error where its run measured one, and its tolerance is "
        "then widened by that error, never more.\n\n";
  md << "| id | quantity | published | reproduced | error | tolerance | status | source | run |\n"
        "|----|------------|----------|------------|-----------|-----------|--------------|--------------|------|\n";
  for (const auto& row : in.comparison->rows) {
    const std::string relation = field_or_dash(row, "relation");
    const std::string published = (relation == "=" ? "" : relation + " ") + field_or_dash(row, "published");
    md << "| " << markdown_escape(field_or_dash(row, "id")) << " | " << code(field_or_dash(row, "scalar")) << " | "
       << markdown_escape(published) << " | " << reproduced_cell(row) << " | " << markdown_escape(error_cell(row))
       << " | " << markdown_escape(field_or_dash(row, "tolerance")) << " | "
       << status_cell(field_or_dash(row, "status"), flavor) << " | " << markdown_escape(field_or_dash(row, "source"))
       << " | " << run_cell(row, flavor) << " |\n";
  }
  md << "\n";

  // Below the table: what explains each difference, and every row whose status needs a word.
  std::ostringstream notes;
  for (const auto& row : in.comparison->rows) {
    const std::string status = field_or_dash(row, "status");
    const std::string expected = field_or_dash(row, "expected");
    const std::string evidence = field_or_dash(row, "evidence");
    const std::string remark = field_or_dash(row, "remark");
    if (status == "MATCH" && expected == "MATCH") continue;
    notes << "- **" << markdown_escape(field_or_dash(row, "id")) << "** (" << status_cell(status, flavor) << "): ";
    std::vector<std::string> parts;
    // a row not at the paper's scale always has its reason: typed, or generated from its run; a
    // FAIL has what is known of it, where published.tsv gives its evidence
    if ((expected != "MATCH" || status == "NOT-AT-PAPER-SCALE" || status == "FAIL") && evidence != "-")
      parts.push_back(markdown_escape(evidence));
    if (remark != "-") parts.push_back(markdown_escape(remark));
    if (parts.empty() && status == "FAIL") parts.push_back("the reproduced value is outside the tolerance");
    if (parts.empty() && status == "NOT-REPRODUCED-YET") parts.push_back("the study has not been built yet");
    notes << join(parts, "; ") << "\n";
  }
  if (!notes.str().empty()) {
    md << "### Known differences, disagreements, values not at the paper's scale, and remarks\n\n"
          "A known difference is an error of the paper's own, with its evidence. A disagreement was measured "
          "at the paper's scale, in a steady window, and is neither the paper's error nor ours as far as the "
          "evidence goes: it is never counted as reproduced. A value not at the paper's scale comes from a run "
          "that differs from the paper's setup in size or duration, or whose averaging window is not steady: "
          "it is compared and shown, but counted neither as reproduced nor as the paper's error.\n\n"
       << notes.str() << "\n";
  }

  std::ostringstream quotes;
  for (const auto& row : in.comparison->rows) {
    const std::string quote = field_or_dash(row, "quote");
    if (quote == "-") continue;
    quotes << "- **" << markdown_escape(field_or_dash(row, "id")) << "** ("
           << markdown_escape(field_or_dash(row, "source")) << "): “" << markdown_escape(quote) << "”\n";
  }
  if (!quotes.str().empty()) md << "### The paper's words\n\n" << quotes.str() << "\n";
}

}  // namespace

std::set<std::string> figure_numbers(const std::string& source) {
  // Every number after "Fig."/"Figs." up to the next ';' ("Fig. 6.3(a)", "Figs. 10 and 12",
  // "Figs. 9-12"), preceded by a blank or a comma (so "radau5" and "(6.5)" are no figures).
  // Hand-written: std::regex trips GCC 12's -Wmaybe-uninitialized under the sanitizers.
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::set<std::string> numbers;
  for (std::size_t at = source.find("Fig"); at != std::string::npos; at = source.find("Fig", at + 3)) {
    std::size_t i = at + 3;
    if (i < source.size() && source[i] == 's') ++i;
    if (i >= source.size() || source[i] != '.') continue;
    const std::size_t stop = std::min(source.find(';', i), source.size());
    for (++i; i < stop; ++i) {
      if (!digit(source[i]) || !(source[i - 1] == ' ' || source[i - 1] == ',')) continue;
      std::size_t j = i;
      while (j < stop && digit(source[j])) ++j;
      if (j + 1 < stop && source[j] == '.' && digit(source[j + 1])) {
        ++j;
        while (j < stop && digit(source[j])) ++j;
      }
      const std::string number = source.substr(i, j - i);
      numbers.insert(number);
      if (j + 1 < stop && source[j] == '-' && digit(source[j + 1]) && number.find('.') == std::string::npos) {
        std::size_t k = j + 1;
        while (k < stop && digit(source[k])) ++k;
        const int from = std::stoi(number), to = std::stoi(source.substr(j + 1, k - j - 1));
        for (int n = from + 1; n <= to && n - from < 100; ++n) numbers.insert(std::to_string(n));
        j = k;
      }
      i = j;
    }
  }
  return numbers;
}

std::string figure_number(const std::string& name) {
  // fig<digits>[_<digits>][<one lower-case letter>]
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  if (name.rfind("fig", 0) != 0) return "";
  std::size_t i = 3, j = 3;
  while (j < name.size() && digit(name[j])) ++j;
  if (j == i) return "";
  std::string number = name.substr(i, j - i);
  if (j < name.size() && name[j] == '_') {
    std::size_t k = j + 1;
    while (k < name.size() && digit(name[k])) ++k;
    if (k == j + 1) return "";
    number += "." + name.substr(j + 1, k - j - 1);
    j = k;
  }
  if (j < name.size() && std::islower(static_cast<unsigned char>(name[j]))) ++j;
  return j == name.size() ? number : "";
}

namespace {

// The comparison rows whose source names the figure (Fig. N of the paper, for a figure script
// figN, figN_M or figN_Ma): the values the figure supports, shown beside it.
void supported_rows(std::ostringstream& md, const ReportInput& in, const FigureEntry& f, Flavor flavor) {
  const std::string number = figure_number(f.name);
  if (number.empty() || !in.comparison) return;
  std::ostringstream rows;
  for (const auto& row : in.comparison->rows)
    if (figure_numbers(field_or_dash(row, "source")).count(number)) {
      const std::string relation = field_or_dash(row, "relation");
      rows << "| " << markdown_escape(field_or_dash(row, "id")) << " | " << code(field_or_dash(row, "scalar")) << " | "
           << markdown_escape((relation == "=" ? "" : relation + " ") + field_or_dash(row, "published")) << " | "
           << reproduced_cell(row) << " | " << status_cell(field_or_dash(row, "status"), flavor) << " | "
           << run_cell(row, flavor) << " |\n";
    }
  if (rows.str().empty()) return;
  md << "Values of Fig. " << number << " of the paper:\n\n"
     << "| id | quantity | published | reproduced | status | run "
        "|\n|----|----------|----------|----------|------|------|\n"
     << rows.str() << "\n";
}

void figure_table(std::ostringstream& md, const FigureEntry& f, Flavor flavor) {
  if (f.table_source.empty()) return;
  if (!f.table) {
    md << alarm("MISSING TABLE " + markdown_escape(f.table_source) + ": " + markdown_escape(f.table_error), flavor)
       << "\n\n";
    return;
  }
  md << "Data of the figure, " << code(f.table_source) << ":\n\n|";
  for (const TsvColumn& c : f.table->columns) md << " " << markdown_escape(c.name + " [" + c.unit + "]") << " |";
  md << "\n|";
  for (std::size_t k = 0; k < f.table->columns.size(); ++k) md << "---:|";
  md << "\n";
  for (const auto& row : f.table->rows) {
    md << "|";
    for (double x : row) md << " " << format_g(x, 4) << " |";  // four significant digits
    md << "\n";
  }
  md << "\n";
}

void figures_section(std::ostringstream& md, const ReportInput& in, Flavor flavor) {
  if (in.figures.empty()) return;
  md << "## Figures\n\n";
  for (const FigureEntry& f : in.figures) {
    md << "### " << markdown_escape(f.name) << "\n\n";
    if (f.have_png) {
      md << "![" << markdown_escape(f.caption) << "](" << f.png << ")\n\n";
    } else {
      md << alarm("MISSING FIGURE " + markdown_escape(f.name) + ": " + markdown_escape(f.png) + " was not rendered",
                  flavor)
         << "\n\n"
         << "Caption: " << markdown_escape(f.caption) << "\n\n";
    }
    md << (f.have_pdf ? "[PDF](" + f.pdf + ")" : alarm("PDF missing: " + markdown_escape(f.pdf), flavor))
       << " · script " << code(f.script) << "\n\n";
    figure_table(md, f, flavor);
    supported_rows(md, in, f, flavor);
  }
}

void assumptions_section(std::ostringstream& md, const ReportInput& in) {
  // The union over runs: one line per (key, value, note), with the runs it holds in.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::string>> table;
  for (const RunRecord& run : in.runs) {
    if (!run.json.contains("assumptions")) continue;
    for (const auto& a : run.json["assumptions"]) {
      table[{json_text(a, {"key"}), json_text(a, {"value"}), json_text(a, {"note"}, "")}].push_back(run.study);
    }
  }
  md << "## Assumptions in effect\n\n";
  if (table.empty()) {
    md << "No run records a value the paper does not state.\n\n";
    return;
  }
  md << "Values the paper does not state (ASSUMED, RECONSTRUCTED or a TYPO correction in the specification), "
        "as recorded by the runs.\n\n"
        "| key | value | note | runs |\n"
        "|-----------|----------|--------------------------------|------------|\n";
  for (const auto& [entry, studies] : table) {
    const auto& [key, value, note] = entry;
    md << "| " << code(key) << " | " << code(value) << " | " << markdown_escape(note) << " | "
       << markdown_escape(join(studies, ", ")) << " |\n";
  }
  md << "\n";
}

void notes_section(std::ostringstream& md, const ReportInput& in) {
  bool any = false;
  for (const RunRecord& run : in.runs) any = any || (run.json.contains("notes") && !run.json["notes"].empty());
  if (!any) return;
  md << "## Notes of the runs\n\n";
  for (const RunRecord& run : in.runs) {
    if (!run.json.contains("notes") || run.json["notes"].empty()) continue;
    md << "### " << markdown_escape(run.study) << "\n\n";
    for (const auto& note : run.json["notes"]) {
      md << "- " << markdown_escape(note.is_string() ? note.get<std::string>() : note.dump()) << "\n";
    }
    md << "\n";
  }
}

std::string number_text(const nlohmann::json& value) {
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number()) {
    const double x = value.get<double>();
    if (x == std::floor(x) && std::abs(x) < 1e15) return std::to_string(static_cast<long long>(x));
    return format_g(x, 6);
  }
  return value.is_string() ? value.get<std::string>() : value.dump();
}

void provenance_section(std::ostringstream& md, const ReportInput& in, Flavor flavor) {
  md << "## Provenance\n\n";
  if (in.runs.empty()) {
    md << alarm("No runs found in " + markdown_escape(in.results) + ".", flavor) << "\n\n";
    return;
  }
  md << "Every run in " << code(in.results) << "; the run id hashes the solver, its version, the source revision and "
     << "the effective configuration.\n\n"
     << "| study | run id | solver | revision | config hash | wall time |\n"
     << "|----------|------------------|--------------|------------|------------------|----------|\n";
  for (const RunRecord& run : in.runs) {
    const auto& j = run.json;
    const bool modified = j.contains("solver") && j["solver"].value("modified", false);
    std::string revision = json_text(j, {"solver", "revision"});
    if (revision.size() > 12) revision = revision.substr(0, 12);
    std::string wall = "?";
    if (j.contains("wall_time_s") && j["wall_time_s"].is_number())
      wall = format_g(j["wall_time_s"].get<double>(), 3) + " s";
    md << "| " << markdown_escape(run.study) << " | " << code(run.run_id) << " | "
       << markdown_escape(json_text(j, {"solver", "name"}) + " " + json_text(j, {"solver", "version"})) << " | "
       << code(revision) << (modified ? std::string(" ").append(alarm("modified", flavor)) : std::string()) << " | "
       << code(json_text(j, {"config", "hash"})) << " | " << wall << " |\n";
  }
  md << "\n";
  for (const RunRecord& run : in.runs) {
    const auto& j = run.json;
    const bool modified = j.contains("solver") && j["solver"].value("modified", false);
    md << "### " << markdown_escape(run.study) << " (run " << code(run.run_id) << ")"
       << (flavor == Flavor::pandoc ? " {#run-" + run.run_id.substr(0, 16) + "}" : std::string()) << "\n\n";
    md << "- solver: " << markdown_escape(json_text(j, {"solver", "name"})) << " "
       << markdown_escape(json_text(j, {"solver", "version"})) << ", revision "
       << code(json_text(j, {"solver", "revision"}))
       << (modified ? std::string(" ").append(alarm("(built from a modified tree)", flavor))
                    : std::string(" (clean tree)"))
       << "\n";
    md << "- build: " << markdown_escape(json_text(j, {"build", "type"})) << ", "
       << markdown_escape(json_text(j, {"build", "compiler"})) << ", flags "
       << code(json_text(j, {"build", "flags"}, "")) << "\n";
    md << "- libraries: SUNDIALS " << markdown_escape(json_text(j, {"build", "sundials"})) << ", Eigen "
       << markdown_escape(json_text(j, {"build", "eigen"})) << ", Boost "
       << markdown_escape(json_text(j, {"build", "boost"})) << "\n";
    md << "- configuration: " << code(json_text(j, {"config", "file"}, "(none)"));
    if (j.contains("config") && j["config"].is_object() && j["config"].contains("bases") &&
        j["config"]["bases"].is_array())
      for (const auto& base : j["config"]["bases"])
        if (base.is_string()) md << " on " << code(base.get<std::string>());
    md << ", hash " << code(json_text(j, {"config", "hash"})) << "\n";
    md << "- command: " << code(json_text(j, {"command_line"})) << "\n";
    md << "- started " << markdown_escape(json_text(j, {"start_utc"})) << ", wall time "
       << (j.contains("wall_time_s") ? number_text(j["wall_time_s"]) + " s" : std::string("?")) << "\n";
    if (j.contains("statistics") && !j["statistics"].empty()) {
      md << "- solver statistics:\n";
      for (const auto& [group, values] : j["statistics"].items()) {
        std::vector<std::string> items;
        if (values.is_object()) {
          for (const auto& [name, value] : values.items()) {
            items.push_back(markdown_escape(name) + " " + markdown_escape(number_text(value)));
          }
        }
        md << "    - " << markdown_escape(group) << ": " << join(items, ", ") << "\n";
      }
    }
    if (j.contains("files") && !j["files"].empty()) {
      md << "- files:\n";
      for (const auto& file : j["files"]) {
        md << "    - " << code(json_text(file, {"name"})) << ": "
           << markdown_escape(json_text(file, {"description"}, "")) << "\n";
      }
    }
    md << "\n";
  }
}

}  // namespace

std::string render_records(const ReportInput& in, Flavor flavor) {
  std::ostringstream md;
  for (const RunRecord& run : in.runs) {
    const auto record = std::find_if(in.records.begin(), in.records.end(), [&](const RecordEntry& r) {
      return r.run_id == run.run_id && r.study == run.study;
    });
    if (record == in.records.end()) continue;
    if (md.str().empty())
      md << "## Runs of record\n\n"
         << "A run too long for `make all` is made once (hours), archived in " << code(in.records_dir)
         << " and imported by `make all` after its manifest is checked, never re-run here: the values compared "
         << "from it are the record's (" << code(in.records_dir + "/README.md") << ").\n\n";
    const auto& j = run.json;
    std::vector<std::string> rows;
    if (in.comparison)
      for (const auto& row : in.comparison->rows)
        if (field_or_dash(row, "scalar").starts_with(run.study + "/")) rows.push_back(field_or_dash(row, "id"));
    const std::string revision = json_text(j, {"solver", "revision"});
    const bool modified = j.contains("solver") && j["solver"].value("modified", false);
    std::string hours = "?", seconds = "?", earlier;
    if (j.contains("wall_time_s") && j["wall_time_s"].is_number()) {
      hours = format_g(j["wall_time_s"].get<double>() / 3600.0, 3);
      seconds = format_g(j["wall_time_s"].get<double>(), 6);
      // a run made in parts (restart.from): the runs it went on from, recorded by the solver
      if (const std::optional<double> before = find_statistic(j, "restart", "earlier_runs_wall_seconds")) {
        earlier = "; " + format_g((*before + j["wall_time_s"].get<double>()) / 3600.0, 3) +
                  " hours with the runs it goes on from (" + format_g(*before, 6) + " s before it)";
      }
    }
    md << "### " << markdown_escape(run.study) << "\n\n"
       << "- run " << code(run.run_id)
       << (flavor == Flavor::pandoc ? " ([provenance](#run-" + run.run_id.substr(0, 16) + "))" : std::string()) << "\n"
       << "- archive " << code(record->archive_id) << ", "
       << code(in.records_dir + "/" + record->archive_id + ".tar.gz") << "\n"
       << "- made by " << markdown_escape(json_text(j, {"solver", "name"}) + " " + json_text(j, {"solver", "version"}))
       << " at revision " << code(revision) << (modified ? " (a modified tree)" : " (clean tree)") << " on the machine "
       << code(json_text(j, {"host"})) << ", started " << markdown_escape(json_text(j, {"start_utc"})) << ", in "
       << hours << " hours (" << seconds << " s of wall time" << earlier << ")\n"
       << "- configuration " << code(json_text(j, {"config", "file"}, "(none)")) << "\n"
       << "- compared from it: "
       << (rows.empty() ? std::string("no published value") : markdown_escape(join(rows, ", "))) << "\n\n";
    const std::string verify = "make verify ARCHIVE=" + in.records_dir + "/" + record->archive_id +
                               ".tar.gz re-runs it with this build (hours), make channel-steady makes a new record.";
    const auto same_solvers = [&in](const std::string& r) {
      return std::find(in.same_solvers.begin(), in.same_solvers.end(), r) != in.same_solvers.end();
    };
    const bool same = revision == in.build_revision || (same_solvers(revision) && same_solvers(in.build_revision));
    if (!same)
      md << alarm("The record is older than this build: it was made at revision " + revision +
                      (modified ? " (a modified tree)" : "") + ", and this build's solvers are at " +
                      (in.build_revision.empty() ? std::string("an unknown revision") : in.build_revision) +
                      (in.build_modified ? " (a modified tree)" : "") +
                      ". Its values are the record's, not re-made by this build: " + verify,
                  flavor)
         << "\n\n";
    else if (modified || in.build_modified)
      md << alarm(
                "The record was made at this build's revision, " + revision + ", but " +
                    (modified ? std::string("from a modified tree") : std::string("this build is of a modified tree")) +
                    ": its values may not be what this build writes. " + verify,
                flavor)
         << "\n\n";
    else if (revision == in.build_revision)
      md << "The record was made at this build's revision.\n\n";
    else
      md << "The record was made at revision " << code(revision) << ", this build at " << code(in.build_revision)
         << ": no source of the paper's solvers changed between them, so its values are what this build writes.\n\n";
  }
  return md.str();
}

namespace {

/// One item per compared row of the status: the paper's value and words, the reproduction, the
/// evidence. The errata list the known differences so, the report its disagreements.
std::string difference_items(const ReportInput& in, const std::string& status, Flavor flavor) {
  std::ostringstream md;
  if (!in.comparison) return "";
  for (const auto& row : in.comparison->rows) {
    if (field_or_dash(row, "status") != status) continue;
    md << "- **" << markdown_escape(field_or_dash(row, "id")) << "** (" << markdown_escape(field_or_dash(row, "source"))
       << "), " << status_cell(status, flavor) << ": the paper gives "
       << markdown_escape(field_or_dash(row, "relation") == "="
                              ? field_or_dash(row, "published")
                              : field_or_dash(row, "relation") + " " + field_or_dash(row, "published"))
       << " for " << code(field_or_dash(row, "scalar")) << ", the reproduction " << reproduced_cell(row) << " (run "
       << run_cell(row, Flavor::markdown) << ")";
    const std::string quote = field_or_dash(row, "quote");
    if (quote != "-") md << "; the paper: “" << markdown_escape(quote) << "”";
    const std::string evidence = field_or_dash(row, "evidence");
    if (evidence != "-") md << ". Evidence: " << markdown_escape(evidence);
    md << "\n";
  }
  return md.str();
}

/// The disagreements with the paper, each with its evidence: measured at the paper's scale and
/// kept in view, never counted as reproduced.
void disagreements_section(std::ostringstream& md, const ReportInput& in, Flavor flavor) {
  const std::string items = difference_items(in, "DISAGREES", flavor);
  if (items.empty()) return;
  md << "## Disagreements with the paper\n\n"
        "Each value below was measured at the paper's scale, in a steady window where it is a time average, "
        "and lies outside its tolerance. The evidence says what was measured and tried: it shows neither an "
        "error of the paper's nor one of ours. `make check-published STRICT=1` fails on these rows.\n\n"
     << items << "\n";
}

}  // namespace

std::string render_report(const ReportInput& in, Flavor flavor) {
  std::ostringstream md;
  md << "# " << markdown_escape(in.title) << "\n\n";
  if (in.comparison) {
    const std::string sentence = markdown_escape(count_sentence(in.comparison->counts));
    md << (flavor == Flavor::markdown ? "**" + sentence + "**" : "[" + sentence + "]{.lead}") << "\n\n";
    if (in.comparison->counts.failures() > 0) {
      std::vector<std::string> ids;
      for (const auto& row : in.comparison->rows) {
        const std::string status = field_or_dash(row, "status");
        if (status == "FAIL" || status == "MISSING-RUN") {
          ids.push_back(markdown_escape(field_or_dash(row, "id")) + (status == "FAIL" ? "" : " (missing run)"));
        }
      }
      md << alarm("Failures: " + join(ids, ", "), flavor) << "\n\n";
    }
  } else {
    md << alarm("No comparison with the published values yet.", flavor) << "\n\n";
  }
  md << "The paper's errors found by the reproduction, with the evidence: [errata](errata.html).\n\n";
  std::size_t missing = 0;
  for (const FigureEntry& f : in.figures) missing += f.have_png ? 0 : 1;
  if (missing > 0) md << alarm(plural(missing, "figure is", "figures are") + " missing.", flavor) << "\n\n";

  md << render_records(in, flavor);
  disagreements_section(md, in, flavor);
  comparison_section(md, in, flavor);
  if (!trim(in.intro).empty()) md << in.intro << (in.intro.back() == '\n' ? "\n" : "\n\n");
  figures_section(md, in, flavor);
  assumptions_section(md, in);
  notes_section(md, in);
  provenance_section(md, in, flavor);
  return md.str();
}

std::string read_caption(const std::filesystem::path& script) {
  const std::string text = read_text(script, "figure-sources");
  const std::string first = lines(text).empty() ? "" : lines(text).front();
  const std::string prefix = "# caption:";
  if (first.rfind(prefix, 0) != 0 || trim(first.substr(prefix.size())).empty()) {
    throw InputError("figure-sources: the first line of '" + script.string() +
                     "' must be '# caption: <the figure's caption>'");
  }
  return trim(first.substr(prefix.size()));
}

std::string read_table_source(const std::filesystem::path& script) {
  const std::vector<std::string> all = lines(read_text(script, "figure-sources"));
  const std::string prefix = "# table:";
  if (all.size() < 2 || all[1].rfind(prefix, 0) != 0) return "";
  const std::string source = trim(all[1].substr(prefix.size()));
  const std::vector<std::string> parts = split(source, '/');
  const auto plain = [](const std::string& part) {
    return !part.empty() && part != "." && part != ".." && std::all_of(part.begin(), part.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '_' || c == '-' || c == '.';
    });
  };
  if (parts.size() != 2 || !plain(parts[0]) || !plain(parts[1]))
    throw InputError("figure-sources: the table of '" + script.string() + "' must be '# table: <study>/<file>', not '" +
                     source + "'");
  return source;
}

std::string render_errata(const ReportInput& in, Flavor flavor) {
  std::ostringstream md;
  md << "# " << markdown_escape(in.title) << ": errata\n\n";
  md << "The paper's own errors found by the reproduction (misprints, wrong coefficients, false claims), each "
        "with its evidence: every published value that the evidence shows to be wrong (a known difference), and "
        "every correction of the paper's text in effect in a run (a typo or a coefficient, recorded by the run "
        "as a TYPO assumption). A value compared from a run that is not at the paper's scale, or one that fails "
        "without an explanation, is no erratum of the paper: both are in the [report](index.html), with the "
        "full comparison.\n\n";
  md << "## Published values shown wrong\n\n";
  const std::string wrong = difference_items(in, "KNOWN-DIFFERENCE", flavor);
  md << (wrong.empty() ? "None: no published value is shown wrong.\n" : wrong);
  md << "\n## Corrections of the paper in effect\n\n";
  // one line per correction (key, value and note), naming every study whose run has it, in the
  // order first met: the channel's presets share theirs
  struct Correction {
    std::string key, value, note;
    std::vector<std::string> studies;
  };
  std::vector<Correction> corrections;
  for (const RunRecord& run : in.runs) {
    if (!run.json.contains("assumptions")) continue;
    for (const auto& a : run.json["assumptions"]) {
      Correction c{a.value("key", "?"), a.value("value", "?"), a.value("note", ""), {run.study}};
      if (c.note.find("TYPO") == std::string::npos) continue;
      const auto same = std::find_if(corrections.begin(), corrections.end(), [&c](const Correction& d) {
        return d.key == c.key && d.value == c.value && d.note == c.note;
      });
      if (same == corrections.end())
        corrections.push_back(std::move(c));
      else
        same->studies.push_back(run.study);
    }
  }
  for (const Correction& c : corrections)
    md << "- " << code(c.key) << " = " << code(c.value) << " (" << (c.studies.size() == 1 ? "study " : "studies ")
       << markdown_escape(join(c.studies, ", ")) << "): " << markdown_escape(c.note) << "\n";
  if (corrections.empty()) md << "No run corrects the paper's text (no TYPO assumption is in effect).\n";
  return md.str();
}

std::string render_index(const std::vector<IndexEntry>& entries, Flavor flavor) {
  std::ostringstream md;
  md << "# Reproductions\n\n";
  if (entries.empty()) {
    md << alarm("No reports found.", flavor) << "\n";
    return md.str();
  }
  md << "Each paper's report compares the reproduced values with the published ones and shows every figure, "
        "the assumptions in effect and the provenance of every run. A failure is a value outside its tolerance "
        "or a value whose study did not run; a value not reproduced yet belongs to a study not built yet. A known "
        "difference is an error of the paper's own, with its evidence; a value not at the paper's scale was "
        "compared from a run that differs from the paper's setup in size or duration, and counts neither as "
        "reproduced nor as a difference. A disagreement was measured at the paper's scale and differs, "
        "neither the paper's error nor ours as far as its evidence goes: never counted as reproduced.\n\n"
        "| paper | published values | reproduced | known differences | not at the paper's scale | disagreements | "
        "failures | missing runs | not reproduced yet | also | at a glance |\n"
        "|--------------------------|------|------|------|------|------|------|------|------|------|------|\n";
  // A failure count above zero stands out: bold in Markdown, a red badge in HTML.
  auto alarming = [&](std::size_t n, const std::string& cls) {
    if (n == 0) return std::string("0");
    const std::string text = std::to_string(n);
    return flavor == Flavor::markdown ? "**" + text + "**" : "[" + text + "]{.badge ." + cls + "}";
  };
  for (const IndexEntry& e : entries) {
    const Counts& c = e.counts;
    md << "| [" << markdown_escape(e.title) << "](" << e.link << ") | " << c.total << " | " << c.match << " | "
       << c.known_difference << " | " << c.not_at_paper_scale << " | " << alarming(c.disagrees, "disagrees") << " | "
       << alarming(c.fail, "fail") << " | " << alarming(c.missing_run, "missing-run") << " | " << c.not_reproduced_yet
       << " | ";
    std::vector<std::string> also;
    if (!e.errata_link.empty()) also.push_back("[errata](" + e.errata_link + ")");
    if (!e.pdf_link.empty()) also.push_back("[PDF](" + e.pdf_link + ")");
    md << (also.empty() ? "-" : join(also, " · ")) << " | ";
    // A figure of the report, small, linking to the report: the row's paper at a glance.
    md << (e.figure_link.empty() ? "-" : "[![](" + e.figure_link + "){height=90px}](" + e.link + ")") << " |\n";
  }
  return md.str();
}

const std::string& report_css() {
  static const std::string css = kReportCss;
  return css;
}

int render_html(const std::string& markdown, const std::string& title, const std::string& css,
                const std::filesystem::path& html) {
  if (!on_path("pandoc")) throw InputError("pandoc is not installed (pipeline/install-deps installs it)");
  const std::filesystem::path dir = html.parent_path().empty() ? "." : html.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw_io_error("cannot create the directory of", html, ec);
  std::string stem = ".";
  stem += html.filename().string() + "." + std::to_string(::getpid());
  const std::filesystem::path source = dir / (stem + ".md");
  const std::filesystem::path header = dir / (stem + ".style.html");
  const std::filesystem::path output = dir / (stem + ".html");
  write_atomic(source, markdown);
  write_atomic(header, "<style>\n" + css + "</style>\n");
  const int status =
      run_program({"pandoc", "--from=markdown", "--to=html5", "--standalone", "--metadata=pagetitle:" + title,
                   "--include-in-header=" + header.string(), "--output=" + output.string(), source.string()});
  std::filesystem::remove(source, ec);
  std::filesystem::remove(header, ec);
  if (status == 0) {
    std::filesystem::rename(output, html, ec);
    if (ec) {
      std::error_code ignored;
      std::filesystem::remove(output, ignored);
      throw_io_error("cannot move into place", html, ec);
    }
  } else {
    std::filesystem::remove(output, ec);
  }
  return status;
}

std::string relative_link(const std::filesystem::path& target, const std::filesystem::path& base) {
  const auto t = std::filesystem::weakly_canonical(std::filesystem::absolute(target));
  const auto b = std::filesystem::weakly_canonical(std::filesystem::absolute(base.empty() ? "." : base));
  return t.lexically_relative(b).generic_string();
}

}  // namespace cm::pipeline

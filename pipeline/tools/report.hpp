// A paper's report (reports/<paper>/index.md and index.html) and the index over all papers.
// The Markdown is built here; pandoc turns it into standalone HTML with the style of report.css.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/run_reader.hpp"
#include "tools/compare.hpp"

namespace cm::pipeline {

/// The plain Markdown file, or the variant fed to pandoc (statuses as coloured badges and
/// missing figures as alarms, through pandoc's bracketed spans).
enum class Flavor { markdown, pandoc };

struct FigureEntry {
  std::string name;      ///< fig5_3
  std::string caption;   ///< from the first line of its script, `# caption: ...`
  std::string script;    ///< the gnuplot script, as given (pipeline/<paper>/fig5_3.gp)
  std::string png, pdf;  ///< links relative to the report
  bool have_png = false, have_pdf = false;
  /// The data file shown as a table under the figure (`# table: <study>/<file>`, its second line),
  /// as named and as read; no table when the name is empty, an alarm when it could not be read.
  std::string table_source;
  std::optional<TsvData> table;
  std::string table_error;
};

/// A run of record (records/README.md): a run too long for make all, made once, archived in
/// records/<archive id>.tar.gz and imported, never re-run; a line of records/index.tsv.
struct RecordEntry {
  std::string archive_id, run_id, study;  ///< study without the paper: channel_steady
};

struct ReportInput {
  std::string paper, title;
  std::optional<ComparisonTable> comparison;  ///< none when no comparison was made (said loudly)
  std::string comparison_name;                ///< the comparison file, for the text
  std::string intro;                          ///< Markdown, included as it is
  std::vector<FigureEntry> figures;
  std::vector<RunRecord> runs;
  std::string results;               ///< the results directory, for the text
  std::vector<RecordEntry> records;  ///< the runs of record of the paper (its lines of records/index.tsv)
  std::string records_dir = "records";
  std::string build_revision;  ///< the revision this build's solvers are at (cm::provenance)
  bool build_modified = false;
  /// The revisions at which the solvers' sources are those of the checkout (the last revision
  /// that changed them, and every later one): a record and a build both made at one of them were
  /// made by the same solvers, though at other revisions.
  std::vector<std::string> same_solvers;
};

/// The runs of record section. For each run of `input.runs` that a line of `input.records` names,
/// it gives its run id, archive id, revision, machine and the hours it took (its run.json) and the
/// rows compared from it. It says whether the run was made by another revision than this build's:
/// then its values are the record's, which this build did not re-make. Empty when no run is a record.
std::string render_records(const ReportInput& input, Flavor flavor);

/// The report, in the order of CONVENTIONS.md: the count, the comparison table with the evidence
/// of known differences, the introduction, the figures, the assumptions in effect, the notes of
/// the runs and the provenance of every run.
std::string render_report(const ReportInput& input, Flavor flavor);

/// The caption of a figure script: its first line must be `# caption: ...`; throws
/// cm::InputError naming the script otherwise (or when it does not exist).
std::string read_caption(const std::filesystem::path& script);

/// The second line of a figure's script, `# table: <study>/<file>`: a data file of the paper's
/// results to show as a table under the figure; empty when the line is not there. The name must
/// be a study's folder and a file in it (letters, digits, `_`, `-`, `.`), never a path beyond them.
std::string read_table_source(const std::filesystem::path& script);

struct IndexEntry {
  std::string paper, title, link;
  Counts counts;
  std::string errata_link, pdf_link;  ///< empty when the paper has no errata page or PDF
  std::string figure_link = "";       ///< a figure of the report shown beside its row, or empty
};

/// The errata page of a paper: the paper's own errors only. Every published value the evidence
/// shows wrong (KNOWN-DIFFERENCE) with the paper's words and the evidence, and every correction of
/// the paper's text in effect in a run (an assumption whose note says TYPO). A value compared from
/// a run not at the paper's scale (NOT-AT-PAPER-SCALE), or failing unexplained (FAIL), is none.
std::string render_errata(const ReportInput& input, Flavor flavor);
/// The index over all papers: a link to each paper's report and its counts (values, reproduced,
/// known differences, not at the paper's scale, failures, missing runs, not reproduced yet).
std::string render_index(const std::vector<IndexEntry>& entries, Flavor flavor);

/// The figure numbers a source names ("Sect. 5.3, Figs. 10 and 12" gives 10 and 12; "Fig. 6.3(a)"
/// gives 6.3; "Figs. 9-12" gives 9 to 12).
std::set<std::string> figure_numbers(const std::string& source);
/// The paper's figure number of a figure script's name (fig10 gives 10, fig6_3a gives 6.3), or ""
/// for a figure of the reproduction's own (rod_map).
std::string figure_number(const std::string& name);

/// Escapes text for Markdown (pandoc's and CommonMark's punctuation).
std::string markdown_escape(const std::string& text);

/// The style of the HTML reports (pipeline/tools/report.css, compiled in).
const std::string& report_css();

/// Renders Markdown to standalone HTML with pandoc, `css` embedded in a <style> element; writes
/// `html` atomically. Returns pandoc's exit status (0 on success); throws cm::InputError when
/// pandoc is not installed and cm::IoError when a file cannot be written.
int render_html(const std::string& markdown, const std::string& title, const std::string& css,
                const std::filesystem::path& html);

/// `target` relative to the directory `base` (both as given, relative to the working directory),
/// with forward slashes.
std::string relative_link(const std::filesystem::path& target, const std::filesystem::path& base);

}  // namespace cm::pipeline

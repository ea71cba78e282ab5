// cm_report: a paper's report, reports/<paper>/index.md and index.html, or the index over all papers.
//
// The report says first how much was reproduced, then shows the comparison with the published
// values (cm_compare's comparison.tsv) and the evidence for each known difference, the paper's
// introduction, every figure with its caption (a figure not rendered is flagged), the assumptions
// in effect, the notes of the runs and the provenance of every run. HTML comes from pandoc.
//
//   cm_report --paper=rollingball --title="Rolling ball on rails" --results=results/rollingball
//             --comparison=reports/rollingball/comparison.tsv --figures=reports/rollingball/figures
//             --figure-sources=pipeline/rollingball --figure-list=fig5_3,fig5_4
//             --intro=pipeline/rollingball/intro.md --out=reports/rollingball
//   cm_report --index=true --reports=reports --out=reports/index.html
//
// Runs are the visible subdirectories of --results holding a run.json: hidden ones
// (`.<study>.partial-<pid>`, `.<study>.old-<pid>`) are leftovers of interrupted runs and never
// reported. The index lists every visible subdirectory of --reports, each of which must hold a
// paper's report (comparison.tsv and index.html), with each paper's counts.
//
// Exit status: 0 written, 1 pandoc failed, 2 bad input, 74 an I/O error (a file that exists but
// cannot be read, an output that cannot be written), 70 an internal error. Bad input is a
// --results or --reports that is no directory, a --comparison or --intro that does not exist, a
// figure script without caption, a malformed comparison.tsv or run.json, or a run of another paper.
//
// The class ReportTool below is the tool; its main, cm_report.cpp, is one line over cm::tool_main.
#pragma once

#include <string>
#include <vector>

#include "core/tool.hpp"

namespace cm::pipeline {

/// The keys of cm_report.
struct ReportOptions {
  bool index = false, quiet = false;
  std::string paper, title, results, comparison, figures, figure_sources, figure_list, intro, reports, css, out,
      records;
  std::vector<std::string> index_figures;  // <paper>:<figure>, the figure beside each paper's row
  std::vector<std::string> same_solvers;   // revisions whose solvers' sources are this checkout's
};

/// One paper's report, or with --index the index over all reports: which keys each needs is
/// checked by the step that writes it.
class ReportTool {
 public:
  static constexpr cm::ToolInfo info{
      "cm_report", "Writes a paper's report (Markdown and HTML) or the index",
      "A paper's report needs --paper, --results, --comparison and --out (--figure-list also --figures and\n"
      "--figure-sources); the index (--index) needs --reports.\n"
      "Exit status: 0 written, 1 pandoc failed, 2 bad input, 74 an I/O error, 70 an internal error.",
      "[--quiet]"};

  void declare(cm::Config& config);

  int run(const cm::Config& config, const cm::Invocation& invocation);

 private:
  ReportOptions o_;
};

}  // namespace cm::pipeline

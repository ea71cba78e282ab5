#include "tools/report_tool.hpp"

#include <algorithm>
#include <cstdio>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "core/provenance.hpp"
#include "core/store.hpp"
#include "tools/archive.hpp"
#include "tools/report.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

namespace {

using cm::split;
using cm::trim;

/// The first line "# Title" of a report's Markdown, or the paper's name.
std::string report_title(const std::filesystem::path& markdown, const std::string& paper) {
  std::error_code ec;
  if (!std::filesystem::exists(markdown, ec)) return paper;
  const std::vector<std::string> text = lines(read_text(markdown, "reports"));
  if (!text.empty() && text.front().rfind("# ", 0) == 0) return trim(text.front().substr(2));
  return paper;
}

/// The style: report.css as compiled in, or the file given by --css.
std::string report_style(const ReportOptions& o) { return o.css.empty() ? report_css() : read_text(o.css, "css"); }

int write_html(const std::string& markdown, const std::string& title, const std::string& css,
               const std::filesystem::path& html) {
  const int status = render_html(markdown, title, css, html);
  if (status != 0) {
    std::fprintf(stderr, "cm_report: error: pandoc exited with status %d writing %s\n", status, html.c_str());
    return 1;
  }
  return 0;
}

/// The index over all reports (--index).
int write_index(const cm::Config& config, const ReportOptions& o) {
  if (o.reports.empty()) config.fail("reports", "required with --index: the reports directory");
  const std::filesystem::path reports = o.reports;
  const std::filesystem::path out = o.out.empty() ? reports / "index.html" : std::filesystem::path(o.out);
  std::error_code ec;
  if (!std::filesystem::is_directory(reports, ec)) config.fail("reports", "'" + reports.string() + "' is no directory");
  std::map<std::string, std::string> figure_of;
  for (const std::string& item : o.index_figures) {
    const auto parts = split(item, ':');
    if (parts.size() != 2 || parts[0].empty() || parts[1].empty())
      config.fail("index-figures", "'" + item + "' is not <paper>:<figure>");
    if (!figure_of.emplace(parts[0], parts[1]).second) config.fail("index-figures", parts[0] + " has two figures");
  }
  std::vector<IndexEntry> entries;
  for (const auto& dir : visible_subdirectories(reports)) {
    // Every paper's directory holds its report: one without would silently drop out of the index.
    for (const char* file : {"comparison.tsv", "index.html"}) {
      if (!std::filesystem::is_regular_file(dir / file, ec)) {
        config.fail("reports", "'" + dir.string() + "' has no " + file + " (not a paper's report: remove it)");
      }
    }
    const ComparisonTable table = read_comparison(dir / "comparison.tsv");
    const std::string paper = dir.filename().string();
    IndexEntry entry{paper,
                     report_title(dir / "index.md", paper),
                     relative_link(dir / "index.html", out.parent_path()),
                     table.counts,
                     "",
                     ""};
    if (std::filesystem::is_regular_file(dir / "errata.html", ec))
      entry.errata_link = relative_link(dir / "errata.html", out.parent_path());
    if (std::filesystem::is_regular_file(dir / (paper + ".pdf"), ec))
      entry.pdf_link = relative_link(dir / (paper + ".pdf"), out.parent_path());
    if (const auto figure = figure_of.find(paper); figure != figure_of.end()) {
      const auto png = dir / "figures" / (figure->second + ".png");
      if (!std::filesystem::is_regular_file(png, ec))
        config.fail("index-figures", "'" + png.string() + "' does not exist (a figure of " + paper + "'s report)");
      entry.figure_link = relative_link(png, out.parent_path());
      figure_of.erase(figure);
    }
    entries.push_back(std::move(entry));
  }
  if (!figure_of.empty()) config.fail("index-figures", "no report of " + figure_of.begin()->first + " to show it in");
  const int status = write_html(render_index(entries, Flavor::pandoc), "Reproductions", report_style(o), out);
  if (status == 0 && !o.quiet) std::printf("index of %zu reports -> %s\n", entries.size(), out.c_str());
  return status;
}

/// One paper's report.
int write_report(const cm::Config& config, const ReportOptions& o) {
  for (const auto& [key, value] :
       {std::pair{"paper", &o.paper}, {"results", &o.results}, {"comparison", &o.comparison}, {"out", &o.out}}) {
    if (value->empty()) config.fail(key, "required");
  }
  const std::filesystem::path out = o.out;
  ReportInput in;
  in.paper = o.paper;
  in.title = o.title.empty() ? in.paper : o.title;
  in.results = o.results;
  in.runs = cm::load_runs(in.results);
  for (const cm::RunRecord& run : in.runs) {
    const std::string paper = cm::json_text(run.json, {"paper"}, in.paper);
    if (paper != in.paper) {
      throw cm::InputError("results: " + (run.dir / "run.json").string() + " is a run of the paper '" + paper +
                           "', not of '" + in.paper + "'");
    }
  }
  // A paper whose studies are not built yet has no runs: its report says so (Provenance).
  if (in.runs.empty()) std::fprintf(stderr, "cm_report: warning: no runs in %s\n", in.results.c_str());

  // The runs of record of the paper (records/index.tsv, <archive id> TAB <run id> TAB <paper>/<study>).
  if (!o.records.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.records, ec))
      config.fail("records", "'" + o.records + "' is not a file (records/index.tsv)");
    in.records_dir = std::filesystem::path(o.records).parent_path().generic_string();
    if (in.records_dir.empty()) in.records_dir = ".";
    for (const IndexLine& line : read_index(o.records)) {
      if (!cm::is_run_id(line.archive_id) || !cm::is_run_id(line.run_id))
        config.fail("records", o.records + ": '" + line.archive_id + "' or '" + line.run_id + "' is not an id");
      if (line.study.starts_with(in.paper + "/"))
        in.records.push_back({line.archive_id, line.run_id, line.study.substr(in.paper.size() + 1)});
    }
  }
  in.build_revision = cm::provenance().revision;
  in.build_modified = cm::provenance().modified;
  for (const std::string& revision : o.same_solvers) {
    if (revision.size() != 40 || revision.find_first_not_of("0123456789abcdef") != std::string::npos)
      config.fail("same-solvers", "'" + revision + "' is not a revision (40 hexadecimal digits)");
    in.same_solvers.push_back(revision);
  }

  in.comparison_name = o.comparison;
  in.comparison = read_comparison(in.comparison_name);  // a missing file is bad input naming the key
  if (!o.intro.empty()) in.intro = read_text(o.intro, "intro");

  if (!o.figure_list.empty()) {
    if (o.figure_sources.empty()) config.fail("figure-sources", "required with --figure-list");
    if (o.figures.empty()) config.fail("figures", "required with --figure-list");
    const std::filesystem::path sources = o.figure_sources;
    const std::filesystem::path figures = o.figures;
    for (const std::string& item : split(o.figure_list, ',')) {
      const std::string name = trim(item);
      if (name.empty()) config.fail("figure-list", "empty figure name in '" + o.figure_list + "'");
      FigureEntry f;
      f.name = name;
      f.script = (sources / (name + ".gp")).generic_string();
      f.caption = read_caption(f.script);
      f.table_source = read_table_source(f.script);
      if (!f.table_source.empty()) {
        try {
          f.table = cm::read_tsv(std::filesystem::path(o.results) / f.table_source);
        } catch (const cm::InputError& e) {
          f.table_error = e.what();
          std::fprintf(stderr, "cm_report: warning: MISSING TABLE %s (%s)\n", f.table_source.c_str(), e.what());
        }
      }
      f.png = relative_link(figures / (name + ".png"), out);
      f.pdf = relative_link(figures / (name + ".pdf"), out);
      std::error_code ec;
      f.have_png = std::filesystem::is_regular_file(figures / (name + ".png"), ec);
      f.have_pdf = std::filesystem::is_regular_file(figures / (name + ".pdf"), ec);
      if (!f.have_png || !f.have_pdf) {
        std::fprintf(stderr, "cm_report: warning: MISSING FIGURE %s (%s%s%s not rendered from %s)\n", name.c_str(),
                     f.have_png ? "" : "png", !f.have_png && !f.have_pdf ? " and " : "", f.have_pdf ? "" : "pdf",
                     f.script.c_str());
      }
      in.figures.push_back(std::move(f));
    }
  }

  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw_io_error("cannot create the report directory", out, ec);
  write_atomic(out / "index.md", render_report(in, Flavor::markdown));
  write_atomic(out / "errata.md", render_errata(in, Flavor::markdown));
  int status =
      write_html(render_errata(in, Flavor::pandoc), in.title + ": errata", report_style(o), out / "errata.html");
  if (status == 0)
    status = write_html(render_report(in, Flavor::pandoc), in.title, report_style(o), out / "index.html");
  if (status == 0 && !o.quiet) {
    std::printf("%s: %s -> %s\n", in.paper.c_str(), count_sentence(in.comparison->counts).c_str(),
                (out / "index.html").c_str());
  }
  return status;
}

}  // namespace

void ReportTool::declare(cm::Config& config) {
  config.add("index", &o_.index, "write the index over all reports instead of one paper's report");
  config.add("paper", &o_.paper, "the paper's name (friction, maxdiss, rollingball, dem, basketball)");
  config.add("title", &o_.title, "the report's title (default: the paper's name)");
  config.add("results", &o_.results, "the paper's run directories: results/<paper>");
  config.add("comparison", &o_.comparison, "cm_compare's comparison.tsv");
  config.add("figures", &o_.figures, "the rendered figures: <fig>.png and <fig>.pdf");
  config.add("figure-sources", &o_.figure_sources, "the gnuplot scripts <fig>.gp, first line '# caption: ...'");
  config.add("figure-list", &o_.figure_list, "the figures to show, in order (comma list)");
  config.add("intro", &o_.intro, "a Markdown introduction to include");
  config.add("reports", &o_.reports, "with --index: the reports directory (reports/<paper>/comparison.tsv)");
  config.add("index-figures", &o_.index_figures,
             "with --index: the figure shown beside each paper's row, <paper>:<figure> (its figures/<figure>.png)");
  config.add("records", &o_.records,
             "the index of the runs of record (records/index.tsv): the report names each of the paper's, its "
             "archive, revision, machine and hours, and says when it is older than this build");
  config.add("same-solvers", &o_.same_solvers,
             "with --records: the revisions at which the sources of the paper's solvers are this checkout's (the "
             "last that changed them and every later one; the Makefile's same_solvers): a record made at one of "
             "them, by a build at one of them, is what this build writes");
  config.add("css", &o_.css, "a style sheet replacing the built-in one");
  config.add("out", &o_.out, "the report's directory (reports/<paper>), or with --index the index's HTML file");
}

int ReportTool::run(const cm::Config& config, const cm::Invocation& invocation) {
  o_.quiet = invocation.quiet;
  return o_.index ? write_index(config, o_) : write_report(config, o_);
}

}  // namespace cm::pipeline

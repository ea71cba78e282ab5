#include "tools/cite_tool.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run_reader.hpp"
#include "core/store.hpp"
#include "tools/archive.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

namespace {

std::string year(const Cited& run) { return run.date.size() >= 4 && run.date != "?" ? run.date.substr(0, 4) : "n.d."; }

std::string revision(const Cited& run) { return run.revision + (run.modified ? " (modified tree)" : ""); }

}  // namespace

std::vector<std::string> runs_named(const std::string& prefix, const fs::path& store,
                                    const std::vector<IndexLine>& index) {
  std::vector<std::string> matches;
  std::error_code ec;
  if (fs::is_directory(store))
    for (const auto& entry : fs::directory_iterator(store, ec)) {
      const std::string name = entry.path().filename().string();
      if (cm::is_run_id(name) && name.rfind(prefix, 0) == 0) matches.push_back(name);
    }
  for (const auto& line : index)
    if (line.run_id.rfind(prefix, 0) == 0 && std::find(matches.begin(), matches.end(), line.run_id) == matches.end())
      matches.push_back(line.run_id);
  return matches;
}

Cited cited_run(const std::string& id, const fs::path& store, const std::vector<IndexLine>& index) {
  Cited run;
  run.id = id;
  if (fs::exists(store / id / "run.json")) {
    const auto json = cm::parse_run_json(read_text(store / id / "run.json", "run"), (store / id / "run.json").string());
    run.paper = cm::json_text(json, {"paper"});
    run.study = cm::json_text(json, {"study"});
    run.version = cm::json_text(json, {"solver", "version"});
    run.revision = cm::json_text(json, {"solver", "revision"});
    run.modified = json.contains("solver") && json["solver"].value("modified", false);
    run.date = cm::json_text(json, {"start_utc"}).substr(0, 10);
  }
  for (const auto& line : index)
    if (line.run_id == id) {
      run.archive = line.archive_id;
      if (run.paper == "?") {
        const auto parts = cm::split(line.study, '/');
        if (parts.size() == 2) run.paper = parts[0], run.study = parts[1];
      }
    }
  return run;
}

std::string bibtex_citation(const Cited& run) {
  return "@misc{cm-run-" + run.id.substr(0, 12) + ",\n" + "  title        = {Contact mechanics reproductions: run " +
         run.paper + "/" + run.study + "},\n" + "  author       = {{The contact mechanics reproductions project}},\n" +
         "  year         = {" + year(run) + "},\n" + "  version      = {" + run.version + "},\n" +
         "  note         = {Run id " + run.id + "; software version " + run.version + ", revision " + revision(run) +
         (run.archive.empty() ? "" : "; archive " + run.archive) + "},\n" + "  howpublished = {" +
         (run.archive.empty() ? "run store, not archived yet" : "archive " + run.archive + ".tar.gz") + "}\n}\n\n";
}

std::string plain_citation(const Cited& run) {
  return "The contact mechanics reproductions project (" + year(run) + "). Run " + run.paper + "/" + run.study +
         ", run id " + run.id + ". Software version " + run.version + ", revision " + revision(run) + "." +
         (run.archive.empty() ? "" : " Archive " + run.archive + ".tar.gz.") + "\n";
}

void CiteTool::declare(cm::Config& config) {
  config.add("run", &id_, "the run id (or a unique prefix of at least 8 hex digits)");
  config.add("results", &results_, "the results directory (its store is <results>/runs)");
  config.add("archives", &archives_, "the archive folders, each with its index.tsv (archive, records)");
}

int CiteTool::run(const cm::Config& config) {
  if (id_.size() < 8 || id_.find_first_not_of("0123456789abcdef") != std::string::npos)
    config.fail("run", "'" + id_ + "' is not a run id (64 lower-case hex digits, or a prefix of at least 8)");
  const fs::path store = fs::path(results_) / "runs";
  std::vector<IndexLine> index;
  for (const std::string& folder : archives_)
    for (const IndexLine& line : read_index(fs::path(folder) / "index.tsv")) index.push_back(line);
  // The one run whose id starts with --run, in the store or in the archive index.
  const std::vector<std::string> matches = runs_named(id_, store, index);
  if (matches.empty()) config.fail("run", "no run " + id_ + " in " + store.string() + " nor in the archive index");
  if (matches.size() > 1)
    config.fail("run", "the prefix " + id_ + " names " + std::to_string(matches.size()) + " runs");
  const Cited run = cited_run(matches.front(), store, index);
  std::fputs(bibtex_citation(run).c_str(), stdout);
  std::fputs(plain_citation(run).c_str(), stdout);
  if (run.archive.empty())
    std::fprintf(stderr, "cm_cite: run %s is in no archive yet: `make archive` first, so that it can be cited\n",
                 run.id.c_str());
  return 0;
}

}  // namespace cm::pipeline

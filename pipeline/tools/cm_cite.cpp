// cm_cite: how to cite a run, as BibTeX and as plain text.
//
// The run is looked up by its id (the full 64 hex digits, or a unique prefix of at least 8) in the
// run store (<results>/runs/<run id>/run.json) and in the archive indexes (<archives>/index.tsv of
// each folder of --archives: archive/ of make archive, records/ of the runs of record).
// The citation names the run, its paper and study, the software version and source revision that
// made it, and the archive that holds it (the archive id is the SHA-256 of the archive's manifest).
// A run not archived yet is cited with a warning to archive it first (`make archive`).
//
//   cm_cite --run=<run id> [--results=results] [--archives=archive,records]
//
// Exit status: 0 printed; 2 bad input (no run with that id, an ambiguous prefix); 74 an I/O
// error; 70 an internal error.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/options.hpp"
#include "common/store.hpp"
#include "common/tool.hpp"
#include "tools/archive.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace {

using namespace cm::pipeline;

/// What a citation says of its run.
struct Cited {
  std::string id, paper = "?", study = "?", version = "?", revision = "?", date = "?";
  bool modified = false;
  std::string archive;  ///< the latest archive holding it, empty if none
};

class Cite {
 public:
  static constexpr cm::ToolInfo info{"cm_cite", "Prints how to cite a run: BibTeX and plain text",
                                     "Exit status: 0 printed, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config) {
    config.add("run", &id_, "the run id (or a unique prefix of at least 8 hex digits)");
    config.add("results", &results_, "the results directory (its store is <results>/runs)");
    config.add("archives", &archives_, "the archive folders, each with its index.tsv (archive, records)");
  }

  int run(const cm::Config& config) {
    if (id_.size() < 8 || id_.find_first_not_of("0123456789abcdef") != std::string::npos)
      config.fail("run", "'" + id_ + "' is not a run id (64 lower-case hex digits, or a prefix of at least 8)");
    store_ = fs::path(results_) / "runs";
    for (const std::string& folder : archives_)
      for (const IndexLine& line : read_index(fs::path(folder) / "index.tsv")) index_.push_back(line);
    const Cited run = describe(the_run_named(config));
    print_bibtex(run);
    print_plain(run);
    if (run.archive.empty())
      std::fprintf(stderr, "cm_cite: run %s is in no archive yet: `make archive` first, so that it can be cited\n",
                   run.id.c_str());
    return 0;
  }

 private:
  /// The one run whose id starts with --run, in the store or in the archive index.
  std::string the_run_named(const cm::Config& config) const {
    std::vector<std::string> matches;
    std::error_code ec;
    if (fs::is_directory(store_))
      for (const auto& entry : fs::directory_iterator(store_, ec)) {
        const std::string name = entry.path().filename().string();
        if (cm::is_run_id(name) && name.rfind(id_, 0) == 0) matches.push_back(name);
      }
    for (const auto& line : index_)
      if (line.run_id.rfind(id_, 0) == 0 && std::find(matches.begin(), matches.end(), line.run_id) == matches.end())
        matches.push_back(line.run_id);
    if (matches.empty()) config.fail("run", "no run " + id_ + " in " + store_.string() + " nor in the archive index");
    if (matches.size() > 1)
      config.fail("run", "the prefix " + id_ + " names " + std::to_string(matches.size()) + " runs");
    return matches.front();
  }

  /// The run's provenance (from its run.json when the store holds it) and the archive holding it.
  Cited describe(const std::string& id) const {
    Cited run;
    run.id = id;
    if (fs::exists(store_ / id / "run.json")) {
      const auto json = parse_run_json(read_text(store_ / id / "run.json", "run"), (store_ / id / "run.json").string());
      run.paper = json_text(json, {"paper"});
      run.study = json_text(json, {"study"});
      run.version = json_text(json, {"solver", "version"});
      run.revision = json_text(json, {"solver", "revision"});
      run.modified = json.contains("solver") && json["solver"].value("modified", false);
      run.date = json_text(json, {"start_utc"}).substr(0, 10);
    }
    for (const auto& line : index_)
      if (line.run_id == id) {
        run.archive = line.archive_id;
        if (run.paper == "?") {
          const auto parts = cm::split(line.study, '/');
          if (parts.size() == 2) run.paper = parts[0], run.study = parts[1];
        }
      }
    return run;
  }

  static std::string year(const Cited& run) {
    return run.date.size() >= 4 && run.date != "?" ? run.date.substr(0, 4) : "n.d.";
  }
  static std::string revision(const Cited& run) { return run.revision + (run.modified ? " (modified tree)" : ""); }

  static void print_bibtex(const Cited& run) {
    std::printf("@misc{cm-run-%s,\n", run.id.substr(0, 12).c_str());
    std::printf("  title        = {Contact mechanics reproductions: run %s/%s},\n", run.paper.c_str(),
                run.study.c_str());
    std::printf("  author       = {{The contact mechanics reproductions project}},\n");
    std::printf("  year         = {%s},\n", year(run).c_str());
    std::printf("  version      = {%s},\n", run.version.c_str());
    std::printf("  note         = {Run id %s; software version %s, revision %s%s},\n", run.id.c_str(),
                run.version.c_str(), revision(run).c_str(),
                run.archive.empty() ? "" : ("; archive " + run.archive).c_str());
    std::printf("  howpublished = {%s}\n}\n\n",
                run.archive.empty() ? "run store, not archived yet" : ("archive " + run.archive + ".tar.gz").c_str());
  }

  static void print_plain(const Cited& run) {
    std::printf(
        "The contact mechanics reproductions project (%s). Run %s/%s, run id %s. Software version %s, "
        "revision %s.%s\n",
        year(run).c_str(), run.paper.c_str(), run.study.c_str(), run.id.c_str(), run.version.c_str(),
        revision(run).c_str(), run.archive.empty() ? "" : (" Archive " + run.archive + ".tar.gz.").c_str());
  }

  std::string id_, results_ = "results";
  std::vector<std::string> archives_{"archive"};
  fs::path store_;
  std::vector<IndexLine> index_;
};

}  // namespace

int main(int argc, char** argv) { return cm::tool_main<Cite>(argc, argv); }

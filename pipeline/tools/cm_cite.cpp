// cm_cite: how to cite a run, as BibTeX and as plain text.
//
// The run is looked up by its id (the full 64 hex digits, or a unique prefix of at least 8) in the
// run store (<results>/runs/<run id>/run.json) and in the archive index (<archives>/index.tsv).
// The citation names the run, its paper and study, the software version and source revision that
// made it, and the archive that holds it (the archive id is the SHA-256 of the archive's bytes).
// A run not archived yet is cited with a warning to archive it first (`make archive`).
//
//   cm_cite --run=<run id> [--results=results] [--archives=archive]
//
// Exit status: 0 printed; 2 bad input (no run with that id, an ambiguous prefix); 74 an I/O
// error; 70 an internal error.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/store.hpp"
#include "tools/archive.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string id, results = "results", archives = "archive";
    cm::Config config("cm_cite", "Prints how to cite a run: BibTeX and plain text");
    config.add("run", &id, "the run id (or a unique prefix of at least 8 hex digits)");
    config.add("results", &results, "the results directory (its store is <results>/runs)");
    config.add("archives", &archives, "the archive directory (index.tsv)");
    config.set_usage(
        "usage: cm_cite --run=ID [--results=DIR] [--archives=DIR]\nExit status: 0 printed, 2 bad input, 74 an I/O "
        "error, 70 an internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (id.size() < 8 || id.find_first_not_of("0123456789abcdef") != std::string::npos)
      config.fail("run", "'" + id + "' is not a run id (64 lower-case hex digits, or a prefix of at least 8)");
    const fs::path store = fs::path(results) / "runs";
    std::vector<std::string> matches;
    std::error_code ec;
    if (fs::is_directory(store))
      for (const auto& entry : fs::directory_iterator(store, ec)) {
        const std::string name = entry.path().filename().string();
        if (cm::is_run_id(name) && name.rfind(id, 0) == 0) matches.push_back(name);
      }
    const auto index = read_index(fs::path(archives) / "index.tsv");
    for (const auto& line : index)
      if (line.run_id.rfind(id, 0) == 0 && std::find(matches.begin(), matches.end(), line.run_id) == matches.end())
        matches.push_back(line.run_id);
    if (matches.empty()) config.fail("run", "no run " + id + " in " + store.string() + " nor in the archive index");
    if (matches.size() > 1)
      config.fail("run", "the prefix " + id + " names " + std::to_string(matches.size()) + " runs");
    id = matches.front();

    std::string paper = "?", study = "?", version = "?", revision = "?", date = "?";
    bool modified = false;
    if (fs::exists(store / id / "run.json")) {
      const auto json = parse_run_json(read_text(store / id / "run.json", "run"), (store / id / "run.json").string());
      paper = json_text(json, {"paper"});
      study = json_text(json, {"study"});
      version = json_text(json, {"solver", "version"});
      revision = json_text(json, {"solver", "revision"});
      modified = json.contains("solver") && json["solver"].value("modified", false);
      date = json_text(json, {"start_utc"}).substr(0, 10);
    }
    std::vector<std::string> held;
    for (const auto& line : index)
      if (line.run_id == id) {
        held.push_back(line.archive_id);
        if (paper == "?") {
          const auto parts = cm::split(line.study, '/');
          if (parts.size() == 2) paper = parts[0], study = parts[1];
        }
      }
    const std::string year = date.size() >= 4 && date != "?" ? date.substr(0, 4) : "n.d.";
    const std::string archive = held.empty() ? "" : held.back();
    const std::string rev = revision + (modified ? " (modified tree)" : "");
    std::printf("@misc{cm-run-%s,\n", id.substr(0, 12).c_str());
    std::printf("  title        = {Contact mechanics reproductions: run %s/%s},\n", paper.c_str(), study.c_str());
    std::printf("  author       = {{The contact mechanics reproductions project}},\n");
    std::printf("  year         = {%s},\n", year.c_str());
    std::printf("  version      = {%s},\n", version.c_str());
    std::printf("  note         = {Run id %s; software version %s, revision %s%s},\n", id.c_str(), version.c_str(),
                rev.c_str(), archive.empty() ? "" : ("; archive " + archive).c_str());
    std::printf("  howpublished = {%s}\n}\n\n",
                archive.empty() ? "run store, not archived yet" : ("archive " + archive + ".tar.gz").c_str());
    std::printf(
        "The contact mechanics reproductions project (%s). Run %s/%s, run id %s. Software version %s, "
        "revision %s.%s\n",
        year.c_str(), paper.c_str(), study.c_str(), id.c_str(), version.c_str(), rev.c_str(),
        archive.empty() ? "" : (" Archive " + archive + ".tar.gz.").c_str());
    if (archive.empty())
      std::fprintf(stderr, "cm_cite: run %s is in no archive yet: `make archive` first, so that it can be cited\n",
                   id.c_str());
    return 0;
  });
}

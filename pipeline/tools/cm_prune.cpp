// cm_prune: removes the runs of the run store (results/runs/<run id>) that nothing keeps.
//
// A run is kept when a pointer names it (results/<paper>/<study>, a link into the store: the
// current run of a study), when it is pinned (a file results/pinned/<run id>, `make pin RUN=<id>`),
// when an archive holds it (a line of archive/index.tsv), or when a kept run read it (run.json's
// `reads`: the run whose saved frame a continued channel went on from). Anything in the store that is not a
// complete run written by a solver (a name that is no run id, a link, a run.json of another id,
// a file no run wrote) is left untouched and named. Hidden entries (runs being written) are
// never touched.
//
//   cm_prune --results=results --archives=archive [--dry-run]
//
// Exit status: 0 pruned (or nothing to prune); 2 bad input (no results directory); 74 an I/O
// error (a run that cannot be removed, an index that cannot be read); 70 an internal error.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"
#include "common/store.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    using namespace cm::pipeline;
    std::string results = "results", archives = "archive";
    bool dry_run = false;
    cm::Config config("cm_prune", "Removes the runs of the run store that no pointer, pin or archive keeps");
    config.add("results", &results, "the results directory (its store is <results>/runs)");
    config.add("archives", &archives, "the archive directory (its index.tsv lists the archived runs)");
    config.add("dry-run", &dry_run, "only list what would be removed");
    config.set_usage(
        "usage: cm_prune [--results=DIR] [--archives=DIR] [--dry-run]\nExit status: 0 done, 2 bad input, 74 an I/O "
        "error, 70 an internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    check_results_directory(results);
    const fs::path store = fs::path(results) / "runs";
    if (!fs::is_directory(store)) {
      std::printf("cm_prune: no run store at %s: nothing to prune\n", store.c_str());
      return 0;
    }

    std::set<std::string> named, pinned, archived;
    for (const auto& paper : visible_subdirectories(results)) {
      if (paper.filename() == "runs" || paper.filename() == "pinned") continue;
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(paper, ec)) {
        if (auto target = cm::store_link_target(entry.path(), store)) named.insert(target->filename().string());
      }
      if (ec) throw_io_error("cannot list", paper, ec);
    }
    std::error_code ec;
    if (fs::is_directory(fs::path(results) / "pinned")) {
      for (const auto& entry : fs::directory_iterator(fs::path(results) / "pinned", ec))
        pinned.insert(entry.path().filename().string());
      if (ec) throw_io_error("cannot list", fs::path(results) / "pinned", ec);
    }
    const fs::path index = fs::path(archives) / "index.tsv";
    if (fs::exists(index)) {
      for (const std::string& line : lines(read_text(index, "archives"))) {
        const auto fields = cm::split(line, '\t');
        if (fields.size() >= 2) archived.insert(fields[1]);
      }
    }

    // A run that a kept run read (the saved frame a channel went on from: run.json's `reads`) is
    // kept too, and so are the runs it read in turn.
    std::set<std::string> keep;
    keep.insert(named.begin(), named.end());
    keep.insert(pinned.begin(), pinned.end());
    keep.insert(archived.begin(), archived.end());
    std::vector<std::string> to_follow(keep.begin(), keep.end());
    while (!to_follow.empty()) {
      const std::string id = to_follow.back();
      to_follow.pop_back();
      if (!cm::is_run_id(id) || !fs::is_regular_file(store / id / "run.json")) continue;
      nlohmann::json json;
      try {
        json = parse_run_json(read_text(store / id / "run.json", "run"), (store / id / "run.json").string());
      } catch (const cm::InputError&) {
        continue;  // not a run written by a solver: it reads nothing
      }
      if (!json.contains("reads")) continue;
      for (const auto& [key, ids] : json["reads"].items())
        for (const auto& origin : ids)
          if (keep.insert(origin.get<std::string>()).second) to_follow.push_back(origin.get<std::string>());
    }

    std::size_t removed = 0, kept = 0, foreign = 0;
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(store, ec)) entries.push_back(entry.path());
    if (ec) throw_io_error("cannot list", store, ec);
    std::sort(entries.begin(), entries.end());
    for (const fs::path& entry : entries) {
      const std::string name = entry.filename().string();
      if (hidden(entry)) continue;  // a run being written (or the leftover its next run removes)
      if (keep.count(name)) {
        ++kept;
        continue;
      }
      const auto status = fs::symlink_status(entry, ec);
      bool is_run = cm::is_run_id(name) && status.type() == fs::file_type::directory;
      if (is_run) {
        try {
          const auto json = parse_run_json(read_text(entry / "run.json", "run"), (entry / "run.json").string());
          is_run = json["run_id"] == name && json.contains("paper") && json.contains("study");
          if (is_run) cm::check_replaceable(entry, json["paper"], json["study"]);
        } catch (const cm::InputError&) {
          is_run = false;
        }
      }
      if (!is_run) {
        ++foreign;
        std::printf("left   %s: not a complete run written by a solver\n", entry.c_str());
        continue;
      }
      std::printf("%s %s\n", dry_run ? "would remove" : "remove", entry.c_str());
      if (!dry_run) {
        fs::remove_all(entry, ec);
        if (ec) throw_io_error("cannot remove", entry, ec);
      }
      ++removed;
    }
    std::printf(
        "cm_prune: %zu run%s %s, %zu kept (named by a study, pinned, archived, or read by a kept run), %zu left as not "
        "runs\n",
        removed, removed == 1 ? "" : "s", dry_run ? "would be removed" : "removed", kept, foreign);
    return 0;
  });
}

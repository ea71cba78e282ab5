// cm_prune: removes the runs of the run store (results/runs/<run id>) that nothing keeps.
//
// A run is kept when a pointer names it (results/<paper>/<study>, a link into the store: the
// current run of a study), or when it is pinned (a file results/pinned/<run id>, `make pin
// RUN=<id>`). It is kept when an archive holds it (a line of archive/index.tsv), or when a kept
// run read it (run.json's `reads`, such as the frame a continued channel went on from). Anything
// in the store that is not a complete run written by a solver is left untouched and named: a name
// that is no run id, a link, a run.json of another id, a file no run wrote. Hidden entries are
// never touched, but for the folders of runs and imports whose process is gone
// (`.<run id>.partial-<pid>`, `.import-<pid>`: common/store.hpp, remove_dead_partials).
//
//   cm_prune --results=results --archives=archive [--dry-run]
//
// Exit status: 0 pruned (or nothing to prune); 2 bad input (no results directory); 74 an I/O
// error (a run that cannot be removed, an index that cannot be read); 70 an internal error.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "common/options.hpp"
#include "common/run.hpp"
#include "common/store.hpp"
#include "common/tool.hpp"
#include "tools/runs.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace {

using namespace cm::pipeline;

class Prune {
 public:
  static constexpr cm::ToolInfo info{"cm_prune",
                                     "Removes the runs of the run store that no pointer, pin or archive keeps",
                                     "Exit status: 0 done, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config) {
    config.add("results", &results_, "the results directory (its store is <results>/runs)");
    config.add("archives", &archives_, "the archive directory (its index.tsv lists the archived runs)");
    config.add("dry-run", &dry_run_, "only list what would be removed");
  }

  int run() {
    check_results_directory(results_);
    store_ = fs::path(results_) / "runs";
    if (!fs::is_directory(store_)) {
      std::printf("cm_prune: no run store at %s: nothing to prune\n", store_.c_str());
      return 0;
    }
    for (const fs::path& dir : cm::remove_dead_partials(store_, !dry_run_))
      std::printf("%s %s: left by a process that is gone\n", dry_run_ ? "would remove" : "remove", dir.c_str());
    std::set<std::string> keep = named_pinned_or_archived();
    add_runs_read(keep);
    sweep(keep);
    return 0;
  }

 private:
  /// The runs a study names (results/<paper>/<study>), pinned or held by an archive.
  std::set<std::string> named_pinned_or_archived() const {
    std::set<std::string> keep;
    for (const auto& paper : visible_subdirectories(results_)) {
      if (paper.filename() == "runs" || paper.filename() == "pinned") continue;
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(paper, ec)) {
        if (auto target = cm::store_link_target(entry.path(), store_)) keep.insert(target->filename().string());
      }
      if (ec) throw_io_error("cannot list", paper, ec);
    }
    std::error_code ec;
    if (fs::is_directory(fs::path(results_) / "pinned")) {
      for (const auto& entry : fs::directory_iterator(fs::path(results_) / "pinned", ec))
        keep.insert(entry.path().filename().string());
      if (ec) throw_io_error("cannot list", fs::path(results_) / "pinned", ec);
    }
    const fs::path index = fs::path(archives_) / "index.tsv";
    if (fs::exists(index)) {
      for (const std::string& line : lines(read_text(index, "archives"))) {
        const auto fields = cm::split(line, '\t');
        if (fields.size() >= 2) keep.insert(fields[1]);
      }
    }
    return keep;
  }

  /// A run that a kept run read (the saved frame a channel went on from: run.json's `reads`) is
  /// kept too, and so are the runs it read in turn.
  void add_runs_read(std::set<std::string>& keep) const {
    std::vector<std::string> to_follow(keep.begin(), keep.end());
    while (!to_follow.empty()) {
      const std::string id = to_follow.back();
      to_follow.pop_back();
      if (!cm::is_run_id(id) || !fs::is_regular_file(store_ / id / "run.json")) continue;
      nlohmann::json json;
      try {
        json = parse_run_json(read_text(store_ / id / "run.json", "run"), (store_ / id / "run.json").string());
      } catch (const cm::InputError&) {
        continue;  // not a run written by a solver: it reads nothing
      }
      if (!json.contains("reads")) continue;
      for (const auto& [key, ids] : json["reads"].items())
        for (const auto& origin : ids)
          if (keep.insert(origin.get<std::string>()).second) to_follow.push_back(origin.get<std::string>());
    }
  }

  /// Whether the entry of the store is a complete run written by a solver.
  static bool is_complete_run(const fs::path& entry) {
    std::error_code ec;
    const std::string name = entry.filename().string();
    if (!cm::is_run_id(name) || fs::symlink_status(entry, ec).type() != fs::file_type::directory) return false;
    try {
      const auto json = parse_run_json(read_text(entry / "run.json", "run"), (entry / "run.json").string());
      if (json["run_id"] != name || !json.contains("paper") || !json.contains("study")) return false;
      cm::check_replaceable(entry, json["paper"], json["study"]);
      return true;
    } catch (const cm::InputError&) {
      return false;
    }
  }

  /// Removes (or lists, with --dry-run) every run of the store not kept, and says what it did.
  void sweep(const std::set<std::string>& keep) const {
    std::size_t removed = 0, kept = 0, foreign = 0;
    std::error_code ec;
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(store_, ec)) entries.push_back(entry.path());
    if (ec) throw_io_error("cannot list", store_, ec);
    std::sort(entries.begin(), entries.end());
    for (const fs::path& entry : entries) {
      if (hidden(entry)) continue;  // a run being written (or the leftover its next run removes)
      if (keep.count(entry.filename().string())) {
        ++kept;
        continue;
      }
      if (!is_complete_run(entry)) {
        ++foreign;
        std::printf("left   %s: not a complete run written by a solver\n", entry.c_str());
        continue;
      }
      std::printf("%s %s\n", dry_run_ ? "would remove" : "remove", entry.c_str());
      if (!dry_run_) {
        fs::remove_all(entry, ec);
        if (ec) throw_io_error("cannot remove", entry, ec);
      }
      ++removed;
    }
    std::printf(
        "cm_prune: %zu run%s %s, %zu kept (named by a study, pinned, archived, or read by a kept run), %zu left as not "
        "runs\n",
        removed, removed == 1 ? "" : "s", dry_run_ ? "would be removed" : "removed", kept, foreign);
  }

  std::string results_ = "results", archives_ = "archive";
  bool dry_run_ = false;
  fs::path store_;
};

}  // namespace

int main(int argc, char** argv) { return cm::tool_main<Prune>(argc, argv); }

// cm_prune: removes the runs of the run store (results/runs/<run id>) that nothing keeps.
//
// A run is kept when a pointer names it (results/<paper>/<study>, a link into the store: the
// current run of a study), or when it is pinned (a file results/pinned/<run id>, `make pin
// RUN=<id>`). It is kept when an archive holds it (a line of archive/index.tsv), or when a kept
// run read it (run.json's `reads`, such as the frame a continued channel went on from). Anything
// in the store that is not a complete run written by a solver is left untouched and named: a name
// that is no run id, a link, a run.json of another id, a file no run wrote. Hidden entries are
// never touched, but for the folders of runs and imports whose process is gone
// (`.<run id>.partial-<pid>`, `.import-<pid>`: core/store.hpp, remove_dead_partials).
//
//   cm_prune --results=results --archives=archive [--dry-run]
//
// Exit status: 0 pruned (or nothing to prune); 2 bad input (no results directory); 74 an I/O
// error (a run that cannot be removed, an index that cannot be read); 70 an internal error.
//
// The class PruneTool below is the tool; its main, cm_prune.cpp, is one line over cm::tool_main.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/tool.hpp"

namespace cm::pipeline {

/// The run ids that cm_prune keeps in the store <results>/runs: those a study names (a link
/// results/<paper>/<study> into the store), those pinned (a file results/pinned/<run id>), those an
/// archive holds (the second column of <archives>/index.tsv), and every run a kept run read
/// (run.json's `reads`), and those it read in turn.
std::set<std::string> runs_kept(const std::filesystem::path& results, const std::filesystem::path& archives);

/// Whether an entry of the store is a complete run written by a solver: a folder named by a run
/// id whose run.json is of that id, names its paper and study, and holds only the files it lists.
bool is_complete_run(const std::filesystem::path& entry);

/// What cm_prune does with an entry of the run store.
enum class PruneVerdict {
  keep,    ///< a run kept (runs_kept)
  remove,  ///< a complete run that nothing keeps
  leave,   ///< not a complete run written by a solver: left untouched and named
};
struct PruneEntry {
  std::filesystem::path entry;
  PruneVerdict verdict;
};

/// Every visible entry of the store, sorted by name, with what cm_prune does with it; hidden entries
/// (a run being written, or the leftover its next run removes) are not listed.
std::vector<PruneEntry> prune_plan(const std::filesystem::path& store, const std::set<std::string>& keep);

class PruneTool {
 public:
  static constexpr cm::ToolInfo info{"cm_prune",
                                     "Removes the runs of the run store that no pointer, pin or archive keeps",
                                     "Exit status: 0 done, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config);

  int run();

 private:
  std::string results_ = "results", archives_ = "archive";
  bool dry_run_ = false;
};

}  // namespace cm::pipeline

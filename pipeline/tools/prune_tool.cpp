#include "tools/prune_tool.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run.hpp"
#include "core/run_reader.hpp"
#include "core/store.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

namespace {

/// The runs a study names (results/<paper>/<study>), pinned or held by an archive.
std::set<std::string> named_pinned_or_archived(const fs::path& results, const fs::path& archives,
                                               const fs::path& store) {
  std::set<std::string> keep;
  for (const auto& paper : visible_subdirectories(results)) {
    if (paper.filename() == "runs" || paper.filename() == "pinned") continue;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(paper, ec)) {
      if (auto target = cm::store_link_target(entry.path(), store)) keep.insert(target->filename().string());
    }
    if (ec) throw_io_error("cannot list", paper, ec);
  }
  std::error_code ec;
  if (fs::is_directory(results / "pinned")) {
    for (const auto& entry : fs::directory_iterator(results / "pinned", ec))
      keep.insert(entry.path().filename().string());
    if (ec) throw_io_error("cannot list", results / "pinned", ec);
  }
  const fs::path index = archives / "index.tsv";
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
void add_runs_read(const fs::path& store, std::set<std::string>& keep) {
  std::vector<std::string> to_follow(keep.begin(), keep.end());
  while (!to_follow.empty()) {
    const std::string id = to_follow.back();
    to_follow.pop_back();
    if (!cm::is_run_id(id) || !fs::is_regular_file(store / id / "run.json")) continue;
    nlohmann::json json;
    try {
      json = cm::parse_run_json(read_text(store / id / "run.json", "run"), (store / id / "run.json").string());
    } catch (const cm::InputError&) {
      continue;  // not a run written by a solver: it reads nothing
    }
    if (!json.contains("reads")) continue;
    for (const auto& [key, ids] : json["reads"].items())
      for (const auto& origin : ids)
        if (keep.insert(origin.get<std::string>()).second) to_follow.push_back(origin.get<std::string>());
  }
}

}  // namespace

std::set<std::string> runs_kept(const fs::path& results, const fs::path& archives) {
  const fs::path store = results / "runs";
  std::set<std::string> keep = named_pinned_or_archived(results, archives, store);
  add_runs_read(store, keep);
  return keep;
}

bool is_complete_run(const fs::path& entry) {
  std::error_code ec;
  const std::string name = entry.filename().string();
  if (!cm::is_run_id(name) || fs::symlink_status(entry, ec).type() != fs::file_type::directory) return false;
  try {
    const auto json = cm::parse_run_json(read_text(entry / "run.json", "run"), (entry / "run.json").string());
    if (json["run_id"] != name || !json.contains("paper") || !json.contains("study")) return false;
    cm::check_replaceable(entry, json["paper"], json["study"]);
    return true;
  } catch (const cm::InputError&) {
    return false;
  }
}

std::vector<PruneEntry> prune_plan(const fs::path& store, const std::set<std::string>& keep) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(store, ec)) entries.push_back(entry.path());
  if (ec) throw_io_error("cannot list", store, ec);
  std::sort(entries.begin(), entries.end());
  std::vector<PruneEntry> plan;
  for (const fs::path& entry : entries) {
    if (hidden(entry)) continue;  // a run being written (or the leftover its next run removes)
    const PruneVerdict verdict = keep.count(entry.filename().string()) ? PruneVerdict::keep
                                 : is_complete_run(entry)              ? PruneVerdict::remove
                                                                       : PruneVerdict::leave;
    plan.push_back({entry, verdict});
  }
  return plan;
}

void PruneTool::declare(cm::Config& config) {
  config.add("results", &results_, "the results directory (its store is <results>/runs)");
  config.add("archives", &archives_, "the archive directory (its index.tsv lists the archived runs)");
  config.add("dry-run", &dry_run_, "only list what would be removed");
}

int PruneTool::run() {
  cm::check_results_directory(results_);
  const fs::path store = fs::path(results_) / "runs";
  if (!fs::is_directory(store)) {
    std::printf("cm_prune: no run store at %s: nothing to prune\n", store.c_str());
    return 0;
  }
  for (const fs::path& dir : cm::remove_dead_partials(store, !dry_run_))
    std::printf("%s %s: left by a process that is gone\n", dry_run_ ? "would remove" : "remove", dir.c_str());
  // Every run of the store not kept is removed (or listed, with --dry-run), and what was done said.
  std::size_t removed = 0, kept = 0, foreign = 0;
  for (const auto& [entry, verdict] : prune_plan(store, runs_kept(results_, archives_))) {
    if (verdict == PruneVerdict::keep) {
      ++kept;
      continue;
    }
    if (verdict == PruneVerdict::leave) {
      ++foreign;
      std::printf("left   %s: not a complete run written by a solver\n", entry.c_str());
      continue;
    }
    std::printf("%s %s\n", dry_run_ ? "would remove" : "remove", entry.c_str());
    if (!dry_run_) {
      std::error_code ec;
      fs::remove_all(entry, ec);
      if (ec) throw_io_error("cannot remove", entry, ec);
    }
    ++removed;
  }
  std::printf(
      "cm_prune: %zu run%s %s, %zu kept (named by a study, pinned, archived, or read by a kept run), %zu left as not "
      "runs\n",
      removed, removed == 1 ? "" : "s", dry_run_ ? "would be removed" : "removed", kept, foreign);
  return 0;
}

}  // namespace cm::pipeline

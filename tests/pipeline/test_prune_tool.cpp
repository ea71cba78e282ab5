// Unit tests of cm_prune's choice (tools/prune_tool.hpp): which runs of a store are kept (named by
// a study, pinned, archived, or read by a kept run, transitively), which complete runs are removed,
// and which entries are left untouched as no runs of a solver.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "scratch.hpp"
#include "tools/prune_tool.hpp"

namespace {

namespace fs = std::filesystem;
using cm::pipeline::PruneVerdict;

/// A run id: 64 times the hex digit `d`.
std::string id_of(char d) { return std::string(64, d); }

void write_file(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

/// A run of fixture/<study> in the store, of id `id` (or another id in its run.json), reading `reads`.
void write_run(const fs::path& store, const std::string& id, const std::string& study, const std::string& reads = "",
               const std::string& json_id = "") {
  write_file(store / id / "run.json",
             R"({"schema": "cm-run 1", "paper": "fixture", "study": ")" + study + R"(", "run_id": ")" +
                 (json_id.empty() ? id : json_id) + R"(", "scalars": {})" +
                 (reads.empty() ? "" : R"(, "reads": {"restart.from": [")" + reads + R"("]})") + "}\n");
}

class PrunePlan : public cm::pipeline::test_support::ScratchTest {
 protected:
  void SetUp() override {
    ScratchTest::SetUp();
    results_ = dir_ / "results";
    archives_ = dir_ / "archive";
    store_ = results_ / "runs";
    write_run(store_, id_of('a'), "named", id_of('d'));  // named by results/fixture/named
    write_run(store_, id_of('b'), "pinned");
    write_run(store_, id_of('c'), "archived");
    write_run(store_, id_of('d'), "origin", id_of('e'));  // read by a, and reads e
    write_run(store_, id_of('e'), "origin_of_origin");
    write_run(store_, id_of('f'), "old");                       // nothing keeps it
    write_run(store_, id_of('1'), "other_id", "", id_of('2'));  // its run.json names another run
    write_run(store_, id_of('3'), "extra");
    write_file(store_ / id_of('3') / "notes.txt", "a file no run wrote\n");
    write_file(store_ / "scratch-notes" / "x", "not a run\n");
    write_file(store_ / ("." + id_of('4') + ".partial-999999") / "run.json", "{}\n");
    fs::create_directories(results_ / "fixture");
    fs::create_directory_symlink(fs::path("..") / "runs" / id_of('a'), results_ / "fixture" / "named");
    write_file(results_ / "pinned" / id_of('b'), "");
    write_file(archives_ / "index.tsv", id_of('9') + "\t" + id_of('c') + "\tfixture/archived\n");
  }
  fs::path results_, archives_, store_;
};

TEST_F(PrunePlan, KeepsNamedPinnedArchivedAndWhatTheyRead) {
  const std::set<std::string> kept = cm::pipeline::runs_kept(results_, archives_);
  EXPECT_EQ(kept, (std::set<std::string>{id_of('a'), id_of('b'), id_of('c'), id_of('d'), id_of('e')}));
}

TEST_F(PrunePlan, RemovesOnlyCompleteRunsNothingKeeps) {
  std::map<std::string, PruneVerdict> verdicts;
  for (const auto& [entry, verdict] : cm::pipeline::prune_plan(store_, cm::pipeline::runs_kept(results_, archives_)))
    verdicts[entry.filename().string()] = verdict;
  const std::map<std::string, PruneVerdict> expected{
      {id_of('1'), PruneVerdict::leave}, {id_of('3'), PruneVerdict::leave},  {id_of('a'), PruneVerdict::keep},
      {id_of('b'), PruneVerdict::keep},  {id_of('c'), PruneVerdict::keep},   {id_of('d'), PruneVerdict::keep},
      {id_of('e'), PruneVerdict::keep},  {id_of('f'), PruneVerdict::remove}, {"scratch-notes", PruneVerdict::leave}};
  EXPECT_EQ(verdicts, expected);  // the hidden folder of a run being written is not listed
}

TEST_F(PrunePlan, AnUnpinnedRunAndWhatOnlyItReadGo) {
  fs::remove(results_ / "fixture" / "named");  // a, and d and e which only a read, are no longer kept
  const std::set<std::string> kept = cm::pipeline::runs_kept(results_, archives_);
  EXPECT_EQ(kept, (std::set<std::string>{id_of('b'), id_of('c')}));
  std::size_t removed = 0;
  for (const auto& [entry, verdict] : cm::pipeline::prune_plan(store_, kept))
    removed += verdict == PruneVerdict::remove;
  EXPECT_EQ(removed, 4u);  // a, d, e and f
}

TEST_F(PrunePlan, ACompleteRunIsOfItsOwnId) {
  EXPECT_TRUE(cm::pipeline::is_complete_run(store_ / id_of('f')));
  EXPECT_FALSE(cm::pipeline::is_complete_run(store_ / id_of('1')));       // run.json of another id
  EXPECT_FALSE(cm::pipeline::is_complete_run(store_ / id_of('3')));       // a file no run wrote
  EXPECT_FALSE(cm::pipeline::is_complete_run(store_ / "scratch-notes"));  // no run id
  EXPECT_FALSE(cm::pipeline::is_complete_run(store_ / id_of('0')));       // nothing there
}

}  // namespace

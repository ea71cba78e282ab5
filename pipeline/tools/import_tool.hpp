// cm_import: brings a run of record (records/<archive id>.tar.gz) into the run store, never
// re-running it.
//
// A run too long for `make all` (paper 001's steady channel, hours) is made once, archived by
// cm_archive into records/ and committed (records/README.md). `make all` imports it with this tool,
// and results/<paper>/<study> becomes a link to results/runs/<run id>, read as any run.
//
// The record is untrusted input, read as cm_verify reads an archive (check_archive of
// tools/archive.hpp). It is unpacked into a hidden folder of the store, `results/runs/.import-<pid>`:
// tools skip it, and the next import, run or cm_prune removes it once its process is gone. Every
// name is checked before it becomes a path, and every file must be as the manifest lists it. Any
// damage is refused (exit 65), each finding named and the folder removed. Only then is each run
// imported:
//   - its folder is renamed into the store as <run id>, never over anything. A run of that id there
//     already is kept when it holds every file of the record's run with the record's SHA-256, and
//     refused otherwise (exit 2, naming the file that differs);
//   - results/<paper>/<study> is made a link to it, replacing only a link into the store to a run
//     of the same paper and study, or a pruned one. Anything else there is refused (exit 2).
//
//   cm_import --archive=records/<id>.tar.gz [--results=results] [--study=maxdiss/channel_steady]
//             [--run=<run id>] [--max_bytes=...]
//
// --study imports that run alone (default: every run of the record). --run is the run id that
// records/index.tsv gives it, which the record must hold: a mismatch is bad input.
//
// Exit status: 0 imported (or there already, the same), 65 a damaged record (nothing left behind),
// 2 bad input (such as a study or run the record does not hold, or a store entry or link that
// differs), 74 an I/O error, 70 an internal error.
//
// The class ImportTool below is the tool; its main, cm_import.cpp, is one line over cm::tool_main.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/tool.hpp"
#include "tools/archive.hpp"

namespace cm::pipeline {

class ImportTool {
 public:
  static constexpr cm::ToolInfo info{
      "cm_import", "Imports the runs of a record (an archive of cm_archive) into the run store, never re-running them",
      "Exit status: 0 imported, 65 a damaged record (nothing imported), 2 bad input, 74 an I/O error, 70 an "
      "internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  /// The record is a file named by its id; --study and --run are of the project's grammar.
  void check_the_keys(const cm::Config& config);

  /// The store, made if missing, and a hidden folder of this import's own in it (renames from it
  /// into the store stay on one file system).
  void make_the_folder();

  /// The runs to import: every run of the record, or the one of --study (with --run's id).
  std::vector<ArchivedRun> chosen(const cm::Config& config, const CheckedArchive& checked) const;

  /// One run moved into the store (or found there, the same) and linked from results/<paper>/<study>.
  void import(const CheckedArchive& checked, const ArchivedRun& r);

  /// A run of that id in the store already is kept only when it holds every file of the record's
  /// run with the record's SHA-256; anything else there is refused, untouched.
  void check_the_same(const CheckedArchive& checked, const ArchivedRun& r, const std::filesystem::path& entry) const;

  /// What may stand at results/<paper>/<study>: nothing, or a link into the store naming a run of
  /// the same paper and study (or a pruned one). A run folder written in place, a file or another
  /// link is someone's own, never replaced by an import.
  void check_the_pointer(const std::filesystem::path& pointer, const std::string& paper,
                         const std::string& study) const;

  std::string archive_, results_ = "results", study_, run_id_;
  long max_bytes_ = 2L << 30;

  std::string id_;
  std::filesystem::path store_;
  OwnFolder own_;  // the unpacking folder, removed when the import ends (imported or not)
};

}  // namespace cm::pipeline

// cm_verify: checks an archive of cm_archive and re-runs its runs with the current build.
//
// An archive to verify comes from elsewhere, so it is untrusted input from end to end
// (tools/archive.hpp), and the check happens in four steps, each complete before the next:
//
// Steps 1 to 3 are check_archive of tools/archive.hpp, the one reader of archives (cm_import reads
// a run of record with it too).
//
//  1. Unpack. A tar.gz is unpacked member by member into a folder of the scratch: regular files
//     and folders below cm-archive/ only, names of the project's grammar, within max_bytes; a
//     link of any kind, a device, an absolute or ".." member, a member twice, or one past the
//     budget is damage. An unpacked folder is checked the same way.
//  2. The manifest. Its SHA-256 is the archive id, so the id the archive is cited by (its file or
//     folder name <id>, or --id) must be it: a changed manifest is damage. Every file it lists
//     must be there with its SHA-256 and size, SHA256SUMS must say the same, and no other file
//     may be there.
//  3. The runs. Every name the manifest and each run.json give (paper, study, run id, solver,
//     data file, configuration key) must be of the grammar the project writes, every value of a
//     configuration must stay inside the archive when it is read as a path, and MPI ranks are
//     bounded by max_ranks. Nothing has been run until all of this holds.
//  4. Re-runs. Every run is run again from its archived configuration (every key of its run.json,
//     on the command line of the solver it names, a regular executable of --bin; under mpirun on
//     as many ranks when its statistics record MPI ranks) into the scratch, from a tree where
//     results/<paper>/<study> names the archived runs (a run that goes on from another run's saved
//     state reads the archived one; one that read a run the archive does not hold, such as the
//     settled frame a run of record went on from, reads it from --store by its run id, and is
//     NO-ORIGIN without it, naming the run it needs), and each data file is compared with the
//     archived one column by column (cm_tsvdiff's rule |a - b| <= abs + rel |a|), and each scalar
//     the same way. A table says, per run, REPRODUCES, DRIFT (the largest difference, relative to
//     what is allowed, and where), FAILED (the solver's exit status), NO-SOLVER or NO-ORIGIN.
//     With --batch_means (make verify of a run of record), a run whose data differ is compared
//     once more as a statistic: every average that carries a batch-means standard error (a
//     scalar X beside a scalar se_X) must agree with the archived one within `sigmas` combined
//     standard errors, |x - y| <= sigmas sqrt(se_x^2 + se_y^2); then it is WITHIN-ERROR, which
//     counts as verified. A re-run at the record's revision is still expected to REPRODUCE bit
//     for bit; another revision that changes the data (a chaotic flow: another trajectory) can
//     only be held to its averages.
//
// The scratch is a folder of cm_verify's own: --scratch must not exist or be empty (it is then
// kept, to be looked at), and without it a new temporary folder is made and removed at the end.
// Nothing outside it is written or removed.
//
//   cm_verify --archive=archive/<id>.tar.gz --bin=build/bin [--store=results/runs] [--scratch=DIR]
//             [--abs=1e-9] [--rel=1e-7] [--batch_means [--sigmas=3]]
//   cm_verify --archive=DIR --id=<id> ...   # an archive unpacked already (the folder holding cm-archive/)
//
// The default tolerances are the loosest of the regression tests (abs 1e-9, rel 1e-7): a re-run
// with the same build gives the same bytes (CONVENTIONS.md, deterministic runs), and another
// compiler or library may move the last digits of an integration by its rtol, which the studies
// keep at 1e-10 or below.
//
// Exit status: 0 every run reproduces; 1 a run drifted, failed, has no solver here or no origin; 65 a
// damaged archive (it does not unpack, its manifest is not its id, a file is missing, changed or
// unexpected, a name is not of the project's grammar: nothing was re-run); 2 bad input (no such
// archive, no id to check it against, a scratch that is not empty, more ranks than max_ranks);
// 74 an I/O error; 70 an internal error.
//
// The class VerifyTool below is the tool; its main, cm_verify.cpp, is one line over cm::tool_main.
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "common/tool.hpp"
#include "tools/archive.hpp"

namespace cm::pipeline {

/// How the averages of two runs agree: those that carry a batch-means standard error (a scalar X
/// beside se_X in the archived run), how many, and the largest |x - y| / sqrt(se_x^2 + se_y^2) with
/// its scalar ("scalar X"; "-" when none).
struct Agreement {
  std::size_t compared = 0;
  double worst = 0.0;
  std::string where = "-";
};

/// The scalars of an archived run and of its re-run (run.json's `scalars`) compared as averages: the
/// WITHIN-ERROR rule of cm_verify --batch_means holds when compared > 0 and worst <= sigmas. A value
/// missing or not finite in either run counts as infinitely far; two equal values as 0, though both
/// errors be 0.
Agreement averages_agree(const nlohmann::json& archived, const nlohmann::json& again);

class VerifyTool {
 public:
  static constexpr cm::ToolInfo info{
      "cm_verify", "Checks an archive's manifest, re-runs its runs and compares the outputs",
      "Exit status: 0 every run reproduces, 1 drift (or a run failed), 65 a damaged archive, 2 bad input, 74 an "
      "I/O error, 70 an internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  /// The archive is a file or a folder, and the id it is cited by (given, or in its name) is an id.
  void check_the_archive_and_its_id(const cm::Config& config);

  /// A new temporary folder, or --scratch, which must not exist or be an empty folder.
  void make_the_scratch(const cm::Config& config);

  /// Steps 1 to 3 (tools/archive.hpp, check_archive): unpacked into the scratch (or an unpacked
  /// folder checked), the manifest is the id, every file as listed, every run's names and values
  /// of the project's grammar. The runs to re-run; none, with each finding printed, when the
  /// archive is damaged.
  std::vector<ArchivedRun> check_the_archive();

  /// MPI ranks beyond max_ranks are refused (bad input naming the key) before anything runs.
  void check_the_ranks(const cm::Config& config, const std::vector<ArchivedRun>& reruns) const;

  /// The tree the runs are run again in: `configs` is the archive's, and
  /// `results/<paper>/<study>` names each archived run, so a run that reads another (a channel
  /// going on from a saved state) reads the archived one.
  void lay_out_the_tree(const std::vector<ArchivedRun>& reruns);

  /// A run that read a run the archive does not hold (a run of record goes on from a settled frame
  /// that no record keeps: it is a full frame, too large) reads it from --store, where its run id
  /// names it, at the path its configuration key gives; without it, it cannot be re-run, and what
  /// is needed is said.
  void find_the_origins(const ArchivedRun& r);

  /// Step 4 for one run: run again from its archived configuration, then compared. Whether it
  /// reproduces; its line of the table is printed.
  bool re_run_and_compare(const ArchivedRun& r) const;

  /// Each data file and scalar of the re-run against the archived one; prints the run's line.
  bool compare(const ArchivedRun& r, const std::filesystem::path& output) const;

  std::string archive_, id_, bin_ = "build/bin", scratch_key_, store_;
  double abs_ = 1e-9, rel_ = 1e-7;
  bool batch_means_ = false;
  double sigmas_ = 3.0;
  long max_bytes_ = 2L << 30;
  const long cores_ = std::max(1L, static_cast<long>(std::thread::hardware_concurrency()));
  long max_ranks_ = cores_;

  std::filesystem::file_type kind_ = std::filesystem::file_type::none;
  // the scratch: a new temporary folder (removed at the end), or --scratch, which must not exist or
  // be an empty folder (kept)
  OwnFolder scratch_;
  std::filesystem::path top_, tree_;
  CheckedArchive checked_;
  bool have_mpirun_ = false;
  std::map<std::string, std::string> missing_;  // run id: the origin it needs and cannot read
};

}  // namespace cm::pipeline

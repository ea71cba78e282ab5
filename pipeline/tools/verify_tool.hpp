// cm_verify: checks an archive of cm_archive and re-runs its runs with the current build.
//
// An archive to verify comes from elsewhere, so it is untrusted input from end to end. The check
// goes in four steps, each complete before the next; pipeline/README.md (Archives) gives each rule.
//
//  1. Unpack: regular files and folders below cm-archive/ only, names of the project's grammar,
//     within max_bytes. A link, a device, an absolute or ".." member, a member twice, or one past
//     the budget is damage. An unpacked folder is checked the same way.
//  2. The manifest: its SHA-256 must be the id the archive is cited by, and every file it lists
//     must be there with its SHA-256 and size, as SHA256SUMS says, and no other file.
//  3. The runs: every name must be of the project's grammar, no configuration value may lead out
//     of the archive as a path, and MPI ranks are bounded by max_ranks. Nothing runs before this.
//  4. Re-runs: every run is run again from its archived configuration (under mpirun when it
//     recorded ranks), in a tree where results/<paper>/<study> names the archived runs. A run that
//     read a run the archive does not hold reads it from --store by its run id, else it is
//     NO-ORIGIN. Each data file and scalar is compared with the archived one, |a - b| <= abs +
//     rel |a|. With --batch_means (make verify of a run of record) a run whose data differ is held
//     to its averages: each scalar X beside se_X must agree within `sigmas` combined errors,
//     |x - y| <= sigmas sqrt(se_x^2 + se_y^2), and is then WITHIN-ERROR, which counts as verified.
//     A re-run at the record's revision still has to REPRODUCE bit for bit; another revision that
//     changes a chaotic flow's trajectory can only be held to its averages.
//
// Steps 1 to 3 are check_archive of tools/archive.hpp, which cm_import uses too. The scratch is
// cm_verify's own: --scratch must be new or empty, and is kept to be looked at; without it a
// temporary folder is made and removed. Nothing outside the scratch is written or removed.
//
//   cm_verify --archive=archive/<id>.tar.gz --bin=build/bin [--store=results/runs] [--scratch=DIR]
//             [--abs=1e-9] [--rel=1e-7] [--batch_means [--sigmas=3]]
//   cm_verify --archive=DIR --id=<id> ...   # an archive unpacked already (the folder holding cm-archive/)
//
// The default tolerances are the loosest of the regression tests: the same build gives the same
// bytes, and another compiler may move the last digits of an integration by its rtol (1e-10 or
// below). Exit status: 0 every run reproduces, 1 a run drifted, failed or cannot run here, 65 a
// damaged archive (nothing re-run), 2 bad input, 74 an I/O error, 70 an internal error.
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

#include "core/tool.hpp"
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

  /// A run that read a run the archive does not hold reads it from --store, where its run id names
  /// it, at the path its configuration key gives. A run of record is such a run: no record keeps
  /// the settled frame it went on from, a full frame being too large. Without it the run cannot be
  /// re-run, and what is needed is said.
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

// The one run writer of the project (CONVENTIONS.md, "A run").
//
//   cm::Run run(config);                                   // a temporary directory beside the target
//   auto traj = run.table("trajectory.tsv", "disk state and contact forces",
//                         {{"t", "1"}, {"phi", "rad"}, {"N", "1"}});
//   traj.row({t, phi, N});
//   run.scalar("mu_hat", mu_hat, "1");
//   run.statistics("cvode_adams", integrator.statistics().as_map());
//   run.commit();                                          // run.json, then an atomic rename
//
// Until commit() nothing is visible at config.output_dir(): the data go to a temporary
// sibling directory, removed by the destructor (and on SIGINT/SIGTERM) if the run fails.
// The run id is derived from the solver's name and version, the source revision and the
// effective configuration, so the same inputs and build always give the same id.
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/options.hpp"

namespace cm {

/// A column of a data file: its name and unit ("1" for dimensionless).
struct Column {
  std::string name;
  std::string unit;
};

/// A tab-separated data file of a run, readable by gnuplot as it is:
///   # schema: cm-tsv 1
///   # run: <run id>
///   # <description>
///   # columns: t[1]<TAB>phi[rad]<TAB>...
///   rows of %.17g values
class Table {
 public:
  Table(const std::filesystem::path& file, const std::string& run_id, const std::string& description,
        std::vector<Column> columns);

  /// Writes one row; the number of values must equal the number of columns.
  void row(std::initializer_list<double> values);
  void row(const std::vector<double>& values);
  /// An empty line (gnuplot's data-block separator, e.g. between curves).
  void gap();
  std::size_t columns() const { return columns_.size(); }
  /// The open stream, shared with the Run so that commit() can flush it.
  std::weak_ptr<std::FILE> stream() const { return out_; }

 private:
  std::filesystem::path file_;
  std::vector<Column> columns_;
  std::shared_ptr<std::FILE> out_;
};

class Run {
 public:
  explicit Run(const Config& config);
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  ~Run();

  const std::string& id() const { return id_; }
  /// Path of a file inside the (temporary) run directory.
  std::filesystem::path file(const std::string& name) const;

  Table table(const std::string& name, const std::string& description, std::vector<Column> columns);

  /// A scalar result under a stable name; compared with published values as "<study>/<name>".
  void scalar(const std::string& name, double value, const std::string& unit = "1");
  /// Solver statistics of one integration (steps, rhs evaluations, ...), under a group name.
  void statistics(const std::string& group, const std::map<std::string, double>& values);
  /// A line of free text for the report (what was done, a caveat).
  void note(const std::string& text);

  /// Writes run.json and moves the directory into place (replacing an older run there).
  /// Prints "run <id> -> <dir>" unless quiet.
  void commit();

 private:
  const Config& config_;
  std::string id_;
  std::filesystem::path target_, temporary_;
  std::chrono::system_clock::time_point start_;
  std::chrono::steady_clock::time_point start_steady_;
  std::vector<std::pair<std::string, std::pair<double, std::string>>> scalars_;
  std::vector<std::pair<std::string, std::map<std::string, double>>> statistics_;
  std::vector<std::string> notes_;
  struct FileRecord {
    std::string name, description;
    std::vector<Column> columns;
  };
  std::vector<FileRecord> files_;
  std::vector<std::weak_ptr<std::FILE>> streams_;
  bool committed_ = false;
};

/// Build and source facts recorded in every run.json.
struct Provenance {
  std::string version;        ///< the project's version
  std::string revision;       ///< source revision (git commit), "unknown" outside a checkout
  bool modified;              ///< the tree had uncommitted changes at build time
  std::string build_type, compiler, flags;
  std::string sundials, eigen, boost;
};
const Provenance& provenance();

/// 16 hex digits of a 64-bit FNV-1a hash of `text`.
std::string content_hash(const std::string& text);

/// A progress line on stderr for long runs, at most once a second, silent when quiet.
class Progress {
 public:
  Progress(std::string what, double t0, double t1, bool quiet);
  void update(double t);
  ~Progress();

 private:
  std::string what_;
  double t0_, t1_;
  bool quiet_;
  std::chrono::steady_clock::time_point last_;
  bool printed_ = false;
};

}  // namespace cm

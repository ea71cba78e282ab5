// The one run writer of the project (CONVENTIONS.md, "A run"). A study receives its Run from
// cm::study_main (core/study.hpp) and writes into it; the kit commits it:
//
//   auto traj = run.table("trajectory.tsv", "disk state and contact forces",
//                         {{"t", "1"}, {"phi", "rad"}, {"N", "1"}}, {n_rows, "output.dt"});
//   traj.row({t, phi, N});
//   run.scalar("mu_hat", mu_hat, "1");
//   run.statistics("cvode_adams", integrator.statistics().as_map());
//
// Safety, in the hands of a user who mistypes:
//   - Until commit() nothing is visible at the output: the data go to a hidden sibling
//     `.<name>.partial-<pid>`, removed by the destructor and on SIGINT, SIGTERM and SIGHUP (an
//     inherited SIG_IGN, as under nohup, is kept); SIGPIPE is ignored, so a closed pipe on stdout
//     never kills a run. The leftover of a killed run (SIGKILL) is removed by the next run of the
//     same study.
//   - The output may be replaced only if it is an earlier run of the same paper and study holding
//     nothing but what that run wrote. Anything else is refused with exit 2 and left untouched: a
//     user's file or folder, another study's run, a run with foreign files in it, a symbolic link.
//     This is checked when the run starts and again at commit.
//   - The commit is an atomic exchange (renameat2): the output never goes missing, and two runs
//     racing for one output both succeed, the later one winning.
//   - Every table writes within a budget of rows and bytes (keys output.max_rows and
//     output.max_bytes): a planned size over it is refused before anything is written.
//
// The run id is the SHA-256 of the solver, its version, the source revision, the paper, the study
// and the effective configuration without the keys that cannot change the data (no_data()).
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/options.hpp"

namespace cm {

/// A column of a data file: its name and unit ("1" for dimensionless).
struct Column {
  std::string name;
  std::string unit;
};

/// The number of rows a table is planned to have, and the key that sets it (named when the
/// plan exceeds the budget). A plan of 0 rows means "not known in advance".
struct Planned {
  double rows = 0;
  std::string key;
};

/// What a run may write at most (keys output.max_rows, output.max_bytes of every study), and what
/// it may compute (keys run.max_steps, run.max_bodies, run.max_memory: see planned_steps below).
struct Budget {
  long max_rows = 20'000'000;      ///< rows of all tables of a run together
  long max_bytes = 4L << 30;       ///< bytes of all tables of a run together (4 GiB)
  long max_steps = 1'000'000'000;  ///< steps of one time stepping
  long max_bodies = 1'000'000;     ///< bodies (spheres) a run holds at once
  long max_memory = 16L << 30;     ///< bytes of the largest arrays a run holds (16 GiB)

  // The keys of every study that set them (declare_run_keys), named here once.
  static constexpr const char* max_rows_key = "output.max_rows";
  static constexpr const char* max_bytes_key = "output.max_bytes";
  static constexpr const char* max_steps_key = "run.max_steps";
  static constexpr const char* max_bodies_key = "run.max_bodies";
  static constexpr const char* max_memory_key = "run.max_memory";
};

/// Work a run is about to do, counted from its keys before any of it is done (as a table's
/// Planned rows are) and checked against the budgets of every study (keys run.max_steps,
/// run.max_bodies, run.max_memory; the defaults of Budget where a program has no such key). Each
/// is called in a check of the study's keys (Config::check), so that a run that cannot finish is
/// refused as bad input (exit 2) before its run directory exists; each throws InputError naming
/// the key that sets the work and the budget it exceeds.
///
/// The steps of a time stepping over `span` (key span_key) by `step` (key step_key), rounded to
/// the nearest whole number: refused when the step is longer than the span (no step would be
/// made) or the count exceeds run.max_steps (a step of 1e-300 s is refused, never looped over).
long planned_steps(const Config& config, double span, double step, const std::string& step_key,
                   const std::string& span_key);
/// Bodies held at once (spheres of a grid, of a random packing), set by `key` and described by
/// `what` ("spheres on the grid of the channel ..."), against run.max_bodies.
void planned_bodies(const Config& config, double bodies, const std::string& key, const std::string& what);
/// Bytes of the largest arrays a run is about to make, set by `key` and described by `what`,
/// against run.max_memory.
void planned_memory(const Config& config, double bytes, const std::string& key, const std::string& what);

/// The most threads a thread-count key accepts (the range of solver.threads and the like). The data
/// never depend on the threads, and more threads than cores only wait for each other, while each
/// reserves a stack: a count far beyond the cores (1024) cannot start its threads under a memory
/// limit, and the threading runtime then aborts the run. 256 leaves room for the largest common
/// compute nodes; more is refused as bad input.
inline constexpr double max_threads = 256;

/// From a run's commit on, SIGINT, SIGTERM and SIGHUP are held: noted, no longer stopping the
/// process, so that no process ends by a signal with its run in place (make would take the run
/// for a failure, and mpirun's ranks would disagree). Run::commit holds them itself; the ranks of
/// an MPI study hold them before the last barrier. A commit that fails releases them, and a
/// signal held meanwhile then stops the process as it would have.
void hold_stop_signals();
void release_stop_signals();

class Run;

/// A tab-separated data file of a run, readable by gnuplot as it is:
///   # schema: cm-tsv 1
///   # run: <run id>
///   # <description>
///   # columns: t[1]<TAB>phi[rad]<TAB>...
///   rows of %.17g values
/// Beside it the run writes columns.gp, which names every column for gnuplot
/// (`trajectory_phi = 2`), so that scripts read columns by name.
class Table {
 public:
  /// Writes one row; the number of values must equal the number of columns.
  void row(std::initializer_list<double> values);
  void row(const std::vector<double>& values);
  /// An empty line (gnuplot's data-block separator, e.g. between curves).
  void gap();
  std::size_t columns() const { return columns_.size(); }

 private:
  friend class Run;
  Table(Run& run, std::filesystem::path file, std::vector<Column> columns, std::shared_ptr<std::FILE> out)
      : run_(&run), file_(std::move(file)), columns_(std::move(columns)), out_(std::move(out)) {}
  Run* run_;
  std::filesystem::path file_;
  std::vector<Column> columns_;
  std::shared_ptr<std::FILE> out_;
};

/// Who a run is: the solver that wrote it, the paper and study it belongs to.
struct RunIdentity {
  std::string solver, paper, study;
};

class Run {
 public:
  /// Checks the output (see above) and opens the temporary run directory. `output` empty means
  /// results/<paper>/<study>. `store` (key output.store) is where the run is kept by its id:
  /// "none" writes the run at the output itself; a directory keeps it as <store>/<run id> and
  /// makes the output a relative symbolic link to it (core/store.hpp); "auto" is results/runs
  /// when the output is the default one, else "none".
  Run(const Config& config, RunIdentity identity, const Invocation& invocation, Budget budget = {},
      const std::string& store = "none");
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  ~Run();
  /// A run that writes nothing: the other ranks of a study over MPI compute with rank 0, which
  /// alone writes (core/mpi_study.hpp). Tables take their rows within the budget and drop them.
  static std::unique_ptr<Run> discarding(const Config& config, RunIdentity identity, const Invocation& invocation,
                                         Budget budget = {});
  /// A run that writes nothing, of this run's configuration: the other subdomains of a study that
  /// splits its work in one process compute with this one, which alone writes.
  std::unique_ptr<Run> discarding_twin() const { return discarding(config_, identity_, invocation_, budget_); }

  const std::string& id() const { return id_; }
  const RunIdentity& identity() const { return identity_; }
  bool quiet() const { return quiet_; }
  const Budget& budget() const { return budget_; }

  /// A data file of the run. `planned` (rows and the key that sets them) is checked against the
  /// budget before anything is written.
  Table table(const std::string& name, const std::string& description, std::vector<Column> columns,
              Planned planned = {});

  /// A scalar result under a stable name; compared with published values as "<study>/<name>".
  void scalar(const std::string& name, double value, const std::string& unit = "1");
  /// Solver statistics of one integration (steps, rhs evaluations, ...), under a group name.
  void statistics(const std::string& group, const std::map<std::string, double>& values);
  /// A line of free text for the report (what was done, a caveat).
  void note(const std::string& text);

  /// Writes run.json and columns.gp and moves the directory into place (replacing an earlier run
  /// of the same study there). Prints "run <id> written to <dir>" unless quiet.
  void commit();

  /// Adds rows and bytes to what the run has written (Table::row), within the budget. Safe to
  /// call from several threads: tables of one run may be written side by side, each by one thread.
  void charge(double rows, double bytes, const std::string& key);

 private:
  /// Throws InputError naming `key` when `rows` more rows and `bytes` more bytes would exceed the
  /// budget; changes nothing.
  void check_budget(double rows, double bytes, const std::string& key) const;

  const Config& config_;
  RunIdentity identity_;
  Invocation invocation_;
  Budget budget_;
  bool quiet_;
  std::string id_;
  std::map<std::string, std::vector<std::string>> reads_;  // per names_run() key, the run ids it names
  std::filesystem::path target_, temporary_;
  std::filesystem::path store_;                         // empty: the run is written at target_ itself
  std::vector<std::filesystem::path> created_parents_;  // removed again (if empty) when the run fails
  std::vector<std::pair<std::string, std::pair<double, std::string>>> scalars_;
  std::vector<std::pair<std::string, std::map<std::string, double>>> statistics_;
  std::vector<std::string> notes_;
  struct FileRecord {
    std::string name, description;
    std::vector<Column> columns;
  };
  std::vector<FileRecord> files_;
  std::vector<std::weak_ptr<std::FILE>> streams_;
  double rows_ = 0, bytes_ = 0;
  std::mutex charge_mutex_;  // guards rows_ and bytes_
  bool committed_ = false;
  bool discarding_ = false;

 public:
  /// Only Run makes one: the key to the discarding constructor.
  class Discarding {
    Discarding() = default;
    friend class Run;
  };
  Run(const Config& config, RunIdentity identity, const Invocation& invocation, Budget budget, Discarding);
};

/// Refuses (InputError naming --output) a path that is anything but absent or an earlier run of
/// `paper`/`study` holding only the files its run.json lists. With a run store, the output may
/// also be a link into `store` (to a run of `paper`/`study`, or dangling after a prune).
void check_replaceable(const std::filesystem::path& target, const std::string& paper, const std::string& study,
                       const std::filesystem::path& store = {});

/// The time a program started (the first call, made early by the study kit): a run's start time
/// and wall time count from here, however late the run writer is created.
std::chrono::system_clock::time_point program_start();
std::chrono::steady_clock::time_point program_start_steady();

/// A progress line on stderr for long runs, at most once every two seconds, silent when quiet:
/// "what: t = 0.25 of 1 (25%, about 30 s left)", or of another quantity than the time t, named by
/// `quantity` ("round": "what: round 1 of 3 (...)").
class Progress {
 public:
  Progress(std::string what, double t0, double t1, bool quiet, std::string quantity = "t =");
  void update(double t);
  /// The same with a detail appended to the line (counts, rates, a residual).
  void update(double t, const std::string& detail);
  ~Progress();

 private:
  std::string what_, quantity_;
  double t0_, t1_;
  bool quiet_;
  std::chrono::steady_clock::time_point start_, last_;
  bool printed_ = false;
};

}  // namespace cm

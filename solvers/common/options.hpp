// The one options layer of the project: every key of a solver is declared once, with its
// default, unit, help text and allowed range; values come from an INI file (`--config FILE`,
// sections give dotted names) and are overridden on the command line (`--section.key=value`).
//
//   cm::Config config("rb_disk", "rollingball", "disk", "Rolling disk of Sect. 5");
//   config.add_real("model.m0", 1.0, "1", "mass m0 of the disk", cm::Range::positive());
//   config.add_reals("ic.theta", {-cm::pi / 2}, "rad", "initial angles theta_a");
//   config.add_choice("solver.method", "cvode_adams", {"cvode_adams", "cvode_bdf"}, "integrator");
//   config.assumption("rails.basis", "RECONSTRUCTED: column order of B_i, spec 002 §2.9");
//   if (!config.parse(argc, argv)) return 0;   // --help or --version was printed
//   double m0 = config.real("model.m0");
//
// Real values are arithmetic expressions of numbers, `pi`, + - * / ^, parentheses and
// sqrt/sin/cos (so `19/30` and `-pi/2` are exact to rounding); NaN and infinities are refused.
// Lists are comma separated. Every parse or range failure throws cm::InputError naming the key.
#pragma once

#include <chrono>
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.hpp"

namespace cm {

inline constexpr double pi = 3.14159265358979323846;

/// The interval a real key (or each entry of a real list) must lie in.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  static Range any() { return {}; }
  static Range positive() { return {0.0, std::numeric_limits<double>::infinity(), true, false}; }
  static Range nonnegative() { return {0.0, std::numeric_limits<double>::infinity(), false, false}; }
  static Range closed(double a, double b) { return {a, b, false, false}; }
  static Range at_least(double a) { return {a, std::numeric_limits<double>::infinity(), false, false}; }

  bool contains(double x) const;
  std::string describe() const;  ///< e.g. "(0, inf)"
};

/// One value the paper does not state, in effect in this run.
struct Assumption {
  std::string key;
  std::string value;  ///< canonical text of the effective value
  std::string note;   ///< why and where from (ASSUMED / RECONSTRUCTED / TYPO, spec section)
};

class Config {
 public:
  /// `solver` is the executable's name, `paper` and `study` name the run
  /// (results/<paper>/<study> by default), `summary` is the first line of --help.
  /// With --output DIR the study is named after DIR's last component (one executable may serve
  /// several studies: results/rollingball/detach is the study "detach" of rb_ball).
  Config(std::string solver, std::string paper, std::string study, std::string summary);

  // --- declaration, before parse() --------------------------------------------------
  void add_real(const std::string& key, double fallback, const std::string& unit, const std::string& help,
                Range range = Range::any());
  /// A list of reals; `size` fixes its length when given.
  void add_reals(const std::string& key, const std::vector<double>& fallback, const std::string& unit,
                 const std::string& help, Range range = Range::any(), std::optional<std::size_t> size = {});
  void add_integer(const std::string& key, long fallback, const std::string& help, long lo, long hi);
  void add_flag(const std::string& key, bool fallback, const std::string& help);
  void add_choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed,
                  const std::string& help);
  /// A free string (a label, a file name).
  void add_text(const std::string& key, const std::string& fallback, const std::string& help);
  /// Marks a declared key as carrying a value the paper does not state; recorded with the
  /// effective value under `assumptions` in run.json and in the report.
  void assumption(const std::string& key, const std::string& note);

  /// Parses the command line: --config FILE, --KEY=VALUE overrides, --output DIR, --help,
  /// --version, --quiet. Returns false when --help or --version was printed (exit 0).
  /// Throws cm::InputError on any bad input.
  bool parse(int argc, const char* const* argv);

  // --- access, after parse() --------------------------------------------------------
  double real(const std::string& key) const;
  std::vector<double> reals(const std::string& key) const;
  long integer(const std::string& key) const;
  bool flag(const std::string& key) const;
  /// The value of a choice or text key.
  const std::string& text(const std::string& key) const;

  /// Throws InputError "KEY: message" (for checks across keys, e.g. list lengths).
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

  const std::string& solver() const { return solver_; }
  const std::string& paper() const { return paper_; }
  const std::string& study() const { return study_; }
  /// The run directory to write (--output, default results/<paper>/<study>).
  const std::string& output_dir() const { return output_; }
  const std::string& config_file() const { return config_file_; }
  const std::string& command_line() const { return command_line_; }
  /// When the program started (the construction of its Config): a run's wall time counts from here,
  /// however late the run writer is created.
  std::chrono::system_clock::time_point started() const { return started_; }
  std::chrono::steady_clock::time_point started_steady() const { return started_steady_; }
  bool quiet() const { return quiet_; }

  /// Every key with its canonical effective value (reals in the shortest text that reads back
  /// exactly), sorted by key.
  std::map<std::string, std::string> effective() const;
  /// The assumptions in effect, sorted by key.
  std::vector<Assumption> assumptions() const;

  /// Replaces the usage lines of --help (for tools, which write no run and have their own exit
  /// statuses); the list of keys follows as usual.
  void set_usage(std::string usage) { usage_ = std::move(usage); }

  /// Prints every key, its default, unit and range (the --help text).
  std::string help_text() const;

 private:
  enum class Kind { real, reals, integer, flag, choice, text };
  struct Key {
    Kind kind;
    std::string unit, help;
    Range range;
    std::optional<std::size_t> size;
    long ilo = 0, ihi = 0;
    std::vector<std::string> allowed;
    std::string fallback_text;        // canonical text of the default
    std::vector<double> values;       // real, reals
    long ivalue = 0;                  // integer, flag
    std::string svalue;               // choice, text
    std::string note;                 // assumption note, empty if none
  };
  void set(const std::string& key, const std::string& raw);
  const Key& get(const std::string& key, Kind kind) const;
  static std::string canonical(const Key& k);

  std::string solver_, paper_, study_, summary_, usage_;
  std::string output_, config_file_, command_line_;
  bool quiet_ = false;
  std::chrono::system_clock::time_point started_ = std::chrono::system_clock::now();
  std::chrono::steady_clock::time_point started_steady_ = std::chrono::steady_clock::now();
  std::map<std::string, Key> keys_;
  std::vector<std::string> order_;  // declaration order, for --help
};

/// Evaluates a real expression ("-pi/2", "19/30", "2.5e-3"); throws InputError naming `key`.
double parse_real(const std::string& key, const std::string& text);

}  // namespace cm

// The one options layer of the project. Every key of a study is named once, bound to the field
// that holds it; the field's value at declaration is the default:
//
//   struct Options { double rtol = 1e-10; std::vector<double> masses{1, 2}; long n = 100; bool dense = false; };
//   Options o;
//   config.add("solver.rtol", &o.rtol, "relative tolerance").range(cm::Range::positive());
//   config.add("masses.m", &o.masses, "the point masses").unit("kg").range(cm::Range::nonnegative());
//   config.add("grid.n", &o.n, "points of the grid").range(cm::Range::closed(2, 1e6));
//   config.add("output.dense", &o.dense, "also write the dense trajectory");     // --output.dense alone is true
//   config.add_choice("solver.method", &o.method, {{"adams", Method::adams}, {"bdf", Method::bdf}}, "integrator");
//   config.add("rails.basis", &o.basis, "column order of B_i").assumption("RECONSTRUCTED: spec 002 §2.9");
//   config.check([&] { if (o.n % 2) config.fail("grid.n", "must be even"); });   // across keys, after parsing
//
// Values come from an INI file (`--config FILE`: `[section]` gives dotted names, `#` starts a
// comment; `[config] base = OTHER.ini`, a path from the file's own folder, reads OTHER first and
// lets the file's keys override its keys, so a preset is a base and its differences) and are
// overridden on the command line (`--section.key=value`, `--section.key value`,
// a bare `--flag`). Reals are arithmetic expressions of decimal numbers, `pi`, + - * / ^,
// parentheses and sqrt sin cos exp log (so `19/30` and `-pi/2` are exact to rounding); NaN,
// infinities, hexadecimal and subnormal numbers are refused. Integers are such expressions with an
// integral value (`10^6`). Lists are comma separated. Every failure is a cm::InputError that names
// the key (and the file and line where the value came from).
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/math.hpp"

namespace cm {

/// The interval a numeric key (or each entry of a list) must lie in.
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
  /// (a, b]
  static Range open_closed(double a, double b) { return {a, b, true, false}; }

  bool contains(double x) const;
  bool bounded() const;          ///< narrower than the whole line
  std::string describe() const;  ///< e.g. "(0, inf)"
};

/// One value the paper does not state, in effect in this run.
struct Assumption {
  std::string key;
  std::string value;  ///< canonical text of the effective value
  std::string note;   ///< why and where from (ASSUMED / RECONSTRUCTED / TYPO, spec section)
};

/// What the command line asked for besides keys.
struct Invocation {
  std::string config_file;                ///< --config, empty if none
  std::vector<std::string> config_bases;  ///< the bases it names, `[config] base`, nearest first
  std::string output;                     ///< --output, empty if none
  std::string command_line;               ///< the whole command line, quoted where needed (for the provenance)
  bool quiet = false;                     ///< --quiet: no progress lines
  bool help = false;                      ///< --help was asked for (printed by parse())
  bool version = false;                   ///< --version was asked for
};

class Config;

/// Refines a key just declared: `config.add(...).unit("m").range(...).assumption("...")`.
class KeyBuilder {
 public:
  KeyBuilder(Config& config, std::string key) : config_(config), key_(std::move(key)) {}
  KeyBuilder& unit(const std::string& unit);
  /// The interval every value must lie in (reals and integers; checked on the default too).
  KeyBuilder& range(Range range);
  /// A list of exactly n values.
  KeyBuilder& size(std::size_t n);
  /// A list whose values strictly increase (an interval "lo, hi", a grid of levels).
  KeyBuilder& increasing();
  /// A list that needs at least one value: the empty value (`--key=`) is refused, naming the key.
  /// (A list without it may be empty: no masses, no extra seeds.)
  KeyBuilder& nonempty();
  /// The allowed values of a text key.
  KeyBuilder& choices(const std::vector<std::string>& allowed);
  /// A value the paper does not state: recorded with its effective value under `assumptions`.
  KeyBuilder& assumption(const std::string& note);
  /// The key cannot change the data (a thread count, an output budget): recorded, but left out of
  /// the run id, so runs that differ only in it have the same id.
  KeyBuilder& no_data();
  /// The key names other runs (a text or a list of names: run directories, or "none"). The run id
  /// of each, not the path, goes into this run's id, and run.json records them under `reads`. So a
  /// run reading another has an id of its own for every origin, and make prune keeps the origins
  /// of a kept run.
  KeyBuilder& names_run();
  /// The key is part of the system simulated (its geometry, material, law, time step), not of how
  /// long it runs, what it records or where: a run that goes on from another, or is compared with
  /// it, must have the same value (Config::physics_keys()).
  KeyBuilder& physics();
  /// The key must be given a value (a tool's input file): check_required() refuses it empty,
  /// "KEY: required: WHAT" ("KEY: required" when `what` is empty), and the usage line lists it
  /// first, the optional keys following in brackets.
  KeyBuilder& required(const std::string& what = "");

 private:
  Config& config_;
  std::string key_;
};

class Config {
 public:
  /// `program` is the executable's name, `summary` the first line of --help.
  Config(std::string program, std::string summary);

  // --- declaration, before parse() --------------------------------------------------------
  KeyBuilder add(const std::string& key, double* field, const std::string& help);
  KeyBuilder add(const std::string& key, std::vector<double>* field, const std::string& help);
  KeyBuilder add(const std::string& key, long* field, const std::string& help);
  KeyBuilder add(const std::string& key, int* field, const std::string& help);
  KeyBuilder add(const std::string& key, std::vector<long>* field, const std::string& help);
  KeyBuilder add(const std::string& key, std::vector<int>* field, const std::string& help);
  KeyBuilder add(const std::string& key, bool* field, const std::string& help);
  KeyBuilder add(const std::string& key, std::string* field, const std::string& help);
  KeyBuilder add(const std::string& key, std::vector<std::string>* field, const std::string& help);
  /// A choice among named values of any type (an enum): `{{"adams", Method::adams}, ...}`.
  template <class T>
  KeyBuilder add_choice(const std::string& key, T* field, const std::vector<std::pair<std::string, T>>& choices,
                        const std::string& help);

  /// A check across keys, run after parsing (before any run directory exists); it calls fail().
  void check(std::function<void()> check) { checks_.push_back(std::move(check)); }

  /// Parses the command line: --config FILE, --KEY=VALUE overrides, --output DIR, --help,
  /// --version, --quiet; then stores every value in its field and runs the checks. Prints the
  /// help or version when asked (invocation.help / .version are then set and nothing is stored).
  /// Throws cm::InputError on any bad input.
  Invocation parse(int argc, const char* const* argv);

  /// Throws InputError "KEY: message" (where the value came from is added when known).
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

  const std::string& program() const { return program_; }

  /// Every key with its canonical effective value (reals in the shortest text that reads back
  /// exactly), sorted by key; with `data_only`, without the keys marked no_data().
  std::map<std::string, std::string> effective(bool data_only = false) const;
  /// The assumptions in effect, sorted by key.
  std::vector<Assumption> assumptions() const;
  /// The keys declared names_run() with the runs they name ("none" and empty items left out),
  /// sorted by key.
  std::map<std::string, std::vector<std::string>> run_references() const;
  /// The keys declared physics(), sorted.
  std::vector<std::string> physics_keys() const;
  /// Whether the key changes the data (it is not no_data()).
  bool affects_data(const std::string& key) const { return keys_.at(key).affects_data; }
  /// Whether a key is declared.
  bool has(const std::string& key) const { return keys_.count(key) > 0; }
  /// The value of a declared real or integer key (after parse(): the effective value), for checks
  /// that read a key another part of the program declared (the budgets of core/run.hpp).
  double number(const std::string& key) const;

  /// Replaces the usage lines of --help (for tools, which write no run and have their own exit
  /// statuses); the list of keys follows as usual.
  void set_usage(std::string usage) { usage_ = std::move(usage); }
  /// The default output shown by --help.
  void set_default_output(std::string output) { default_output_ = std::move(output); }

  /// Refuses the first required() key, in declaration order, whose value is empty.
  void check_required() const;
  /// "usage: PROGRAM --req=VALUE ... [--opt=VALUE] ...", from the declarations: required keys
  /// first, then the optional ones in brackets.
  std::string usage_line() const;

  /// Every key, its default, unit and range (the --help text).
  std::string help_text() const;

 private:
  friend class KeyBuilder;
  enum class Kind { real, reals, integer, integers, flag, text, names };
  struct Key {
    Kind kind;
    std::string help, unit;
    Range range;
    std::optional<std::size_t> size;
    bool increasing = false;
    bool nonempty = false;
    std::vector<std::string> allowed;  // text: the choices (empty: free text)
    std::vector<double> numbers;       // real, reals, integer, integers (integers held exactly)
    std::vector<std::string> texts;    // text (one), names
    bool flag = false;
    std::string fallback_text;  // canonical text of the default
    std::string note;           // assumption note, empty if none
    bool affects_data = true;
    bool names_run = false;
    bool physics = false;
    bool required = false;
    std::string required_what;              // what a required key names, for its message
    std::string origin;                     // where the value came from, for messages
    std::function<void(const Key&)> store;  // writes the value into the bound field
  };
  KeyBuilder declare(const std::string& key, Key k);
  Key& key(const std::string& name);
  void set(const std::string& key, const std::string& raw, const std::string& origin);
  void validate(const std::string& name, const Key& k) const;
  /// One INI file: its values (key -> text, origin) and the base it names (empty if none).
  struct IniFile {
    std::map<std::string, std::pair<std::string, std::string>> values;
    std::string base, base_where;
  };
  IniFile read_one(const std::string& file) const;
  /// Reads `file` into `values` (key -> text, origin) over the bases it names, read first;
  /// `chain` receives the file, then each base (a base already in it is a cycle, and a chain
  /// longer than a limit, refused).
  void read_file(const std::string& file, std::map<std::string, std::pair<std::string, std::string>>& values,
                 std::vector<std::string>& chain);
  static std::string canonical(const Key& k);
  /// " (did you mean 'KEY'?)" for the declared key nearest to `unknown`, or "".
  std::string suggestion(const std::string& unknown) const;

  std::string program_, summary_, usage_, default_output_;
  std::map<std::string, Key> keys_;
  std::vector<std::string> order_;  // declaration order, for --help
  std::vector<std::function<void()>> checks_;
};

/// Evaluates a real expression ("-pi/2", "19/30", "2.5e-3"); throws InputError naming `key`.
double parse_real(const std::string& key, const std::string& text);

template <class T>
KeyBuilder Config::add_choice(const std::string& key, T* field, const std::vector<std::pair<std::string, T>>& choices,
                              const std::string& help) {
  std::vector<std::string> names;
  std::string fallback;
  for (const auto& [name, value] : choices) {
    names.push_back(name);
    if (value == *field) fallback = name;
  }
  if (fallback.empty()) throw std::logic_error("default of " + key + " is not among its choices");
  Key k{};
  k.kind = Kind::text;
  k.help = help;
  k.allowed = names;
  k.texts = {fallback};
  k.store = [field, choices](const Key& stored) {
    for (const auto& [name, value] : choices)
      if (name == stored.texts.at(0)) *field = value;
  };
  return declare(key, std::move(k));
}

}  // namespace cm

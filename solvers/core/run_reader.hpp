// Reading runs back, beside their writer (run.hpp): run directories (results/<paper>/<study>/run.json,
// schema `cm-run 1`, pipeline/README.md) and their data files (`cm-tsv 1`). The solvers that go on
// from a run (restart.from) and the pipeline's tools read them here.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cm {

/// A run as read back from its run.json.
struct RunRecord {
  std::filesystem::path dir;
  std::string study;  ///< the directory's name (run.json's "study" must agree)
  std::string run_id;
  nlohmann::json json;  ///< the whole document, validated by parse_run_json
};

/// The deepest nesting of arrays and objects a JSON file may have. The deepest the project writes
/// is 4 (run.json's files[].columns[], the manifest's runs[] of objects); 32 leaves room for a
/// later schema while keeping every recursive copy of a document far from the stack's limit.
inline constexpr int max_json_depth = 32;

/// The one strict parser of JSON files, which every reader of the project uses (run.json, an
/// archive's manifest). Throws cm::InputError naming `name` on a syntax error, a number out of the
/// range of a double, a key twice in one object, or nesting deeper than max_json_depth (refused
/// before any deeper value is built).
nlohmann::json parse_json(const std::string& text, const std::string& name);

/// Parses and validates a run.json text: an object of schema "cm-run 1" with a string run_id
/// and a `scalars` object whose entries are {"value": number or null, ...}, every other field
/// the tools read of the type pipeline/README.md gives. Throws cm::InputError naming `name` on
/// anything else: a syntax error, a number out of the range of a double (1e999), a key twice in
/// one object, a field of the wrong type.
nlohmann::json parse_run_json(const std::string& text, const std::string& name);

/// Throws cm::InputError naming the key `results` unless `results` is an existing directory.
void check_results_directory(const std::filesystem::path& results);

/// The run in `dir`, or nothing when there is no run.json there. A run.json whose "study" is not
/// the directory's name is a cm::InputError.
std::optional<RunRecord> load_run(const std::filesystem::path& dir);

/// Every run directly below `results` (each <study>/run.json), sorted by study. Hidden
/// directories are skipped: `.<study>.partial-<pid>` and `.<study>.old-<pid>` are leftovers of
/// interrupted solver runs, never committed runs. `results` must be a directory
/// (check_results_directory).
std::vector<RunRecord> load_runs(const std::filesystem::path& results);

/// The names of a run's scalars, sorted.
std::vector<std::string> scalar_names(const RunRecord& run);

/// A scalar of a run: absent (no such name), null (written as null: non-finite) or a number.
struct ScalarLookup {
  bool found = false;
  double value = 0.0;  ///< NaN when the run wrote null
  std::string unit;
};
ScalarLookup find_scalar(const RunRecord& run, const std::string& name);

/// A statistic of a run (run.json's statistics.<group>.<name>, a number), or nothing when the run
/// recorded none. `json`: a document validated by parse_run_json.
std::optional<double> find_statistic(const nlohmann::json& json, const std::string& group, const std::string& name);

/// A string field of a nested object ("solver", "name"), or `fallback` when absent.
std::string json_text(const nlohmann::json& object, std::initializer_list<const char*> path,
                      const std::string& fallback = "?");

struct TsvColumn {
  std::string name;
  std::string unit;
  std::string label() const { return name + "[" + unit + "]"; }
};

/// A cm-tsv file: its columns and rows; an empty line starts a new data block.
struct TsvData {
  std::string name;  ///< file name, for messages
  std::vector<TsvColumn> columns;
  std::vector<std::vector<double>> rows;
  std::vector<std::size_t> lines;   ///< line of each row in the file (1-based)
  std::vector<std::size_t> blocks;  ///< data block of each row (0-based)
};

/// Parses a cm-tsv text: `# schema: cm-tsv 1` and `# columns: a[u]<TAB>b[v]...` among the leading
/// `#` lines, then rows of as many numbers as there are columns (nan and inf allowed).
/// Throws cm::InputError "<name>:<line>: ..." on anything else.
TsvData parse_tsv(const std::string& text, const std::string& name);
TsvData read_tsv(const std::filesystem::path& file);

}  // namespace cm

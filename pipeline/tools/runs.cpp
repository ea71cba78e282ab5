#include "tools/runs.hpp"

#include <algorithm>
#include <limits>

#include "common/errors.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

nlohmann::json parse_run_json(const std::string& text, const std::string& name) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(name + ": not valid JSON (" + e.what() + ")");
  }
  if (!json.is_object()) throw InputError(name + ": not a JSON object");
  if (!json.contains("schema") || json["schema"] != "cm-run 1") {
    throw InputError(name + ": schema is not \"cm-run 1\"");
  }
  if (!json.contains("run_id") || !json["run_id"].is_string()) throw InputError(name + ": no run_id string");
  if (!json.contains("scalars") || !json["scalars"].is_object()) throw InputError(name + ": no scalars object");
  for (const auto& [key, scalar] : json["scalars"].items()) {
    if (!scalar.is_object() || !scalar.contains("value") ||
        !(scalar["value"].is_number() || scalar["value"].is_null())) {
      throw InputError(name + ": scalar '" + key + "' is not {\"value\": number or null, ...}");
    }
  }
  for (const char* field : {"assumptions", "notes", "files"}) {
    if (json.contains(field) && !json[field].is_array()) throw InputError(name + ": " + field + " is not an array");
  }
  for (const char* field : {"solver", "build", "config", "statistics"}) {
    if (json.contains(field) && !json[field].is_object()) throw InputError(name + ": " + field + " is not an object");
  }
  return json;
}

std::optional<RunRecord> load_run(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "run.json";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  RunRecord run;
  run.dir = dir;
  run.json = parse_run_json(read_text(file, "run"), file.string());
  run.run_id = run.json["run_id"].get<std::string>();
  run.study = json_text(run.json, {"study"}, dir.filename().string());
  return run;
}

std::vector<RunRecord> load_runs(const std::filesystem::path& results) {
  std::vector<RunRecord> runs;
  std::error_code ec;
  if (!std::filesystem::is_directory(results, ec)) return runs;
  std::vector<std::filesystem::path> dirs;
  for (const auto& entry : std::filesystem::directory_iterator(results)) {
    if (entry.is_directory()) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    if (auto run = load_run(dir)) runs.push_back(std::move(*run));
  }
  return runs;
}

ScalarLookup find_scalar(const RunRecord& run, const std::string& name) {
  ScalarLookup lookup;
  const auto& scalars = run.json.at("scalars");
  const auto it = scalars.find(name);
  if (it == scalars.end()) return lookup;
  lookup.found = true;
  const auto& value = (*it)["value"];
  lookup.value = value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
  if (it->contains("unit") && (*it)["unit"].is_string()) lookup.unit = (*it)["unit"].get<std::string>();
  return lookup;
}

std::string json_text(const nlohmann::json& object, std::initializer_list<const char*> path,
                      const std::string& fallback) {
  const nlohmann::json* node = &object;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return fallback;
    node = &(*node)[key];
  }
  if (node->is_string()) return node->get<std::string>();
  if (node->is_null()) return fallback;
  return node->dump();
}

}  // namespace cm::pipeline

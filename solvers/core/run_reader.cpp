#include "core/run_reader.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <system_error>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/store.hpp"
#include "core/text.hpp"

namespace cm {

nlohmann::json parse_json(const std::string& text, const std::string& name) {
  std::vector<std::set<std::string>> open;  // the keys seen in each object being parsed
  std::string duplicate;
  const nlohmann::json::parser_callback_t check = [&](int depth, nlohmann::json::parse_event_t event,
                                                      nlohmann::json& parsed) {
    switch (event) {
      case nlohmann::json::parse_event_t::object_start:
      case nlohmann::json::parse_event_t::array_start:
        // Refused before the deeper value is built: a copy or comparison of a document nests one
        // call per level, and a file of 100,000 brackets would overflow the stack there.
        if (depth >= max_json_depth)
          throw InputError(name + ": nested deeper than " + std::to_string(max_json_depth) +
                           " levels; no file the project writes nests more than 4");
        if (event == nlohmann::json::parse_event_t::object_start) open.emplace_back();
        break;
      case nlohmann::json::parse_event_t::key:
        if (!open.back().insert(parsed.get<std::string>()).second && duplicate.empty()) {
          duplicate = parsed.get<std::string>();
        }
        break;
      case nlohmann::json::parse_event_t::object_end:
        open.pop_back();
        break;
      default:
        break;
    }
    return true;
  };
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text, check);
  } catch (const nlohmann::json::exception& e) {
    // Any error of the parser: a syntax error, a number too large for a double (1e999), invalid
    // UTF-8. The file is bad input, never an internal error.
    throw InputError(name + ": not valid JSON (" + e.what() + ")");
  }
  if (!duplicate.empty()) throw InputError(name + ": the key '" + duplicate + "' appears twice in one object");
  return json;
}

nlohmann::json parse_run_json(const std::string& text, const std::string& name) {
  const nlohmann::json json = parse_json(text, name);
  auto bad = [&](const std::string& what) { return InputError(name + ": " + what); };
  if (!json.is_object()) throw bad("not a JSON object");
  if (!json.contains("schema") || json["schema"] != "cm-run 1") throw bad("schema is not \"cm-run 1\"");
  if (!json.contains("run_id") || !json["run_id"].is_string() || json["run_id"].get<std::string>().empty()) {
    throw bad("no run_id string");
  }
  // Every field the tools read has the type of the schema (pipeline/README.md), so that reading
  // it later cannot fail.
  auto optional_of = [&](const nlohmann::json& object, const std::string& where, const char* key, auto is_type,
                         const char* type) {
    if (object.contains(key) && !is_type(object[key])) throw bad(where + key + " is not " + type);
  };
  const auto is_string = [](const nlohmann::json& j) { return j.is_string(); };
  const auto is_number = [](const nlohmann::json& j) { return j.is_number(); };
  const auto is_boolean = [](const nlohmann::json& j) { return j.is_boolean(); };
  const auto is_object = [](const nlohmann::json& j) { return j.is_object(); };
  const auto is_array = [](const nlohmann::json& j) { return j.is_array(); };
  for (const char* key : {"paper", "study", "command_line", "start_utc", "host"}) {
    optional_of(json, "", key, is_string, "a string");
  }
  optional_of(json, "", "wall_time_s", is_number, "a number");
  for (const char* key : {"solver", "build", "config", "statistics"})
    optional_of(json, "", key, is_object, "an object");
  for (const char* key : {"assumptions", "notes", "files"}) optional_of(json, "", key, is_array, "an array");

  if (!json.contains("scalars") || !json["scalars"].is_object()) throw bad("no scalars object");
  for (const auto& [key, scalar] : json["scalars"].items()) {
    if (!scalar.is_object() || !scalar.contains("value") ||
        !(scalar["value"].is_number() || scalar["value"].is_null())) {
      throw bad("scalar '" + key + "' is not {\"value\": number or null, ...}");
    }
    optional_of(scalar, "scalar '" + key + "': ", "unit", is_string, "a string");
  }
  if (json.contains("solver")) {
    for (const char* key : {"name", "version", "revision"})
      optional_of(json["solver"], "solver.", key, is_string, "a string");
    optional_of(json["solver"], "solver.", "modified", is_boolean, "true or false");
  }
  if (json.contains("build")) {
    for (const auto& [key, value] : json["build"].items()) {
      if (!value.is_string()) throw bad("build." + key + " is not a string");
    }
  }
  if (json.contains("config")) {
    for (const char* key : {"file", "hash"}) optional_of(json["config"], "config.", key, is_string, "a string");
    optional_of(json["config"], "config.", "values", is_object, "an object");
    optional_of(json["config"], "config.", "bases", is_array, "an array");
    if (json["config"].contains("bases"))
      for (const auto& base : json["config"]["bases"])
        if (!base.is_string()) throw bad("config.bases holds a value that is not a string");
  }
  optional_of(json, "", "reads", is_object, "an object");
  if (json.contains("reads")) {
    for (const auto& [key, ids] : json["reads"].items()) {
      if (!ids.is_array()) throw bad("reads." + key + " is not an array");
      for (const auto& id : ids)
        if (!id.is_string() || !cm::is_run_id(id.get<std::string>())) throw bad("reads." + key + " holds no run id");
    }
  }
  if (json.contains("statistics")) {
    for (const auto& [group, values] : json["statistics"].items()) {
      if (!values.is_object()) throw bad("statistics." + group + " is not an object");
      for (const auto& [key, value] : values.items()) {
        if (!value.is_number()) throw bad("statistics." + group + "." + key + " is not a number");
      }
    }
  }
  if (json.contains("assumptions")) {
    for (const auto& a : json["assumptions"]) {
      if (!a.is_object() || !a.contains("key")) throw bad("an entry of assumptions is not {\"key\": ..., ...}");
      for (const char* key : {"key", "value", "note"}) optional_of(a, "assumptions: ", key, is_string, "a string");
    }
  }
  if (json.contains("notes")) {
    for (const auto& note : json["notes"]) {
      if (!note.is_string()) throw bad("an entry of notes is not a string");
    }
  }
  if (json.contains("files")) {
    for (const auto& file : json["files"]) {
      if (!file.is_object() || !file.contains("name")) throw bad("an entry of files is not {\"name\": ..., ...}");
      for (const char* key : {"name", "description"}) optional_of(file, "files: ", key, is_string, "a string");
    }
  }
  return json;
}

void check_results_directory(const std::filesystem::path& results) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(results, ec);
  if (!std::filesystem::exists(status)) {
    throw InputError("results: the directory '" + results.string() + "' does not exist");
  }
  if (!std::filesystem::is_directory(status)) {
    throw InputError("results: '" + results.string() + "' is not a directory");
  }
}

std::optional<RunRecord> load_run(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "run.json";
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
    throw_io_error("cannot inspect", file, ec);
  }
  if (!std::filesystem::exists(status)) return std::nullopt;
  RunRecord run;
  run.dir = dir;
  run.json = parse_run_json(read_text(file, "run"), file.string());
  run.run_id = run.json["run_id"].get<std::string>();
  run.study = dir.filename().string();
  // A run of study S lives in <results>/S (the Makefile writes it there): one that does not is
  // a run moved or copied by hand, and its values would be reported under the wrong study.
  if (run.json.contains("study") && run.json["study"].get<std::string>() != run.study) {
    throw InputError(file.string() + ": a run of the study '" + run.json["study"].get<std::string>() +
                     "' in the directory of the study '" + run.study + "'");
  }
  return run;
}

std::vector<RunRecord> load_runs(const std::filesystem::path& results) {
  check_results_directory(results);
  std::vector<RunRecord> runs;
  for (const auto& dir : visible_subdirectories(results)) {
    if (auto run = load_run(dir)) runs.push_back(std::move(*run));
  }
  return runs;
}

std::vector<std::string> scalar_names(const RunRecord& run) {
  std::vector<std::string> names;
  for (const auto& [name, scalar] : run.json.at("scalars").items()) names.push_back(name);
  return names;
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

std::optional<double> find_statistic(const nlohmann::json& json, const std::string& group, const std::string& name) {
  const auto statistics = json.find("statistics");
  if (statistics == json.end() || !statistics->is_object()) return std::nullopt;
  const auto values = statistics->find(group);
  if (values == statistics->end() || !values->is_object()) return std::nullopt;
  const auto value = values->find(name);
  if (value == values->end() || !value->is_number()) return std::nullopt;
  return value->get<double>();
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

namespace {

/// "t[1]" -> {t, 1}
TsvColumn column_of(const std::string& label, const std::string& where) {
  const std::size_t open = label.find('[');
  if (label.empty() || open == 0 || open == std::string::npos || label.back() != ']' ||
      label.find('[', open + 1) != std::string::npos) {
    throw InputError(where + ": column '" + label + "' is not of the form name[unit]");
  }
  return {label.substr(0, open), label.substr(open + 1, label.size() - open - 2)};
}

}  // namespace

TsvData parse_tsv(const std::string& text, const std::string& name) {
  TsvData data;
  data.name = name;
  bool schema = false, have_columns = false, in_header = true, gap = false;
  std::size_t block = 0;
  const std::vector<std::string> all = lines(text);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& line = all[i];
    const std::string where = name + ":" + std::to_string(i + 1);
    if (!line.empty() && line.front() == '#') {
      if (!in_header) continue;  // a comment between data blocks
      const std::string body = trim(line.substr(1));
      if (body.rfind("schema:", 0) == 0) {
        const std::string version = trim(body.substr(7));
        if (version != "cm-tsv 1") throw InputError(where + ": schema '" + version + "', expected 'cm-tsv 1'");
        schema = true;
      } else if (body.rfind("columns:", 0) == 0) {
        const std::string list = line.substr(line.find("columns:") + 8);
        std::set<std::string> names;
        for (const std::string& label : split(trim(list), '\t')) {
          data.columns.push_back(column_of(trim(label), where));
          if (!names.insert(data.columns.back().name).second) {
            throw InputError(where + ": column '" + data.columns.back().name + "' appears twice");
          }
        }
        have_columns = true;
      }
      continue;
    }
    if (trim(line).empty()) {
      gap = !data.rows.empty();
      continue;
    }
    if (in_header) {
      if (!schema) throw InputError(where + ": data before the line '# schema: cm-tsv 1'");
      if (!have_columns) throw InputError(where + ": data before the line '# columns: ...'");
      in_header = false;
    }
    if (gap) {
      ++block;
      gap = false;
    }
    const std::vector<std::string> fields = split(line, '\t');
    if (fields.size() != data.columns.size()) {
      throw InputError(where + ": " + std::to_string(fields.size()) + " values, the file has " +
                       std::to_string(data.columns.size()) + " columns");
    }
    std::vector<double> row;
    row.reserve(fields.size());
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const auto x = to_double(trim(fields[c]));
      if (!x) {
        throw InputError(where + ": column " + data.columns[c].label() + ": '" + fields[c] + "' is not a number");
      }
      row.push_back(*x);
    }
    data.rows.push_back(std::move(row));
    data.lines.push_back(i + 1);
    data.blocks.push_back(block);
  }
  if (!schema) throw InputError(name + ": no line '# schema: cm-tsv 1'");
  if (!have_columns) throw InputError(name + ": no line '# columns: ...'");
  return data;
}

TsvData read_tsv(const std::filesystem::path& file) { return parse_tsv(read_text(file, "data"), file.string()); }

}  // namespace cm

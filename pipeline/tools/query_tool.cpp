#include "tools/query_tool.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/options.hpp"
#include "core/run_reader.hpp"
#include "tools/text.hpp"

namespace fs = std::filesystem;

namespace cm::pipeline {

Answer answer(const Question& question, const std::string& dir) {
  const auto number = [](double x) { return format_full(x); };
  const auto refused = [&](const std::string& key, const std::string& lacks) {
    return Answer{"", key, "the run at '" + dir + "' has no " + lacks};
  };
  const fs::path file = fs::path(dir) / "run.json";
  const cm::RunRecord run{dir, "", "", cm::parse_run_json(cm::read_text(file, "runs"), file.string())};
  const nlohmann::json& j = run.json;
  if (!question.scalar.empty()) {
    const cm::ScalarLookup s = cm::find_scalar(run, question.scalar);
    if (!s.found) return refused("scalar", "scalar " + question.scalar);
    return {std::isnan(s.value) ? "null" : number(s.value)};
  }
  if (!question.statistic.empty()) {
    const auto dot = question.statistic.find('.');
    const std::string group = question.statistic.substr(0, dot),
                      name = dot == std::string::npos ? "" : question.statistic.substr(dot + 1);
    const std::optional<double> value = cm::find_statistic(j, group, name);
    if (!value) return refused("statistic", "statistic " + question.statistic);
    return {number(*value)};
  }
  if (!question.key.empty()) {
    if (!j.contains("config") || !j["config"].contains("values") || !j["config"]["values"].contains(question.key) ||
        !j["config"]["values"][question.key].is_string())
      return refused("key", "key " + question.key);
    return {j["config"]["values"][question.key].get<std::string>()};
  }
  if (question.field == "wall_time_s") {
    if (!j.contains("wall_time_s")) return refused("field", "wall_time_s");
    return {number(j["wall_time_s"].get<double>())};
  }
  const std::string value = cm::json_text(j, {question.field.c_str()}, "");
  if (value.empty()) return refused("field", question.field);
  return {value};
}

void QueryTool::declare(cm::Config& config) {
  config.add("runs", &runs_, "the run directories (results/<paper>/<study>, or a run of the store)")
      .required("the runs to read");
  config.add("scalar", &question_.scalar, "a scalar's name");
  config.add("statistic", &question_.statistic, "a solver statistic, <group>.<name> (the group holds no dot)");
  config.add("key", &question_.key, "a key of the run's effective configuration");
  config.add("field", &question_.field, "a field of run.json: run_id, paper, study, wall_time_s")
      .choices({"", "run_id", "paper", "study", "wall_time_s"});
}

int QueryTool::run(const cm::Config& config) {
  if (question_.asked() != 1) config.fail("scalar", "ask exactly one of --scalar, --statistic, --key, --field");
  for (const std::string& dir : runs_) {
    const Answer a = answer(question_, dir);
    if (!a.refused_key.empty()) config.fail(a.refused_key, a.refusal);
    std::printf("%s\n", a.value.c_str());
  }
  return 0;
}

}  // namespace cm::pipeline

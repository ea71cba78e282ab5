// cm_query: one value of runs, read by the run reader (common/run_reader.hpp), for make recipes
// and scripts that would otherwise take run.json apart with sed.
//
//   cm_query --runs=results/dem/container --scalar=contact_tests_ratio_rot_over_norot
//   cm_query --runs=results/dem/container --statistic=cost_rot.cpu_seconds
//   cm_query --runs=results/dem/container --key=particles.n
//   cm_query --runs=results/dem/spin,results/dem/three --field=wall_time_s
//
// One line per run, in the order given: a number as it reads back exactly (%.17g; "null" for a
// scalar written as null), a text as it is. Exactly one of --scalar, --statistic, --key and
// --field names what is asked.
//
// Exit status: 0 printed; 2 bad input (no run there, a run without that value, not exactly one
// question); 74 an I/O error; 70 an internal error.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "common/options.hpp"
#include "common/run_reader.hpp"
#include "common/tool.hpp"
#include "tools/text.hpp"

namespace {

class Query {
 public:
  static constexpr cm::ToolInfo info{"cm_query", "Prints one value of each of some runs (run.json)",
                                     "Exit status: 0 printed, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config) {
    config.add("runs", &runs_, "the run directories (results/<paper>/<study>, or a run of the store)")
        .required("the runs to read");
    config.add("scalar", &scalar_, "a scalar's name");
    config.add("statistic", &statistic_, "a solver statistic, <group>.<name> (the group holds no dot)");
    config.add("key", &config_key_, "a key of the run's effective configuration");
    config.add("field", &field_, "a field of run.json: run_id, paper, study, wall_time_s")
        .choices({"", "run_id", "paper", "study", "wall_time_s"});
  }

  int run(const cm::Config& config) {
    const int asked = !scalar_.empty() + !statistic_.empty() + !config_key_.empty() + !field_.empty();
    if (asked != 1) config.fail("scalar", "ask exactly one of --scalar, --statistic, --key, --field");
    for (const std::string& dir : runs_) std::printf("%s\n", value_of(config, dir).c_str());
    return 0;
  }

 private:
  /// The value asked of the run at `dir`, as printed.
  std::string value_of(const cm::Config& config, const std::string& dir) const {
    const auto number = [](double x) { return cm::pipeline::format_full(x); };
    // Any run directory, whatever its name (a bench's run is not named after its study).
    const std::filesystem::path file = std::filesystem::path(dir) / "run.json";
    const cm::RunRecord run{dir, "", "", cm::parse_run_json(cm::read_text(file, "runs"), file.string())};
    const nlohmann::json& j = run.json;
    if (!scalar_.empty()) {
      const cm::ScalarLookup s = cm::find_scalar(run, scalar_);
      if (!s.found) config.fail("scalar", "the run at '" + dir + "' has no scalar " + scalar_);
      return std::isnan(s.value) ? "null" : number(s.value);
    }
    if (!statistic_.empty()) {
      const auto dot = statistic_.find('.');
      const std::string group = statistic_.substr(0, dot),
                        name = dot == std::string::npos ? "" : statistic_.substr(dot + 1);
      const std::optional<double> value = cm::find_statistic(j, group, name);
      if (!value) config.fail("statistic", "the run at '" + dir + "' has no statistic " + statistic_);
      return number(*value);
    }
    if (!config_key_.empty()) {
      if (!j.contains("config") || !j["config"].contains("values") || !j["config"]["values"].contains(config_key_) ||
          !j["config"]["values"][config_key_].is_string())
        config.fail("key", "the run at '" + dir + "' has no key " + config_key_);
      return j["config"]["values"][config_key_].get<std::string>();
    }
    if (field_ == "wall_time_s") {
      if (!j.contains("wall_time_s")) config.fail("field", "the run at '" + dir + "' has no wall_time_s");
      return number(j["wall_time_s"].get<double>());
    }
    const std::string value = cm::json_text(j, {field_.c_str()}, "");
    if (value.empty()) config.fail("field", "the run at '" + dir + "' has no " + field_);
    return value;
  }

  std::vector<std::string> runs_;
  std::string scalar_, statistic_, config_key_, field_;
};

}  // namespace

int main(int argc, char** argv) { return cm::tool_main<Query>(argc, argv); }

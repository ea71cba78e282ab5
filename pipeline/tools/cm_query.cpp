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

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/options.hpp"
#include "common/run_reader.hpp"
#include "tools/text.hpp"

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    std::vector<std::string> runs;
    std::string scalar, statistic, config_key, field;
    cm::Config config("cm_query", "Prints one value of each of some runs (run.json)");
    config.add("runs", &runs, "the run directories (results/<paper>/<study>, or a run of the store)");
    config.add("scalar", &scalar, "a scalar's name");
    config.add("statistic", &statistic, "a solver statistic, <group>.<name> (the group holds no dot)");
    config.add("key", &config_key, "a key of the run's effective configuration");
    config.add("field", &field, "a field of run.json: run_id, paper, study, wall_time_s")
        .choices({"", "run_id", "paper", "study", "wall_time_s"});
    config.set_usage(
        "usage: cm_query --runs=DIR[,DIR...] (--scalar=NAME | --statistic=GROUP.NAME | --key=KEY | --field=NAME)\n"
        "Exit status: 0 printed, 2 bad input, 74 an I/O error, 70 an internal error.");
    const cm::Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return 0;
    if (runs.empty()) config.fail("runs", "required: the runs to read");
    const int asked = !scalar.empty() + !statistic.empty() + !config_key.empty() + !field.empty();
    if (asked != 1) config.fail("scalar", "ask exactly one of --scalar, --statistic, --key, --field");
    const auto number = [](double x) { return cm::pipeline::format_full(x); };
    for (const std::string& dir : runs) {
      // Any run directory, whatever its name (a bench's run is not named after its study).
      const std::filesystem::path file = std::filesystem::path(dir) / "run.json";
      const cm::RunRecord record{dir, "", "", cm::parse_run_json(cm::read_text(file, "runs"), file.string())};
      const cm::RunRecord* run = &record;
      const nlohmann::json& j = run->json;
      std::string value;
      if (!scalar.empty()) {
        const cm::ScalarLookup s = cm::find_scalar(*run, scalar);
        if (!s.found) config.fail("scalar", "the run at '" + dir + "' has no scalar " + scalar);
        value = std::isnan(s.value) ? "null" : number(s.value);
      } else if (!statistic.empty()) {
        const auto dot = statistic.find('.');
        const std::string group = statistic.substr(0, dot),
                          name = dot == std::string::npos ? "" : statistic.substr(dot + 1);
        if (!j.contains("statistics") || !j["statistics"].contains(group) || !j["statistics"][group].contains(name))
          config.fail("statistic", "the run at '" + dir + "' has no statistic " + statistic);
        value = number(j["statistics"][group][name].get<double>());
      } else if (!config_key.empty()) {
        if (!j.contains("config") || !j["config"].contains("values") || !j["config"]["values"].contains(config_key) ||
            !j["config"]["values"][config_key].is_string())
          config.fail("key", "the run at '" + dir + "' has no key " + config_key);
        value = j["config"]["values"][config_key].get<std::string>();
      } else if (field == "wall_time_s") {
        if (!j.contains("wall_time_s")) config.fail("field", "the run at '" + dir + "' has no wall_time_s");
        value = number(j["wall_time_s"].get<double>());
      } else {
        value = cm::json_text(j, {field.c_str()}, "");
        if (value.empty()) config.fail("field", "the run at '" + dir + "' has no " + field);
      }
      std::printf("%s\n", value.c_str());
    }
    return 0;
  });
}

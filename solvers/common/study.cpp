#include "common/study.hpp"

namespace cm {

void declare_run_keys(Config& config, const StudyInfo& info, std::string& study, Budget& budget, std::string& store) {
  config.set_default_output(std::string("results/") + info.paper + "/<run.study>");
  config.add("run.study", &study,
             "the study this run belongs to (results/<paper>/<study>; one executable may serve several)");
  config.check([&config, &study] {
    if (study.empty() || study.front() == '.' ||
        study.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      config.fail("run.study", "'" + study + "' is not a study name (lower-case letters, digits and _)");
  });
  config.add("output.max_rows", &budget.max_rows, "most rows all data files of the run may hold together")
      .range(Range::closed(1, 1e15))
      .no_data();
  config.add("output.max_bytes", &budget.max_bytes, "most bytes all data files of the run may hold together")
      .unit("B")
      .range(Range::closed(1024, 1e15))
      .no_data();
  config
      .add("output.store", &store,
           "where the run is kept by its id: a directory (the run goes to <store>/<run id> and the output "
           "becomes a link to it), none (the run is written at the output itself), or auto (results/runs "
           "when --output is not given, else none)")
      .no_data();
}

}  // namespace cm

#include "core/study.hpp"

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
  config.add(Budget::max_rows_key, &budget.max_rows, "most rows all data files of the run may hold together")
      .range(Range::closed(1, 1e15))
      .no_data();
  config.add(Budget::max_bytes_key, &budget.max_bytes, "most bytes all data files of the run may hold together")
      .unit("B")
      .range(Range::closed(1024, 1e15))
      .no_data();
  config
      .add(Budget::max_steps_key, &budget.max_steps,
           "most steps one time stepping of the run may take, counted before it starts (the papers' longest, "
           "paper 001's 10 s channel, takes 1e6 steps: 1e9 leaves a thousand times finer steps, and refuses a step "
           "so small that the run would never end)")
      .range(Range::closed(1, 1e15))
      .no_data();
  config
      .add(Budget::max_bodies_key, &budget.max_bodies,
           "most bodies (spheres) the run may hold at once, counted before it starts (the papers' largest system, "
           "paper 001's channel, holds about 2.5e5 spheres: 1e6 leaves four times that, and refuses a grid or a "
           "count that would exhaust the memory or never finish)")
      .range(Range::closed(1, 1e15))
      .no_data();
  config
      .add(Budget::max_memory_key, &budget.max_memory,
           "most bytes the run's largest arrays may take, counted before they are made (16 GiB: far more than the "
           "papers' runs need and less than a workstation's memory, so that a run over it is refused at the start "
           "instead of failing when the memory runs out)")
      .unit("B")
      .range(Range::closed(1 << 20, 1e15))
      .no_data();
  config
      .add("output.store", &store,
           "where the run is kept by its id: a directory (the run goes to <store>/<run id> and the output "
           "becomes a link to it), none (the run is written at the output itself), or auto (results/runs "
           "when --output is not given, else none)")
      .no_data();
}

}  // namespace cm

// The one shape of a study. A study is a class that declares its keys and runs:
//
//   class DiskStudy {
//    public:
//     static constexpr cm::StudyInfo info{"rb_disk", "rollingball", "disk",
//                                         "Rolling disk actuated by internal point masses (Sect. 5)"};
//     void declare(cm::Config& config);   // bind every key to a field (core/options.hpp)
//     void run(cm::Run& run);             // set up, solve, write: named steps, as the paper's section reads
//    private:
//     Options options_;                   // the fields the keys are bound to
//   };
//
//   int main(int argc, char** argv) { return cm::study_main<DiskStudy>(argc, argv); }
//
// study_main declares the keys every study has (run.study, output.max_rows, output.max_bytes,
// output.store),
// parses the command line, opens the run (checking the output before any work), calls run(),
// commits, and maps every failure to its exit status (core/errors.hpp). One executable may serve
// several studies: the study is named by the key run.study (default info.study), never by the
// output folder; the default output is results/<paper>/<study>. The pipeline's tools have the same
// shape without a run: core/tool.hpp, cm::tool_main.
#pragma once

#include <string>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "core/run.hpp"

namespace cm {

/// What a study says of itself.
struct StudyInfo {
  const char* solver;   ///< the executable's name
  const char* paper;    ///< the paper's folder name (friction, maxdiss, ...)
  const char* study;    ///< the default study name (results/<paper>/<study>)
  const char* summary;  ///< the first line of --help
};

/// The keys every study has, bound to `study`, `budget` and `store` (output.store).
void declare_run_keys(Config& config, const StudyInfo& info, std::string& study, Budget& budget, std::string& store);

/// A study's configuration before parsing: the keys every study has and the study's own, bound
/// to the fields below (which the keys point into: neither copied nor moved).
template <class Study>
struct StudyConfig {
  Config config{Study::info.solver, Study::info.summary};
  std::string name = Study::info.study;
  Budget budget;
  std::string store = "auto";

  explicit StudyConfig(Study& study) {
    declare_run_keys(config, Study::info, name, budget, store);
    study.declare(config);
  }
  StudyConfig(const StudyConfig&) = delete;
  StudyConfig& operator=(const StudyConfig&) = delete;
  RunIdentity identity() const { return {Study::info.solver, Study::info.paper, name}; }
};

/// Parses, runs and commits one study; the whole of a study's main.
template <class Study>
int study_main(int argc, char** argv) {
  program_start();  // the run's wall time counts from here
  return guarded_main(argc > 0 ? argv[0] : Study::info.solver, [&] {
    Study study;
    StudyConfig<Study> setup(study);
    const Invocation invocation = setup.config.parse(argc, argv);
    if (invocation.help || invocation.version) return exit_ok;
    Run run(setup.config, setup.identity(), invocation, setup.budget, setup.store);
    study.run(run);
    run.commit();
    return exit_ok;
  });
}

}  // namespace cm

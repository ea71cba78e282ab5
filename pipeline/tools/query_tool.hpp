// cm_query: one value of runs, read by the run reader (core/run_reader.hpp), for make recipes
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
//
// The class QueryTool below is the tool; its main, cm_query.cpp, is one line over cm::tool_main.
#pragma once

#include <string>
#include <vector>

#include "core/tool.hpp"

namespace cm::pipeline {

/// What cm_query asks of each run: one of a scalar's name, a statistic <group>.<name>, a key of the
/// effective configuration, or a field of run.json (run_id, paper, study, wall_time_s).
struct Question {
  std::string scalar = "", statistic = "", key = "", field = "";
  /// How many of the four are given (cm_query takes exactly one).
  int asked() const { return !scalar.empty() + !statistic.empty() + !key.empty() + !field.empty(); }
};

/// The answer of one run: its value as cm_query prints it (a number as it reads back exactly, "null"
/// for a scalar written as null, a text as it is), or, when the run lacks it, the key that asked for
/// it and the refusal naming the run and what it lacks.
struct Answer {
  std::string value;
  std::string refused_key = "", refusal = "";  ///< empty when answered
};

/// Asks `question` (the first given of scalar, statistic, key, field) of the run in the folder `dir`,
/// whatever its name (a bench's run is not named after its study). A run.json that is missing or
/// malformed is a cm::InputError or cm::IoError, as every reader of runs throws.
Answer answer(const Question& question, const std::string& dir);

class QueryTool {
 public:
  static constexpr cm::ToolInfo info{"cm_query", "Prints one value of each of some runs (run.json)",
                                     "Exit status: 0 printed, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  std::vector<std::string> runs_;
  Question question_;
};

}  // namespace cm::pipeline

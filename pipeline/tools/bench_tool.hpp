// cm_bench: the speed of the pipeline, measured and written as a run like any other.
//
// Each command of the list (`name<TAB>command`, one per line) is run `repeat` times through the
// shell; the median wall time of each becomes the scalar <name>_wall_s and their sum the scalar
// total_wall_s of the run results/<paper>/bench (or --output), with the minimum, median and
// maximum under the run's statistics and each command in its notes. The processor time of the
// commands (user + system, of all their children) is recorded too, as <name>_cpu_s and
// total_cpu_s: it does not grow when other work shares the machine, the wall time does.
//
//   cm_bench --list=configs/rollingball/bench.list --repeat=3 --paper=rollingball
//
// Exit status: 0 measured and written, 1 a command failed (nothing is written then), 2 bad input
// (no list, a malformed line), 74 an I/O error (a list that exists but cannot be read), 70 an
// internal error. The run is written by cm::Run (solvers/core), whose failures to write keep
// the statuses it gives them.
//
// The class BenchTool below is the tool; its main, cm_bench.cpp, is one line over cm::tool_main.
#pragma once

#include <string>
#include <vector>

#include "core/tool.hpp"
#include "tools/bench.hpp"

namespace cm::pipeline {

class BenchTool {
 public:
  static constexpr cm::ToolInfo info{"cm_bench", "Times commands and writes the timings as a run",
                                     "Exit status: 0 measured and written, 1 a command failed (nothing written), 2 bad "
                                     "input,\n74 an I/O error, 70 an internal error.",
                                     "[--output=DIR] [--quiet]"};

  void declare(cm::Config& config);

  int run(const cm::Config& config, const cm::Invocation& invocation);

 private:
  /// Runs the command `repeat` times, appending its wall and processor times; false (and says
  /// so) when it fails.
  bool time_command(const BenchCommand& c, std::vector<double>& times, std::vector<double>& cpu) const;

  std::string list_, paper_ = "bench";
  long repeat_ = 1;
  cm::Budget budget_;
};

}  // namespace cm::pipeline

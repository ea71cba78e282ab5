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
// internal error. The run is written by cm::Run (solvers/common), whose failures to write keep
// the statuses it gives them.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "common/options.hpp"
#include "common/run.hpp"
#include "common/tool.hpp"
#include "tools/bench.hpp"
#include "tools/process.hpp"
#include "tools/text.hpp"

namespace {

/// Processor time (user + system) used so far by the children that have been waited for.
double children_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

using namespace cm::pipeline;

class Bench {
 public:
  static constexpr cm::ToolInfo info{"cm_bench", "Times commands and writes the timings as a run",
                                     "Exit status: 0 measured and written, 1 a command failed (nothing written), 2 bad "
                                     "input,\n74 an I/O error, 70 an internal error.",
                                     "[--output=DIR] [--quiet]"};

  void declare(cm::Config& config) {
    config.add("list", &list_, "the commands: lines 'name<TAB>command'").required("the file of commands");
    config.add("repeat", &repeat_, "runs of each command (the median is recorded)").range(cm::Range::closed(1, 1000));
    config.add("paper", &paper_, "the paper the bench belongs to (the run is results/<paper>/bench)");
    config.set_default_output("results/<paper>/bench");
    config.check([this, &config] {
      if (paper_.empty() || paper_.find_first_of("/\\. ") != std::string::npos)
        config.fail("paper", "'" + paper_ + "' is not a paper's name");
    });
  }

  int run(const cm::Config& config, const cm::Invocation& invocation) {
    const std::vector<BenchCommand> commands = parse_bench_list(read_text(list_, "list"), list_);
    cm::Run run(config, {"cm_bench", paper_, "bench"}, invocation, budget_);
    std::printf("%-28s %12s %12s %12s %12s %7s\n", "command", "median [s]", "min [s]", "max [s]", "cpu [s]", "repeat");
    double total = 0.0, total_cpu = 0.0;
    for (const BenchCommand& c : commands) {
      std::vector<double> times, cpu;
      if (!time_command(c, times, cpu)) return 1;  // the tool's verdict, as cm_compare's: not a numerical failure
      const double mid = median(times);
      const double mid_cpu = median(cpu);
      const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
      total += mid;
      total_cpu += mid_cpu;
      run.scalar(c.name + "_wall_s", mid, "s");
      run.scalar(c.name + "_cpu_s", mid_cpu, "s");
      run.statistics(c.name,
                     {{"repeat", double(repeat_)}, {"min_wall_s", *lo}, {"median_wall_s", mid}, {"max_wall_s", *hi}});
      run.note(c.name + ": " + c.command);
      std::printf("%-28s %12.4f %12.4f %12.4f %12.4f %7ld\n", c.name.c_str(), mid, *lo, *hi, mid_cpu, repeat_);
    }
    run.scalar("total_wall_s", total, "s");
    run.scalar("total_cpu_s", total_cpu, "s");
    run.note("total_wall_s and total_cpu_s are the sums of the medians, the commands run one after another");
    std::printf("%-28s %12.4f %38.4f\n", "total", total, total_cpu);
    run.commit();
    return 0;
  }

 private:
  /// Runs the command `repeat` times, appending its wall and processor times; false (and says
  /// so) when it fails.
  bool time_command(const BenchCommand& c, std::vector<double>& times, std::vector<double>& cpu) const {
    for (long i = 0; i < repeat_; ++i) {
      std::fflush(stdout);
      const double cpu_start = children_cpu_seconds();
      const auto start = std::chrono::steady_clock::now();
      const int status = run_shell(c.command);
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
      cpu.push_back(children_cpu_seconds() - cpu_start);
      if (status != 0) {
        std::fprintf(stderr, "cm_bench: error: '%s' failed with exit status %d: %s\n", c.name.c_str(), status,
                     c.command.c_str());
        return false;
      }
      times.push_back(wall.count());
    }
    return true;
  }

  std::string list_, paper_ = "bench";
  long repeat_ = 1;
  cm::Budget budget_;
};

}  // namespace

int main(int argc, char** argv) { return cm::tool_main<Bench>(argc, argv); }

#include "tools/bench_tool.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run.hpp"
#include "tools/bench.hpp"
#include "tools/process.hpp"
#include "tools/text.hpp"

namespace cm::pipeline {

namespace {

/// Processor time (user + system) used so far by the children that have been waited for.
double children_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

void BenchTool::declare(cm::Config& config) {
  config.add("list", &list_, "the commands: lines 'name<TAB>command'").required("the file of commands");
  config.add("repeat", &repeat_, "runs of each command (the median is recorded)").range(cm::Range::closed(1, 1000));
  config.add("paper", &paper_, "the paper the bench belongs to (the run is results/<paper>/bench)");
  config.set_default_output("results/<paper>/bench");
  config.check([this, &config] {
    if (paper_.empty() || paper_.find_first_of("/\\. ") != std::string::npos)
      config.fail("paper", "'" + paper_ + "' is not a paper's name");
  });
}

int BenchTool::run(const cm::Config& config, const cm::Invocation& invocation) {
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

bool BenchTool::time_command(const BenchCommand& c, std::vector<double>& times, std::vector<double>& cpu) const {
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

}  // namespace cm::pipeline

// The bench list of cm_bench: lines `name<TAB>command`, and the statistics of repeated timings.
#pragma once

#include <string>
#include <vector>

namespace cm::pipeline {

struct BenchCommand {
  std::string name;     ///< [A-Za-z0-9_]+, unique; the scalar is <name>_wall_s
  std::string command;  ///< run by /bin/sh -c
};

/// Parses a bench list: `name<TAB>command` per line, `#` lines and blank lines skipped.
/// Throws cm::InputError "<name>:<line>: ..." on a malformed line or a repeated name.
std::vector<BenchCommand> parse_bench_list(const std::string& text, const std::string& name);

/// The median of a non-empty sample (the mean of the two middle values for an even count).
double median(std::vector<double> sample);

}  // namespace cm::pipeline

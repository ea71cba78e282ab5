// cm_tsvdiff: two data files of runs (cm-tsv), value by value, within tolerances.
//
// A candidate value b matches the reference value a when |a - b| <= abs + rel |a| (NaN matches
// NaN only); the columns (names and units), the row count and the data blocks must agree.
// The regression tests compare a quick run with its stored reference this way.
//
//   cm_tsvdiff --reference=tests/rollingball/reference/disk.tsv --candidate=scratch/disk.tsv
//              --abs=1e-10 --rel=1e-8 --columns=N:1e-9:1e-7,phi:0:1e-10
//
// Exit status: 0 equal within tolerance, 1 different, 2 bad input (a file missing or not cm-tsv,
// a reference without data rows, a malformed tolerance), 74 an I/O error (a file that exists but
// cannot be read), 70 an internal error.
//
// The class TsvdiffTool below is the tool; its main, cm_tsvdiff.cpp, is one line over cm::tool_main.
#pragma once

#include <string>

#include "core/tool.hpp"

namespace cm::pipeline {

class TsvdiffTool {
 public:
  static constexpr cm::ToolInfo info{
      "cm_tsvdiff", "Compares two cm-tsv data files column by column",
      "Exit status: 0 equal within tolerance, 1 different, 2 bad input, 74 an I/O error, 70 an internal error."};

  void declare(cm::Config& config);

  int run(const cm::Config& config);

 private:
  std::string reference_file_, candidate_file_, columns_;
  double abs_ = 0.0, rel_ = 0.0;
};

}  // namespace cm::pipeline

// Reading runs is the run reader's, beside the writer (common/run_reader.hpp); the tools name it
// here too.
#pragma once

#include "common/run_reader.hpp"

namespace cm::pipeline {

using cm::check_results_directory;
using cm::find_scalar;
using cm::json_text;
using cm::load_run;
using cm::load_runs;
using cm::parse_run_json;
using cm::RunRecord;
using cm::scalar_names;
using cm::ScalarLookup;

}  // namespace cm::pipeline

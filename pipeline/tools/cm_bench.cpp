// cm_bench: the speed of the pipeline, measured and written as a run like any other.
// Its steps are the class BenchTool of the pipeline library (tools/bench_tool.hpp).
#include "core/tool.hpp"
#include "tools/bench_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::BenchTool>(argc, argv); }

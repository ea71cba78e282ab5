// cm_query: one value of runs, read by the run reader (core/run_reader.hpp), for make recipes
// Its steps are the class QueryTool of the pipeline library (tools/query_tool.hpp).
#include "core/tool.hpp"
#include "tools/query_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::QueryTool>(argc, argv); }

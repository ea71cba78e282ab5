// cm_compare: the reproduced scalars against the paper's values.
// Its steps are the class CompareTool of the pipeline library (tools/compare_tool.hpp).
#include "core/tool.hpp"
#include "tools/compare_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::CompareTool>(argc, argv); }

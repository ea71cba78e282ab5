// cm_tsvdiff: two data files of runs (cm-tsv), value by value, within tolerances.
// Its steps are the class TsvdiffTool of the pipeline library (tools/tsvdiff_tool.hpp).
#include "core/tool.hpp"
#include "tools/tsvdiff_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::TsvdiffTool>(argc, argv); }

// cm_prune: removes the runs of the run store (results/runs/<run id>) that nothing keeps.
// Its steps are the class PruneTool of the pipeline library (tools/prune_tool.hpp).
#include "core/tool.hpp"
#include "tools/prune_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::PruneTool>(argc, argv); }

// cm_verify: checks an archive of cm_archive and re-runs its runs with the current build.
// Its steps are the class VerifyTool of the pipeline library (tools/verify_tool.hpp).
#include "core/tool.hpp"
#include "tools/verify_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::VerifyTool>(argc, argv); }

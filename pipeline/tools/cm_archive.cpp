// cm_archive: one self-describing, reproducible archive of the current runs of some papers.
// Its steps are the class ArchiveTool of the pipeline library (tools/archive_tool.hpp).
#include "core/tool.hpp"
#include "tools/archive_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::ArchiveTool>(argc, argv); }

// cm_import: brings a run of record (records/<archive id>.tar.gz) into the run store, never re-running it.
// Its steps are the class ImportTool of the pipeline library (tools/import_tool.hpp).
#include "core/tool.hpp"
#include "tools/import_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::ImportTool>(argc, argv); }

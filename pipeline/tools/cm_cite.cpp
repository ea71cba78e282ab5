// cm_cite: how to cite a run, as BibTeX and as plain text.
// Its steps are the class CiteTool of the pipeline library (tools/cite_tool.hpp).
#include "core/tool.hpp"
#include "tools/cite_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::CiteTool>(argc, argv); }

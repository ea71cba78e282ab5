// cm_report: a paper's report, reports/<paper>/index.md and index.html, or the index over all papers.
// Its steps are the class ReportTool of the pipeline library (tools/report_tool.hpp).
#include "core/tool.hpp"
#include "tools/report_tool.hpp"

int main(int argc, char** argv) { return cm::tool_main<cm::pipeline::ReportTool>(argc, argv); }

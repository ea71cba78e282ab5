// The one shape of a tool of the pipeline, beside the one shape of a study (core/study.hpp).
// A tool is a class that declares its keys and runs; it writes no run of its own:
//
//   class Tsvdiff {
//    public:
//     static constexpr cm::ToolInfo info{"cm_tsvdiff", "Compares two cm-tsv data files column by column",
//                                        "Exit status: 0 equal within tolerance, 1 different, 2 bad input, ..."};
//     void declare(cm::Config& config);  // bind every key to a field; .required("what") where one must be given
//     int run(const cm::Config& config); // named steps; config.fail(key, ...) refuses a value; the exit status
//    private:
//     std::string reference_;            // the fields the keys are bound to
//   };
//
//   int main(int argc, char** argv) { return cm::tool_main<Tsvdiff>(argc, argv); }
//
// tool_main declares the tool's keys, generates the usage line from them (the required keys, then
// the optional ones in brackets, then info.options and info.exits), parses the command line,
// refuses a required key left empty (exit 2, naming it) and calls run(), which may take the
// config, the invocation (--quiet, --output), both or neither. Every failure maps to its exit
// status as in every main (core/errors.hpp, cm::guarded_main).
//
// It lives beside study_main, not in the pipeline's library, because it needs only the options
// layer and guarded_main: a tool's class can then be unit-tested over cm::core alone.
#pragma once

#include <string>

#include "core/errors.hpp"
#include "core/options.hpp"
#include "core/run.hpp"

namespace cm {

/// What a tool says of itself.
struct ToolInfo {
  const char* name;          ///< the executable's name
  const char* summary;       ///< the first line of --help
  const char* exits;         ///< the exit-status lines of --help ("Exit status: 0 ..., 2 bad input, ...")
  const char* options = "";  ///< the options beyond keys the tool reads from the invocation ("[--quiet]")
};

/// The usage of --help: the line generated from the keys, info.options, then info.exits.
inline std::string tool_usage(const Config& config, const ToolInfo& info) {
  std::string options = info.options;
  return config.usage_line() + (options.empty() ? "" : " " + options) + "\n" + info.exits;
}

/// Declares a tool's keys, parses, checks the required keys and runs it; the whole of a tool's main.
template <class Tool>
int tool_main(int argc, char** argv) {
  program_start();  // a tool that writes a run (cm_bench) counts its wall time from here
  return guarded_main(argc > 0 ? argv[0] : Tool::info.name, [&] {
    Tool tool;
    Config config(Tool::info.name, Tool::info.summary);
    tool.declare(config);
    config.set_usage(tool_usage(config, Tool::info));
    const Invocation invocation = config.parse(argc, argv);
    if (invocation.help || invocation.version) return exit_ok;
    config.check_required();
    const Config& parsed = config;
    if constexpr (requires { tool.run(parsed, invocation); })
      return tool.run(parsed, invocation);
    else if constexpr (requires { tool.run(parsed); })
      return tool.run(parsed);
    else if constexpr (requires { tool.run(invocation); })
      return tool.run(invocation);
    else
      return tool.run();
  });
}

}  // namespace cm

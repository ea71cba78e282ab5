// Running other programs (pandoc for the reports, shell commands for the bench) without a shell
// in between unless one is asked for.
#pragma once

#include <string>
#include <vector>

namespace cm::pipeline {

/// Runs argv[0] (looked up on PATH) with its arguments, waits and returns its exit status
/// (128 + the signal when it was killed). Throws cm::InputError when it cannot be started.
int run_program(const std::vector<std::string>& argv);

/// Runs argv as run_program does, in the folder `cwd`, its standard output and error written to
/// the file `log` (created; an existing file is refused as a cm::IoError), with no shell between.
int run_program_in(const std::vector<std::string>& argv, const std::string& cwd, const std::string& log);

/// `/bin/sh -c command`; the exit status as for run_program.
int run_shell(const std::string& command);

/// Whether `program` is an executable on PATH.
bool on_path(const std::string& program);

}  // namespace cm::pipeline

// Reading files: what the run reader (core/run_reader.hpp) and the pipeline's tools share.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace cm {

/// The contents of a file. A file that does not exist or is no regular file is bad input
/// (cm::InputError naming the file and `what` it is, usually the key that gave it); a file that
/// exists but cannot be opened or read is a cm::IoError with the system's reason.
std::string read_text(const std::filesystem::path& file, const std::string& what);

/// Throws cm::IoError "<what> '<file>': <the system's reason for ec>".
[[noreturn]] void throw_io_error(const std::string& what, const std::filesystem::path& file, const std::error_code& ec);

/// Whether a directory entry's name starts with a dot: a hidden directory such as the
/// `.<study>.partial-<pid>` or `.<study>.old-<pid>` of an interrupted solver run, never a run.
bool hidden(const std::filesystem::path& entry);

/// The subdirectories of `dir` that are not hidden, sorted; a listing failure is a cm::IoError.
std::vector<std::filesystem::path> visible_subdirectories(const std::filesystem::path& dir);

/// Lines of `text`, without their line ends ("\n" or "\r\n"); a final line end does not start
/// an extra line.
std::vector<std::string> lines(const std::string& text);

}  // namespace cm

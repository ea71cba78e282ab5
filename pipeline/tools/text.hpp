// Small text and file helpers shared by the pipeline's tools.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "common/text.hpp"

namespace cm::pipeline {

// split, trim and join are the project's one set, cm::split etc. (common/text.hpp).

/// The whole of `text` as a double (strtod syntax, so "nan", "-nan" and "inf" are accepted);
/// nothing when any character is left over or the text is empty.
std::optional<double> to_double(std::string_view text);

/// printf("%.*g"), with "nan", "inf" and "-inf" for the non-finite values.
std::string format_g(double x, int digits);

/// The full-precision form used in data files (%.17g).
std::string format_full(double x);

/// The contents of a file. A file that does not exist or is no regular file is bad input
/// (cm::InputError naming the file and `what` it is, usually the key that gave it); a file that
/// exists but cannot be opened or read is a cm::IoError with the system's reason.
std::string read_text(const std::filesystem::path& file, const std::string& what);

/// Writes `content` to a hidden temporary sibling `.<name>.partial-<pid>` of `file`, flushes it
/// to the disk and renames it into place, so a reader never sees a half-written file and an
/// interrupted write leaves only a hidden leftover. Creates the parent directory. Any failure is a
/// cm::IoError naming the file, with the system's reason; the temporary file is removed.
void write_atomic(const std::filesystem::path& file, const std::string& content);

/// Throws cm::IoError "<what> '<file>': <the system's reason for ec>".
[[noreturn]] void throw_io_error(const std::string& what, const std::filesystem::path& file, const std::error_code& ec);

/// Whether a directory entry's name starts with a dot: a hidden directory such as the
/// `.<study>.partial-<pid>` or `.<study>.old-<pid>` of an interrupted solver run, never a run.
bool hidden(const std::filesystem::path& entry);

/// The subdirectories of `dir` that are not hidden, sorted; a listing failure is a cm::IoError.
std::vector<std::filesystem::path> visible_subdirectories(const std::filesystem::path& dir);

/// "1 failure" / "2 failures".
std::string plural(std::size_t n, const std::string& singular, const std::string& plural_form);

/// Lines of `text`, without their line ends ("\n" or "\r\n"); a final line end does not start
/// an extra line.
std::vector<std::string> lines(const std::string& text);

}  // namespace cm::pipeline

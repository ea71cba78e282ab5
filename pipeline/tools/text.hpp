// Small text and file helpers shared by the pipeline's tools.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/files.hpp"
#include "core/text.hpp"

namespace cm::pipeline {

// Reading files is the run reader's (core/files.hpp); the tools name it here too.
using cm::format_g;  // printf("%.*g"), the non-finite values spelled out (core/text.hpp)
using cm::hidden;
using cm::lines;
using cm::read_text;
using cm::throw_io_error;
using cm::to_double;
using cm::visible_subdirectories;

// split, trim and join are the project's one set, cm::split etc. (core/text.hpp).

/// The full-precision form used in data files (%.17g).
std::string format_full(double x);

/// A standard error as the report shows it beside its mean: two significant digits, without an
/// exponent where it is a whole number below 10^6 (382.004 gives "380", 0.00287 "0.0029").
std::string format_error(double se);

/// Writes `content` to a hidden temporary sibling `.<name>.partial-<pid>` of `file`, flushes it
/// to the disk and renames it into place, so a reader never sees a half-written file and an
/// interrupted write leaves only a hidden leftover. Creates the parent directory. Any failure is a
/// cm::IoError naming the file, with the system's reason; the temporary file is removed.
void write_atomic(const std::filesystem::path& file, const std::string& content);

/// "1 failure" / "2 failures".
std::string plural(std::size_t n, const std::string& singular, const std::string& plural_form);

}  // namespace cm::pipeline

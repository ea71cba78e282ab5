// Small text and file helpers shared by the pipeline's tools.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cm::pipeline {

/// Splits at every `separator` (empty fields are kept: "a\t\tb" gives three fields).
std::vector<std::string> split(std::string_view text, char separator);

/// The items separated by `separator`.
std::string join(const std::vector<std::string>& items, const std::string& separator);

/// Without leading and trailing blanks (spaces, tabs, CR, LF).
std::string trim(std::string_view text);

/// The whole of `text` as a double (strtod syntax, so "nan", "-nan" and "inf" are accepted);
/// nothing when any character is left over or the text is empty.
std::optional<double> to_double(std::string_view text);

/// printf("%.*g"), with "nan", "inf" and "-inf" for the non-finite values.
std::string format_g(double x, int digits);

/// The full-precision form used in data files (%.17g).
std::string format_full(double x);

/// The contents of a file; throws cm::InputError naming the file (and `what` it is) when it
/// cannot be read.
std::string read_text(const std::filesystem::path& file, const std::string& what);

/// Writes `content` to a temporary sibling of `file` and renames it into place, so a reader
/// never sees a half-written file. Creates the parent directory.
void write_atomic(const std::filesystem::path& file, const std::string& content);

/// "1 failure" / "2 failures".
std::string plural(std::size_t n, const std::string& singular, const std::string& plural_form);

/// Lines of `text`, without their line ends ("\n" or "\r\n"); a final line end does not start
/// an extra line.
std::vector<std::string> lines(const std::string& text);

}  // namespace cm::pipeline

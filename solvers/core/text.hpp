// Small text helpers shared by the solvers and the pipeline tools: one splitter, one trim, one
// shortest-exact formatter of reals.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cm {

/// `s` without leading and trailing blanks (space, tab, CR, LF).
std::string trim(std::string_view s);

/// The fields of `s` between `separator`s, as they are (no trimming; empty fields kept):
/// "a\t\tb" -> {"a", "", "b"}, "" -> {""}, "a," -> {"a", ""}. Trim them where blanks do not count.
std::vector<std::string> split(std::string_view s, char separator);

/// The parts joined with `separator`.
std::string join(const std::vector<std::string>& parts, const std::string& separator);

/// The shortest text that reads back as the same double (0.9, not 0.90000000000000002).
std::string format_real(double x);

/// printf("%.*g"), with "nan", "inf" and "-inf" for the non-finite values: a value for people to
/// read, `digits` significant digits.
std::string format_g(double x, int digits);

/// The whole of `text` as a double (strtod syntax, so "nan", "-nan" and "inf" are accepted);
/// nothing when any character is left over or the text is empty.
std::optional<double> to_double(std::string_view text);

}  // namespace cm

// Small text helpers shared by the solvers and the pipeline tools: one splitter, one trim, one
// shortest-exact formatter of reals.
#pragma once

#include <string>
#include <vector>

namespace cm {

/// `s` without leading and trailing blanks (space, tab, CR, LF).
std::string trim(const std::string& s);

/// The trimmed fields of `s` between `separator`s: "a, b,,c" -> {"a", "b", "", "c"}; "" -> {}.
/// A trailing separator gives a trailing empty field ("a," -> {"a", ""}), so no field is lost.
std::vector<std::string> split(const std::string& s, char separator);

/// The parts joined with `separator`.
std::string join(const std::vector<std::string>& parts, const std::string& separator);

/// The shortest text that reads back as the same double (0.9, not 0.90000000000000002).
std::string format_real(double x);

}  // namespace cm

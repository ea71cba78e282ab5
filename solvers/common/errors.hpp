// Error kinds shared by every solver and tool, and the exit statuses they map to
// (CONVENTIONS.md: 2 for bad input, 3 for a numerical failure).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace cm {

/// Bad input: an unknown key, an unparsable or out-of-range value, a missing file.
/// The message names the key or file and what is allowed. Exit status 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A numerical failure: an integrator that gave up, a Newton iteration that did not
/// converge. The message says what failed and at which time or iteration. Exit status 3.
struct NumericalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int exit_ok = 0;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_numerical = 3;

/// Runs `body` and turns the project's exceptions into the documented exit statuses,
/// printing "<program>: error: <message>" on stderr. Every solver's main is
/// `return cm::guarded_main(argv[0], [&] { ...; return 0; });`.
int guarded_main(const char* program, const std::function<int()>& body);

}  // namespace cm

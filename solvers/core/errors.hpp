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

/// A file that could not be read or written for a reason outside the input (a full disk, a
/// permission, a vanished directory). The message names the file and carries the system's reason
/// (strerror). Exit status 74 (EX_IOERR of sysexits.h).
struct IoError : std::runtime_error {
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
inline constexpr int exit_io = 74;        ///< EX_IOERR
inline constexpr int exit_internal = 70;  ///< EX_SOFTWARE: a bug of ours, never a verdict on the input

/// "<what> '<file>': <strerror(errno)>", for IoError messages.
std::string io_message(const std::string& what, const std::string& file);

/// Runs `body` and turns the project's exceptions into the documented exit statuses,
/// printing "<program>: error: <message>" on stderr: InputError 2, NumericalError 3, IoError 74,
/// anything else (a bug) 70, so that no tool's own verdict (cm_compare's 1) is ever confused
/// with a crash. Every solver's main is
/// `return cm::guarded_main(argv[0], [&] { ...; return 0; });`.
int guarded_main(const char* program, const std::function<int()>& body);

}  // namespace cm

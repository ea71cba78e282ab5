// Grids set by keys, counted before they are built: a step of 1e-300 is refused with a message
// naming its key, never looped over until the disk is full.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace cm {

/// The number of points of lo, lo + step, ... up to hi (the last within `slack` steps of hi
/// included), checked: hi >= lo, step > 0, step resolvable at hi, at most `max_points`. When
/// hi > lo, the step is no longer than the span, since such a grid would hold its start alone: an
/// output step longer than the run is a mistake, never a request for one row. Throws InputError
/// naming `key` (the key of the step).
inline long grid_points(const std::string& key, double lo, double hi, double step, long max_points,
                        double slack = 1e-9) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && std::isfinite(step)))
    throw InputError(key + ": the grid from " + format_real(lo) + " to " + format_real(hi) + " by " +
                     format_real(step) + " is not finite");
  if (!(step > 0)) throw InputError(key + ": the step must be positive, got " + format_real(step));
  if (hi < lo)
    throw InputError(key + ": the grid's end " + format_real(hi) + " lies before its start " + format_real(lo));
  const double count = std::floor((hi - lo) / step + slack) + 1;
  if (hi > lo && count < 2)
    throw InputError(key + ": a step of " + format_real(step) + " is longer than the span [" + format_real(lo) + ", " +
                     format_real(hi) + "]: the grid would hold its start alone");
  if (!(count <= static_cast<double>(max_points)) || lo + step == lo || hi + step == hi)
    throw InputError(key + ": a step of " + format_real(step) + " over [" + format_real(lo) + ", " + format_real(hi) +
                     "] gives " + format_real(count) + " points, more than the " + std::to_string(max_points) +
                     " allowed (output.max_rows)");
  return static_cast<long>(count);
}

/// The points lo + i step, i = 0 .. grid_points(...) - 1 (no accumulation of rounding).
inline std::vector<double> step_grid(const std::string& key, double lo, double hi, double step, long max_points) {
  const long n = grid_points(key, lo, hi, step, max_points);
  std::vector<double> x(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = lo + static_cast<double>(i) * step;
  return x;
}

}  // namespace cm

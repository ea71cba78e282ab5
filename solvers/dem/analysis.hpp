// Small helpers of the studies of paper 003: least-squares slopes and the interpolated crossing
// of a sampled signal.
#pragma once

#include <cstddef>
#include <vector>

namespace dem {

/// Least-squares slope of y(t) over the samples with t in [t0, t1] (NaN with fewer than two).
double fitted_slope(const std::vector<double>& t, const std::vector<double>& y, double t0, double t1);

/// The first time at or after `from` where y crosses `level` (sign change, linearly interpolated
/// between samples), or NaN if it never does. `direction`: +1 upward crossings only, -1 downward
/// only, 0 either.
double first_crossing(const std::vector<double>& t, const std::vector<double>& y, double level, double from,
                      int direction = 0);

}  // namespace dem

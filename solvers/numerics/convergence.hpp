// The observed order of convergence of a sequence of runs: the least-squares slope of log(error)
// against log(step) (pairs with a zero or negative error are left out). NaN with fewer than two.
#pragma once

#include <cmath>
#include <vector>

namespace cm {

inline double observed_order(const std::vector<double>& step, const std::vector<double>& error) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < step.size() && i < error.size(); ++i) {
    if (!(error[i] > 0.0)) continue;
    const double x = std::log(step[i]), y = std::log(error[i]);
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return n >= 2 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : std::nan("");
}

}  // namespace cm

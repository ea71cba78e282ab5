#include "dem/analysis.hpp"

#include <cmath>
#include <limits>

namespace dem {

double fitted_slope(const std::vector<double>& t, const std::vector<double>& y, double t0, double t1) {
  double n = 0, st = 0, sy = 0, stt = 0, sty = 0;
  for (std::size_t k = 0; k < t.size() && k < y.size(); ++k) {
    if (t[k] < t0 || t[k] > t1) continue;
    n += 1;
    st += t[k];
    sy += y[k];
    stt += t[k] * t[k];
    sty += t[k] * y[k];
  }
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  return (n * sty - st * sy) / (n * stt - st * st);
}

double first_crossing(const std::vector<double>& t, const std::vector<double>& y, double level, double from,
                      int direction) {
  for (std::size_t k = 1; k < t.size() && k < y.size(); ++k) {
    if (t[k] < from) continue;
    const double a = y[k - 1] - level, b = y[k] - level;
    const bool rising = a < 0.0 && b >= 0.0, falling = a > 0.0 && b <= 0.0;
    if ((rising && direction >= 0) || (falling && direction <= 0)) return t[k - 1] + (t[k] - t[k - 1]) * a / (a - b);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace dem

#include "numerics/extremes.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "numerics/stationarity.hpp"

namespace cm {

namespace {

// The estimate of a quantile from the sorted and the original series, the count rule left out
// (the upper end of M_m's interval is reported however few points lie beyond it).
QuantileEstimate estimate_quantile(const std::vector<double>& x, const std::vector<double>& sorted, double p,
                                   const QuantileOptions& options) {
  const double n = static_cast<double>(x.size());
  QuantileEstimate q;
  q.p = p;
  q.value = sorted_quantile(sorted, p);
  q.beyond = n * (1.0 - p);
  // Woodruff's interval: the fraction at or below the estimate, its error by batch means.
  std::vector<double> below(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) below[i] = x[i] <= q.value ? 1.0 : 0.0;
  q.standard_error = batch_means(below, options.batches).standard_error;
  const boost::math::students_t student(options.batches - 1);
  const double t = boost::math::quantile(student, 0.5 + 0.5 * options.confidence);
  const double from = p - t * q.standard_error, to = p + t * q.standard_error;
  q.lower = sorted_quantile(sorted, std::max(0.0, from));
  q.upper = sorted_quantile(sorted, std::min(1.0, to));
  q.upper_open = to >= 1.0;
  return q;
}

// The checks of every estimate: finite values, a confidence and batches that make sense.
void check_series(const std::vector<double>& x, const QuantileOptions& options, const char* what) {
  if (x.size() < 2)
    throw InputError(std::string(what) + ": a series of " + std::to_string(x.size()) + " values, fewer than 2");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw InputError(std::string(what) + ": value " + std::to_string(i) + " of the series is not finite (" +
                       format_real(x[i]) + ")");
  if (!(options.confidence > 0.0 && options.confidence < 1.0))
    throw InputError(std::string(what) + ": the confidence must lie in (0, 1), not " + format_real(options.confidence));
  if (options.batches < 2 || static_cast<std::size_t>(options.batches) > x.size())
    throw InputError(std::string(what) + ": batches must lie in 2 .. " + std::to_string(x.size()) +
                     " (the series' length), not " + std::to_string(options.batches));
}

// The rule of enough points beyond the quantile p.
void check_points_beyond(std::size_t n, double p, const QuantileOptions& options, const std::string& what) {
  const double beyond = static_cast<double>(n) * (1.0 - p);
  if (!(beyond >= options.min_beyond))
    throw InputError(what + ": a series of " + std::to_string(n) + " values has " + format_real(beyond) +
                     " expected beyond the quantile " + format_real(p) + ", fewer than the " +
                     format_real(options.min_beyond) + " asked: it needs at least " +
                     format_real(std::ceil(options.min_beyond / (1.0 - p))) + " values");
}

}  // namespace

double sorted_quantile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double h = static_cast<double>(sorted.size() - 1) * p;  // definition 7, counted from 0
  const std::size_t below = std::min(static_cast<std::size_t>(std::floor(h)), sorted.size() - 1);
  if (below + 1 == sorted.size()) return sorted[below];
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[below + 1] - sorted[below]);
}

QuantileEstimate tail_quantile(const std::vector<double>& x, double p, const QuantileOptions& options) {
  check_series(x, options, "tail quantile");
  if (!(p > 0.0 && p < 1.0)) throw InputError("tail quantile: p must lie in (0, 1), not " + format_real(p));
  check_points_beyond(x.size(), p, options, "tail quantile");
  std::vector<double> sorted = x;
  std::sort(sorted.begin(), sorted.end());
  return estimate_quantile(x, sorted, p, options);
}

MaximumOfDraws maximum_of_draws(const std::vector<double>& x, long m, double spread, const QuantileOptions& options) {
  check_series(x, options, "largest of m draws");
  if (m < 1) throw InputError("largest of m draws: m must be at least 1, not " + std::to_string(m));
  if (!(spread > 0.0 && spread < 1.0))
    throw InputError("largest of m draws: the spread must lie in (0, 1), not " + format_real(spread));
  const double root = 1.0 / static_cast<double>(m);
  // u^{1/m} = exp(ln u / m): for m = 1001 the three are 1 - 6.9e-4, 1 - 3.0e-3, 1 - 5.1e-5
  const double p_median = std::exp(std::log(0.5) * root), p_low = std::exp(std::log(0.5 - 0.5 * spread) * root),
               p_high = std::exp(std::log(0.5 + 0.5 * spread) * root);
  check_points_beyond(x.size(), p_median, options, "largest of " + std::to_string(m) + " draws");
  std::vector<double> sorted = x;
  std::sort(sorted.begin(), sorted.end());
  MaximumOfDraws r;
  r.m = m;
  r.spread = spread;
  r.median = estimate_quantile(x, sorted, p_median, options);
  r.low = estimate_quantile(x, sorted, p_low, options);
  r.high = estimate_quantile(x, sorted, p_high, options);
  r.largest = sorted.back();
  r.n = static_cast<long>(x.size());
  return r;
}

}  // namespace cm

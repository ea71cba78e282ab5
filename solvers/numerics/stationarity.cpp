#include "numerics/stationarity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cm {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The values of the batches (each from `value` over its index range) and their mean and error.
template <class Value>
BatchMeans over_batches(std::size_t n, int asked, const Value& value) {
  if (asked < 1) throw std::invalid_argument("batch means: at least one batch");
  BatchMeans b;
  b.batches = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(asked), n));
  if (b.batches == 0) return {nan, nan, 0};
  const std::size_t size = n / static_cast<std::size_t>(b.batches), first = n - size * b.batches;
  std::vector<double> values;
  for (int i = 0; i < b.batches; ++i) values.push_back(value(first + i * size, first + (i + 1) * size));
  double sum = 0.0;
  for (double v : values) sum += v;
  b.mean = sum / b.batches;
  if (b.batches < 2) {
    b.standard_error = nan;
    return b;
  }
  double squares = 0.0;
  for (double v : values) squares += (v - b.mean) * (v - b.mean);
  b.standard_error = std::sqrt(squares / (b.batches - 1) / b.batches);
  return b;
}

}  // namespace

double relative_drift(const std::vector<double>& t, const std::vector<double>& x) {
  const std::size_t n = std::min(t.size(), x.size());
  if (n < 2) return nan;
  double mt = 0.0, mx = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    mt += t[i];
    mx += x[i];
  }
  mt /= static_cast<double>(n);
  mx /= static_cast<double>(n);
  double stt = 0.0, stx = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    stt += (t[i] - mt) * (t[i] - mt);
    stx += (t[i] - mt) * (x[i] - mx);
  }
  if (stt == 0.0 || mx == 0.0) return nan;
  const double slope = stx / stt;
  return slope * (t[n - 1] - t[0]) / mx;
}

BatchMeans batch_means(const std::vector<double>& x, int batches) {
  return over_batches(x.size(), batches, [&](std::size_t from, std::size_t to) {
    double sum = 0.0;
    for (std::size_t i = from; i < to; ++i) sum += x[i];
    return sum / static_cast<double>(to - from);
  });
}

BatchMeans batch_ratio(const std::vector<double>& a, const std::vector<double>& b, double scale, int batches) {
  return over_batches(std::min(a.size(), b.size()), batches, [&](std::size_t from, std::size_t to) {
    double sa = 0.0, sb = 0.0;
    for (std::size_t i = from; i < to; ++i) {
      sa += a[i];
      sb += b[i];
    }
    return sb == 0.0 ? nan : scale * sa / sb;
  });
}

}  // namespace cm

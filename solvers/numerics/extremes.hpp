// The largest of m independent draws, estimated from a window of an autocorrelated series: a run
// keeps one value per step (the deepest penetration of the step, say), while a paper reports the
// largest of m snapshots. Its distribution function is F^m, with F the series' marginal one, so
//   M_m has the quantiles F^{-1}(u^{1/m}),  its median F^{-1}(0.5^{1/m}),
// and a central interval of level c, F^{-1}(((1 - c) / 2)^{1/m}) .. F^{-1}(((1 + c) / 2)^{1/m}),
// the spread that one draw of M_m (a paper's single value) has by nature.
// F^{-1} is the empirical quantile of the series, Hyndman and Fan's definition 7 (linear between
// order statistics, R's and NumPy's default): with x_(1) <= ... <= x_(n) and h = (n - 1) p + 1,
//   Q_n(p) = x_(floor h) + (h - floor h) (x_(floor h + 1) - x_(floor h)).
// Its confidence interval is Woodruff's: the fraction of the series at or below Q_n(p) has a
// standard error s, and the interval is Q_n(p - t s) .. Q_n(p + t s), t Student's quantile.
// Consecutive steps are correlated, so s comes from batch means of the indicator 1{x_i <= Q_n(p)}
// (numerics/stationarity.hpp), which see the clustering of the exceedances that sqrt(p (1 - p) / n)
// misses; with one batch per value it is that naive error again. Batch means rather than a block
// bootstrap: no generator to seed, one sort, and the same batches as the studies' averages.
// The m draws of the statistic are independent: snapshots of a run taken farther apart than its
// correlation time, as a paper's every 1000 steps are. The window is taken as stationary.
// A tail quantile is only known from the points beyond it: n (1 - p) of them are expected, and a
// series with fewer than QuantileOptions::min_beyond is refused (an InputError), as are values
// that are not finite and m < 1. The interval's ends are quantiles too, reported with the counts
// beyond them so that a caller sees which end rests on a handful of points.
#pragma once

#include <vector>

namespace cm {

/// How a tail quantile and its interval are estimated.
struct QuantileOptions {
  /// Batches of consecutive values for the standard error (batch means): 10, as average.batches
  /// of the studies, the usual choice; each batch must outlast the correlation of the exceedances.
  int batches = 10;
  /// The confidence level of the interval of an estimate: 0.95, the usual.
  double confidence = 0.95;
  /// The points expected beyond the quantile, n (1 - p), below which a series is refused: 10, where
  /// the count of exceedances, nearly Poisson, has a relative spread of 1 / sqrt(10) = 32 % and
  /// the interval's upper end still lies inside the series for independent values.
  double min_beyond = 10.0;
};

/// An estimated quantile of a series' marginal distribution with its confidence interval.
struct QuantileEstimate {
  double p = 0.0;               ///< the probability
  double value = 0.0;           ///< Q_n(p), definition 7
  double lower = 0.0;           ///< Q_n(p - t s), the interval's lower end
  double upper = 0.0;           ///< Q_n(p + t s), the interval's upper end
  double standard_error = 0.0;  ///< s, the standard error of the fraction at or below Q_n(p)
  double beyond = 0.0;          ///< n (1 - p), the points expected beyond the quantile
  bool upper_open = false;      ///< p + t s >= 1: the upper end is the series' largest value, a lower bound
};

/// The distribution of M_m, the largest of m independent draws from the series' marginal one.
struct MaximumOfDraws {
  long m = 0;               ///< the draws
  double spread = 0.0;      ///< the level of the central interval of M_m
  QuantileEstimate median;  ///< F^{-1}(0.5^{1/m}), with its confidence interval
  QuantileEstimate low;     ///< F^{-1}(((1 - spread) / 2)^{1/m}), the central interval's lower end
  QuantileEstimate high;    ///< F^{-1}(((1 + spread) / 2)^{1/m}), its upper end (few points beyond)
  double largest = 0.0;     ///< the series' largest value
  long n = 0;               ///< the series' length
};

/// Q_n(p) of values sorted ascending (definition 7), p in [0, 1]; NaN for no values.
double sorted_quantile(const std::vector<double>& sorted, double p);

/// The quantile p of the series' marginal distribution with its confidence interval. Refuses
/// (InputError) values that are not finite, p outside (0, 1), fewer than options.min_beyond points
/// expected beyond, batches outside 2 .. n and a confidence outside (0, 1).
QuantileEstimate tail_quantile(const std::vector<double>& x, double p, const QuantileOptions& options = {});

/// The median and central interval (level `spread`, 0.90: the 5 % and 95 % quantiles) of the
/// largest of m draws. The refusals of tail_quantile apply to the median's quantile; m must be at
/// least 1 and spread in (0, 1). The central interval's upper end has fewer points beyond it
/// (0.074 times the median's at 0.90): it is reported, never refused.
MaximumOfDraws maximum_of_draws(const std::vector<double>& x, long m, double spread = 0.90,
                                const QuantileOptions& options = {});

}  // namespace cm

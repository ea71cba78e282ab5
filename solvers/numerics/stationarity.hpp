// Whether a window of a time series is stationary, and how well its mean is known: the relative
// drift of a least-squares line across the window, and the standard error of the mean by batch
// means. A run's consecutive samples are correlated, so the naive sigma / sqrt(n) is too small;
// the means of long enough consecutive batches are nearly independent.
#pragma once

#include <vector>

namespace cm {

/// The change of the least-squares line of x(t) from the first to the last t, over the mean of x:
/// 0 for a constant series. NaN with fewer than 2 points, equal times, or a mean of 0.
double relative_drift(const std::vector<double>& t, const std::vector<double>& x);

/// A mean with its standard error by batch means.
struct BatchMeans {
  double mean = 0.0;            ///< the mean of the batches' values
  double standard_error = 0.0;  ///< sqrt(var(batch values) / batches), var with batches - 1; NaN below 2 batches
  int batches = 0;              ///< batches used: min(asked, samples)
};

/// The series cut into `batches` consecutive batches of equal size; samples left over by the
/// division are the first ones (the earliest of the window) and are left out.
BatchMeans batch_means(const std::vector<double>& x, int batches);

/// The same for a ratio of sums, scale * sum(a) / sum(b), formed per batch (contacts per sphere:
/// 2 sum(contacts) / sum(spheres)).
BatchMeans batch_ratio(const std::vector<double>& a, const std::vector<double>& b, double scale, int batches);

}  // namespace cm

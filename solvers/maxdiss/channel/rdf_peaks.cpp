#include "maxdiss/channel/rdf_peaks.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace md::granular {

std::vector<double> initial_grid_distances(double spacing, double diameter) {
  const double s = spacing / diameter;
  return {s, std::sqrt(2.0) * s, std::sqrt(3.0) * s, 2.0 * s};
}

std::vector<DistancePeak> distance_peaks(const std::vector<double>& g, const std::vector<double>& pairs,
                                         double dr_over_d, const std::vector<double>& distances_over_d,
                                         double halfwidth_over_d, double sigmas) {
  if (g.size() != pairs.size()) throw std::invalid_argument("distance_peaks: g and pairs differ in size");
  if (!(dr_over_d > 0) || !(halfwidth_over_d > 0)) {
    throw std::invalid_argument("distance_peaks: the bin width and the half-width must be positive");
  }
  const auto bin = [&](double r) {
    const double b = std::floor(r / dr_over_d);
    if (!(b >= 0) || b >= static_cast<double>(g.size())) {
      throw std::invalid_argument("distance_peaks: r = " + std::to_string(r) + " diameters lies outside the bins");
    }
    return static_cast<std::size_t>(b);
  };
  // Counting statistics: a bin of n pairs of spheres has g known to g / sqrt(n).
  const auto variance = [&](std::size_t b) { return pairs[b] > 0 ? g[b] * g[b] / (0.5 * pairs[b]) : 0.0; };
  std::vector<DistancePeak> out;
  for (double r : distances_over_d) {
    const std::size_t c = bin(r), lo = bin(r - halfwidth_over_d), hi = bin(r + halfwidth_over_d);
    const std::size_t side = g[lo] >= g[hi] ? lo : hi;
    DistancePeak p;
    p.r_over_d = r;
    p.excess = g[c] - g[side];
    const double sigma = std::sqrt(variance(c) + variance(side));
    p.significance = sigma > 0 ? p.excess / sigma : 0.0;
    p.peak = c != lo && c != hi && p.significance > sigmas;
    out.push_back(p);
  }
  return out;
}

}  // namespace md::granular

// Peaks of a radial distribution function at given distances, testing what Sect. 4.3 of the paper
// says of Fig. 12: "the rest of the histogram does not reveal additional favored distances
// suggesting an amorphous packing". It is tested where an order left over from the start would
// show, at the distances between the centres of the grid on which the spheres are placed
// (channel.hpp). A split second peak at sqrt(3) and 2 diameters is that of a dense random packing
// and is not looked at.
#pragma once

#include <vector>

namespace md::granular {

/// The distances, in diameters d, of the nearest shells of the cubic grid of spacing s of the
/// initial arrangement up to 2 s: s, sqrt(2) s, sqrt(3) s and 2 s. Each inflow layer, a square
/// grid of spacing s in y-z, has s, sqrt(2) s and 2 s among them.
std::vector<double> initial_grid_distances(double spacing, double diameter);

/// The test of one distance r: g in the bin holding r against g in the bins holding r - h and
/// r + h. A peak is a local maximum: the excess of g(r) over the larger of the two stands out by
/// more than `sigmas` standard errors of the pair counts.
struct DistancePeak {
  double r_over_d = 0;      ///< the distance tested [diameters]
  double excess = 0;        ///< g(r) - max(g(r - h), g(r + h)): negative when g(r) is no maximum
  double significance = 0;  ///< excess over its standard error (0 when nothing was counted)
  bool peak = false;        ///< significance > sigmas
};

/// `g` and `pairs` per bin of width `dr_over_d` from r = 0 (pairs: the ordered pairs counted in
/// the bin, i.e. twice the pairs of spheres; the standard error of g in a bin is g / sqrt(pairs / 2),
/// counting statistics). Throws std::invalid_argument when r + h of a distance lies beyond the
/// bins or r - h below zero, or the inputs disagree in size.
std::vector<DistancePeak> distance_peaks(const std::vector<double>& g, const std::vector<double>& pairs,
                                         double dr_over_d, const std::vector<double>& distances_over_d,
                                         double halfwidth_over_d, double sigmas);

}  // namespace md::granular

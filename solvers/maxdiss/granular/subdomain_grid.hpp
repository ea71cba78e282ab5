// A grid of subdomains over a box (the paper's 16 x 10 x 4, Sect. 4.3): where a point lies, what a
// subdomain spans. The channel's decomposition over MPI ranks (channel/decomposition.hpp) cuts the
// spheres along it, and pe's count of the contacts (pe_count.hpp) takes its blocks from it.
#pragma once

#include <array>
#include <vector>

#include "maxdiss/granular/bodies.hpp"

namespace md::granular {

/// A grid of p[0] x p[1] x p[2] subdomains over a box, cut by planes normal to the axes; rank r
/// sits at (i, j, k) with r = (i p[1] + j) p[2] + k.
struct SubdomainGrid {
  std::array<int, 3> p{1, 1, 1};
  Box box;
  /// Along each axis, the p[a] - 1 positions of the cuts between subdomains, increasing and inside
  /// the box; none: even cuts, the box's extent over p[a] (the paper's grid).
  std::array<std::vector<double>, 3> cuts;

  int size() const { return p[0] * p[1] * p[2]; }
  std::array<int, 3> coords(int rank) const;
  int rank(const std::array<int, 3>& c) const { return (c[0] * p[1] + c[1]) * p[2] + c[2]; }
  /// The rank owning a sphere centred at x (outside the box: the nearest subdomain).
  int owner(const Vector3d& x) const;
  /// The index along axis a of the subdomains that coordinate u lies in (a point on a cut belongs
  /// above it; outside the box, or not finite: the nearest, or the first).
  int index(int a, double u) const;
  /// The subdomains along axis a that the interval [lo, hi] meets, first and last.
  std::array<int, 2> met(int a, double lo, double hi) const { return {index(a, lo), index(a, hi)}; }
  /// The extent of a subdomain; infinite on the sides that face the outside of the box.
  Box extent(int rank) const;
  /// The extent clipped to the box.
  Box clipped(int rank) const;
};

/// Whether a point lies in a box (faces included).
bool inside(const Box& b, const Vector3d& x);

}  // namespace md::granular

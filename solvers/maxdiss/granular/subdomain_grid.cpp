// A grid of subdomains over a box (subdomain_grid.hpp).
#include "maxdiss/granular/subdomain_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace md::granular {

namespace {
constexpr double infinity = std::numeric_limits<double>::infinity();
}  // namespace

bool inside(const Box& b, const Vector3d& x) {
  return (x.array() >= b.lo.array()).all() && (x.array() <= b.hi.array()).all();
}

std::array<int, 3> SubdomainGrid::coords(int rank) const {
  return {rank / (p[1] * p[2]), (rank / p[2]) % p[1], rank % p[2]};
}

int SubdomainGrid::index(int a, double u) const {
  const auto& at = cuts[static_cast<std::size_t>(a)];
  if (!at.empty())  // the cuts at or below u (a point on a cut belongs above it, as with even cuts)
    return std::isfinite(u) ? static_cast<int>(std::upper_bound(at.begin(), at.end(), u) - at.begin()) : 0;
  const double s = (u - box.lo(a)) / (box.hi(a) - box.lo(a)) * p[static_cast<std::size_t>(a)];
  // outside the box (or not finite): the nearest subdomain; the engine stops on a non-finite state
  return static_cast<int>(std::isfinite(s) ? std::clamp(std::floor(s), 0.0, p[static_cast<std::size_t>(a)] - 1.0)
                                           : 0.0);
}

int SubdomainGrid::owner(const Vector3d& x) const { return rank({index(0, x(0)), index(1, x(1)), index(2, x(2))}); }

Box SubdomainGrid::clipped(int r) const {
  const auto c = coords(r);
  Box b;
  for (int a = 0; a < 3; ++a) {
    const auto& at = cuts[static_cast<std::size_t>(a)];
    if (!at.empty()) {
      const auto i = static_cast<std::size_t>(c[static_cast<std::size_t>(a)]);
      b.lo(a) = i == 0 ? box.lo(a) : at[i - 1];
      b.hi(a) = i == at.size() ? box.hi(a) : at[i];
      continue;
    }
    const double n = p[static_cast<std::size_t>(a)], L = box.hi(a) - box.lo(a);
    b.lo(a) = box.lo(a) + L * c[static_cast<std::size_t>(a)] / n;
    b.hi(a) = c[static_cast<std::size_t>(a)] + 1 == p[static_cast<std::size_t>(a)]
                  ? box.hi(a)
                  : box.lo(a) + L * (c[static_cast<std::size_t>(a)] + 1) / n;
  }
  return b;
}

Box SubdomainGrid::extent(int r) const {
  const auto c = coords(r);
  Box b = clipped(r);
  for (int a = 0; a < 3; ++a) {
    if (c[static_cast<std::size_t>(a)] == 0) b.lo(a) = -infinity;
    if (c[static_cast<std::size_t>(a)] + 1 == p[static_cast<std::size_t>(a)]) b.hi(a) = infinity;
  }
  return b;
}

}  // namespace md::granular

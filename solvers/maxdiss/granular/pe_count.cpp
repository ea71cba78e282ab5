// pe's count of contacts on a grid of blocks (pe_count.hpp).
#include "maxdiss/granular/pe_count.hpp"

#include <algorithm>
#include <cmath>

namespace md::granular {

long pe_contact_count(const std::vector<ContactEnds>& ends, const Spheres& S, const SubdomainGrid& grid,
                      double margin) {
  long count = 0;
  for (const ContactEnds& c : ends) {
    const auto a = static_cast<std::size_t>(c.a);
    long blocks = 1;
    for (int axis = 0; axis < 3; ++axis) {
      const double ra = S.R[a] + margin;
      std::array<int, 2> met = grid.met(axis, S.x[a](axis) - ra, S.x[a](axis) + ra);
      if (c.b >= 0) {  // the blocks that hold both spheres
        const auto b = static_cast<std::size_t>(c.b);
        const double rb = S.R[b] + margin;
        const std::array<int, 2> of_b = grid.met(axis, S.x[b](axis) - rb, S.x[b](axis) + rb);
        met = {std::max(met[0], of_b[0]), std::min(met[1], of_b[1])};
      }
      blocks *= std::max(0, met[1] - met[0] + 1);
    }
    count += blocks;
  }
  return count;
}

}  // namespace md::granular

// The bodies of bodies.hpp: the spheres' arrays and the obstacle's cross-section (its signed
// distance, which detection alone calls, is in detector.cpp).
#include "maxdiss/granular/bodies.hpp"

#include <algorithm>
#include <cmath>

#include "core/math.hpp"

namespace md::granular {

// ---------------------------------------------------------------------------------------------
// Spheres

void Spheres::add(const Vector3d& xi, const Vector3d& vi, const Vector3d& wi, double Ri, double m) {
  x.push_back(xi);
  vw.push_back({vi, wi, 1.0 / m, 1.0 / (0.4 * m * Ri * Ri)});  // solid sphere: I = 2/5 m R^2
  R.push_back(Ri);
  id.push_back(next_id_++);
}

void Spheres::push(const Vector3d& xi, const Vector3d& vi, const Vector3d& wi, double Ri, double inv_mi, double inv_Ii,
                   std::uint64_t idi) {
  x.push_back(xi);
  vw.push_back({vi, wi, inv_mi, inv_Ii});
  R.push_back(Ri);
  id.push_back(idi);
}

void Spheres::truncate(std::size_t n) {
  x.resize(n);
  vw.resize(n);
  R.resize(n);
  id.resize(n);
}

void Spheres::permute(const std::vector<std::uint32_t>& order) {
  auto apply = [&order](auto& a) {
    auto copy = a;
    for (std::size_t i = 0; i < order.size(); ++i) a[i] = copy[order[i]];
  };
  apply(x);
  apply(vw);
  apply(R);
  apply(id);
}

// ---------------------------------------------------------------------------------------------
// Boundaries

double Obstacle::area() const { return 0.5 * cm::pi * radius * radius + 2.0 * radius * box_length; }

}  // namespace md::granular

#include "rollingball/rails.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace rb {

Vec3 Rail::zeta(double theta) const { return radius * B * Vec3(std::cos(theta), 0.0, std::sin(theta)); }
Vec3 Rail::dzeta(double theta) const { return radius * B * Vec3(-std::sin(theta), 0.0, std::cos(theta)); }
Vec3 Rail::ddzeta(double theta) const { return -zeta(theta); }

Vec3 spherical_to_cartesian(double azimuth, double elevation, double rho) {
  return {rho * std::cos(elevation) * std::cos(azimuth), rho * std::cos(elevation) * std::sin(azimuth),
          rho * std::sin(elevation)};  // eq. (6.9)
}

std::pair<Vec3, Vec3> frisvad(const Vec3& n) {
  // Frisvad (2012), Listing 2, verbatim including the threshold of the singular branch.
  if (n(2) < -0.9999999) return {Vec3(0.0, -1.0, 0.0), Vec3(-1.0, 0.0, 0.0)};
  const double a = 1.0 / (1.0 + n(2));
  const double b = -n(0) * n(1) * a;
  return {Vec3(1.0 - n(0) * n(0) * a, b, -n(0)), Vec3(b, 1.0 - n(1) * n(1) * a, -n(1))};
}

const std::vector<std::string>& basis_orders() {
  static const std::vector<std::string> orders{"n_b2_mb1", "n_b1_b2", "b1_b2_n", "b2_n_b1"};
  return orders;
}

Mat3 rail_basis(const Vec3& n, const std::string& order) {
  const auto [b1, b2] = frisvad(n);
  Mat3 B;
  if (order == "n_b2_mb1") {
    B << n, b2, -b1;
  } else if (order == "n_b1_b2") {
    B << n, b1, b2;
  } else if (order == "b1_b2_n") {
    B << b1, b2, n;
  } else if (order == "b2_n_b1") {
    B << b2, n, b1;
  } else {
    throw cm::InputError("rails.basis: unknown column order '" + order + "'");
  }
  return B;
}

}  // namespace rb

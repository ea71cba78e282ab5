// Rails of the internal masses (Sect. 3 and 6): circles centred on the geometric centre,
//
//   zeta_i(theta) = r_i B_i [cos theta, 0, sin theta]^T,                       eq. (6.8)
//   zeta_i'  = r_i B_i [-sin theta, 0, cos theta]^T,  zeta_i'' = -zeta_i,
//
// in the body frame translated to the GC. B_i in SO(3) is built from a unit vector n by
// Frisvad's algorithm (ref. [35], Listing 2), n from spherical coordinates (6.9). The paper does
// not give the order of the columns of B_i; the order is a key (rails.basis), the default
// [n, b2, -b1] is RECONSTRUCTED (spec 002, §2.9): it is the one that puts the total centre of mass
// of the ball of Sect. 6 above the GC at the printed angles theta_a.
// The disk of Sect. 5 is the special case B_i = 1 (rails in the E1-E3 plane), eq. (5.4).
#pragma once

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

namespace rb {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

/// A circular rail of radius `radius` in the plane spanned by the first and third columns of B.
struct Rail {
  double radius = 1.0;
  Mat3 B = Mat3::Identity();

  Vec3 zeta(double theta) const;    ///< eq. (6.8)
  Vec3 dzeta(double theta) const;   ///< zeta_i'
  Vec3 ddzeta(double theta) const;  ///< zeta_i''
};

/// sigma([azimuth, elevation, rho]) = rho [cos el cos az, cos el sin az, sin el], eq. (6.9)
/// (MATLAB's sph2cart).
Vec3 spherical_to_cartesian(double azimuth, double elevation, double rho);

/// Frisvad's orthonormal basis (b1, b2) of the unit vector n, with b1 x b2 = n.
std::pair<Vec3, Vec3> frisvad(const Vec3& n);

/// The column orders of B_i(n) a run can choose: "n_b2_mb1" = [n, b2, -b1] (default), "n_b1_b2",
/// "b1_b2_n", "b2_n_b1". Each is right-handed (det +1).
const std::vector<std::string>& basis_orders();
Mat3 rail_basis(const Vec3& n, const std::string& order);

}  // namespace rb

// The out-of-line part of the single-contact kernel (single_contact.hpp): the Newton polish of the
// sliding case in Cartesian coordinates.
#include "maxdiss/single_contact.hpp"

namespace md {

bool polish_cartesian(const Reduced& red, Vector2d& y, int iterations) {
  const double q0 = 0.5 * y.dot(red.Ahat * y) - y.dot(red.bhat);
  const Vector2d kk = red.mu * red.k / red.Ann;
  Vector2d z = y;
  const Vector2d g0 = red.Ahat * z - red.bhat;
  Vector2d dh = -kk - z / z.norm();
  double lambda = -dh.dot(g0) / dh.squaredNorm();
  bool converged = false;
  for (int it = 0; it < iterations; ++it) {
    const double nz = z.norm();
    if (!(nz > 0.0)) return false;
    const Vector2d e = z / nz;
    dh = -kk - e;
    const Matrix2d Hh = -(Matrix2d::Identity() - e * e.transpose()) / nz;
    Eigen::Matrix3d J;
    J.topLeftCorner<2, 2>() = red.Ahat + lambda * Hh;
    J.topRightCorner<2, 1>() = dh;
    J.bottomLeftCorner<1, 2>() = dh.transpose();
    J(2, 2) = 0.0;
    Eigen::Vector3d F;
    F.head<2>() = red.Ahat * z - red.bhat + lambda * dh;
    F(2) = red.mu * (red.bn - red.k.dot(z)) / red.Ann - nz;
    const Eigen::Vector3d step = J.partialPivLu().solve(F);
    if (!step.allFinite()) return false;
    z -= step.head<2>();
    lambda -= step(2);
    if (step.head<2>().norm() <= 1e-14 * z.norm()) {
      converged = true;
      break;
    }
  }
  if (!converged) {
    // accept a last step that is at the rounding level of the iteration
    const Vector2d e = z / z.norm();
    const double res = (red.Ahat * z - red.bhat + lambda * (-kk - e)).norm();
    converged = res <= 1e-13 * (red.Ahat.norm() * z.norm() + red.bhat.norm());
  }
  const double h = red.mu * (red.bn - red.k.dot(z)) / red.Ann - z.norm();
  const double q1 = 0.5 * z.dot(red.Ahat * z) - z.dot(red.bhat);
  if (!converged || std::fabs(h) > 1e-14 * z.norm() || !(q1 <= q0 + 1e-13 * std::fabs(q0))) return false;
  y = z;
  return true;
}

}  // namespace md

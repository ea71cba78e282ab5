// Rotations for rigid-body models: the hat map and its inverse, Hamilton quaternions with the
// scalar part first, and the attitude matrix of a (not necessarily unit) quaternion.
//
// Conventions (shared by every paper that uses this header):
//   hat(a) b = a x b, vee(hat(a)) = a;
//   a quaternion is q = [q0; q1; q2; q3] = [q0; q_flat] with the scalar part first;
//   the product is Hamilton's, p q = [p0 q0 - p_flat . q_flat; p0 q_flat + q0 p_flat + p_flat x q_flat];
//   v_sharp = [0; v] and (p)_flat = [p1; p2; p3];
//   attitude(q) v = (q v_sharp q^-1)_flat, a rotation for any q != 0 (it is built from q/|q|),
//   mapping body vectors to spatial ones; a body angular velocity Omega then satisfies
//   q_dot = 1/2 q Omega_sharp and omega = attitude(q) Omega;
//   vertical_in_body(q) = attitude(q)^T e3, the spatial vertical seen in the body frame (Gamma).
//
//   Eigen::Vector4d q = cm::quaternion_from_axis_angle({0, 1, 0}, -phi);  // disk attitude (A.1)
//   Eigen::Matrix3d L = cm::attitude(q);
//
// The rescaled Rodrigues vector (Campello 2015, paper 003, Eqs. 6-11): a rotation by the angle theta
// about the unit axis e is alpha = 2 tan(theta/2) e (defined for |theta| < pi); its tensor is
//   Q(alpha) = I + 4/(4 + |alpha|^2) [hat(alpha) + 1/2 hat(alpha)^2],
// and rotation alpha1 followed by alpha2 (Q = Q(alpha2) Q(alpha1), the spatial increment on the left) is
//   alpha = 4/(4 - alpha1 . alpha2) (alpha1 + alpha2 - 1/2 alpha1 x alpha2).
// Its quaternion is q = [1; alpha/2] / sqrt(1 + |alpha|^2/4), so attitude(quaternion_from_rodrigues(a)) = Q(a).
//
//   Eigen::Vector3d a = cm::rodrigues_from_rotation_vector(theta * e);
//   a = cm::compose_rodrigues(a, increment);                 // the update of paper 003, Eq. (47)
//   Eigen::Vector3d u_rotated = cm::rotate_by_rodrigues(a, u); // Q(a) u without building Q
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

namespace cm {

using Quaternion = Eigen::Vector4d;  ///< [q0, q1, q2, q3], scalar first

/// The hat map: hat(a) b = a x b.
inline Eigen::Matrix3d hat(const Eigen::Vector3d& a) {
  Eigen::Matrix3d m;
  m << 0.0, -a(2), a(1),  //
      a(2), 0.0, -a(0),   //
      -a(1), a(0), 0.0;
  return m;
}

/// The inverse of the hat map on skew-symmetric matrices (the skew part of `m` otherwise).
inline Eigen::Vector3d vee(const Eigen::Matrix3d& m) {
  return 0.5 * Eigen::Vector3d(m(2, 1) - m(1, 2), m(0, 2) - m(2, 0), m(1, 0) - m(0, 1));
}

/// v_sharp = [0; v].
inline Quaternion sharp(const Eigen::Vector3d& v) { return {0.0, v(0), v(1), v(2)}; }

/// p_flat = [p1; p2; p3].
inline Eigen::Vector3d flat(const Quaternion& p) { return p.tail<3>(); }

/// Hamilton product p q, scalar part first.
inline Quaternion quaternion_product(const Quaternion& p, const Quaternion& q) {
  const Eigen::Vector3d pv = p.tail<3>(), qv = q.tail<3>();
  Quaternion r;
  r(0) = p(0) * q(0) - pv.dot(qv);
  r.tail<3>() = p(0) * qv + q(0) * pv + pv.cross(qv);
  return r;
}

/// The conjugate [q0; -q_flat].
inline Quaternion quaternion_conjugate(const Quaternion& q) { return {q(0), -q(1), -q(2), -q(3)}; }

/// The inverse q^-1 = conj(q) / |q|^2 (q != 0).
inline Quaternion quaternion_inverse(const Quaternion& q) { return quaternion_conjugate(q) / q.squaredNorm(); }

/// The unit quaternion of a rotation by `angle` about the unit vector `axis`.
inline Quaternion quaternion_from_axis_angle(const Eigen::Vector3d& axis, double angle) {
  const Eigen::Vector3d a = axis.normalized();
  const double s = std::sin(0.5 * angle);
  return {std::cos(0.5 * angle), s * a(0), s * a(1), s * a(2)};
}

/// The attitude matrix Lambda(q): Lambda v = (q v_sharp q^-1)_flat, built from q/|q| so that it is
/// a rotation (orthogonal, det +1) for every q != 0, as needed when |q| drifts in an ODE.
inline Eigen::Matrix3d attitude(const Quaternion& q_in) {
  const Quaternion q = q_in / q_in.norm();
  const double q0 = q(0), q1 = q(1), q2 = q(2), q3 = q(3);
  Eigen::Matrix3d m;
  m << q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3, 2.0 * (q1 * q2 - q0 * q3), 2.0 * (q1 * q3 + q0 * q2),  //
      2.0 * (q1 * q2 + q0 * q3), q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3, 2.0 * (q2 * q3 - q0 * q1),   //
      2.0 * (q1 * q3 - q0 * q2), 2.0 * (q2 * q3 + q0 * q1), q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3;
  return m;
}

/// Gamma = Lambda(q)^T e3: the spatial vertical e3 expressed in the body frame.
inline Eigen::Vector3d vertical_in_body(const Quaternion& q) { return attitude(q).row(2).transpose(); }

/// q_dot = 1/2 q Omega_sharp for a body angular velocity Omega.
inline Quaternion quaternion_rate(const Quaternion& q, const Eigen::Vector3d& Omega) {
  return 0.5 * quaternion_product(q, sharp(Omega));
}

// --- the rescaled Rodrigues vector alpha = 2 tan(theta/2) e ------------------------------------

/// Q(alpha) = I + 4/(4 + alpha^2) [hat(alpha) + 1/2 hat(alpha)^2] (paper 003, Eq. (10) with the factor of
/// Eq. (7) at vartheta = alpha/2; the printed 4/(1 + alpha^2) is a typo, spec 003 T1).
inline Eigen::Matrix3d rotation_from_rodrigues(const Eigen::Vector3d& alpha) {
  const Eigen::Matrix3d A = hat(alpha);
  return Eigen::Matrix3d::Identity() + 4.0 / (4.0 + alpha.squaredNorm()) * (A + 0.5 * A * A);
}

/// Q(alpha) u by cross products, without building Q.
inline Eigen::Vector3d rotate_by_rodrigues(const Eigen::Vector3d& alpha, const Eigen::Vector3d& u) {
  const Eigen::Vector3d au = alpha.cross(u);
  return u + 4.0 / (4.0 + alpha.squaredNorm()) * (au + 0.5 * alpha.cross(au));
}

/// The rotation alpha1 followed by alpha2: Q(result) = Q(alpha2) Q(alpha1) (paper 003, Eq. (11)).
/// Singular where the composed angle reaches pi (alpha1 . alpha2 = 4).
inline Eigen::Vector3d compose_rodrigues(const Eigen::Vector3d& alpha1, const Eigen::Vector3d& alpha2) {
  return 4.0 / (4.0 - alpha1.dot(alpha2)) * (alpha1 + alpha2 - 0.5 * alpha1.cross(alpha2));
}

/// alpha = 2 tan(theta/2) e from the rotation vector theta e (|theta| < pi); exact to rounding near 0.
inline Eigen::Vector3d rodrigues_from_rotation_vector(const Eigen::Vector3d& theta) {
  const double angle = theta.norm();
  if (angle < 1e-4) return theta * (1.0 + angle * angle / 12.0);  // 2 tan(a/2)/a = 1 + a^2/12 + O(a^4)
  return 2.0 * std::tan(0.5 * angle) / angle * theta;
}

/// The rotation vector theta e, |theta| < pi, of the Rodrigues vector alpha (theta = 2 atan(alpha/2)).
inline Eigen::Vector3d rotation_vector_from_rodrigues(const Eigen::Vector3d& alpha) {
  const double a = alpha.norm();
  if (a < 1e-4) return alpha * (1.0 - a * a / 12.0);  // 2 atan(a/2)/a = 1 - a^2/12 + O(a^4)
  return 2.0 * std::atan(0.5 * a) / a * alpha;
}

/// The unit quaternion [1; alpha/2] / sqrt(1 + alpha^2/4) (scalar part cos(theta/2) >= 0).
inline Quaternion quaternion_from_rodrigues(const Eigen::Vector3d& alpha) {
  const Quaternion q(1.0, 0.5 * alpha(0), 0.5 * alpha(1), 0.5 * alpha(2));
  return q / q.norm();
}

/// alpha = 2 q_flat / q0 of a quaternion with q0 != 0 (the rotation angle below pi).
inline Eigen::Vector3d rodrigues_from_quaternion(const Quaternion& q) { return 2.0 * flat(q) / q(0); }

}  // namespace cm

#include "maxdiss/bodies.hpp"

#include <cmath>

namespace md {

Matrix3d cross_matrix(const Vector3d& a) {
  Matrix3d m;
  m << 0, -a(2), a(1), a(2), 0, -a(0), -a(1), a(0), 0;
  return m;
}

Matrix3d delassus_eq2(double inv_ma, const Matrix3d& inv_Ia, const Vector3d& ra, double inv_mb, const Matrix3d& inv_Ib,
                      const Vector3d& rb) {
  const Matrix3d Ra = cross_matrix(ra), Rb = cross_matrix(rb);
  return (inv_ma + inv_mb) * Matrix3d::Identity() - Ra * inv_Ia * Ra - Rb * inv_Ib * Rb;  // eq. (2)
}

ContactProblem academic_problem(const AcademicBody& p) {
  ContactProblem cp;
  const Vector3d ex = Vector3d::UnitX();
  const Vector3d n = p.n_hat.normalized();
  Vector3d t = n.cross(ex);  // t = n x e_x (Sect. 4.1), not normalised unless asked
  if (p.normalize_t) t.normalize();
  const Vector3d o = n.cross(t);
  cp.Q << n, t, o;
  // I = 2 diag(m_y d_y^2 + m_z d_z^2, m_x d_x^2 + m_z d_z^2, m_x d_x^2 + m_y d_y^2) (Sect. 4.1)
  const Vector3d I(2 * (p.my * p.dy * p.dy + p.mz * p.dz * p.dz), 2 * (p.mx * p.dx * p.dx + p.mz * p.dz * p.dz),
                   2 * (p.mx * p.dx * p.dx + p.my * p.dy * p.dy));
  const Matrix3d invI = I.cwiseInverse().asDiagonal();
  const double inv_m = 1.0 / (2 * (p.mx + p.my + p.mz));
  // The plane has infinite mass; the contact point is d_x e_x: Eq. (2) with one body.
  cp.A_world = delassus_eq2(inv_m, invI, p.dx * ex, 0.0, Matrix3d::Zero(), Vector3d::Zero());
  cp.A = cp.Q.transpose() * cp.A_world * cp.Q;
  cp.b = cp.Q.transpose() * p.b_inertial;
  return cp;
}

ContactProblem rod_problem(double theta0, double m_a, double l, double v0) {
  ContactProblem cp;
  const double c = std::cos(theta0), s = std::sin(theta0);
  const Vector3d axis(c, s, 0.0);            // rod axis (body x) in inertial components
  const Vector3d xa = 0.5 * l * axis;        // centre of mass; the lower tip is at the origin
  const Vector3d r = Vector3d::Zero() - xa;  // lever arm x_hat - x_a
  // I_a,0 = m l^2 / 12 diag(inf, 1, 1): inverse diag(0, 12/(m l^2), 12/(m l^2)), rotated to inertial.
  const double j = 12.0 / (m_a * l * l);
  const Matrix3d invI = j * (Matrix3d::Identity() - axis * axis.transpose());
  cp.A_world = delassus_eq2(1.0 / m_a, invI, r, 0.0, Matrix3d::Zero(), Vector3d::Zero());
  cp.Q << Vector3d::UnitY(), Vector3d::UnitX(), Vector3d::UnitZ();  // n = e_y, t = e_x, o = e_z
  cp.A = cp.Q.transpose() * cp.A_world * cp.Q;
  // dv^- = v_a^- + omega^- x r = -v0 e_x; b = -dv^- in contact components.
  cp.b = cp.Q.transpose() * Vector3d(v0, 0.0, 0.0);
  return cp;
}

double rod_mu_star(double theta0) {
  const double c = std::cos(theta0);
  return (c + 1.0 / (3.0 * c)) / std::sin(theta0);
}

Matrix3d rod_A_printed(double theta0, double m_a) {
  const double c = std::cos(theta0), s = std::sin(theta0);
  Matrix3d A;
  A << 1 + 3 * s * s, -3 * s * c, 0, -3 * s * c, 1 + 3 * c * c, 0, 0, 0, 1 + 3 * std::pow(c * c - s * s, 2);
  return A / m_a;
}

Vector3d rod_Lambda0_printed(double theta0, double m_a, double v0) {
  return m_a * v0 / 8.0 * Vector3d(5 + 3 * std::cos(2 * theta0), 3 * std::sin(2 * theta0), 0.0);
}

}  // namespace md

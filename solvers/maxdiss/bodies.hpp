// Rigid-body pieces of Sect. 2 needed by the studies: the cross-product matrix, the diagonal
// Delassus block of Eq. (2), the six-point-mass body of Sect. 4.1 and the grazing rod of Sect. 4.2.
#pragma once

#include <Eigen/Dense>

#include "maxdiss/single_contact.hpp"

namespace md {

/// a^x with a^x y = a x y.
Matrix3d cross_matrix(const Vector3d& a);

/// Eq. (2): A_jj = (1/m_a + 1/m_b) E - r_a^x I_a^{-1} r_a^x - r_b^x I_b^{-1} r_b^x (inertial frame),
/// with r = x_hat - x (lever arms) and inverse masses / inertias (0 for an infinite mass).
Matrix3d delassus_eq2(double inv_ma, const Matrix3d& inv_Ia, const Vector3d& ra, double inv_mb, const Matrix3d& inv_Ib,
                      const Vector3d& rb);

/// The academic problem of Sect. 4.1.
struct AcademicBody {
  double dx, dy, dz, mx, my, mz;
  Vector3d n_hat;       ///< plane normal before normalisation
  Vector3d b_inertial;  ///< b in inertial components
  bool normalize_t;     ///< normalise t = n x e_x (Table 1 needs false, spec 001 Sect. 2.11)
};

struct ContactProblem {
  Matrix3d Q;  ///< contact frame [n t o] (columns)
  Matrix3d A;  ///< Delassus block, contact-frame components: Q^T A_w Q
  Vector3d b;  ///< Q^T b_inertial
  Matrix3d A_world;
};

ContactProblem academic_problem(const AcademicBody& body);

/// The grazing rod of Sect. 4.2 at angle theta0: mass m_a, length l, sliding with v0 along -e_x;
/// contact frame n = e_y, t = e_x, o = e_z. A from Eq. (2) (inertial components), b = -dv^-.
ContactProblem rod_problem(double theta0, double m_a, double l, double v0);

/// Sect. 4.2 closed forms.
double rod_mu_star(double theta0);  ///< (cos + 1/(3 cos)) / sin
/// The printed A(t0) of Sect. 4.2, inertial x, y, z components, including its (3,3) entry.
Matrix3d rod_A_printed(double theta0, double m_a);
/// The printed Lambda_0 = m_a v0 / 8 (5 + 3 cos 2 theta0, 3 sin 2 theta0, 0), inertial components.
Vector3d rod_Lambda0_printed(double theta0, double m_a, double v0);

}  // namespace md

// An independent reference for the single-contact problem: brute-force minimisation over the
// feasible set, used to verify the analytic solver (tests, md_contact).
//
// For b_n >= 0 the feasible set is the plane of maximum compression cut by the friction cone: a
// convex set containing x_to = 0 and so star-shaped about it. Along each ray x_to = r u(alpha),
// r in [0, r_max(alpha)] (r_max = mu b_n / f_r(alpha) where f_r > 0, unbounded elsewhere), the
// objective is a quadratic in r whose minimum is exact; the outer minimisation over alpha is a
// dense scan refined by golden sections around the best samples. The objective is evaluated in
// full three-dimensional form, 1/2 x^T A x - x^T b, not through f_obj.
#pragma once

#include "maxdiss/single_contact.hpp"

namespace md {

struct Reference {
  Vector3d x = Vector3d::Zero();
  double objective = 0.0;
};

/// Brute-force minimum over the feasible set (`angles` samples, then golden refinement).
Reference brute_force(const Matrix3d& A, const Vector3d& b, double mu, int angles, int golden = 100);

/// Is x feasible for the maximally dissipative problem (cone, restitution, pressure)? Returns the
/// largest violation relative to the data's scale (0 if feasible).
double feasibility_violation(const Matrix3d& A, const Vector3d& b, double mu, const Vector3d& x);

/// Is A symmetric positive definite (Cholesky succeeds, smallest eigenvalue > rel_eps * largest)?
bool is_spd(const Matrix3d& A, double rel_eps = 1e-13);

/// The condition number of a symmetric positive definite A (largest over smallest eigenvalue);
/// 0 if A is not finite, not symmetric or not positive definite (its Cholesky factorisation fails).
double condition_number(const Matrix3d& A);

}  // namespace md

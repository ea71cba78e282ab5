// Every solution of the single-contact impact problem with the Coulomb-like friction law
// (Fig. 1, rows 4 and 5; Stewart's impulsive Coulomb law), for the same data (A, b, mu) as the
// maximally dissipative solver of single_contact.hpp:
//
//   x_n >= 0,  dv_n = a_n^T x - b_n >= 0,  x_n dv_n = 0                   (no pressure constraint)
//   ||x_to|| <= mu x_n,  ||dv_to|| x_to = -mu x_n dv_to                    (friction opposes slip)
//
// with dv = A x - b. The solution set consists of
//   - x = 0 when b_n <= 0 (the contact does not collide),
//   - the sticking solution x_0 = A^{-1} b when it lies in the cone with x_0,n > 0,
//   - sliding solutions on the boundary of the conic section: x_to = gamma(alpha) with
//     G_C(alpha) = mu b_n (u x Ahat u) - f_r(alpha) (u x bhat) = 0, f_r / b_n > 0 and
//     u . (Ahat gamma - bhat) < 0 (slip opposite to the frictional impulse); G_C has harmonics 0..2,
//     so the roots come from the same quartic as Eq. (8) (the "polynomial root-finding approach"
//     the paper cites), or from a dense sign-change scan with bisection (the cross-check);
//   - for b_n = 0 sliding solutions along the rays of the degenerate parabola / hyperbola, and a
//     continuum (a segment) where the slip condition holds along a whole ray (Sect. 4.2: at
//     mu = mu_* every convex combination of 0 and Lambda_0 is a solution).
#pragma once

#include <string>
#include <vector>

#include "maxdiss/single_contact.hpp"

namespace md {

enum class CoulombKind { zero, frictionless, sticking, sliding };
const char* coulomb_kind_name(CoulombKind k);

struct CoulombSolution {
  Vector3d x;
  CoulombKind kind;
  double alpha;  ///< boundary angle (sliding), NaN otherwise
};

/// A root of G_C that was examined, and why it was kept or rejected.
struct CoulombRoot {
  double alpha;
  double G;  ///< G_C(alpha) after polishing
  bool accepted;
  std::string reason;  ///< "slip opposes friction", "slip along friction", "f_r of wrong sign", ...
};

struct CoulombSet {
  std::vector<CoulombSolution> solutions;  ///< isolated solutions
  std::vector<CoulombRoot> roots;          ///< the roots of G_C examined (b_n != 0)
  bool continuum = false;                  ///< a segment of solutions exists
  Vector3d segment_from = Vector3d::Zero(), segment_to = Vector3d::Zero();
};

enum class CoulombMethod { quartic, scan };

/// The sliding condition G_C as a trigonometric polynomial (b_n != 0).
Trig2 coulomb_trig(const Reduced& red);

/// All solutions of the Coulomb-like impact law. `scan_samples` is used by the scan method.
CoulombSet coulomb_solutions(const Matrix3d& A, const Vector3d& b, double mu,
                             CoulombMethod method = CoulombMethod::quartic, int scan_samples = 100000,
                             const SolverOptions& opt = {});

/// The largest violation of the Coulomb-like conditions at x, relative to the scale of the data
/// (||b|| and ||A x||): 0 for an exact solution.
double coulomb_residual(const Matrix3d& A, const Vector3d& b, double mu, const Vector3d& x);

}  // namespace md

// The per-contact laws of laws.hpp: the Coulomb law in closed form and by pe's decoupling, and
// a block handed to the law of the options (solve_block).
#include "maxdiss/granular/laws.hpp"

#include <optional>

#include "common/optimize.hpp"

namespace md::granular {

using Eigen::Matrix3d;
using Eigen::Vector2d;

// ---------------------------------------------------------------------------------------------
// The per-contact laws

Vector3d coulomb_exact(double Ann, double Att, const Vector3d& b, double mu) {
  if (!(b(0) > 0.0)) return Vector3d::Zero();  // not closing: no impulse
  const double xn = b(0) / Ann;                // dv_n = A_nn x_n - b_n = 0
  Vector2d xto = b.tail<2>() / Att;            // sticking: dv_to = 0
  const double norm = xto.norm(), radius = mu * xn;
  if (norm > radius) xto *= radius / norm;  // sliding: x_to = -mu x_n dv_to / |dv_to|, dv_to || -b_to
  return Vector3d(xn, xto(0), xto(1));
}

double FrictionCircle::minimum(int iterations) const {
  return cm::golden_section_minimum([this](double s) { return f(s); }, -1.0, 1.0, 0.0, iterations).x;
}

Vector3d coulomb_decoupling(const Matrix3d& A, const Vector3d& b, double mu, int sweeps, int golden) {
  return *detail::decouple(A, b, mu, sweeps, [golden](const FrictionCircle& circle) -> std::optional<double> {
    return circle.minimum(golden);
  });
}

Vector3d solve_block(BlockSolver law, double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& opt) {
  switch (law) {
    case BlockSolver::maxdiss: {
      if (md::sphere_path(opt.kernel)) return md::solve_sphere(Ann, Att, b, mu, opt.kernel).x;  // eq. (5) by Fig. 5
      const Matrix3d A = Vector3d(Ann, Att, Att).asDiagonal();
      return md::solve(A, b, mu, opt.kernel).x;
    }
    case BlockSolver::coulomb_decoupling: {
      const Matrix3d A = Vector3d(Ann, Att, Att).asDiagonal();
      return coulomb_decoupling(A, b, mu, opt.decoupling_sweeps, opt.golden_iterations);
    }
    case BlockSolver::coulomb_exact:
      return coulomb_exact(Ann, Att, b, mu);
  }
  return Vector3d::Zero();
}

}  // namespace md::granular

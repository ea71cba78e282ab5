// The per-contact laws of laws.hpp: the Coulomb law in closed form and by pe's decoupling, and
// a block handed to the law of the options (solve_block, through the registered block laws).
#include "maxdiss/granular/laws.hpp"

#include <optional>

#include "maxdiss/granular/block_laws.hpp"
#include "numerics/optimize.hpp"

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
  return with_block_law(law, [&]<class Law>(Law) { return Law::solve(Ann, Att, b, mu, opt); });
}

}  // namespace md::granular

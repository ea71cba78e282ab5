// The maximum-dissipation law of Eq. (5) as a block law of the sweep (block_laws.hpp): on a sphere
// contact's block A = diag(A_nn, A_tt, A_tt) and right-hand side b, the impulse x that the
// analytic single-contact solver (single_contact.hpp, Fig. 5) gives.
//
// On the sphere path (md::sphere_path) the solver takes five cases, in this order:
//   b_n snapped to 0 where |b_n| <= eps |b|             (SolverOptions::bn_zero_eps)
//   separating     b_n < 0:                             x = 0
//   frictionless   mu = 0:                              x = (b_n / A_nn, 0, 0)
//   sticking       |x_to| <= mu x_n, x_to = b_to / A_tt: x = (b_n / A_nn, x_to)
//   degenerate     b_n = 0 (not sticking):               x = 0
//   sliding        else:                                 x = (x_n, mu x_n x_to / |x_to|)
// The vector form (solve_lanes) writes each case as a mask on W contacts at once, the cases
// resolved in the order above, so that each lane has the bits of md::solve_sphere. Off the sphere
// path (another SolverOptions) the one-contact path calls md::solve on the full block and the
// sweep keeps to it: in_blocks is false.
//
// Registered in block_laws.hpp; the sweep (sweep.hpp) calls solve for a contact alone and
// solve_lanes from the block kernels (block_kernels.hpp).
#pragma once

#include <Eigen/Dense>
#include <cmath>

#include "maxdiss/granular/laws.hpp"
#include "maxdiss/granular/options.hpp"
#include "maxdiss/granular/simd.hpp"

namespace md::granular {

struct MaxDissipationLaw {
  static constexpr BlockSolver id = BlockSolver::maxdiss;
  /// Whether a contact may wait for a golden section (the sweep then sets it aside): never.
  static constexpr bool sets_aside = false;

  /// Whether the sweep relaxes the sphere-sphere contacts in blocks of four under `opt`.
  static bool in_blocks(const EngineOptions& opt) { return md::sphere_path(opt.kernel); }

  /// One contact: the impulse on the block diag(A_nn, A_tt, A_tt).
  static Vector3d solve(double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& opt) {
    if (md::sphere_path(opt.kernel)) return md::solve_sphere(Ann, Att, b, mu, opt.kernel).x;  // eq. (5) by Fig. 5
    const Eigen::Matrix3d A = Vector3d(Ann, Att, Att).asDiagonal();
    return md::solve(A, b, mu, opt.kernel).x;
  }

  /// W contacts at once, md::solve_sphere lane by lane: the impulses x from the blocks (Ann, Att)
  /// and right-hand sides b. No lane is set aside (aside stays 0; circle is not written).
  template <int W>
  [[gnu::always_inline]] static void solve_lanes(const doubles<W>& Ann, const doubles<W>& Att, const doubles<W>& b0,
                                                 const doubles<W>& b1, const doubles<W>& b2, const doubles<W>& mu,
                                                 double bn_zero_eps, doubles<W>& x0, doubles<W>& x1, doubles<W>& x2,
                                                 int& /*aside*/, FrictionCircle* /*circle*/) {
    using vw = doubles<W>;
    const vw zero = {};
    const auto root = [](vw & x) __attribute__((always_inline)) {  // in place, lane by lane
      for (int k = 0; k < W; ++k) x[k] = std::sqrt(x[k]);
    };
    // md::solve_sphere: b_n snapped to 0, then separating, frictionless, sticking, degenerate, sliding
    vw snap = b0 * b0 + b1 * b1 + b2 * b2;
    root(snap);
    snap = bn_zero_eps * snap;
    const vw bn = ((b0 <= snap) & (-b0 <= snap)) ? zero : b0;  // |b_n| <= eps |b|
    const vw xn = bn / Ann, xt = b1 / Att, xo = b2 / Att;
    vw norm = xt * xt + xo * xo;
    root(norm);
    const vw radius = mu * xn;
    const auto separating = bn < zero, frictionless = mu == zero, sticking = norm <= radius, point = bn == zero;
    x0 = xn, x1 = (radius * xt) / norm, x2 = (radius * xo) / norm;  // sliding
    x1 = sticking ? xt : x1;
    x2 = sticking ? xo : x2;
    const auto none = separating | (~frictionless & ~sticking & point);
    x0 = none ? zero : x0;
    x1 = (none | frictionless) ? zero : x1;
    x2 = (none | frictionless) ? zero : x2;
  }
};

}  // namespace md::granular

// The Coulomb time-stepping law in closed form as a block law of the sweep (block_laws.hpp): on a
// sphere contact's isotropic block A = diag(A_nn, A_tt, A_tt) and right-hand side b,
//   b_n <= 0:                       x = 0                          (not closing)
//   else x_n = b_n / A_nn,          x_to = b_to / A_tt              (sticking: dv = 0)
//   and where |x_to| > mu x_n:      x_to <- x_to mu x_n / |x_to|    (sliding)
// The slip A_tt x_to - b_to must oppose x_to, so on an isotropic block the sliding impulse is b_to
// scaled onto the friction disc: no iteration (coulomb_exact, laws.hpp, is the one-contact form).
//
// The vector form (solve_lanes) takes W contacts at once, each branch a mask, each lane with the
// bits of coulomb_exact. Every sphere-sphere contact goes into blocks (in_blocks), whatever the
// options.
//
// Registered in block_laws.hpp; the sweep (sweep.hpp) calls solve for a contact alone and
// solve_lanes from the block kernels (block_kernels.hpp).
#pragma once

#include <cmath>

#include "maxdiss/granular/laws.hpp"
#include "maxdiss/granular/options.hpp"
#include "maxdiss/granular/simd.hpp"

namespace md::granular {

struct CoulombExactLaw {
  static constexpr BlockSolver id = BlockSolver::coulomb_exact;
  /// Whether a contact may wait for a golden section (the sweep then sets it aside): never.
  static constexpr bool sets_aside = false;

  /// Whether the sweep relaxes the sphere-sphere contacts in blocks of four under `opt`: always.
  static bool in_blocks(const EngineOptions& /*opt*/) { return true; }

  /// One contact: the impulse on the block diag(A_nn, A_tt, A_tt).
  static Vector3d solve(double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& /*opt*/) {
    return coulomb_exact(Ann, Att, b, mu);
  }

  /// W contacts at once, coulomb_exact lane by lane. No lane is set aside.
  template <int W>
  [[gnu::always_inline]] static void solve_lanes(const doubles<W>& Ann, const doubles<W>& Att, const doubles<W>& b0,
                                                 const doubles<W>& b1, const doubles<W>& b2, const doubles<W>& mu,
                                                 double /*bn_zero_eps*/, doubles<W>& x0, doubles<W>& x1, doubles<W>& x2,
                                                 int& /*aside*/, FrictionCircle* /*circle*/) {
    using vw = doubles<W>;
    const vw zero = {};
    const auto root = [](vw & x) __attribute__((always_inline)) {  // in place, lane by lane
      for (int k = 0; k < W; ++k) x[k] = std::sqrt(x[k]);
    };
    // b_n <= 0 separates; else x_n = b_n / A_nn, x_to = b_to / A_tt, scaled onto the friction disc
    // of radius mu x_n when it lies outside
    const auto pressing = b0 > zero;
    const vw xn = b0 / Ann, xt = b1 / Att, xo = b2 / Att;
    vw norm = xt * xt + xo * xo;
    root(norm);
    const vw radius = mu * xn;
    const auto outside = norm > radius;
    const vw scale = radius / norm;  // used only where outside (norm > radius >= 0)
    x0 = pressing ? xn : zero;
    x1 = pressing ? (outside ? xt * scale : xt) : zero;
    x2 = pressing ? (outside ? xo * scale : xo) : zero;
  }
};

}  // namespace md::granular

// The Coulomb time-stepping law by pe's normal/tangential decoupling as a block law of the sweep
// (block_laws.hpp): on a block A and right-hand side b, repeated up to decoupling_sweeps times,
//   x_n  = max(0, (b_n - A_n,to x_to) / A_nn)                     (the normal row, x_to held)
//   x_to = argmin 1/2 y^T A_to y - y^T (b_to - A_to,n x_n) over |y| <= mu x_n
// the tangential minimum being the unconstrained one where it lies inside the friction disc, else
// golden_iterations steps of golden section on the half circle facing it (detail::decouple and
// FrictionCircle, laws.hpp).
//
// On a sphere block diag(A_nn, A_tt, A_tt) from x = 0 the first sweep is the last: A_n,to = 0, so
// the second sweep's x_n is the first's. A golden section alone waits at every step for the
// evaluation that decides the next. So the sweep sets a contact that needs one aside
// (sets_aside) and takes the sections of many contacts together in vector registers
// (golden_on_circles). It then resumes each contact from its circle's minimum: the same bits as
// one contact at a time, as the contacts of one colour share no sphere.
//
// The vector form (solve_lanes) takes W sphere-sphere contacts at once and sets aside the lanes
// whose minimum lies outside the disc (their circles written for golden_on_circles). Registered
// in block_laws.hpp; the sweep (sweep.hpp) calls solve, solve_or_set_aside and resume for a
// contact alone and solve_lanes from the block kernels (block_kernels.hpp).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <optional>

#include "maxdiss/granular/laws.hpp"
#include "maxdiss/granular/options.hpp"
#include "maxdiss/granular/simd.hpp"

namespace md::granular {

struct CoulombDecouplingLaw {
  static constexpr BlockSolver id = BlockSolver::coulomb_decoupling;
  /// Whether a contact may wait for a golden section (the sweep then sets it aside): yes.
  static constexpr bool sets_aside = true;

  /// Whether the sweep relaxes the sphere-sphere contacts in blocks of four under `opt`.
  static bool in_blocks(const EngineOptions& opt) { return opt.decoupling_sweeps >= 1; }

  /// One contact: the impulse on the block diag(A_nn, A_tt, A_tt), its sections taken at once.
  static Vector3d solve(double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& opt) {
    const Eigen::Matrix3d A = Vector3d(Ann, Att, Att).asDiagonal();
    return coulomb_decoupling(A, b, mu, opt.decoupling_sweeps, opt.golden_iterations);
  }

  /// One contact that may wait: its first golden section handed to set_aside (which returns
  /// nothing), and then nothing returned (the contact left as it is).
  template <class SetAside>
  static std::optional<Vector3d> solve_or_set_aside(double Ann, double Att, const Vector3d& b, double mu,
                                                    const EngineOptions& opt, SetAside&& set_aside) {
    return detail::decouple(Vector3d(Ann, Att, Att).asDiagonal(), b, mu, opt.decoupling_sweeps, set_aside);
  }

  /// One contact set aside, resumed: the decoupling from its first sweep's impulse `first` (the
  /// circle's minimum), any later section taken at once.
  static Vector3d resume(double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& opt,
                         const Vector3d& first) {
    const auto section = [&opt](const FrictionCircle& fc) -> std::optional<double> {
      return fc.minimum(opt.golden_iterations);
    };
    return *detail::decouple(Vector3d(Ann, Att, Att).asDiagonal(), b, mu, opt.decoupling_sweeps, section, first, 1);
  }

  /// W contacts at once: decouple on A = diag(A_nn, A_tt, A_tt) lane by lane; a lane whose
  /// tangential minimum lies outside the friction disc is set aside (bit k of aside: lane k), its
  /// circle written to circle[k].
  template <int W>
  [[gnu::always_inline]] static void solve_lanes(const doubles<W>& Ann, const doubles<W>& Att, const doubles<W>& b0,
                                                 const doubles<W>& b1, const doubles<W>& b2, const doubles<W>& mu,
                                                 double /*bn_zero_eps*/, doubles<W>& x0, doubles<W>& x1, doubles<W>& x2,
                                                 int& aside, FrictionCircle* circle) {
    using vw = doubles<W>;
    const vw zero = {};
    const auto root = [](vw & x) __attribute__((always_inline)) {  // in place, lane by lane
      for (int k = 0; k < W; ++k) x[k] = std::sqrt(x[k]);
    };
    // decouple on A = diag(A_nn, A_tt, A_tt) from x = 0, with the products by A's zero entries
    // that decide the sign of a zero kept:
    // - b_n <= 0 separates (x = 0);
    // - else the normal row gives x_n = max(0, (b_n - 0 - 0) / A_nn) = b_n / A_nn, the tangential
    //   right-hand side is b_to - A_to,n x_n = b_to, and y = A_to^-1 b_to by Cramer's rule
    //   (det = A_tt^2 - 0 0).
    // The second sweep's x_n is the first's (b_n - 0 y_t - 0 y_o = b_n, as b_n > 0), so the
    // decoupling stops after the first.
    const auto pressing = b0 > zero;
    const vw xn = b0 / Ann, det = Att * Att - zero * zero;
    const vw y0 = (Att * b1 - zero * b2) / det, y1 = (Att * b2 - zero * b1) / det;
    vw norm = y0 * y0 + y1 * y1;
    root(norm);
    const vw r = mu * xn;
    const auto outside = pressing & (norm > r);  // outside the disc |y| <= mu x_n: a golden section
    x0 = pressing ? xn : zero;
    x1 = pressing ? y0 : zero;
    x2 = pressing ? y1 : zero;
    for (int k = 0; k < W; ++k) {
      if (!outside[k]) continue;
      aside |= 1 << k;
      const Eigen::Vector2d c(y0[k] / norm[k], y1[k] / norm[k]);  // y / |y|
      Eigen::Matrix2d At;
      At << Att[k], 0.0, 0.0, Att[k];
      circle[k] = FrictionCircle{At, Eigen::Vector2d(b1[k], b2[k]), c, Eigen::Vector2d(-c(1), c(0)), r[k], xn[k]};
    }
  }
};

}  // namespace md::granular

// The per-contact laws of the hard-contact engine (engine.hpp) on a sphere contact's block
// diag(A_nn, A_tt, A_tt), one contact at a time: the maximum-dissipation law of Eq. (5) (the
// single-contact solver), the Coulomb law in closed form, and pe's decoupling with its golden
// sections on the friction circle (laws.cpp). The sweep reaches them through one traits type per
// law (law_*.hpp, registered in block_laws.hpp), which add each law's vector form; the golden
// sections in vector registers, golden_on_circles, are compiled in sweep.cpp with the sweep's
// other instruction-set entries.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <optional>

#include "maxdiss/granular/options.hpp"

namespace md::granular {

/// The three per-contact laws on a block diag(A_nn, A_tt, A_tt) (contact-frame components).
Vector3d solve_block(BlockSolver law, double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& opt);

/// The Coulomb time-stepping law by decoupling, for any SPD block A, in up to `sweeps` sweeps.
/// Each takes the normal impulse from the normal row with the tangential impulse held, then the
/// tangential impulse minimising the energy on the friction disc with the normal impulse held: its
/// unconstrained minimum if inside, else `golden` steps of golden section over the half circle
/// facing it.
Vector3d coulomb_decoupling(const Eigen::Matrix3d& A, const Vector3d& b, double mu, int sweeps, int golden);

/// The tangential step of the decoupling when the unconstrained minimum y lies outside the
/// friction disc: the energy r (1/2 r u^T A_to u - u^T b_to) on the half of the circle |y| = r
/// facing y. It is parameterised without trigonometry by u(s) = ((1 - s^2) c + 2 s p) / (1 + s^2),
/// s in [-1, 1] (the angle 2 atan(s) from c = y / |y|; a monotone map, so unimodality is kept).
struct FrictionCircle {
  Eigen::Matrix2d At;
  Eigen::Vector2d bt, c, perp;
  double r;
  double xn;  ///< the sweep's normal impulse (r = mu x_n)

  Eigen::Vector2d u(double s) const { return Eigen::Vector2d(((1.0 - s * s) * c + 2.0 * s * perp) / (1.0 + s * s)); }
  double f(double s) const {
    const Eigen::Vector2d us = u(s);
    return r * (0.5 * r * us.dot(At * us) - us.dot(bt));
  }
  /// The minimiser s of f by `iterations` steps of golden section on [-1, 1] (pe's section).
  double minimum(int iterations) const;
};

/// The golden sections on `count` friction circles: s[j] is circle[j].minimum(iterations), bit for bit (the same
/// operations on each circle, the same bracket test, in either set of registers). Four vector
/// registers of circles step together, and each step chooses its side by a mask, not a jump: a
/// single section waits at every step for the evaluation that decides the next (a jump the
/// processor cannot predict, the two sides being equally likely), eight or sixteen keep it busy.
/// `width`: VectorWidth::one is refused (std::invalid_argument), a single section being
/// FrictionCircle::minimum itself. (sweep.cpp, with the sweep's other instruction-set entries.)
void golden_on_circles(const FrictionCircle* circle, int count, int iterations, double* s,
                       VectorWidth width = VectorWidth::widest);

/// The Coulomb time-stepping law in closed form for A = diag(A_nn, A_tt, A_tt): b_n <= 0 gives 0;
/// else x_n = b_n / A_nn and x_to = b_to / A_tt if it lies in the disc of radius mu x_n (sticking),
/// else the slip A_tt x_to - b_to must oppose x_to, so x_to is b_to scaled to that radius.
Vector3d coulomb_exact(double Ann, double Att, const Vector3d& b, double mu);

namespace detail {

/// pe's decoupling (coulomb_decoupling; the sweep sets contacts aside with it, CoulombDecouplingLaw).
/// Each golden section on a friction circle is asked of `section`, which returns the minimiser s,
/// or nothing: the decoupling then stops and returns nothing. A sweep then sets the contact aside,
/// takes the sections of many contacts together and goes on from that sweep's end: a second call
/// with x and first. Sweeps from `first` on, from the impulse x.
template <class Section>
std::optional<Vector3d> decouple(const Eigen::Matrix3d& A, const Vector3d& b, double mu, int sweeps, Section&& section,
                                 Vector3d x = Vector3d::Zero(), int first = 0) {
  if (!(b(0) > 0.0)) return Vector3d::Zero();  // separating (pe: gdot_n >= 0)
  const Eigen::Matrix2d At = A.bottomRightCorner<2, 2>();
  const Eigen::Vector2d Atn = A.block<2, 1>(1, 0);
  const double det = At(0, 0) * At(1, 1) - At(0, 1) * At(1, 0);  // > 0: A is positive definite
  for (int s = first; s < sweeps; ++s) {
    // normal row with the tangential impulse held: dv_n = 0, x_n >= 0
    const double xn = std::max(0.0, (b(0) - A(0, 1) * x(1) - A(0, 2) * x(2)) / A(0, 0));
    // the tangential impulse depends on x_n alone: an unchanged x_n is the fixed point (at once
    // for sphere blocks, A_nt = A_no = 0)
    if (s > 0 && xn == x(0)) break;
    // tangential: min 1/2 y^T A_to y - y^T (b_to - A_to,n x_n) over |y| <= mu x_n
    const Eigen::Vector2d bt = b.tail<2>() - Atn * xn;
    Eigen::Vector2d y((At(1, 1) * bt(0) - At(0, 1) * bt(1)) / det, (At(0, 0) * bt(1) - At(1, 0) * bt(0)) / det);
    const double r = mu * xn;
    if (y.norm() > r) {
      const Eigen::Vector2d c = y / y.norm();
      const FrictionCircle circle{At, bt, c, Eigen::Vector2d(-c(1), c(0)), r, xn};
      const std::optional<double> best = section(circle);
      if (!best) return std::nullopt;
      y = r * circle.u(*best);
    }
    x = Vector3d(xn, y(0), y(1));
  }
  return x;
}

}  // namespace detail

}  // namespace md::granular

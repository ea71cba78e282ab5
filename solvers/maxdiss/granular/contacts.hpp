// The contacts of the hard-contact engine (engine.hpp): a contact between a sphere and a sphere or
// a boundary, its frame [n t o], its Delassus block, and the block of four sphere-sphere contacts
// of one colour that the sweep relaxes in vector registers.
//
// Sphere contacts only: every lever arm lies along the normal, so each Delassus block is
// diag(A_nn, A_tt, A_tt) in any contact frame [n t o] (spec 001, 2.6 and 6.4):
//   A_nn = 1/m_1 + 1/m_2,   A_tt = A_nn + l_1^2 / I_1 + l_2^2 / I_2   (eq. (2) with r_i = -/+ l_i n)
//
// Layout: a sweep streams every contact ten times a step and is bound by memory, so what it can
// form from what it reads anyway is not stored a second time. A contact holds its two bodies, the
// normal, the lever arms, the gap and the impulse; the frame's t and o are formed from n
// (contact_tangent), the block from the spheres' 1/m and 1/I, which come with their velocities
// (Velocities, bodies.hpp). A ContactBlock holds four sphere-sphere contacts field by field, so
// that one vector load takes a field of the four.
//
// Who writes them: detection (detector.hpp) makes the contacts in detection order, the order
// (contact_order.hpp) places them in the sweep's order and four at a time into blocks, and the
// sweep (sweep.hpp) changes their impulses in place.
#pragma once

#include <Eigen/Dense>
#include <cstdint>

#include "maxdiss/granular/bodies.hpp"

namespace md::granular {

/// The tangent of pe's contact frame [n t o]: t = n x e_k normalised, e_k the axis of the smallest
/// |n_k|, and o = n x t. e_k is chosen without a branch (which axis it is changes from contact to
/// contact, and a mispredicted branch costs more than the selection); e and the arithmetic on it
/// are those of an if-else chain, bit for bit. A contact stores n alone: the sweep forms t from it
/// (block_kernels.hpp does the same operations in vector registers).
[[gnu::always_inline]] inline Vector3d contact_tangent(const Vector3d& n) {
  const Vector3d a = n.cwiseAbs();
  // int & int, not bool && bool: no branch
  const int x = int(a(0) <= a(1)) & int(a(0) <= a(2)), y = (1 - x) & int(a(1) <= a(2)), z = (1 - x) & (1 - y);
  const Vector3d e(static_cast<double>(x), static_cast<double>(y), static_cast<double>(z));
  return n.cross(e).normalized();
}

/// A contact between sphere a and body b (b >= 0 a sphere, b < 0 the boundary -b - 1: planes
/// first, then obstacles). The normal points from b to a; reactions act positively on a.
///
/// A sweep streams every contact: what it can recompute in a few operations, bit for bit as
/// detection would compute it, is not stored (the frame's t and o, contact_tangent), nor what it
/// reads anyway: the spheres' 1/m and 1/I come with their velocities (Velocities), and the
/// Delassus block is formed from them (Delassus, below). 96 bytes instead of 192.
struct Contact {
  std::int32_t a = 0, b = 0;
  Vector3d n;                 ///< normal: the frame is [n t o], t = contact_tangent(n), o = n x t
  double l1 = 0.0, l2 = 0.0;  ///< lever arms: r_1 = -l1 n from a, r_2 = +l2 n from b
  double xi = 0.0;            ///< gap at detection (negative: penetration)
  double gap_rate = 0.0;      ///< xi_eff / dt
  double mu = 0.0;
  Vector3d lambda = Vector3d::Zero();  ///< impulse of the step, contact-frame components
};

/// The two bodies of a contact alone (the greedy colouring and the coupling read 8 bytes of a
/// contact instead of 96).
struct ContactEnds {
  std::int32_t a, b;
};

/// The Delassus block diag(A_nn, A_tt, A_tt) of a contact, eq. (2) with r_1 = -l1 n, r_2 = l2 n,
/// from the spheres' 1/m and 1/I (m2 = i2 = 0 for a boundary): A_nn = m1 + m2,
/// A_tt = A_nn + i1 l1 + i2 l2 with i = (1/I) l, the scale of the change of w.
struct Delassus {
  double m1, m2, i1, i2, Ann, Att;
  Delassus(double inv_m1, double inv_I1, double l1, double inv_m2, double inv_I2, double l2)
      : m1(inv_m1), m2(inv_m2), i1(inv_I1 * l1), i2(inv_I2 * l2), Ann(m1 + m2), Att(Ann + i1 * l1 + i2 * l2) {}
};

/// Four sphere-sphere contacts of one colour side by side, field by field (the fields of Contact:
/// n, l1, l2, gap_rate, lambda, a, b): the sweep loads a field of the four with one vector load
/// instead of gathering it contact by contact, its costliest part. Written by the order's placement
/// of the contacts (ContactOrder), the impulses staying in them. What a sweep can form from what it
/// reads anyway is not stored: the tangent t = contact_tangent(n) is formed from n, the spheres'
/// 1/m and 1/I come with their velocities (Velocities) and make the block as Delassus does, and
/// mu is the engine's one friction coefficient between spheres (EngineOptions::mu). The sweep
/// streams the blocks ten times a step, so every byte left out is one it does not read (320 bytes
/// a block instead of 576).
struct alignas(64) ContactBlock {
  static constexpr int size = 4;
  double n0[4], n1[4], n2[4], l1[4], l2[4], gap[4];
  double la0[4], la1[4], la2[4];
  std::int32_t a[4], b[4];

  /// Puts contact c in slot j.
  void store(int j, const Contact& c) {
    n0[j] = c.n(0), n1[j] = c.n(1), n2[j] = c.n(2);
    l1[j] = c.l1, l2[j] = c.l2, gap[j] = c.gap_rate;
    la0[j] = c.lambda(0), la1[j] = c.lambda(1), la2[j] = c.lambda(2);
    a[j] = c.a, b[j] = c.b;
  }
};

}  // namespace md::granular

// The vector kernels of the sweep (sweep.hpp): several sphere-sphere contacts of one colour, or
// several golden sections, relaxed at once in vector registers, each lane doing the operations of
// the one-contact path in the same order.
//
// A block of four contacts (ContactBlock, contacts.hpp) goes through the relaxation in three phases
// (relax_interleaved), as Sweep::relax_with takes one contact:
//   relative velocity   dv = v_a - l1 w_a x n - (v_b + l2 w_b x n)
//   the law             A_nn = 1/m_a + 1/m_b, A_tt = A_nn + l1^2 / I_a + l2^2 / I_b,
//                       b = -([n t o]^T dv - A lambda) - (xi_eff / dt) e_n, x = Law::solve_lanes
//   the change applied  P = [n t o] (x - lambda), v_a += P / m_a, w_a -= l1 n x P / I_a, and the
//                       opposite on b
// with a compiler barrier between two phases, so that the next phase loads the block's fields
// afresh from the first-level cache instead of holding them in registers through the law. Two
// blocks of one colour share no sphere, so their phases may be interleaved: the processor finds
// the next block's loads beside one block's chain of square roots and divisions.
//
// The golden sections of golden_on_circles (laws.hpp) are here too: W circles to a register, four
// registers in turn, each step's side chosen by a mask, not a jump.
//
// Internal to the sweep: included only by sweep.cpp, whose entries compile these always-inlined
// kernels for SSE2 and for AVX2 (target("avx2"), and the blocks also with AVX-512VL's registers).
// They stay in an unnamed namespace, as in the one file the engine once was: in a named one the
// compiler allocates the registers of the SSE2 entries and of a Sweep::relax_blocks differently.
// The laws' own part of a block is in law_*.hpp (block_laws.hpp).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "maxdiss/granular/block_laws.hpp"
#include "maxdiss/granular/contacts.hpp"
#include "maxdiss/granular/simd.hpp"

namespace md::granular {
namespace {

// The golden sections of golden_on_circles, W circles to a vector register (W = 2: SSE2, the
// baseline; W = 4: AVX2), four registers in turn. Always inlined, so that each entry (sweep.cpp)
// compiles it for its own instruction set. Neither set contracts a * b + c into one rounding (FMA
// is not enabled), so both give the bits of the single section.
template <int W>
[[gnu::always_inline]] inline void golden_sections(const FrictionCircle* circle, int count, int iterations, double* s) {
  using vw = doubles<W>;
  struct Circles {  // W circles, component by component
    vw cx, cy, px, py, a00, a01, a10, a11, bx, by, r;
  };
  const vw zero = {}, one = zero + 1.0, two = zero + 2.0, half = zero + 0.5;
  const vw R = zero + 0.5 * (std::sqrt(5.0) - 1.0);
  // FrictionCircle::f, operation by operation, into fx
  const auto f = [&](const Circles& L, const vw& sv, vw& fx) __attribute__((always_inline)) {
    const vw t1 = one - sv * sv, t2 = two * sv, den = one + sv * sv;
    const vw u0 = (t1 * L.cx + t2 * L.px) / den, u1 = (t1 * L.cy + t2 * L.py) / den;
    const vw Au0 = L.a00 * u0 + L.a01 * u1, Au1 = L.a10 * u0 + L.a11 * u1;
    fx = L.r * (half * L.r * (u0 * Au0 + u1 * Au1) - (u0 * L.bx + u1 * L.by));
  };
  constexpr int registers = 4;
  constexpr int batch = W * registers;
  for (int first = 0; first < count; first += batch) {
    Circles L[registers]{};
    for (int k = 0; k < registers; ++k)
      for (int lane = 0; lane < W; ++lane) {
        // a lane past the last circle repeats it (its result is not used)
        const FrictionCircle& p = circle[std::min(first + W * k + lane, count - 1)];
        L[k].cx[lane] = p.c(0);
        L[k].cy[lane] = p.c(1);
        L[k].px[lane] = p.perp(0);
        L[k].py[lane] = p.perp(1);
        L[k].a00[lane] = p.At(0, 0);
        L[k].a01[lane] = p.At(0, 1);
        L[k].a10[lane] = p.At(1, 0);
        L[k].a11[lane] = p.At(1, 1);
        L[k].bx[lane] = p.bt(0);
        L[k].by[lane] = p.bt(1);
        L[k].r[lane] = p.r;
      }
    vw lo[registers], hi[registers], x1[registers], x2[registers], f1[registers], f2[registers];
    for (int k = 0; k < registers; ++k) {
      lo[k] = -one;
      hi[k] = one;
      x1[k] = hi[k] - R * (hi[k] - lo[k]);
      x2[k] = lo[k] + R * (hi[k] - lo[k]);
      f(L[k], x1[k], f1[k]);
      f(L[k], x2[k], f2[k]);
    }
    for (int i = 0; i < iterations; ++i) {
      for (int k = 0; k < registers; ++k) {
        const auto on = hi[k] - lo[k] > zero;  // golden_section_minimum's bracket test (tolerance 0)
        const auto left = f1[k] <= f2[k];
        hi[k] = (on & left) ? x2[k] : hi[k];
        lo[k] = (on & ~left) ? x1[k] : lo[k];
        const vw next1 = hi[k] - R * (hi[k] - lo[k]), next2 = lo[k] + R * (hi[k] - lo[k]);
        vw fx;
        f(L[k], left ? next1 : next2, fx);
        const vw new_x1 = left ? next1 : x2[k], new_f1 = left ? fx : f2[k];
        const vw new_x2 = left ? x1[k] : next2, new_f2 = left ? f1[k] : fx;
        x1[k] = on ? new_x1 : x1[k];
        f1[k] = on ? new_f1 : f1[k];
        x2[k] = on ? new_x2 : x2[k];
        f2[k] = on ? new_f2 : f2[k];
      }
    }
    for (int k = 0; k < registers; ++k) {
      const vw best = (f1[k] <= f2[k]) ? x1[k] : x2[k];
      for (int lane = 0; lane < W; ++lane)
        if (first + W * k + lane < count) s[first + W * k + lane] = best[lane];
    }
  }
}

// Four spheres' lines (v, w, 1/m, 1/I: the eight doubles of a Velocities) in registers component
// by component (gather4), and changes to v and w added back to them (add4): c[j][k] is component
// j of sphere k. Two 4 x 4 transposes of whole-row loads instead of 32 loads of single lanes; add4
// writes back v and w only. Data movement only, and in add4 the one addition per component: no
// bit of a value changes.
using Doubles4 = doubles<4>;

[[gnu::always_inline]] inline void transpose4(Doubles4& r0, Doubles4& r1, Doubles4& r2, Doubles4& r3) {
  const Doubles4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 2, 6), t1 = __builtin_shufflevector(r0, r1, 1, 5, 3, 7);
  const Doubles4 t2 = __builtin_shufflevector(r2, r3, 0, 4, 2, 6), t3 = __builtin_shufflevector(r2, r3, 1, 5, 3, 7);
  r0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  r1 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  r2 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  r3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

[[gnu::always_inline]] inline void gather4(double* const* P, Doubles4 (&c)[8]) {
  // written out, no loop: a loop of copies into an array of registers goes through the stack
  std::memcpy(&c[0], P[0], sizeof(Doubles4));  // v_0 v_1 v_2 w_0 of sphere k
  std::memcpy(&c[1], P[1], sizeof(Doubles4));
  std::memcpy(&c[2], P[2], sizeof(Doubles4));
  std::memcpy(&c[3], P[3], sizeof(Doubles4));
  Doubles4 w0, w1, w2, w3;
  std::memcpy(&w0, P[0] + 4, sizeof(Doubles4));  // w_1 w_2 1/m 1/I
  std::memcpy(&w1, P[1] + 4, sizeof(Doubles4));
  std::memcpy(&w2, P[2] + 4, sizeof(Doubles4));
  std::memcpy(&w3, P[3] + 4, sizeof(Doubles4));
  transpose4(c[0], c[1], c[2], c[3]);
  transpose4(w0, w1, w2, w3);
  c[4] = w0;
  c[5] = w1;
  c[6] = w2;
  c[7] = w3;
}

// Four spheres' velocities (as gather4 reads them) changed by c, component by component (c[j][k]:
// component j of sphere k's change): c transposed into the spheres' rows and added to them in
// memory, one 4 x 4 transpose and two shuffles instead of two transposes in and one out (a gather
// and a scatter). Each component gets the one addition v + c that the scatter's would have given.
[[gnu::always_inline]] inline void add4(double* const* P, const Doubles4 (&c)[6]) {
  Doubles4 r0 = c[0], r1 = c[1], r2 = c[2], r3 = c[3];
  transpose4(r0, r1, r2, r3);  // rk: v_0 v_1 v_2 w_0 of sphere k
  const Doubles4 rows[4] = {r0, r1, r2, r3};
  const Doubles4 low = __builtin_shufflevector(c[4], c[5], 0, 4, 1, 5),  // w_1 w_2 of spheres 0, 1
      high = __builtin_shufflevector(c[4], c[5], 2, 6, 3, 7);            // ... of spheres 2, 3
  using Half = double __attribute__((vector_size(16)));
  const Half w12[4] = {Half{low[0], low[1]}, Half{low[2], low[3]}, Half{high[0], high[1]}, Half{high[2], high[3]}};
  for (int k = 0; k < 4; ++k) {
    Doubles4 row;
    std::memcpy(&row, P[k], sizeof row);
    row += rows[k];
    std::memcpy(P[k], &row, sizeof row);
    Half w;
    std::memcpy(&w, P[k] + 4, sizeof w);
    w += w12[k];
    std::memcpy(P[k] + 4, &w, sizeof w);
  }
}

// The fields of W contacts of a block (slots first .. first + W - 1 of it), each loaded
// where it is used. The relaxation goes in three phases: the relative velocity, the law, the
// change applied. A compiler barrier between two phases has the next load its fields afresh from
// the block, which is in the first-level cache. Without it, twenty registers of fields would be
// held through the law and spilled to the stack (some 250 moves a block of four, measured by
// callgrind). The values are the same: a load, not a computation.
template <int W>
struct BlockFields {
  using vw = doubles<W>;
  const ContactBlock& L;
  int first;

  [[gnu::always_inline]] void get(vw& v, const double* field) const { std::memcpy(&v, field + first, sizeof v); }
  /// The normal n.
  [[gnu::always_inline]] void normal(vw& n0, vw& n1, vw& n2) const { get(n0, L.n0), get(n1, L.n1), get(n2, L.n2); }
  /// The tangent t = contact_tangent(n), formed from n with its operations (n x e_k, e_k the axis
  /// of the smallest |n_k|, normalised: Eigen's cross, (c_0^2 + c_1^2) + c_2^2, and c / sqrt of
  /// it): the bits of the one-contact path, and 96 bytes a block the sweep does not stream.
  [[gnu::always_inline]] static void tangent(const vw& n0, const vw& n1, const vw& n2, vw& t0, vw& t1, vw& t2) {
    using mask = decltype(n0 < n1);
    vw minus_zero;
    for (int k = 0; k < W; ++k) minus_zero[k] = -0.0;
    const mask sign = reinterpret_cast<mask>(minus_zero);  // |x|: x without its sign bit
    const vw a0 = reinterpret_cast<vw>(reinterpret_cast<mask>(n0) & ~sign),
             a1 = reinterpret_cast<vw>(reinterpret_cast<mask>(n1) & ~sign),
             a2 = reinterpret_cast<vw>(reinterpret_cast<mask>(n2) & ~sign);
    const mask x = (a0 <= a1) & (a0 <= a2), y = ~x & (a1 <= a2), z = ~x & ~y;
    const vw zero{}, one = zero + 1.0;
    const vw e0 = x ? one : zero, e1 = y ? one : zero, e2 = z ? one : zero;
    const vw c0 = n1 * e2 - n2 * e1, c1 = n2 * e0 - n0 * e2, c2 = n0 * e1 - n1 * e0;  // n x e
    const vw norm2 = c0 * c0 + c1 * c1 + c2 * c2;
    vw norm = norm2;
    for (int k = 0; k < W; ++k) norm[k] = std::sqrt(norm[k]);
    const auto positive = norm2 > zero;  // Eigen's normalized() leaves a zero vector as it is
    t0 = positive ? c0 / norm : c0, t1 = positive ? c1 / norm : c1, t2 = positive ? c2 / norm : c2;
  }
  /// The third axis o = n x t.
  [[gnu::always_inline]] static void third(const vw& n0, const vw& n1, const vw& n2, const vw& t0, const vw& t1,
                                           const vw& t2, vw& o0, vw& o1, vw& o2) {
    o0 = n1 * t2 - n2 * t1, o1 = n2 * t0 - n0 * t2, o2 = n0 * t1 - n1 * t0;
  }
};

/// The phases' boundary (above): no load of the block is carried across it.
[[gnu::always_inline]] inline void next_phase() { asm volatile("" ::: "memory"); }

// The lines of the W spheres P[0 .. W-1] (v, w, 1/m, 1/I: eight doubles side by side each),
// component by component: c[j][k] is component j of sphere k.
template <int W>
[[gnu::always_inline]] inline void gather_spheres(double* const* P, doubles<W> (&c)[8]) {
  if constexpr (W == 4) {
    gather4(P, c);
  } else {
    double lanes[8][W];
    for (int k = 0; k < W; ++k)
      for (int j = 0; j < 8; ++j) lanes[j][k] = P[k][j];
    std::memcpy(c, lanes, sizeof lanes);
  }
}

// What a block's relaxation forms once and uses in two phases, lane by lane: the spheres'
// inverse masses and inertias (m1, m2 the 1/m of the first and second sphere, I1, I2 their 1/I;
// the contact's l_1 / I_1 is I1 l1, the product of Delassus, contacts.hpp), and the tangent t of
// the frame.
template <int W>
struct BlockTerms {
  doubles<W> m1, m2, I1, I2, t0, t1, t2;
};

// The second half of Sweep::relax_with on W lanes: the impulses become x
// (relaxed), and both spheres take the change; the lanes of `skip` (bit k: lane k) stay as they
// are. A is the first sphere's line (v, w, 1/m, 1/I), B the second's, lane by lane; M holds
// their 1/m and 1/I and the tangent.
template <int W>
[[gnu::always_inline]] inline void apply_impulses(ContactBlock& L, int first, double* const* A, double* const* B,
                                                  const BlockTerms<W>& M, doubles<W>& x0, doubles<W>& x1,
                                                  doubles<W>& x2, int skip, double relaxation, double& delta) {
  using vw = doubles<W>;
  const BlockFields<W> C{L, first};
  vw la0, la1, la2;
  C.get(la0, L.la0), C.get(la1, L.la1), C.get(la2, L.la2);
  if (relaxation != 1.0) {
    x0 = la0 + relaxation * (x0 - la0);
    x1 = la1 + relaxation * (x1 - la1);
    x2 = la2 + relaxation * (x2 - la2);
  }
  const vw d0 = x0 - la0, d1 = x1 - la1, d2 = x2 - la2;
  vw n0, n1, n2, o0, o1, o2, l1, l2;
  const vw t0 = M.t0, t1 = M.t1, t2 = M.t2;
  C.normal(n0, n1, n2);
  C.third(n0, n1, n2, t0, t1, t2, o0, o1, o2);
  const vw P0 = d0 * n0 + d1 * t0 + d2 * o0, P1 = d0 * n1 + d1 * t1 + d2 * o1, P2 = d0 * n2 + d1 * t2 + d2 * o2;
  const vw q0 = n1 * P2 - n2 * P1, q1 = n2 * P0 - n0 * P2, q2 = n0 * P1 - n1 * P0;  // n x P
  C.get(l1, L.l1), C.get(l2, L.l2);
  const vw m1 = M.m1, m2 = M.m2, i1 = M.I1 * l1, i2 = M.I2 * l2;  // l_1 / I_1, l_2 / I_2
  if constexpr (W == 4) {
    if (skip == 0) {  // every lane: the loop below, component by component in registers
      std::memcpy(L.la0 + first, &x0, sizeof x0);
      std::memcpy(L.la1 + first, &x1, sizeof x1);
      std::memcpy(L.la2 + first, &x2, sizeof x2);
      // the changes, component by component, added to the spheres' rows (add4): a -= c is
      // a += -c, bit for bit
      add4(A, {m1 * P0, m1 * P1, m1 * P2, -(i1 * q0), -(i1 * q1), -(i1 * q2)});
      add4(B, {-(m2 * P0), -(m2 * P1), -(m2 * P2), -(i2 * q0), -(i2 * q1), -(i2 * q2)});
      // max(max(|d_0|, |d_1|), |d_2|) lane by lane (std::max's a < b ? b : a), then over the lanes
      vw e0, e1, e2;
      for (int k = 0; k < W; ++k) e0[k] = std::fabs(d0[k]), e1[k] = std::fabs(d1[k]), e2[k] = std::fabs(d2[k]);
      vw m = e0 < e1 ? e1 : e0;
      m = m < e2 ? e2 : m;
      for (int k = 0; k < W; ++k) delta = std::max(delta, m[k]);
      return;
    }
  }
  for (int k = 0; k < W; ++k) {
    if (skip & (1 << k)) continue;
    L.la0[first + k] = x0[k], L.la1[first + k] = x1[k], L.la2[first + k] = x2[k];
    A[k][0] += m1[k] * P0[k], A[k][1] += m1[k] * P1[k], A[k][2] += m1[k] * P2[k];
    A[k][3] -= i1[k] * q0[k], A[k][4] -= i1[k] * q1[k], A[k][5] -= i1[k] * q2[k];
    B[k][0] -= m2[k] * P0[k], B[k][1] -= m2[k] * P1[k], B[k][2] -= m2[k] * P2[k];
    B[k][3] -= i2[k] * q0[k], B[k][4] -= i2[k] * q1[k], B[k][5] -= i2[k] * q2[k];
    delta = std::max(delta, std::max(std::max(std::fabs(d0[k]), std::fabs(d1[k])), std::fabs(d2[k])));
  }
}

// W sphere-sphere contacts of one colour (no sphere shared) on their way through the relaxation:
// the relative velocity (relative_velocity), then the right-hand side and the law (solve_block),
// then the change applied (apply_impulses), with a phase boundary after the first and the
// second. Its own state between the phases, so that the phases of blocks of one colour, which
// share no sphere, may be interleaved (relax_interleaved).
template <int W>
struct BlockRelaxation {
  using vw = doubles<W>;
  ContactBlock* L = nullptr;
  int first = 0;               // lanes first .. first + W - 1 of *L
  double* const* A = nullptr;  // the first sphere's line (v, w, 1/m, 1/I), lane by lane
  double* const* B = nullptr;  // the second's
  vw dv0{}, dv1{}, dv2{};      // the relative velocity
  BlockTerms<W> M{};           // the spheres' 1/m and 1/I, read with their velocities; the tangent
  vw x0{}, x1{}, x2{};         // the impulses the law gives
  int aside = 0;               // the lanes set aside (bit k: lane k)
};

// --- the relative velocity dv = v_a - l1 w_a x n - (v_b + l2 w_b x n) ---
template <int W>
[[gnu::always_inline]] inline void relative_velocity(BlockRelaxation<W>& s) {
  using vw = doubles<W>;
  const ContactBlock& L = *s.L;
  const BlockFields<W> C{L, s.first};
  vw n0, n1, n2, l1, l2, a[8], b[8];
  C.get(n0, L.n0), C.get(n1, L.n1), C.get(n2, L.n2), C.get(l1, L.l1), C.get(l2, L.l2);
  gather_spheres<W>(s.A, a);
  gather_spheres<W>(s.B, b);
  s.M.m1 = a[6], s.M.m2 = b[6], s.M.I1 = a[7], s.M.I2 = b[7];
  s.dv0 = (a[0] - l1 * (a[4] * n2 - a[5] * n1)) - (b[0] + l2 * (b[4] * n2 - b[5] * n1));
  s.dv1 = (a[1] - l1 * (a[5] * n0 - a[3] * n2)) - (b[1] + l2 * (b[5] * n0 - b[3] * n2));
  s.dv2 = (a[2] - l1 * (a[3] * n1 - a[4] * n0)) - (b[2] + l2 * (b[3] * n1 - b[4] * n0));
}

// The block diag(A_nn, A_tt, A_tt) and b from the relative velocity, then the law's impulses x
// (Law::solve_lanes, law_*.hpp). circle: room for the circles of the lanes set aside.
template <int W, class Law>
[[gnu::always_inline]] inline void solve_block(BlockRelaxation<W>& s, double mu_spheres, double bn_zero_eps,
                                               FrictionCircle* circle) {
  using vw = doubles<W>;
  const ContactBlock& L = *s.L;
  const BlockFields<W> C{L, s.first};
  const vw dv0 = s.dv0, dv1 = s.dv1, dv2 = s.dv2;
  // --- the block diag(A_nn, A_tt, A_tt) and b ---
  vw Ann, Att, b0, b1, b2;
  {
    vw n0, n1, n2, t0, t1, t2, o0, o1, o2, l1, l2, la0, la1, la2, gap;
    C.normal(n0, n1, n2);
    C.tangent(n0, n1, n2, t0, t1, t2);
    C.third(n0, n1, n2, t0, t1, t2, o0, o1, o2);
    s.M.t0 = t0, s.M.t1 = t1, s.M.t2 = t2;  // for the change applied
    C.get(l1, L.l1), C.get(l2, L.l2);
    C.get(la0, L.la0), C.get(la1, L.la1), C.get(la2, L.la2), C.get(gap, L.gap);
    const vw i1 = s.M.I1 * l1, i2 = s.M.I2 * l2;  // l_1 / I_1, l_2 / I_2 (Delassus, contacts.hpp)
    Ann = s.M.m1 + s.M.m2, Att = Ann + i1 * l1 + i2 * l2;
    b0 = -((n0 * dv0 + n1 * dv1 + n2 * dv2) - Ann * la0) - gap;
    b1 = -((t0 * dv0 + t1 * dv1 + t2 * dv2) - Att * la1);
    b2 = -((o0 * dv0 + o1 * dv1 + o2 * dv2) - Att * la2);
  }
  const vw mu = vw{} + mu_spheres;  // every sphere-sphere contact's
  // --- the law ---
  vw x0, x1, x2;
  int aside = 0;
  Law::template solve_lanes<W>(Ann, Att, b0, b1, b2, mu, bn_zero_eps, x0, x1, x2, aside, circle);
  s.x0 = x0, s.x1 = x1, s.x2 = x2, s.aside = aside;
}

// N blocks of one colour (no sphere shared between or within them), each relaxed as
// relax_block (below) relaxes one, their phases interleaved: the processor finds the next
// block's loads and arithmetic beside one block's chain of square roots and divisions. The blocks
// share no sphere, so none reads what another writes, and delta is a maximum: the bits are those
// of the blocks one after the other. circle: room for the circles of W N lanes (block i's from
// W i on).
template <int W, class Law, int N>
[[gnu::always_inline]] inline void relax_interleaved(BlockRelaxation<W> (&s)[N], double mu_spheres, double bn_zero_eps,
                                                     double relaxation, double& delta, FrictionCircle* circle) {
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) relative_velocity(s[i]);
  next_phase();
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) solve_block<W, Law>(s[i], mu_spheres, bn_zero_eps, circle + W * i);
  next_phase();
  // --- the change applied: the lanes set aside (Law::sets_aside) stay; under the other laws every
  // lane changes, known at compile time ---
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i)
    apply_impulses<W>(*s[i].L, s[i].first, s[i].A, s[i].B, s[i].M, s[i].x0, s[i].x1, s[i].x2,
                      Law::sets_aside ? s[i].aside : 0, relaxation, delta);
}

// W sphere-sphere contacts of one colour (no sphere shared) relaxed together, one to a lane: the
// operations of Sweep::relax_with with the law's sphere path, in the same order on each lane,
// every branch of the law a mask (Law::solve_lanes). L holds the contacts (slots first ..
// first + W - 1 of it), A is the first sphere's line (v, w, 1/m, 1/I), B the second's. A lane
// that waits for a golden section (Law::sets_aside) is set aside as Sweep::relax_waiting sets a
// contact aside (its circle written to circle[lane], its bit to the mask returned), and neither
// its impulse nor its spheres change. Returns the mask of the lanes set aside (bit k: lane k).
template <int W, class Law>
[[gnu::always_inline]] inline int relax_block(ContactBlock& L, int first, double* const* A, double* const* B,
                                              double mu_spheres, double bn_zero_eps, double relaxation, double& delta,
                                              FrictionCircle* circle) {
  BlockRelaxation<W> s[1] = {{&L, first, A, B}};
  relax_interleaved<W, Law, 1>(s, mu_spheres, bn_zero_eps, relaxation, delta, circle);
  return s[0].aside;
}

}  // namespace
}  // namespace md::granular

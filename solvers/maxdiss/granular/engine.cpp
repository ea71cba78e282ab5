// The hard-contact engine of engine.hpp.
#include "maxdiss/granular/engine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "common/errors.hpp"
#include "common/optimize.hpp"
#include "common/text.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace md::granular {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::Vector2d;

// ---------------------------------------------------------------------------------------------
// Spheres

void Spheres::add(const Vector3d& xi, const Vector3d& vi, const Vector3d& wi, double Ri, double m) {
  x.push_back(xi);
  v.push_back(vi);
  w.push_back(wi);
  R.push_back(Ri);
  inv_m.push_back(1.0 / m);
  inv_I.push_back(1.0 / (0.4 * m * Ri * Ri));  // solid sphere: I = 2/5 m R^2
  id.push_back(next_id_++);
}

void Spheres::push(const Vector3d& xi, const Vector3d& vi, const Vector3d& wi, double Ri, double inv_mi, double inv_Ii,
                   std::uint64_t idi) {
  x.push_back(xi);
  v.push_back(vi);
  w.push_back(wi);
  R.push_back(Ri);
  inv_m.push_back(inv_mi);
  inv_I.push_back(inv_Ii);
  id.push_back(idi);
}

void Spheres::truncate(std::size_t n) {
  x.resize(n);
  v.resize(n);
  w.resize(n);
  R.resize(n);
  inv_m.resize(n);
  inv_I.resize(n);
  id.resize(n);
}

void Spheres::permute(const std::vector<std::uint32_t>& order) {
  auto apply = [&order](auto& a) {
    auto copy = a;
    for (std::size_t i = 0; i < order.size(); ++i) a[i] = copy[order[i]];
  };
  apply(x);
  apply(v);
  apply(w);
  apply(R);
  apply(inv_m);
  apply(inv_I);
  apply(id);
}

// ---------------------------------------------------------------------------------------------
// Boundaries

double Obstacle::distance(const Vector3d& p, Vector3d& n) const {
  const double dx = p(0) - cx, dy = p(1) - cy;
  if (dx <= 0.0) {  // the half-disc side: the nearest surface point lies on the arc
    const double r = std::hypot(dx, dy);
    if (r > 0.0) {
      n = Vector3d(dx / r, dy / r, 0.0);
    } else {
      n = Vector3d(-1.0, 0.0, 0.0);
    }
    return r - radius;
  }
  // the box [0, L] x [-radius, radius] in (dx, dy): exact signed distance of a box
  const double hx = 0.5 * box_length;
  const double qx = std::fabs(dx - hx) - hx, qy = std::fabs(dy) - radius;
  const double sx = dx - hx >= 0.0 ? 1.0 : -1.0, sy = dy >= 0.0 ? 1.0 : -1.0;
  if (qx > 0.0 || qy > 0.0) {  // outside: to the nearest face or edge
    const double ox = std::max(qx, 0.0), oy = std::max(qy, 0.0);
    const double d = std::hypot(ox, oy);
    n = Vector3d(sx * ox / d, sy * oy / d, 0.0);
    return d;
  }
  // inside: the nearest face (the face x = cx is interior to the union: only x = cx + L, y = +-r)
  if (qx > qy && sx > 0.0) {
    n = Vector3d(1.0, 0.0, 0.0);
    return qx;
  }
  n = Vector3d(0.0, sy, 0.0);
  return qy;
}

double Obstacle::area() const { return 0.5 * cm::pi * radius * radius + 2.0 * radius * box_length; }

// ---------------------------------------------------------------------------------------------
// The per-contact laws

Vector3d contact_tangent(const Vector3d& n) {
  const Vector3d a = n.cwiseAbs();
  Vector3d e = Vector3d::Zero();
  if (a(0) <= a(1) && a(0) <= a(2)) {
    e(0) = 1.0;
  } else if (a(1) <= a(2)) {
    e(1) = 1.0;
  } else {
    e(2) = 1.0;
  }
  return n.cross(e).normalized();
}

Vector3d coulomb_exact(double Ann, double Att, const Vector3d& b, double mu) {
  if (!(b(0) > 0.0)) return Vector3d::Zero();  // not closing: no impulse
  const double xn = b(0) / Ann;                // dv_n = A_nn x_n - b_n = 0
  Vector2d xto = b.tail<2>() / Att;            // sticking: dv_to = 0
  const double norm = xto.norm(), radius = mu * xn;
  if (norm > radius) xto *= radius / norm;  // sliding: x_to = -mu x_n dv_to / |dv_to|, dv_to || -b_to
  return Vector3d(xn, xto(0), xto(1));
}

namespace {

/// pe's decoupling (coulomb_decoupling), each golden section on a friction circle asked of
/// `section`, which returns the minimiser s, or nothing: the decoupling then stops and returns
/// nothing (a sweep sets the contact aside, takes the sections of many contacts together and
/// goes on from that sweep's end: a second call with x and first). Sweeps from `first` on, from
/// the impulse x.
template <class Section>
std::optional<Vector3d> decouple(const Matrix3d& A, const Vector3d& b, double mu, int sweeps, Section&& section,
                                 Vector3d x = Vector3d::Zero(), int first = 0) {
  if (!(b(0) > 0.0)) return Vector3d::Zero();  // separating (pe: gdot_n >= 0)
  const Matrix2d At = A.bottomRightCorner<2, 2>();
  const Vector2d Atn = A.block<2, 1>(1, 0);
  const double det = At(0, 0) * At(1, 1) - At(0, 1) * At(1, 0);  // > 0: A is positive definite
  for (int s = first; s < sweeps; ++s) {
    // normal row with the tangential impulse held: dv_n = 0, x_n >= 0
    const double xn = std::max(0.0, (b(0) - A(0, 1) * x(1) - A(0, 2) * x(2)) / A(0, 0));
    // the tangential impulse depends on x_n alone: an unchanged x_n is the fixed point (at once
    // for sphere blocks, A_nt = A_no = 0)
    if (s > 0 && xn == x(0)) break;
    // tangential: min 1/2 y^T A_to y - y^T (b_to - A_to,n x_n) over |y| <= mu x_n
    const Vector2d bt = b.tail<2>() - Atn * xn;
    Vector2d y((At(1, 1) * bt(0) - At(0, 1) * bt(1)) / det, (At(0, 0) * bt(1) - At(1, 0) * bt(0)) / det);
    const double r = mu * xn;
    if (y.norm() > r) {
      const Vector2d c = y / y.norm();
      const FrictionCircle circle{At, bt, c, Vector2d(-c(1), c(0)), r, xn};
      const std::optional<double> best = section(circle);
      if (!best) return std::nullopt;
      y = r * circle.u(*best);
    }
    x = Vector3d(xn, y(0), y(1));
  }
  return x;
}

// The golden sections of golden_on_circles, W circles to a vector register (W = 2: SSE2, the
// baseline; W = 4: AVX2), four registers in turn. Always inlined, so that each entry below
// compiles it for its own instruction set. Neither set contracts a * b + c into one rounding
// (FMA is not enabled), so both give the bits of the single section.
template <int W>
struct DoubleLanes;  // W doubles in one vector register (GCC's vector extension)
template <>
struct DoubleLanes<2> {
  typedef double type __attribute__((vector_size(16)));
};
template <>
struct DoubleLanes<4> {
  typedef double type __attribute__((vector_size(32)));
};

template <int W>
[[gnu::always_inline]] inline void golden_lanes(const FrictionCircle* circle, int count, int iterations, double* s) {
  using vw = typename DoubleLanes<W>::type;
  struct Lanes {  // W circles, component by component
    vw cx, cy, px, py, a00, a01, a10, a11, bx, by, r;
  };
  const vw zero = {}, one = zero + 1.0, two = zero + 2.0, half = zero + 0.5;
  const vw R = zero + 0.5 * (std::sqrt(5.0) - 1.0);
  // FrictionCircle::f, operation by operation, into fx
  const auto f = [&](const Lanes& L, const vw& sv, vw& fx) __attribute__((always_inline)) {
    const vw t1 = one - sv * sv, t2 = two * sv, den = one + sv * sv;
    const vw u0 = (t1 * L.cx + t2 * L.px) / den, u1 = (t1 * L.cy + t2 * L.py) / den;
    const vw Au0 = L.a00 * u0 + L.a01 * u1, Au1 = L.a10 * u0 + L.a11 * u1;
    fx = L.r * (half * L.r * (u0 * Au0 + u1 * Au1) - (u0 * L.bx + u1 * L.by));
  };
  constexpr int registers = 4;
  constexpr int batch = W * registers;
  for (int first = 0; first < count; first += batch) {
    Lanes L[registers]{};
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

void golden_sse2(const FrictionCircle* circle, int count, int iterations, double* s) {
  golden_lanes<2>(circle, count, iterations, s);
}

__attribute__((target("avx2"))) void golden_avx2(const FrictionCircle* circle, int count, int iterations, double* s) {
  golden_lanes<4>(circle, count, iterations, s);
}

}  // namespace

bool avx2_available() {
  static const bool available = __builtin_cpu_supports("avx2");
  return available;
}

namespace {

/// Whether `lanes` asks for AVX2 registers; refuses AVX2 on a processor without it.
bool wide(Lanes lanes) {
  if (lanes == Lanes::avx2 && !avx2_available())
    throw std::invalid_argument("four lanes (AVX2) asked of a processor without AVX2");
  return lanes == Lanes::avx2 || (lanes == Lanes::widest && avx2_available());
}

}  // namespace

void golden_on_circles(const FrictionCircle* circle, int count, int iterations, double* s, Lanes lanes) {
  if (lanes == Lanes::one) throw std::invalid_argument("golden_on_circles takes two or four lanes");
  const bool avx2 = wide(lanes);
  avx2 ? golden_avx2(circle, count, iterations, s) : golden_sse2(circle, count, iterations, s);
}

double FrictionCircle::minimum(int iterations) const {
  return cm::golden_section_minimum([this](double s) { return f(s); }, -1.0, 1.0, 0.0, iterations).x;
}

Vector3d coulomb_decoupling(const Matrix3d& A, const Vector3d& b, double mu, int sweeps, int golden) {
  return *decouple(A, b, mu, sweeps,
                   [golden](const FrictionCircle& circle) -> std::optional<double> { return circle.minimum(golden); });
}

namespace {

// Four spheres' velocities (v then w: six doubles at the start of 64 bytes of their own, as
// Engine::Velocities) in registers component by component and back: c[j][k] is component j of
// sphere k. Two 4 x 4 transposes of whole-row loads instead of 24 loads of single lanes; the
// second row load reads w_1, w_2 and the 16 bytes of padding after them, which no lane uses, and
// its store writes back w_1, w_2 only. Data movement only: no bit of a value changes.
using Lanes4 = DoubleLanes<4>::type;
using Mask4 = long long __attribute__((vector_size(32)));

[[gnu::always_inline]] inline void transpose4(Lanes4& r0, Lanes4& r1, Lanes4& r2, Lanes4& r3) {
  const Lanes4 t0 = __builtin_shuffle(r0, r1, Mask4{0, 4, 2, 6}), t1 = __builtin_shuffle(r0, r1, Mask4{1, 5, 3, 7});
  const Lanes4 t2 = __builtin_shuffle(r2, r3, Mask4{0, 4, 2, 6}), t3 = __builtin_shuffle(r2, r3, Mask4{1, 5, 3, 7});
  r0 = __builtin_shuffle(t0, t2, Mask4{0, 1, 4, 5});
  r1 = __builtin_shuffle(t1, t3, Mask4{0, 1, 4, 5});
  r2 = __builtin_shuffle(t0, t2, Mask4{2, 3, 6, 7});
  r3 = __builtin_shuffle(t1, t3, Mask4{2, 3, 6, 7});
}

[[gnu::always_inline]] inline void gather4(double* const* P, Lanes4 (&c)[6]) {
  // written out, no loop: a loop of copies into an array of registers goes through the stack
  std::memcpy(&c[0], P[0], sizeof(Lanes4));  // v_0 v_1 v_2 w_0 of sphere k
  std::memcpy(&c[1], P[1], sizeof(Lanes4));
  std::memcpy(&c[2], P[2], sizeof(Lanes4));
  std::memcpy(&c[3], P[3], sizeof(Lanes4));
  Lanes4 w0, w1, w2, w3;
  std::memcpy(&w0, P[0] + 4, sizeof(Lanes4));  // w_1 w_2, padding
  std::memcpy(&w1, P[1] + 4, sizeof(Lanes4));
  std::memcpy(&w2, P[2] + 4, sizeof(Lanes4));
  std::memcpy(&w3, P[3] + 4, sizeof(Lanes4));
  transpose4(c[0], c[1], c[2], c[3]);
  transpose4(w0, w1, w2, w3);
  c[4] = w0;
  c[5] = w1;
}

[[gnu::always_inline]] inline void scatter4(double* const* P, const Lanes4 (&c)[6]) {
  Lanes4 r0 = c[0], r1 = c[1], r2 = c[2], r3 = c[3];
  transpose4(r0, r1, r2, r3);
  std::memcpy(P[0], &r0, sizeof(Lanes4));
  std::memcpy(P[1], &r1, sizeof(Lanes4));
  std::memcpy(P[2], &r2, sizeof(Lanes4));
  std::memcpy(P[3], &r3, sizeof(Lanes4));
  const Lanes4 low = __builtin_shuffle(c[4], c[5], Mask4{0, 4, 1, 5}),
               high = __builtin_shuffle(c[4], c[5], Mask4{2, 6, 3, 7});
  std::memcpy(P[0] + 4, &low, 2 * sizeof(double));
  std::memcpy(P[1] + 4, reinterpret_cast<const double*>(&low) + 2, 2 * sizeof(double));
  std::memcpy(P[2] + 4, &high, 2 * sizeof(double));
  std::memcpy(P[3] + 4, reinterpret_cast<const double*>(&high) + 2, 2 * sizeof(double));
}

// The fields of W contacts of a block of lanes (lanes first .. first + W - 1 of it), each loaded
// where it is used. The relaxation goes in three phases (the relative velocity, the law, the
// change applied), and a compiler barrier between two phases has the next load its fields afresh
// from the block, which is in the first-level cache, instead of holding twenty registers of fields
// through the law and spilling them to the stack (some 250 moves a block of four, measured by
// callgrind). The values are the same: a load, not a computation.
template <int W>
struct SphereLanes {
  using vw = typename DoubleLanes<W>::type;
  const ContactLanes& L;
  int first;

  [[gnu::always_inline]] void get(vw& v, const double* field) const { std::memcpy(&v, field + first, sizeof v); }
  /// The frame: n, t and o = n x t.
  [[gnu::always_inline]] void frame(vw& n0, vw& n1, vw& n2, vw& t0, vw& t1, vw& t2, vw& o0, vw& o1, vw& o2) const {
    get(n0, L.n0), get(n1, L.n1), get(n2, L.n2), get(t0, L.t0), get(t1, L.t1), get(t2, L.t2);
    o0 = n1 * t2 - n2 * t1, o1 = n2 * t0 - n0 * t2, o2 = n0 * t1 - n1 * t0;  // o = n x t
  }
};

/// The phases' boundary (above): no load of the block is carried across it.
[[gnu::always_inline]] inline void next_phase() { asm volatile("" ::: "memory"); }

// Velocities v, w of the W spheres P[0 .. W-1] (six doubles side by side each), component by
// component: c[j][k] is component j of sphere k.
template <int W>
[[gnu::always_inline]] inline void gather_spheres(double* const* P, typename DoubleLanes<W>::type (&c)[6]) {
  if constexpr (W == 4) {
    gather4(P, c);
  } else {
    double lanes[6][W];
    for (int k = 0; k < W; ++k)
      for (int j = 0; j < 6; ++j) lanes[j][k] = P[k][j];
    std::memcpy(c, lanes, sizeof lanes);
  }
}

// The second half of Engine::relax_with on W lanes: the impulses become x
// (relaxed), and both spheres take the change; the lanes of `skip` (bit k: lane k) stay as they
// are. A is the first sphere's v and w (six doubles side by side), B the second's, lane by lane.
template <int W>
[[gnu::always_inline]] inline void apply_sphere_lanes(ContactLanes& L, int first, double* const* A, double* const* B,
                                                      typename DoubleLanes<W>::type& x0,
                                                      typename DoubleLanes<W>::type& x1,
                                                      typename DoubleLanes<W>::type& x2, int skip, double relaxation,
                                                      double& delta) {
  using vw = typename DoubleLanes<W>::type;
  const SphereLanes<W> C{L, first};
  vw la0, la1, la2;
  C.get(la0, L.la0), C.get(la1, L.la1), C.get(la2, L.la2);
  if (relaxation != 1.0) {
    x0 = la0 + relaxation * (x0 - la0);
    x1 = la1 + relaxation * (x1 - la1);
    x2 = la2 + relaxation * (x2 - la2);
  }
  const vw d0 = x0 - la0, d1 = x1 - la1, d2 = x2 - la2;
  vw n0, n1, n2, t0, t1, t2, o0, o1, o2, m1, m2, i1, i2;
  C.frame(n0, n1, n2, t0, t1, t2, o0, o1, o2);
  const vw P0 = d0 * n0 + d1 * t0 + d2 * o0, P1 = d0 * n1 + d1 * t1 + d2 * o1, P2 = d0 * n2 + d1 * t2 + d2 * o2;
  const vw q0 = n1 * P2 - n2 * P1, q1 = n2 * P0 - n0 * P2, q2 = n0 * P1 - n1 * P0;  // n x P
  C.get(m1, L.m1), C.get(m2, L.m2), C.get(i1, L.i1), C.get(i2, L.i2);
  if constexpr (W == 4) {
    if (skip == 0) {  // every lane: the loop below, component by component in registers
      std::memcpy(L.la0 + first, &x0, sizeof x0);
      std::memcpy(L.la1 + first, &x1, sizeof x1);
      std::memcpy(L.la2 + first, &x2, sizeof x2);
      vw a[6], b[6];
      gather4(A, a);
      a[0] += m1 * P0, a[1] += m1 * P1, a[2] += m1 * P2;
      a[3] -= i1 * q0, a[4] -= i1 * q1, a[5] -= i1 * q2;
      scatter4(A, a);
      gather4(B, b);
      b[0] -= m2 * P0, b[1] -= m2 * P1, b[2] -= m2 * P2;
      b[3] -= i2 * q0, b[4] -= i2 * q1, b[5] -= i2 * q2;
      scatter4(B, b);
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

// W sphere-sphere contacts of one colour (no sphere shared) relaxed together, one to a lane: the
// operations of Engine::relax_with with the law's sphere path, in the same order on each lane,
// every branch of the law a mask. L holds the contacts (lanes first .. first + W - 1 of it), A is
// the first sphere's v and w (six doubles side by side), B the second's.
//  - Law::maxdiss: md::solve_sphere.
//  - Law::coulomb_exact: coulomb_exact, the closed form on the isotropic block.
//  - Law::coulomb_decoupling: decouple, whose first sweep is its last on a sphere block (below). A
//    lane whose tangential minimum lies outside the friction disc needs a golden section: it is set
//    aside as relax_independent_decoupling sets a contact aside (its circle written to
//    circle[lane], its bit to the mask returned), and neither its impulse nor its spheres change.
// Returns the mask of the lanes set aside (bit k: lane k).
template <int W, Law law>
[[gnu::always_inline]] inline int relax_sphere_lanes(ContactLanes& L, int first, double* const* A, double* const* B,
                                                     double bn_zero_eps, double relaxation, double& delta,
                                                     FrictionCircle* circle) {
  using vw = typename DoubleLanes<W>::type;
  const vw zero = {};
  const SphereLanes<W> C{L, first};
  // --- the relative velocity dv = v_a - l1 w_a x n - (v_b + l2 w_b x n) ---
  vw dv0, dv1, dv2;
  {
    vw n0, n1, n2, l1, l2, a[6], b[6];
    C.get(n0, L.n0), C.get(n1, L.n1), C.get(n2, L.n2), C.get(l1, L.l1), C.get(l2, L.l2);
    gather_spheres<W>(A, a);
    gather_spheres<W>(B, b);
    dv0 = (a[0] - l1 * (a[4] * n2 - a[5] * n1)) - (b[0] + l2 * (b[4] * n2 - b[5] * n1));
    dv1 = (a[1] - l1 * (a[5] * n0 - a[3] * n2)) - (b[1] + l2 * (b[5] * n0 - b[3] * n2));
    dv2 = (a[2] - l1 * (a[3] * n1 - a[4] * n0)) - (b[2] + l2 * (b[3] * n1 - b[4] * n0));
  }
  next_phase();
  // --- the block diag(A_nn, A_tt, A_tt) and b ---
  vw Ann, Att, b0, b1, b2, mu;
  {
    vw n0, n1, n2, t0, t1, t2, o0, o1, o2, l1, l2, m1, m2, i1, i2, la0, la1, la2, gap;
    C.frame(n0, n1, n2, t0, t1, t2, o0, o1, o2);
    C.get(l1, L.l1), C.get(l2, L.l2), C.get(m1, L.m1), C.get(m2, L.m2), C.get(i1, L.i1), C.get(i2, L.i2);
    C.get(la0, L.la0), C.get(la1, L.la1), C.get(la2, L.la2), C.get(gap, L.gap);
    Ann = m1 + m2, Att = Ann + i1 * l1 + i2 * l2;
    b0 = -((n0 * dv0 + n1 * dv1 + n2 * dv2) - Ann * la0) - gap;
    b1 = -((t0 * dv0 + t1 * dv1 + t2 * dv2) - Att * la1);
    b2 = -((o0 * dv0 + o1 * dv1 + o2 * dv2) - Att * la2);
  }
  C.get(mu, L.mu);
  // --- the law ---
  const auto root = [](vw & x) __attribute__((always_inline)) {  // in place, lane by lane
    for (int k = 0; k < W; ++k) x[k] = std::sqrt(x[k]);
  };
  vw x0, x1, x2;
  int aside = 0;
  if constexpr (law == Law::maxdiss) {
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
  } else if constexpr (law == Law::coulomb_exact) {
    // coulomb_exact: b_n <= 0 separates; else x_n = b_n / A_nn, x_to = b_to / A_tt, scaled onto
    // the friction disc of radius mu x_n when it lies outside
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
  } else {
    static_assert(law == Law::coulomb_decoupling);
    // decouple on A = diag(A_nn, A_tt, A_tt) from x = 0, with the products by A's zero entries
    // that decide the sign of a zero kept: b_n <= 0 separates (x = 0); else the normal row gives
    // x_n = max(0, (b_n - 0 - 0) / A_nn) = b_n / A_nn, the tangential right-hand side is
    // b_to - A_to,n x_n = b_to, and y = A_to^-1 b_to by Cramer's rule (det = A_tt^2 - 0 0). The
    // second sweep's x_n is the first's (b_n - 0 y_t - 0 y_o = b_n, as b_n > 0), so the
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
  next_phase();
  // --- the change applied ---
  apply_sphere_lanes<W>(L, first, A, B, x0, x1, x2, aside, relaxation, delta);
  return aside;
}

// The four contacts of a block of lanes, in two SSE2 registers (every x86-64) or one AVX2 one.
// relax_spheres_*: relax_sphere_lanes, returning the lanes set aside (bit k: contact k of the
// block); apply_spheres_*: apply_sphere_lanes with the impulses x[component][contact] on the
// contacts of `lanes`.
template <Law law>
int relax_spheres_sse2(ContactLanes& L, double* const* A, double* const* B, double bn_zero_eps, double relaxation,
                       double& delta, FrictionCircle* circle) {
  const int low = relax_sphere_lanes<2, law>(L, 0, A, B, bn_zero_eps, relaxation, delta, circle);
  return low | relax_sphere_lanes<2, law>(L, 2, A + 2, B + 2, bn_zero_eps, relaxation, delta, circle + 2) << 2;
}

template <Law law>
__attribute__((target("avx2"))) int relax_spheres_avx2(ContactLanes& L, double* const* A, double* const* B,
                                                       double bn_zero_eps, double relaxation, double& delta,
                                                       FrictionCircle* circle) {
  return relax_sphere_lanes<4, law>(L, 0, A, B, bn_zero_eps, relaxation, delta, circle);
}

template <int W>
[[gnu::always_inline]] inline void apply_lanes(ContactLanes& L, int first, double* const* A, double* const* B,
                                               const double (&x)[3][4], int lanes, double relaxation, double& delta) {
  using vw = typename DoubleLanes<W>::type;
  vw x0, x1, x2;
  std::memcpy(&x0, x[0] + first, sizeof x0);
  std::memcpy(&x1, x[1] + first, sizeof x1);
  std::memcpy(&x2, x[2] + first, sizeof x2);
  apply_sphere_lanes<W>(L, first, A, B, x0, x1, x2, ~(lanes >> first), relaxation, delta);
}

void apply_spheres_sse2(ContactLanes& L, double* const* A, double* const* B, const double (&x)[3][4], int lanes,
                        double relaxation, double& delta) {
  if (lanes & 3) apply_lanes<2>(L, 0, A, B, x, lanes, relaxation, delta);
  if (lanes & 12) apply_lanes<2>(L, 2, A + 2, B + 2, x, lanes, relaxation, delta);
}

__attribute__((target("avx2"))) void apply_spheres_avx2(ContactLanes& L, double* const* A, double* const* B,
                                                        const double (&x)[3][4], int lanes, double relaxation,
                                                        double& delta) {
  apply_lanes<4>(L, 0, A, B, x, lanes, relaxation, delta);
}

}  // namespace

Vector3d solve_block(Law law, double Ann, double Att, const Vector3d& b, double mu, const EngineOptions& opt) {
  switch (law) {
    case Law::maxdiss: {
      if (md::sphere_path(opt.kernel)) return md::solve_sphere(Ann, Att, b, mu, opt.kernel).x;  // eq. (5) by Fig. 5
      const Matrix3d A = Vector3d(Ann, Att, Att).asDiagonal();
      return md::solve(A, b, mu, opt.kernel).x;
    }
    case Law::coulomb_decoupling: {
      const Matrix3d A = Vector3d(Ann, Att, Att).asDiagonal();
      return coulomb_decoupling(A, b, mu, opt.decoupling_sweeps, opt.golden_iterations);
    }
    case Law::coulomb_exact:
      return coulomb_exact(Ann, Att, b, mu);
  }
  return Vector3d::Zero();
}

// ---------------------------------------------------------------------------------------------
// The engine

Engine::Engine(const EngineOptions& options, const Box& box, double max_radius) : opt_(options), box_(box) {
  opt_.kernel.want_alpha = false;  // the sweep needs the impulse only
  wide(opt_.lanes);                // refuses AVX2 where there is none
  // A cell no smaller than the largest contact distance 2 R_max + threshold: every contact pair
  // lies in neighbouring cells.
  cell_ = 2.0 * max_radius + std::max(opt_.threshold, 0.0);
  const Vector3d extent = box_.hi - box_.lo;
  nx_ = std::max(1, static_cast<int>(std::floor(extent(0) / cell_)));
  ny_ = std::max(1, static_cast<int>(std::floor(extent(1) / cell_)));
  nz_ = std::max(1, static_cast<int>(std::floor(extent(2) / cell_)));
  const long cells = static_cast<long>(nx_ + 2) * (ny_ + 2) * (nz_ + 2);  // with a layer of empty ghost cells
  if (cells > 200'000'000L)
    throw cm::InputError("the cell grid of the broad phase would have " + std::to_string(cells) +
                         " cells: the domain is too large for the sphere radius");
  // fixed chunks of cells, whatever the number of threads
  const long chunks = std::min<long>(cells, 512);
  chunk_contacts_.resize(static_cast<std::size_t>(chunks));
}

void Engine::set_options(const EngineOptions& options) {
  wide(options.lanes);
  opt_ = options;
  opt_.kernel.want_alpha = false;
}

Vector3d Engine::boundary_velocity(int k) const {
  if (k < static_cast<int>(planes.size())) return planes[static_cast<std::size_t>(k)].velocity;
  return Vector3d::Zero();
}

double Engine::bytes() const {
  auto cap = [](const auto& a) { return static_cast<double>(a.capacity() * sizeof(a[0])); };
  double b = cap(spheres.x) + cap(spheres.v) + cap(spheres.w) + cap(spheres.R) + cap(spheres.inv_m) +
             cap(spheres.inv_I) + cap(spheres.id);
  b += cap(cell_of_) + cap(cell_start_) + cap(order_) + cap(xr_) + cap(vw_) + cap(contacts_) + cap(lanes_) +
       cap(lanes_start_) + cap(colour_start_) + cap(used_colours_) + cap(colour_of_) + cap(group_of_) + cap(scratch_) +
       cap(detected_ends_) + cap(place_) + cap(chunk_start_) + cap(chunk_stats_);
  for (const auto& c : chunk_contacts_) b += cap(c);
  return b;
}

void Engine::sort_by_cell() {
  build_cells(false);
  spheres.permute(order_);
}

void Engine::build_cells(bool may_sort) {
  const std::size_t n = spheres.size();
  const long cells = static_cast<long>(nx_ + 2) * (ny_ + 2) * (nz_ + 2);
  const Vector3d extent = box_.hi - box_.lo;
  const double sx = nx_ / extent(0), sy = ny_ / extent(1), sz = nz_ / extent(2);
  auto index = [&](const Vector3d& p) {
    const int ix = std::clamp(static_cast<int>(std::floor((p(0) - box_.lo(0)) * sx)), 0, nx_ - 1);
    const int iy = std::clamp(static_cast<int>(std::floor((p(1) - box_.lo(1)) * sy)), 0, ny_ - 1);
    const int iz = std::clamp(static_cast<int>(std::floor((p(2) - box_.lo(2)) * sz)), 0, nz_ - 1);
    // x slowest, z fastest: the flow runs along x, so the spheres a sweep touches together (a slab
    // of cells across the channel) lie close in memory
    return static_cast<std::uint32_t>((static_cast<long>(ix + 1) * (ny_ + 2) + iy + 1) * (nz_ + 2) + iz + 1);
  };
  for (int pass = 0; pass < 2; ++pass) {
    cell_of_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Vector3d& p = spheres.x[i];
      if (!p.allFinite())
        throw cm::NumericalError("sphere " + std::to_string(spheres.id[i]) + " has a non-finite position");
      cell_of_[i] = index(p);
    }
    // counting sort by cell (stable: spheres of a cell keep their order)
    cell_start_.assign(static_cast<std::size_t>(cells) + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++cell_start_[cell_of_[i] + 1];
    for (long c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
    order_.resize(n);
    std::vector<std::uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) order_[fill[cell_of_[i]]++] = static_cast<std::uint32_t>(i);
    // Every reorder_every steps the arrays themselves are put in cell order (memory locality).
    if (pass == 0 && may_sort && opt_.reorder_every > 0 && steps_ % opt_.reorder_every == 0) {
      spheres.permute(order_);
      continue;
    }
    break;
  }
  // positions and radii in cell order, packed: the broad phase reads them in runs
  xr_.resize(n);
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t i = order_[s];
    xr_[s] << spheres.x[i], spheres.R[i];
  }
}

StepStats Engine::detect() {
  if (!coupling_) return detect_contacts();
  coupling_->add_ghosts(*this);
  StepStats st = detect_contacts();
  coupling_->remove_ghosts_and_migrate(*this);
  coupling_->reduce(st);
  return st;
}

StepStats Engine::detect_contacts() {
  // Coupled, the spheres are sorted before the ghosts join them (step()), never here.
  build_cells(coupling_ == nullptr);
  const std::size_t owned = this->owned();
  const long cells = static_cast<long>(nx_ + 2) * (ny_ + 2) * (nz_ + 2);
  const long chunks = static_cast<long>(chunk_contacts_.size());
  const double dt_inv = 1.0 / opt_.dt;
  const int nplanes = static_cast<int>(planes.size());
  const auto& S = spheres;

  auto finish = [&](Contact& c) {
    c.t = contact_tangent(c.n);
    c.gap_rate = c.xi < 0.0 ? opt_.erp * c.xi * dt_inv : c.xi * dt_inv;  // eps min(0, xi/dt) + max(0, xi/dt)
    c.lambda.setZero();
  };
  auto boundary_contacts = [&](std::uint32_t i, std::vector<Contact>& out) {
    if (i >= owned) return;  // a ghost's boundary contacts are its owner's
    const Vector3d& p = S.x[i];
    const double R = S.R[i];
    auto add = [&](int k, const Vector3d& n, double xi, double mu) {
      Contact c;
      c.a = static_cast<std::int32_t>(i);
      c.b = -k - 1;
      c.n = n;
      c.xi = xi;
      c.l1 = R + xi;  // x_hat = x - (R + xi) n, on the boundary's surface
      c.l2 = 0.0;
      c.inv_m1 = S.inv_m[i];
      c.inv_I1_l1 = S.inv_I[i] * c.l1;
      c.mu = mu;
      finish(c);
      out.push_back(c);
    };
    for (int k = 0; k < nplanes; ++k) {
      const Plane& pl = planes[static_cast<std::size_t>(k)];
      const double xi = pl.n.dot(p) - pl.offset - R;
      if (xi < opt_.threshold) add(k, pl.n, xi, pl.mu);
    }
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
      const Obstacle& ob = obstacles[k];
      const double reach = R + opt_.threshold;  // outside the bounding box by more: no contact
      if (p(0) < ob.cx - ob.radius - reach || p(0) > ob.cx + ob.box_length + reach ||
          std::fabs(p(1) - ob.cy) > ob.radius + reach)
        continue;
      Vector3d n;
      const double xi = obstacles[k].distance(p, n) - R;
      if (xi < opt_.threshold) add(nplanes + static_cast<int>(k), n, xi, obstacles[k].mu);
    }
  };
  auto pair = [&](std::uint32_t i, std::uint32_t j, std::vector<Contact>& out) {
    // with a ghost: the subdomain owning the sphere of smaller id relaxes the contact
    if (i >= owned || j >= owned) {
      if (i >= owned && j >= owned) return;
      const bool i_owned = i < owned;
      if ((i_owned ? S.id[i] : S.id[j]) > (i_owned ? S.id[j] : S.id[i])) return;
    }
    const Vector3d d = S.x[i] - S.x[j];
    const double r2 = d.squaredNorm(), reach = S.R[i] + S.R[j] + opt_.threshold;
    if (r2 >= reach * reach) return;
    const double dist = std::sqrt(r2);
    Contact c;
    c.a = static_cast<std::int32_t>(i);
    c.b = static_cast<std::int32_t>(j);
    c.n = dist > 0.0 ? Vector3d(d / dist) : Vector3d::UnitZ();
    c.xi = dist - S.R[i] - S.R[j];
    if (opt_.contact_point == ContactPoint::midpoint) {
      c.l1 = S.R[i] + 0.5 * c.xi;  // x_hat = x_2 + (R_2 + xi/2) n (pe)
      c.l2 = S.R[j] + 0.5 * c.xi;
    } else {
      c.l1 = S.R[i] + c.xi;  // x_hat = x_2 + R_2 n (the paper)
      c.l2 = S.R[j];
    }
    c.inv_m1 = S.inv_m[i];
    c.inv_m2 = S.inv_m[j];
    c.inv_I1_l1 = S.inv_I[i] * c.l1;
    c.inv_I2_l2 = S.inv_I[j] * c.l2;
    c.mu = opt_.mu;
    finish(c);
    out.push_back(c);
  };

  // The 13 forward neighbours of a cell (those of larger index) in the padded grid (no bounds to
  // check): the next cell along z, and four runs of three cells consecutive along z, (dx, dy) =
  // (0, 1), (1, -1), (1, 0), (1, 1). With the cell itself they are five contiguous ranges of the
  // cell-ordered spheres, scanned in the order of increasing offset.
  const long sy = nz_ + 2, sx = static_cast<long>(ny_ + 2) * (nz_ + 2);
  const long runs[4] = {sy, sx - sy, sx, sx + sy};  // centre cell of each run of three
  const double threshold = opt_.threshold;

  // each chunk's statistics while its contacts are in cache (a maximum and a count: the same
  // whatever the grouping)
  chunk_stats_.assign(static_cast<std::size_t>(chunks), StepStats{});
#pragma omp parallel for schedule(dynamic, 4) num_threads(opt_.threads)
  for (long k = 0; k < chunks; ++k) {
    auto& out = chunk_contacts_[static_cast<std::size_t>(k)];
    out.clear();
    const long c0 = k * cells / chunks, c1 = (k + 1) * cells / chunks;
    for (long c = c0; c < c1; ++c) {
      const std::uint32_t end = cell_start_[c + 1];
      for (std::uint32_t s = cell_start_[c]; s < end; ++s) {  // ghost cells are empty
        const std::uint32_t i = order_[s];
        boundary_contacts(i, out);
        const Eigen::Vector4d p = xr_[s];
        // candidates by the packed positions and radii, contacts from the spheres' own arrays
        auto scan = [&](std::uint32_t s0, std::uint32_t s1) {
          for (std::uint32_t s2 = s0; s2 < s1; ++s2) {
            const Eigen::Vector4d& q = xr_[s2];
            const double reach = p(3) + q(3) + threshold;
            if ((p.head<3>() - q.head<3>()).squaredNorm() < reach * reach) pair(i, order_[s2], out);
          }
        };
        scan(s + 1, cell_start_[c + 2]);  // the rest of the cell, then the next cell along z
        for (long r : runs) scan(cell_start_[c + r - 1], cell_start_[c + r + 2]);
      }
    }
    StepStats& cs = chunk_stats_[static_cast<std::size_t>(k)];
    cs.contacts = static_cast<long>(out.size());
    for (const Contact& c : out) {
      cs.max_penetration = std::max(cs.max_penetration, -c.xi);
      if (c.b >= 0) ++cs.sphere_contacts;
    }
  }
  // the chunks one after the other (each copied by any thread to its place), and the spheres of
  // each contact apart (colour()'s greedy pass reads 8 bytes of a contact instead of 152)
  StepStats st;
  chunk_start_.resize(static_cast<std::size_t>(chunks) + 1);
  chunk_start_[0] = 0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(chunks); ++k) {
    const StepStats& cs = chunk_stats_[k];
    chunk_start_[k + 1] = chunk_start_[k] + static_cast<std::size_t>(cs.contacts);
    st.contacts += cs.contacts;
    st.sphere_contacts += cs.sphere_contacts;
    st.max_penetration = std::max(st.max_penetration, cs.max_penetration);
  }
  contacts_.resize(chunk_start_.back());
  detected_ends_.resize(chunk_start_.back());
#pragma omp parallel for schedule(dynamic, 16) num_threads(opt_.threads)
  for (long k = 0; k < chunks; ++k) {
    const auto& chunk = chunk_contacts_[static_cast<std::size_t>(k)];
    const std::size_t at = chunk_start_[static_cast<std::size_t>(k)];
    std::copy(chunk.begin(), chunk.end(), contacts_.begin() + static_cast<std::ptrdiff_t>(at));
    for (std::size_t j = 0; j < chunk.size(); ++j) detected_ends_[at + j] = {chunk[j].a, chunk[j].b};
  }
  return st;
}

int Engine::colour(std::uint32_t groups) {
  // greedy colouring in detection order: a contact takes the lowest colour neither sphere has yet
  // (contacts_ is in detection order, and detected_ends_ holds the spheres of each contact)
  const std::size_t nc = contacts_.size();
  used_colours_.assign(spheres.size(), 0);
  colour_of_.resize(nc);
  int colours = 0;
  for (std::size_t k = 0; k < nc; ++k) {
    const Ends c = detected_ends_[k];
    std::uint64_t used = used_colours_[static_cast<std::size_t>(c.a)];
    if (c.b >= 0) used |= used_colours_[static_cast<std::size_t>(c.b)];
    if (~used == 0)
      throw cm::NumericalError("a sphere has more than 64 contacts: the greedy colouring of the sweep cannot go on");
    const int col = std::countr_zero(~used);
    const std::uint64_t bit = std::uint64_t{1} << col;
    used_colours_[static_cast<std::size_t>(c.a)] |= bit;
    if (c.b >= 0) used_colours_[static_cast<std::size_t>(c.b)] |= bit;
    colour_of_[k] = static_cast<std::uint32_t>(col);
    colours = std::max(colours, col + 1);
  }
  // stable counting sort of the contacts by (group, colour), a colour's sphere-sphere contacts
  // before its boundary contacts (the order inside a colour changes no bit: its contacts share no
  // sphere; pack_lanes takes the sphere-sphere ones four at a time); group_of_ holds the groups
  // (or is empty)
  const std::uint32_t ncol = static_cast<std::uint32_t>(colours);
  auto key = [&](std::size_t k) {
    const std::uint32_t boundary = detected_ends_[k].b < 0 ? 1u : 0u;
    return ((group_of_.empty() ? 0u : group_of_[k]) * ncol + colour_of_[k]) * 2u + boundary;
  };
  std::vector<std::uint32_t> start(2 * static_cast<std::size_t>(groups) * ncol + 1, 0);
  for (std::size_t k = 0; k < nc; ++k) ++start[key(k) + 1];
  for (std::size_t q = 0; q + 1 < start.size(); ++q) start[q + 1] += start[q];
  // each contact's place, then the contacts moved to their places by any thread
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  place_.resize(nc);
  for (std::size_t k = 0; k < nc; ++k) place_[k] = fill[key(k)]++;
  scratch_.resize(nc);
#pragma omp parallel for schedule(static) num_threads(opt_.threads)
  for (std::size_t k = 0; k < nc; ++k) scratch_[place_[k]] = contacts_[k];
  contacts_.swap(scratch_);
  // colour_start_: where each group begins (one group: where each colour begins)
  const std::uint32_t stride = groups > 1 ? ncol : 1;
  const std::size_t bounds = groups > 1 ? groups : ncol;
  colour_start_.resize(bounds + 1);
  for (std::size_t q = 0; q <= bounds; ++q) colour_start_[q] = start[2 * q * stride];
  return colours;
}

template <class Solve>
void Engine::relax_with(Contact& c, double& delta, Solve&& solve) {
  Velocities& A = vw_[static_cast<std::size_t>(c.a)];
  // relative contact velocity dv = v_a + w_a x r_1 - v_b - w_b x r_2 with the current impulses
  Vector3d dv = A.v - c.l1 * A.w.cross(c.n);
  if (c.b >= 0) {
    const Velocities& B = vw_[static_cast<std::size_t>(c.b)];
    dv -= B.v + c.l2 * B.w.cross(c.n);
  } else {
    dv -= boundary_velocity(-c.b - 1);
  }
  // b = -(dv without the contact's own impulse) - xi_eff / dt e_n, contact frame (spec 001, 2.8)
  const Vector3d o = c.o();
  const double Ann = c.Ann(), Att = c.Att();
  const Vector3d rhs(-(c.n.dot(dv) - Ann * c.lambda(0)) - c.gap_rate, -(c.t.dot(dv) - Att * c.lambda(1)),
                     -(o.dot(dv) - Att * c.lambda(2)));
  Vector3d lambda;
  if constexpr (std::is_same_v<decltype(solve(Ann, Att, rhs)), Vector3d>) {
    lambda = solve(Ann, Att, rhs);
  } else {
    const std::optional<Vector3d> solved = solve(Ann, Att, rhs);
    if (!solved) return;  // the contact waits (relax_independent_decoupling)
    lambda = *solved;
  }
  if (opt_.relaxation != 1.0) lambda = c.lambda + opt_.relaxation * (lambda - c.lambda);
  const Vector3d d = lambda - c.lambda;
  c.lambda = lambda;
  const Vector3d P = d(0) * c.n + d(1) * c.t + d(2) * o;
  const Vector3d nxP = c.n.cross(P);
  A.v += c.inv_m1 * P;
  A.w -= c.inv_I1_l1 * nxP;  // I^-1 (r_1 x P), r_1 = -l1 n
  if (c.b >= 0) {
    Velocities& B = vw_[static_cast<std::size_t>(c.b)];
    B.v -= c.inv_m2 * P;
    B.w -= c.inv_I2_l2 * nxP;  // -I^-1 (r_2 x P), r_2 = l2 n
  }
  delta = std::max(delta, d.cwiseAbs().maxCoeff());
}

void Engine::relax_contact(Contact& c, double& delta) {
  relax_with(c, delta, [&c, this](double Ann, double Att, const Vector3d& b) {
    return solve_block(opt_.law, Ann, Att, b, c.mu, opt_);
  });
}

void Engine::relax_independent_decoupling(long k0, long k1, bool avx2, double& delta) {
  // Contacts of one colour share no sphere, so a contact may wait while the others are relaxed:
  // those whose decoupling needs a golden section are set aside, their sections taken together
  // (golden_on_circles, the same bits as one at a time), and then relaxed again, the velocities
  // they read being as they were, with the section known. A section alone waits at every step
  // for the evaluation that decides the next.
  constexpr int most = 256;
  FrictionCircle circle[most];
  long waiting[most];
  double best[most];
  int count = 0;
  const int sweeps = opt_.decoupling_sweeps;
  const auto resume = [&] {
    if (count == 0) return;
    golden_on_circles(circle, count, opt_.golden_iterations, best, avx2 ? Lanes::avx2 : Lanes::sse2);
    for (int j = 0; j < count; ++j) {
      Contact& c = contacts_[static_cast<std::size_t>(waiting[j])];
      // the first sweep ends on its circle; any later section (not for sphere blocks) is taken here
      const Vector2d y = circle[j].r * circle[j].u(best[j]);
      const Vector3d first(circle[j].xn, y(0), y(1));
      const auto section = [this](const FrictionCircle& fc) -> std::optional<double> {
        return fc.minimum(opt_.golden_iterations);
      };
      relax_with(c, delta, [&](double Ann, double Att, const Vector3d& b) {
        return decouple(Vector3d(Ann, Att, Att).asDiagonal(), b, c.mu, sweeps, section, first, 1);
      });
    }
    count = 0;
  };
  for (long k = k0; k < k1; ++k) {
    if (k + prefetch_ahead < k1) prefetch(contacts_[static_cast<std::size_t>(k + prefetch_ahead)]);
    Contact& c = contacts_[static_cast<std::size_t>(k)];
    const auto set_aside = [&](const FrictionCircle& fc) -> std::optional<double> {
      circle[count] = fc;
      waiting[count++] = k;
      return std::nullopt;
    };
    relax_with(c, delta, [&](double Ann, double Att, const Vector3d& b) {
      return decouple(Vector3d(Ann, Att, Att).asDiagonal(), b, c.mu, sweeps, set_aside);
    });
    if (count == most) resume();
  }
  resume();
}

void Engine::prefetch(const Contact& c) const {
  __builtin_prefetch(&vw_[static_cast<std::size_t>(c.a)]);
  if (c.b >= 0) __builtin_prefetch(&vw_[static_cast<std::size_t>(c.b)]);
}

std::size_t Engine::lane_contact(std::size_t colour, std::uint32_t block, std::uint32_t lane) const {
  return colour_start_[colour] + 4 * static_cast<std::size_t>(block - lanes_start_[colour]) + lane;
}

bool Engine::in_lanes() const {
  if (opt_.order != SweepOrder::colour || opt_.lanes == Lanes::one) return false;
  return (opt_.law == Law::maxdiss && md::sphere_path(opt_.kernel)) || opt_.law == Law::coulomb_exact ||
         (opt_.law == Law::coulomb_decoupling && opt_.decoupling_sweeps >= 1);
}

void ContactLanes::store(int j, const Contact& c) {
  n0[j] = c.n(0), n1[j] = c.n(1), n2[j] = c.n(2), t0[j] = c.t(0), t1[j] = c.t(1), t2[j] = c.t(2);
  l1[j] = c.l1, l2[j] = c.l2, m1[j] = c.inv_m1, m2[j] = c.inv_m2, i1[j] = c.inv_I1_l1, i2[j] = c.inv_I2_l2;
  gap[j] = c.gap_rate, mu[j] = c.mu;
  la0[j] = c.lambda(0), la1[j] = c.lambda(1), la2[j] = c.lambda(2);
  a[j] = c.a, b[j] = c.b;
}

void Engine::pack_lanes() {
  // colour() put each colour's sphere-sphere contacts first: the first four at a time into
  // lanes_, the last few (fewer than four) and the boundary's relaxed one at a time
  const std::size_t colours = colour_start_.size() - 1;
  lanes_start_.assign(colours + 1, 0);
  for (std::size_t col = 0; col < colours; ++col) {
    const auto first = contacts_.begin() + colour_start_[col], last = contacts_.begin() + colour_start_[col + 1];
    const auto spheres = std::partition_point(first, last, [](const Contact& c) { return c.b >= 0; }) - first;
    lanes_start_[col + 1] = lanes_start_[col] + static_cast<std::uint32_t>(spheres / 4);
  }
  lanes_.resize(lanes_start_.back());
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt_.threads)
  for (std::size_t col = 0; col < colours; ++col) {
    for (std::uint32_t g = lanes_start_[col]; g < lanes_start_[col + 1]; ++g) {
      for (std::uint32_t j = 0; j < 4; ++j) lanes_[g].store(static_cast<int>(j), contacts_[lane_contact(col, g, j)]);
    }
  }
}

void Engine::unpack_lanes() {
  const std::size_t colours = colour_start_.size() - 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt_.threads)
  for (std::size_t col = 0; col < colours; ++col) {
    for (std::uint32_t g = lanes_start_[col]; g < lanes_start_[col + 1]; ++g) {
      const ContactLanes& L = lanes_[g];
      for (std::uint32_t j = 0; j < 4; ++j)
        contacts_[lane_contact(col, g, j)].lambda = Vector3d(L.la0[j], L.la1[j], L.la2[j]);
    }
  }
}

template <int W, Law law>
void Engine::relax_lanes(int colour, long k0, long k1, double& delta) {
  // k0 - (the colour's first contact) is a multiple of four: the packed contacts W at a time, then
  // the rest one at a time (the order does not matter: they share no sphere)
  const auto col = static_cast<std::size_t>(colour);
  const long c0 = colour_start_[col], g0 = lanes_start_[col];
  const long packed_end = std::min(k1, c0 + 4 * (static_cast<long>(lanes_start_[col + 1]) - g0));
  // the decoupled Coulomb law: the lanes set aside wait for their golden sections, taken together
  // (golden_on_circles, the same bits as one at a time); their spheres are as they were, no other
  // contact of the colour touching them, so the impulse then found is the one-contact path's
  // (the other laws set none aside: room for the four circles their kernel is handed)
  constexpr int most = law == Law::coulomb_decoupling ? 256 : 4;
  FrictionCircle circle[most];
  struct Waiting {
    ContactLanes* lanes;
    int lane;
  } waiting[most];
  double best[most];
  int count = 0;
  const bool avx2 = W == 4;
  const auto spheres = [this](const ContactLanes& L, double*(&A)[4], double*(&B)[4]) {
    for (int j = 0; j < 4; ++j) {
      A[j] = vw_[static_cast<std::size_t>(L.a[j])].v.data();  // v, then w
      B[j] = vw_[static_cast<std::size_t>(L.b[j])].v.data();
    }
  };
  const auto resume = [&] {
    if (count == 0) return;
    golden_on_circles(circle, count, opt_.golden_iterations, best, avx2 ? Lanes::avx2 : Lanes::sse2);
    // block by block (a block's lanes wait side by side), the impulses x = (x_n, y) with which
    // decouple ends at its first sweep
    for (int j = 0; j < count;) {
      ContactLanes& L = *waiting[j].lanes;
      double x[3][4] = {};
      int lanes = 0;
      for (; j < count && waiting[j].lanes == &L; ++j) {
        const Vector2d y = circle[j].r * circle[j].u(best[j]);
        const int lane = waiting[j].lane;
        x[0][lane] = circle[j].xn, x[1][lane] = y(0), x[2][lane] = y(1);
        lanes |= 1 << lane;
      }
      double* A[4];
      double* B[4];
      spheres(L, A, B);
      if constexpr (W == 4)
        apply_spheres_avx2(L, A, B, x, lanes, opt_.relaxation, delta);
      else
        apply_spheres_sse2(L, A, B, x, lanes, opt_.relaxation, delta);
    }
    count = 0;
  };
  long k = k0;
  for (; k < packed_end; k += 4) {
    ContactLanes& L = lanes_[static_cast<std::size_t>(g0 + (k - c0) / 4)];
    constexpr long ahead_groups = 2;
    if (k + 4 * ahead_groups < packed_end) {  // the spheres of the group after next
      const ContactLanes& ahead = (&L)[ahead_groups];
      for (int j = 0; j < 4; ++j) {
        __builtin_prefetch(&vw_[static_cast<std::size_t>(ahead.a[j])]);
        __builtin_prefetch(&vw_[static_cast<std::size_t>(ahead.b[j])]);
      }
    }
    double* A[4];
    double* B[4];
    spheres(L, A, B);
    int aside;
    if constexpr (W == 4)
      aside = relax_spheres_avx2<law>(L, A, B, opt_.kernel.bn_zero_eps, opt_.relaxation, delta, circle + count);
    else
      aside = relax_spheres_sse2<law>(L, A, B, opt_.kernel.bn_zero_eps, opt_.relaxation, delta, circle + count);
    if constexpr (law == Law::coulomb_decoupling) {
      // compact the circles of the lanes set aside (lane j's circle is at circle[count + j])
      int waits = count;
      for (int j = 0; j < 4; ++j)
        if (aside & (1 << j)) {
          circle[waits] = circle[count + j];
          waiting[waits++] = {&L, j};
        }
      count = waits;
      if (count > most - 4) resume();
    }
  }
  resume();
  if constexpr (law == Law::coulomb_decoupling)
    relax_independent_decoupling(k, k1, avx2, delta);
  else
    relax_range(k, k1, delta);
}

void Engine::relax_range(long k0, long k1, double& delta) {
  for (long k = k0; k < k1; ++k) {
    if (k + prefetch_ahead < k1) prefetch(contacts_[static_cast<std::size_t>(k + prefetch_ahead)]);
    relax_contact(contacts_[static_cast<std::size_t>(k)], delta);
  }
}

int Engine::slab() {
  // Contacts come in the order of the cell of their sphere a (x-major): the slab of a contact is
  // the column of that cell over slab_columns. Inside a slab the contacts are then ordered by
  // colour: consecutive contacts share no sphere, so the processor overlaps their relaxations,
  // while the slab's spheres stay in cache.
  const std::uint32_t stride_x = static_cast<std::uint32_t>(ny_ + 2) * static_cast<std::uint32_t>(nz_ + 2);
  const std::uint32_t width = static_cast<std::uint32_t>(std::max(1, opt_.slab_columns));
  const std::uint32_t slabs = (static_cast<std::uint32_t>(nx_) + width - 1) / width;
  group_of_.resize(contacts_.size());
  for (std::size_t k = 0; k < contacts_.size(); ++k)
    group_of_[k] = (cell_of_[static_cast<std::size_t>(contacts_[k].a)] / stride_x - 1) / width;  // padded grid
  const int colours = colour(slabs);
  group_of_.clear();
  return colours;
}

double Engine::sweep() {
  double delta = 0.0;
  const int groups = static_cast<int>(colour_start_.size()) - 1;
  if (opt_.order == SweepOrder::slabs) {
    // the slabs of one parity share no sphere: any thread may take any of them
    if (opt_.threads > 1) sweep_barriers_ += 2;
    for (int parity = 0; parity < 2; ++parity) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt_.threads) reduction(max : delta) if (opt_.threads > 1)
      for (int s = parity; s < groups; s += 2)
        relax_range(colour_start_[static_cast<std::size_t>(s)], colour_start_[static_cast<std::size_t>(s) + 1], delta);
    }
    return delta;
  }
  // A colour's contacts share no sphere, so the sweep may take several at once (opt_.lanes): the
  // sphere-sphere contacts two or four to a vector register (relax_lanes), the decoupled Coulomb
  // law's golden sections eight or sixteen together (there and in relax_independent_decoupling),
  // in blocks long enough that its batches are mostly full (1024 contacts: 20.9 s against 22.1 s
  // with 64, 100 steps of the default channel from its last frame).
  const bool at_once = opt_.order == SweepOrder::colour && opt_.lanes != Lanes::one;
  const bool avx2 = at_once && wide(opt_.lanes);
  const bool lanes = in_lanes();
  const auto relax_block = [&](int col, long b0, long b1, double& d) {
    if (lanes && opt_.law == Law::maxdiss)
      return avx2 ? relax_lanes<4, Law::maxdiss>(col, b0, b1, d) : relax_lanes<2, Law::maxdiss>(col, b0, b1, d);
    if (lanes && opt_.law == Law::coulomb_exact)
      return avx2 ? relax_lanes<4, Law::coulomb_exact>(col, b0, b1, d)
                  : relax_lanes<2, Law::coulomb_exact>(col, b0, b1, d);
    if (lanes && opt_.law == Law::coulomb_decoupling)
      return avx2 ? relax_lanes<4, Law::coulomb_decoupling>(col, b0, b1, d)
                  : relax_lanes<2, Law::coulomb_decoupling>(col, b0, b1, d);
    if (at_once && opt_.law == Law::coulomb_decoupling) return relax_independent_decoupling(b0, b1, avx2, d);
    relax_range(b0, b1, d);
  };
  const long block = at_once && opt_.law == Law::coulomb_decoupling ? 1024 : 64;  // contacts handed to a thread
  for (int col = 0; col < groups; ++col) {
    const long k0 = colour_start_[static_cast<std::size_t>(col)], k1 = colour_start_[static_cast<std::size_t>(col) + 1];
    const bool parallel = opt_.order == SweepOrder::colour && opt_.threads > 1 && k1 - k0 >= opt_.parallel_min;
    if (parallel) ++sweep_barriers_;
    const long blocks = (k1 - k0 + block - 1) / block;
#pragma omp parallel for schedule(static) num_threads(opt_.threads) reduction(max : delta) if (parallel)
    for (long j = 0; j < blocks; ++j) relax_block(col, k0 + j * block, std::min(k1, k0 + (j + 1) * block), delta);
  }
  return delta;
}

// One step, phase by phase (engine.hpp, "One step"); each phase's wall time is summed into
// phase_seconds() (a clock read per phase: some 10 ns against milliseconds).
StepStats Engine::step(double t) {
  PhaseClock clock(phase_seconds_);
  add_ghosts();
  clock.lap(Phase::ghosts);
  StepStats st = detect_contacts();
  clock.lap(Phase::detect);
  apply_gravity();
  st.colours = order();
  clock.lap(Phase::order);
  relax(st, clock);
  integrate(t);
  clock.lap(Phase::integrate);
  migrate(st);
  clock.lap(Phase::ghosts);
  ++steps_;
  return st;
}

void Engine::add_ghosts() {
  if (!coupling_) return;
  if (opt_.reorder_every > 0 && steps_ % opt_.reorder_every == 0) sort_by_cell();  // before the ghosts join
  coupling_->add_ghosts(*this);
}

void Engine::apply_gravity() {
  // the external impulse over mass; a ghost holds its owner's velocity bit for bit, so it gets the same
  const std::size_t n = spheres.size();
  const Vector3d dv_ext = opt_.dt * opt_.gravity;
#pragma omp parallel for schedule(static) num_threads(opt_.threads)
  for (std::size_t i = 0; i < n; ++i) spheres.v[i] += dv_ext;
}

int Engine::order() {
  switch (opt_.order) {
    case SweepOrder::slabs:
      return slab();
    case SweepOrder::colour:
      return colour(1);
    case SweepOrder::detection:
      colour_start_ = {0, static_cast<std::uint32_t>(contacts_.size())};
      return 1;
  }
  return 1;
}

void Engine::relax(StepStats& st, PhaseClock& clock) {
  const std::size_t n = spheres.size();
  if (coupling_) {
    // the spheres a sweep may change: the owned ones of the contacts (in index order), then every
    // ghost; the blend leaves any other as it is (v0 + omega 0 = v0), so it need not visit them
    const std::size_t owned = this->owned();
    in_contact_.assign(owned, 0);
    for (const Contact& c : contacts_) {
      if (static_cast<std::size_t>(c.a) < owned) in_contact_[static_cast<std::size_t>(c.a)] = 1;
      if (c.b >= 0 && static_cast<std::size_t>(c.b) < owned) in_contact_[static_cast<std::size_t>(c.b)] = 1;
    }
    moved_.clear();
    for (std::size_t i = 0; i < owned; ++i)
      if (in_contact_[i]) moved_.push_back(static_cast<std::uint32_t>(i));
    for (std::size_t i = owned; i < n; ++i) moved_.push_back(static_cast<std::uint32_t>(i));
    v0_.resize(moved_.size());
    w0_.resize(moved_.size());
  }
  const bool lanes = in_lanes();
  if (lanes) pack_lanes();
  double delta = 0.0;
  vw_.resize(n);
#pragma omp parallel for schedule(static) num_threads(opt_.threads)
  for (std::size_t i = 0; i < n; ++i) vw_[i] = {spheres.v[i], spheres.w[i]};
  clock.lap(Phase::pack);
  for (int s = 0; s < opt_.sweeps; ++s) {
    if (coupling_) {
      for (std::size_t k = 0; k < moved_.size(); ++k) {
        v0_[k] = vw_[moved_[k]].v;
        w0_[k] = vw_[moved_[k]].w;
      }
    }
    delta = sweep();
    if (coupling_) {
      // weighted block Jacobi across subdomains, on the spheres' own arrays
      for (std::uint32_t i : moved_) {
        spheres.v[i] = vw_[i].v;
        spheres.w[i] = vw_[i].w;
      }
      coupling_->after_sweep(spheres, moved_, v0_, w0_);
      for (std::uint32_t i : moved_) vw_[i] = {spheres.v[i], spheres.w[i]};
      for (std::uint32_t i : coupling_->shared()) vw_[i] = {spheres.v[i], spheres.w[i]};
    }
  }
  clock.lap(Phase::sweeps);
#pragma omp parallel for schedule(static) num_threads(opt_.threads)
  for (std::size_t i = 0; i < n; ++i) {
    spheres.v[i] = vw_[i].v;
    spheres.w[i] = vw_[i].w;
  }
  if (lanes) unpack_lanes();
  solves_ += static_cast<double>(contacts_.size()) * opt_.sweeps;
  double largest = 0.0;
  const long nc = static_cast<long>(contacts_.size());
#pragma omp parallel for schedule(static) num_threads(opt_.threads) reduction(max : largest)
  for (long k = 0; k < nc; ++k)
    largest = std::max(largest, contacts_[static_cast<std::size_t>(k)].lambda.cwiseAbs().maxCoeff());
  st.delta = delta;
  st.largest = largest;
  st.residual = largest > 0.0 ? delta / largest : 0.0;
  clock.lap(Phase::unpack);
}

void Engine::integrate(double t) {
  const std::size_t n = spheres.size();
  bool finite = true;
#pragma omp parallel for schedule(static) num_threads(opt_.threads) reduction(&& : finite)
  for (std::size_t i = 0; i < n; ++i) {
    spheres.x[i] += opt_.dt * spheres.v[i];  // x' = x + dt v'
    finite = finite && spheres.v[i].allFinite() && spheres.w[i].allFinite();
  }
  if (!finite) throw cm::NumericalError("non-finite velocity at t = " + cm::format_real(t));
}

void Engine::migrate(StepStats& st) {
  if (!coupling_) return;
  coupling_->remove_ghosts_and_migrate(*this);
  coupling_->reduce(st);
}

}  // namespace md::granular

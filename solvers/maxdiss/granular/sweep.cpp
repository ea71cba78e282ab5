// The sweep (sweep.hpp): the relaxation of one contact, of contacts that wait for golden sections,
// and of a colour's blocks, and the instruction-set entries that compile the kernels of
// block_kernels.hpp for SSE2, AVX2 and AVX-512VL's registers (target attributes: the one file
// holds them all, so that no other file needs these instruction sets).
#include "maxdiss/granular/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "maxdiss/granular/block_kernels.hpp"
#include "maxdiss/granular/block_laws.hpp"

namespace md::granular {

using Eigen::Vector2d;

namespace {

// golden_on_circles' golden sections (block_kernels.hpp), W circles to a register: SSE2, every
// x86-64, and AVX2.
void golden_sse2(const FrictionCircle* circle, int count, int iterations, double* s) {
  golden_sections<2>(circle, count, iterations, s);
}

__attribute__((target("avx2"))) void golden_avx2(const FrictionCircle* circle, int count, int iterations, double* s) {
  golden_sections<4>(circle, count, iterations, s);
}

}  // namespace

bool avx2_available() {
  static const bool available = __builtin_cpu_supports("avx2");
  return available;
}

bool avx512_available() {
  static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return available;
}

bool four_wide(VectorWidth width) {
  if (width == VectorWidth::avx2 && !avx2_available())
    throw std::invalid_argument("four lanes (AVX2) asked of a processor without AVX2");
  if (width == VectorWidth::avx512 && !avx512_available())
    throw std::invalid_argument("four lanes in AVX-512VL's registers asked of a processor without AVX-512VL");
  return width == VectorWidth::avx512 || width == VectorWidth::avx2 ||
         (width == VectorWidth::widest && avx2_available());
}

bool avx512_registers(VectorWidth width) {
  return four_wide(width) && (width == VectorWidth::avx512 || (width == VectorWidth::widest && avx512_available()));
}

void golden_on_circles(const FrictionCircle* circle, int count, int iterations, double* s, VectorWidth width) {
  if (width == VectorWidth::one) throw std::invalid_argument("golden_on_circles takes two or four lanes");
  const bool avx2 = four_wide(width);
  avx2 ? golden_avx2(circle, count, iterations, s) : golden_sse2(circle, count, iterations, s);
}

namespace {

// The four contacts of a block, in two SSE2 registers (every x86-64) or one AVX2 one.
// relax_block_*: relax_block, returning the lanes set aside (bit k: contact k of the block);
// apply_block_*: apply_impulses with the impulses x[component][contact] on the contacts of
// `lanes`.
template <class Law>
int relax_block_sse2(ContactBlock& L, double* const* A, double* const* B, double mu, double bn_zero_eps,
                     double relaxation, double& delta, FrictionCircle* circle) {
  const int low = relax_block<2, Law>(L, 0, A, B, mu, bn_zero_eps, relaxation, delta, circle);
  return low | relax_block<2, Law>(L, 2, A + 2, B + 2, mu, bn_zero_eps, relaxation, delta, circle + 2) << 2;
}

template <class Law>
__attribute__((target("avx2"))) int relax_block_avx2(ContactBlock& L, double* const* A, double* const* B, double mu,
                                                     double bn_zero_eps, double relaxation, double& delta,
                                                     FrictionCircle* circle) {
  return relax_block<4, Law>(L, 0, A, B, mu, bn_zero_eps, relaxation, delta, circle);
}

// A run of blocks of one colour under a law that sets no lane aside (maximum dissipation, the
// closed-form Coulomb law): the loop of Sweep::relax_colour_blocks with the kernel inlined into it.
// Inlined, it keeps the spheres' addresses in registers and makes no call a block (some 80
// instructions a block of four went to the loop and the call, callgrind). vw: the engine's
// velocities, eight doubles a sphere (v, w, 1/m, 1/I); the spheres of the blocks after these are
// fetched ahead.
template <int W, class Law>
[[gnu::always_inline]] inline void relax_blocks(ContactBlock* blocks, long count, double* vw, double mu,
                                                double bn_zero_eps, double relaxation, double& delta) {
  static_assert(!Law::sets_aside, "a law that sets lanes aside: Sweep::relax_colour_blocks");
  constexpr long ahead = 2;
  FrictionCircle unused[8];  // the kernel's room for circles of lanes set aside: none here
  double d = delta;
  const auto spheres = [vw](const ContactBlock& L, double*(&A)[4], double*(&B)[4]) __attribute__((always_inline)) {
    for (int j = 0; j < 4; ++j) {
      A[j] = vw + 8 * static_cast<std::ptrdiff_t>(L.a[j]);
      B[j] = vw + 8 * static_cast<std::ptrdiff_t>(L.b[j]);
    }
  };
  const auto fetch = [vw](const ContactBlock& next) __attribute__((always_inline)) {
    for (int j = 0; j < 4; ++j) {
      __builtin_prefetch(vw + 8 * static_cast<std::ptrdiff_t>(next.a[j]));
      __builtin_prefetch(vw + 8 * static_cast<std::ptrdiff_t>(next.b[j]));
    }
  };
  // Two groups of lanes at a time, their phases interleaved (relax_interleaved): two blocks under
  // AVX2, and under SSE2 the two halves of a block. Two blocks were faster than one at a time, and
  // than three or four (make bench, the sweeps' time per step).
  long g = 0;
  if constexpr (W == 4) {
    for (; g + 2 <= count; g += 2) {
      if (g + 2 < count) fetch(blocks[g + 2]);  // the next pair
      if (g + 3 < count) fetch(blocks[g + 3]);
      double *A[2][4], *B[2][4];
      spheres(blocks[g], A[0], B[0]);
      spheres(blocks[g + 1], A[1], B[1]);
      BlockRelaxation<4> s[2] = {{blocks + g, 0, A[0], B[0]}, {blocks + g + 1, 0, A[1], B[1]}};
      relax_interleaved<4, Law, 2>(s, mu, bn_zero_eps, relaxation, d, unused);
    }
  }
  for (; g < count; ++g) {  // the last block under AVX2; every block under SSE2
    ContactBlock& L = blocks[g];
    if (g + ahead < count) fetch(blocks[g + ahead]);
    double* A[4];
    double* B[4];
    spheres(L, A, B);
    if constexpr (W == 4) {
      BlockRelaxation<4> s[1] = {{&L, 0, A, B}};
      relax_interleaved<4, Law, 1>(s, mu, bn_zero_eps, relaxation, d, unused);
    } else {
      BlockRelaxation<2> s[2] = {{&L, 0, A, B}, {&L, 2, A + 2, B + 2}};
      relax_interleaved<2, Law, 2>(s, mu, bn_zero_eps, relaxation, d, unused);
    }
  }
  delta = d;
}

template <class Law>
void relax_blocks_sse2(ContactBlock* blocks, long count, double* vw, double mu, double bn_zero_eps, double relaxation,
                       double& delta) {
  relax_blocks<2, Law>(blocks, count, vw, mu, bn_zero_eps, relaxation, delta);
}

template <class Law>
__attribute__((target("avx2"))) void relax_blocks_avx2(ContactBlock* blocks, long count, double* vw, double mu,
                                                       double bn_zero_eps, double relaxation, double& delta) {
  relax_blocks<4, Law>(blocks, count, vw, mu, bn_zero_eps, relaxation, delta);
}

// The same, AVX2's operations on AVX2's registers, encoded with AVX-512VL: its 32 vector registers
// hold what 16 spilled to the stack (no other instruction of AVX-512 is asked for, and no
// multiply-add is contracted: -ffp-contract=off, CMakeLists.txt; the same bits).
template <class Law>
__attribute__((target("avx2,avx512f,avx512vl"))) void relax_blocks_avx512(ContactBlock* blocks, long count, double* vw,
                                                                          double mu, double bn_zero_eps,
                                                                          double relaxation, double& delta) {
  relax_blocks<4, Law>(blocks, count, vw, mu, bn_zero_eps, relaxation, delta);
}

template <int W>
[[gnu::always_inline]] inline void apply_lanes(ContactBlock& L, int first, double* const* A, double* const* B,
                                               const double (&x)[3][4], int lanes, double relaxation, double& delta) {
  using vw = doubles<W>;
  vw x0, x1, x2;
  std::memcpy(&x0, x[0] + first, sizeof x0);
  std::memcpy(&x1, x[1] + first, sizeof x1);
  std::memcpy(&x2, x[2] + first, sizeof x2);
  BlockTerms<W> M;  // 1/m and 1/I from the spheres' lines (v, w, 1/m, 1/I), the tangent from n
  for (int k = 0; k < W; ++k) M.m1[k] = A[k][6], M.m2[k] = B[k][6], M.I1[k] = A[k][7], M.I2[k] = B[k][7];
  const BlockFields<W> C{L, first};
  vw n0, n1, n2;
  C.normal(n0, n1, n2);
  C.tangent(n0, n1, n2, M.t0, M.t1, M.t2);
  apply_impulses<W>(L, first, A, B, M, x0, x1, x2, ~(lanes >> first), relaxation, delta);
}

void apply_block_sse2(ContactBlock& L, double* const* A, double* const* B, const double (&x)[3][4], int lanes,
                      double relaxation, double& delta) {
  if (lanes & 3) apply_lanes<2>(L, 0, A, B, x, lanes, relaxation, delta);
  if (lanes & 12) apply_lanes<2>(L, 2, A + 2, B + 2, x, lanes, relaxation, delta);
}

__attribute__((target("avx2"))) void apply_block_avx2(ContactBlock& L, double* const* A, double* const* B,
                                                      const double (&x)[3][4], int lanes, double relaxation,
                                                      double& delta) {
  apply_lanes<4>(L, 0, A, B, x, lanes, relaxation, delta);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The sweep

double Sweep::run(long& barriers) {
  double delta = 0.0;
  for (const SweepPass& pass : order_.passes()) {
    if (pass.independent) {
      with_block_law(opt_.solver, [&]<class Law>(Law) { relax_colours<Law>(pass, delta, barriers); });
      continue;
    }
    // the groups of one pass share no sphere: any thread may take any of them, each relaxing its
    // own in order
    const bool parallel = pass.parallel && opt_.threads > 1;
    if (parallel) ++barriers;
    const auto first = static_cast<long>(pass.first), end = static_cast<long>(pass.end),
               stride = static_cast<long>(pass.stride);
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt_.threads) reduction(max : delta) if (parallel)
    for (long g = first; g < end; g += stride)
      relax_range(order_.group_begin(static_cast<std::size_t>(g)), order_.group_begin(static_cast<std::size_t>(g) + 1),
                  delta);
  }
  return delta;
}

template <class Law>
void Sweep::relax_colours(const SweepPass& pass, double& delta, long& barriers) {
  // A colour's contacts share no sphere, so the sweep may take several at once (vector_width):
  // - the sphere-sphere contacts two or four to a vector register (relax_colour_blocks);
  // - the decoupled Coulomb law's golden sections eight or sixteen together (there and in
  //   relax_waiting), in parts long enough that its batches are mostly full (1024 contacts for
  //   that law, 64 else; md_channel_bench --coulomb.solver=decoupling times it).
  const bool at_once = opt_.vector_width != VectorWidth::one;
  const bool avx2 = at_once && four_wide(opt_.vector_width);
  const bool registers32 = avx2 && avx512_registers(opt_.vector_width);
  const long part = at_once && Law::sets_aside ? 1024 : 64;  // contacts handed to a thread
  for (std::uint32_t g = pass.first; g < pass.end; g += pass.stride) {
    const int col = static_cast<int>(g);
    const long k0 = order_.group_begin(g), k1 = order_.group_begin(g + 1);
    const bool parallel = pass.parallel && opt_.threads > 1 && k1 - k0 >= opt_.parallel_min;
    if (parallel) ++barriers;
    const long parts = (k1 - k0 + part - 1) / part;
#pragma omp parallel for schedule(static) num_threads(opt_.threads) reduction(max : delta) if (parallel)
    for (long j = 0; j < parts; ++j)
      relax_part<Law>(col, k0 + j * part, std::min(k1, k0 + (j + 1) * part), avx2, registers32, delta);
  }
}

template <class Law>
void Sweep::relax_part(int colour, long k0, long k1, bool avx2, bool registers32, double& delta) {
  if (order_.in_blocks())
    return avx2 ? relax_colour_blocks<4, Law>(colour, k0, k1, registers32, delta)
                : relax_colour_blocks<2, Law>(colour, k0, k1, registers32, delta);
  if constexpr (Law::sets_aside) {
    if (opt_.vector_width != VectorWidth::one) return relax_waiting<Law>(k0, k1, avx2, delta);
  }
  relax_range(k0, k1, delta);
}

Vector3d Sweep::boundary_velocity(int k) const {
  if (k < static_cast<int>(planes_.size())) return planes_[static_cast<std::size_t>(k)].velocity;
  return Vector3d::Zero();
}

template <class Solve>
void Sweep::relax_with(Contact& c, double& delta, Solve&& solve) {
  Velocities& A = spheres_.vw[static_cast<std::size_t>(c.a)];
  Velocities* const B = c.b >= 0 ? &spheres_.vw[static_cast<std::size_t>(c.b)] : nullptr;  // none: a boundary
  // relative contact velocity dv = v_a + w_a x r_1 - v_b - w_b x r_2 with the current impulses
  Vector3d dv = A.v - c.l1 * A.w.cross(c.n);
  if (B)
    dv -= B->v + c.l2 * B->w.cross(c.n);
  else
    dv -= boundary_velocity(-c.b - 1);
  // b = -(dv without the contact's own impulse) - xi_eff / dt e_n, contact frame (spec 001, 2.8)
  const Vector3d t = contact_tangent(c.n), o = c.n.cross(t);
  const Delassus D(A.inv_m, A.inv_I, c.l1, B ? B->inv_m : 0.0, B ? B->inv_I : 0.0, c.l2);
  const double Ann = D.Ann, Att = D.Att;
  const Vector3d rhs(-(c.n.dot(dv) - Ann * c.lambda(0)) - c.gap_rate, -(t.dot(dv) - Att * c.lambda(1)),
                     -(o.dot(dv) - Att * c.lambda(2)));
  Vector3d lambda;
  if constexpr (std::is_same_v<decltype(solve(Ann, Att, rhs)), Vector3d>) {
    lambda = solve(Ann, Att, rhs);
  } else {
    const std::optional<Vector3d> solved = solve(Ann, Att, rhs);
    if (!solved) return;  // the contact waits (relax_waiting)
    lambda = *solved;
  }
  if (opt_.relaxation != 1.0) lambda = c.lambda + opt_.relaxation * (lambda - c.lambda);
  const Vector3d d = lambda - c.lambda;
  c.lambda = lambda;
  const Vector3d P = d(0) * c.n + d(1) * t + d(2) * o;
  const Vector3d nxP = c.n.cross(P);
  A.v += D.m1 * P;
  A.w -= D.i1 * nxP;  // I^-1 (r_1 x P), r_1 = -l1 n
  if (B) {
    B->v -= D.m2 * P;
    B->w -= D.i2 * nxP;  // -I^-1 (r_2 x P), r_2 = l2 n
  }
  delta = std::max(delta, d.cwiseAbs().maxCoeff());
}

void Sweep::relax_contact(Contact& c, double& delta) {
  relax_with(c, delta, [&c, this](double Ann, double Att, const Vector3d& b) {
    return solve_block(opt_.solver, Ann, Att, b, c.mu, opt_);
  });
}

template <class Law>
void Sweep::relax_waiting(long k0, long k1, bool avx2, double& delta) {
  // Contacts of one colour share no sphere, so a contact may wait while the others are relaxed.
  // Those whose law needs a golden section are set aside, their sections taken together
  // (golden_on_circles, the same bits as one at a time), and then relaxed again, the velocities
  // they read being as they were, with the section known. A section alone waits at every step
  // for the evaluation that decides the next.
  constexpr int most = 256;
  FrictionCircle circle[most];
  long waiting[most];
  double best[most];
  int count = 0;
  std::vector<Contact>& contacts = order_.contacts();
  const auto resume = [&] {
    if (count == 0) return;
    golden_on_circles(circle, count, opt_.golden_iterations, best, avx2 ? VectorWidth::avx2 : VectorWidth::sse2);
    for (int j = 0; j < count; ++j) {
      Contact& c = contacts[static_cast<std::size_t>(waiting[j])];
      // the first sweep ends on its circle; any later section (not for sphere blocks) is taken here
      const Vector2d y = circle[j].r * circle[j].u(best[j]);
      const Vector3d first(circle[j].xn, y(0), y(1));
      relax_with(c, delta, [&](double Ann, double Att, const Vector3d& b) {
        return Law::resume(Ann, Att, b, c.mu, opt_, first);
      });
    }
    count = 0;
  };
  for (long k = k0; k < k1; ++k) {
    if (k + prefetch_ahead < k1) prefetch(contacts[static_cast<std::size_t>(k + prefetch_ahead)]);
    Contact& c = contacts[static_cast<std::size_t>(k)];
    const auto set_aside = [&](const FrictionCircle& fc) -> std::optional<double> {
      circle[count] = fc;
      waiting[count++] = k;
      return std::nullopt;
    };
    relax_with(c, delta, [&](double Ann, double Att, const Vector3d& b) {
      return Law::solve_or_set_aside(Ann, Att, b, c.mu, opt_, set_aside);
    });
    if (count == most) resume();
  }
  resume();
}

void Sweep::prefetch(const Contact& c) const {
  __builtin_prefetch(&spheres_.vw[static_cast<std::size_t>(c.a)]);
  if (c.b >= 0) __builtin_prefetch(&spheres_.vw[static_cast<std::size_t>(c.b)]);
}

template <int W, class Law>
void Sweep::relax_colour_blocks(int colour, long k0, long k1, bool registers32, double& delta) {
  // k0 - (the colour's first contact) is a multiple of four: the packed contacts W at a time, then
  // the rest one at a time (the order does not matter: they share no sphere)
  const auto col = static_cast<std::size_t>(colour);
  const long c0 = order_.group_begin(col), g0 = order_.block_begin(col);
  const long packed_end = std::min(k1, c0 + 4 * (static_cast<long>(order_.block_begin(col + 1)) - g0));
  std::vector<ContactBlock>& blocks_of_order = order_.blocks();
  Spheres& spheres = spheres_;
  // a law that sets lanes aside (the decoupled Coulomb law): they wait for their golden sections,
  // taken together (golden_on_circles, the same bits as one at a time). Their spheres are as they
  // were, no other contact of the colour touching them, so the impulse then found is the
  // one-contact path's. The other laws set none aside: room for the four circles their kernel is
  // handed.
  constexpr int most = Law::sets_aside ? 256 : 4;
  FrictionCircle circle[most];
  struct Waiting {
    ContactBlock* block;
    int lane;
  } waiting[most];
  double best[most];
  int count = 0;
  const bool avx2 = W == 4;
  const auto ends = [&spheres](const ContactBlock& L, double*(&A)[4], double*(&B)[4]) {
    for (int j = 0; j < 4; ++j) {
      A[j] = spheres.vw[static_cast<std::size_t>(L.a[j])].v.data();  // v, then w
      B[j] = spheres.vw[static_cast<std::size_t>(L.b[j])].v.data();
    }
  };
  const auto resume = [&] {
    if (count == 0) return;
    golden_on_circles(circle, count, opt_.golden_iterations, best, avx2 ? VectorWidth::avx2 : VectorWidth::sse2);
    // block by block (a block's lanes wait side by side), the impulses x = (x_n, y) with which
    // decouple ends at its first sweep
    for (int j = 0; j < count;) {
      ContactBlock& L = *waiting[j].block;
      double x[3][4] = {};
      int lanes = 0;
      for (; j < count && waiting[j].block == &L; ++j) {
        const Vector2d y = circle[j].r * circle[j].u(best[j]);
        const int lane = waiting[j].lane;
        x[0][lane] = circle[j].xn, x[1][lane] = y(0), x[2][lane] = y(1);
        lanes |= 1 << lane;
      }
      double* A[4];
      double* B[4];
      ends(L, A, B);
      if constexpr (W == 4)
        apply_block_avx2(L, A, B, x, lanes, opt_.relaxation, delta);
      else
        apply_block_sse2(L, A, B, x, lanes, opt_.relaxation, delta);
    }
    count = 0;
  };
  long k = k0;
  if constexpr (!Law::sets_aside) {
    static_assert(sizeof(Velocities) == 8 * sizeof(double));  // relax_blocks' stride, gather4's line
    ContactBlock* first = blocks_of_order.data() + (g0 + (k0 - c0) / 4);
    const long blocks = std::max(0L, (packed_end - k0) / 4);
    double* vw = spheres.vw.empty() ? nullptr : spheres.vw[0].v.data();
    if constexpr (W == 4) {
      if (registers32)
        relax_blocks_avx512<Law>(first, blocks, vw, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta);
      else
        relax_blocks_avx2<Law>(first, blocks, vw, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta);
    } else
      relax_blocks_sse2<Law>(first, blocks, vw, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta);
    k += 4 * blocks;
  }
  for (; k < packed_end; k += 4) {
    ContactBlock& L = blocks_of_order[static_cast<std::size_t>(g0 + (k - c0) / 4)];
    constexpr long ahead_groups = 2;
    if (k + 4 * ahead_groups < packed_end) {  // the spheres of the group after next
      const ContactBlock& ahead = (&L)[ahead_groups];
      for (int j = 0; j < 4; ++j) {
        __builtin_prefetch(&spheres.vw[static_cast<std::size_t>(ahead.a[j])]);
        __builtin_prefetch(&spheres.vw[static_cast<std::size_t>(ahead.b[j])]);
      }
    }
    double* A[4];
    double* B[4];
    ends(L, A, B);
    int aside;
    if constexpr (W == 4)
      aside = relax_block_avx2<Law>(L, A, B, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta, circle + count);
    else
      aside = relax_block_sse2<Law>(L, A, B, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta, circle + count);
    if constexpr (Law::sets_aside) {
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
  if constexpr (Law::sets_aside)
    relax_waiting<Law>(k, k1, avx2, delta);
  else
    relax_range(k, k1, delta);
}

void Sweep::relax_range(long k0, long k1, double& delta) {
  std::vector<Contact>& contacts = order_.contacts();
  for (long k = k0; k < k1; ++k) {
    if (k + prefetch_ahead < k1) prefetch(contacts[static_cast<std::size_t>(k + prefetch_ahead)]);
    relax_contact(contacts[static_cast<std::size_t>(k)], delta);
  }
}

}  // namespace md::granular

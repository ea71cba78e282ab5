// The hard-contact engine of engine.hpp: its construction, the phases of a step, the sweep's
// order (colours, slabs) and the NBGS sweep itself, one contact at a time and in the vector lanes
// of lanes.hpp, whose SSE2 and AVX2 entries (target("avx2")) are all here. Detection is in
// detection.cpp, the laws in laws.cpp, the bodies in bodies.cpp.
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
#include "common/text.hpp"
#include "maxdiss/granular/lanes.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace md::granular {

using Eigen::Vector2d;

namespace {

// golden_on_circles' golden sections (lanes.hpp), W circles to a register: SSE2, every x86-64, and AVX2.
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

bool avx512_available() {
  static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return available;
}

bool four_wide(VectorWidth lanes) {
  if (lanes == VectorWidth::avx2 && !avx2_available())
    throw std::invalid_argument("four lanes (AVX2) asked of a processor without AVX2");
  if (lanes == VectorWidth::avx512 && !avx512_available())
    throw std::invalid_argument("four lanes in AVX-512VL's registers asked of a processor without AVX-512VL");
  return lanes == VectorWidth::avx512 || lanes == VectorWidth::avx2 ||
         (lanes == VectorWidth::widest && avx2_available());
}

bool avx512_registers(VectorWidth lanes) {
  return four_wide(lanes) && (lanes == VectorWidth::avx512 || (lanes == VectorWidth::widest && avx512_available()));
}

void golden_on_circles(const FrictionCircle* circle, int count, int iterations, double* s, VectorWidth lanes) {
  if (lanes == VectorWidth::one) throw std::invalid_argument("golden_on_circles takes two or four lanes");
  const bool avx2 = four_wide(lanes);
  avx2 ? golden_avx2(circle, count, iterations, s) : golden_sse2(circle, count, iterations, s);
}

namespace {

// The four contacts of a block of lanes, in two SSE2 registers (every x86-64) or one AVX2 one.
// relax_spheres_*: relax_sphere_lanes, returning the lanes set aside (bit k: contact k of the
// block); apply_spheres_*: apply_sphere_lanes with the impulses x[component][contact] on the
// contacts of `lanes`.
template <BlockSolver law>
int relax_spheres_sse2(ContactBlock& L, double* const* A, double* const* B, double mu, double bn_zero_eps,
                       double relaxation, double& delta, FrictionCircle* circle) {
  const int low = relax_sphere_lanes<2, law>(L, 0, A, B, mu, bn_zero_eps, relaxation, delta, circle);
  return low | relax_sphere_lanes<2, law>(L, 2, A + 2, B + 2, mu, bn_zero_eps, relaxation, delta, circle + 2) << 2;
}

template <BlockSolver law>
__attribute__((target("avx2"))) int relax_spheres_avx2(ContactBlock& L, double* const* A, double* const* B, double mu,
                                                       double bn_zero_eps, double relaxation, double& delta,
                                                       FrictionCircle* circle) {
  return relax_sphere_lanes<4, law>(L, 0, A, B, mu, bn_zero_eps, relaxation, delta, circle);
}

// A run of blocks of one colour under a law that sets no lane aside (maximum dissipation, the
// closed-form Coulomb law): the loop of Engine::relax_lanes with the kernel inlined into it, so that
// the spheres' addresses stay in registers and no call is made a block (some 80 instructions a
// block of four went to the loop and the call, callgrind). vw: the engine's velocities, eight
// doubles a sphere (v, w, 1/m, 1/I); the spheres of the blocks after these are fetched ahead.
template <int W, BlockSolver law>
[[gnu::always_inline]] inline void relax_blocks(ContactBlock* blocks, long count, double* vw, double mu,
                                                double bn_zero_eps, double relaxation, double& delta) {
  static_assert(law != BlockSolver::coulomb_decoupling, "the decoupled law sets lanes aside: Engine::relax_lanes");
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
      LaneBlock<4> s[2] = {{blocks + g, 0, A[0], B[0]}, {blocks + g + 1, 0, A[1], B[1]}};
      relax_interleaved<4, law, 2>(s, mu, bn_zero_eps, relaxation, d, unused);
    }
  }
  for (; g < count; ++g) {  // the last block under AVX2; every block under SSE2
    ContactBlock& L = blocks[g];
    if (g + ahead < count) fetch(blocks[g + ahead]);
    double* A[4];
    double* B[4];
    spheres(L, A, B);
    if constexpr (W == 4) {
      LaneBlock<4> s[1] = {{&L, 0, A, B}};
      relax_interleaved<4, law, 1>(s, mu, bn_zero_eps, relaxation, d, unused);
    } else {
      LaneBlock<2> s[2] = {{&L, 0, A, B}, {&L, 2, A + 2, B + 2}};
      relax_interleaved<2, law, 2>(s, mu, bn_zero_eps, relaxation, d, unused);
    }
  }
  delta = d;
}

template <BlockSolver law>
void relax_blocks_sse2(ContactBlock* blocks, long count, double* vw, double mu, double bn_zero_eps, double relaxation,
                       double& delta) {
  relax_blocks<2, law>(blocks, count, vw, mu, bn_zero_eps, relaxation, delta);
}

template <BlockSolver law>
__attribute__((target("avx2"))) void relax_blocks_avx2(ContactBlock* blocks, long count, double* vw, double mu,
                                                       double bn_zero_eps, double relaxation, double& delta) {
  relax_blocks<4, law>(blocks, count, vw, mu, bn_zero_eps, relaxation, delta);
}

// The same, AVX2's operations on AVX2's registers, encoded with AVX-512VL: its 32 vector registers
// hold what 16 spilled to the stack (no other instruction of AVX-512 is asked for, and no
// multiply-add is contracted: -ffp-contract=off, CMakeLists.txt; the same bits).
template <BlockSolver law>
__attribute__((target("avx2,avx512f,avx512vl"))) void relax_blocks_avx512(ContactBlock* blocks, long count, double* vw,
                                                                          double mu, double bn_zero_eps,
                                                                          double relaxation, double& delta) {
  relax_blocks<4, law>(blocks, count, vw, mu, bn_zero_eps, relaxation, delta);
}

template <int W>
[[gnu::always_inline]] inline void apply_lanes(ContactBlock& L, int first, double* const* A, double* const* B,
                                               const double (&x)[3][4], int lanes, double relaxation, double& delta) {
  using vw = typename DoubleLanes<W>::type;
  vw x0, x1, x2;
  std::memcpy(&x0, x[0] + first, sizeof x0);
  std::memcpy(&x1, x[1] + first, sizeof x1);
  std::memcpy(&x2, x[2] + first, sizeof x2);
  BlockTerms<W> M;  // 1/m and 1/I from the spheres' lines (v, w, 1/m, 1/I), the tangent from n
  for (int k = 0; k < W; ++k) M.m1[k] = A[k][6], M.m2[k] = B[k][6], M.I1[k] = A[k][7], M.I2[k] = B[k][7];
  const SphereLanes<W> C{L, first};
  vw n0, n1, n2;
  C.normal(n0, n1, n2);
  C.tangent(n0, n1, n2, M.t0, M.t1, M.t2);
  apply_sphere_lanes<W>(L, first, A, B, M, x0, x1, x2, ~(lanes >> first), relaxation, delta);
}

void apply_spheres_sse2(ContactBlock& L, double* const* A, double* const* B, const double (&x)[3][4], int lanes,
                        double relaxation, double& delta) {
  if (lanes & 3) apply_lanes<2>(L, 0, A, B, x, lanes, relaxation, delta);
  if (lanes & 12) apply_lanes<2>(L, 2, A + 2, B + 2, x, lanes, relaxation, delta);
}

__attribute__((target("avx2"))) void apply_spheres_avx2(ContactBlock& L, double* const* A, double* const* B,
                                                        const double (&x)[3][4], int lanes, double relaxation,
                                                        double& delta) {
  apply_lanes<4>(L, 0, A, B, x, lanes, relaxation, delta);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The engine

Engine::Engine(const EngineOptions& options, const Box& box, double max_radius) : opt_(options), box_(box) {
  opt_.kernel.want_alpha = false;  // the sweep needs the impulse only
  four_wide(opt_.vector_width);    // refuses AVX2 or AVX-512VL where there is none
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
  chunk_ends_.resize(static_cast<std::size_t>(chunks));
}

void Engine::set_options(const EngineOptions& options) {
  four_wide(options.vector_width);
  opt_ = options;
  opt_.kernel.want_alpha = false;
}

Vector3d Engine::boundary_velocity(int k) const {
  if (k < static_cast<int>(planes.size())) return planes[static_cast<std::size_t>(k)].velocity;
  return Vector3d::Zero();
}

double Engine::bytes() const {
  auto cap = [](const auto& a) { return static_cast<double>(a.capacity() * sizeof(a[0])); };
  double b = cap(spheres.x) + cap(spheres.vw) + cap(spheres.R) + cap(spheres.id);
  b += cap(cell_of_) + cap(cell_start_) + cap(order_) + cap(packed_x_) + cap(packed_y_) + cap(packed_z_) +
       cap(packed_R_) + cap(contacts_) + cap(lanes_) + cap(lanes_start_) + cap(colour_start_) + cap(used_colours_) +
       cap(colour_of_) + cap(group_of_) + cap(chunk_keys_) + cap(detected_ends_) + cap(place_) + cap(chunk_start_) +
       cap(chunk_stats_);
  for (const auto& c : chunk_contacts_) b += cap(c);
  for (const auto& c : chunk_ends_) b += cap(c);
  return b;
}

void Engine::sort_by_cell() {
  build_cells(false);
  spheres.permute(order_);
}

int Engine::colour(std::uint32_t groups) {
  // greedy colouring in detection order: a contact takes the lowest colour neither sphere has yet
  // (detected_ends_ holds the spheres of each contact in detection order)
  const std::size_t nc = detected_ends_.size();
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
  // sphere; place_contacts puts the sphere-sphere ones four at a time into lanes_); group_of_ holds the groups
  // (or is empty)
  const std::uint32_t ncol = static_cast<std::uint32_t>(colours);
  auto key = [&](std::size_t k) {
    const std::uint32_t boundary = detected_ends_[k].b < 0 ? 1u : 0u;
    return ((group_of_.empty() ? 0u : group_of_[k]) * ncol + colour_of_[k]) * 2u + boundary;
  };
  // The sort by any thread: each of detection's chunks (chunk_start_) counts its keys, the counts
  // are summed key by key and chunk by chunk (so that a chunk's contacts of one key follow those
  // of the chunks before it, as one pass in detection order would place them), and each chunk
  // then places its contacts.
  const std::size_t keys = 2 * static_cast<std::size_t>(groups) * ncol;
  const long chunks = static_cast<long>(chunk_start_.size()) - 1;
  chunk_keys_.assign(static_cast<std::size_t>(chunks) * keys, 0);
#pragma omp parallel for schedule(dynamic, 16) num_threads(opt_.threads)
  for (long k = 0; k < chunks; ++k) {
    std::uint32_t* count = chunk_keys_.data() + static_cast<std::size_t>(k) * keys;
    for (std::size_t j = chunk_start_[static_cast<std::size_t>(k)]; j < chunk_start_[static_cast<std::size_t>(k) + 1];
         ++j)
      ++count[key(j)];
  }
  std::vector<std::uint32_t> start(keys + 1, 0);  // where each key's contacts begin
  std::uint32_t at = 0;
  for (std::size_t q = 0; q < keys; ++q) {
    start[q] = at;
    for (long k = 0; k < chunks; ++k) {  // a chunk's count becomes where its contacts of key q go
      std::uint32_t& count = chunk_keys_[static_cast<std::size_t>(k) * keys + q];
      const std::uint32_t here = count;
      count = at;
      at += here;
    }
  }
  start[keys] = at;
  place_.resize(nc);
#pragma omp parallel for schedule(dynamic, 16) num_threads(opt_.threads)
  for (long k = 0; k < chunks; ++k) {
    std::uint32_t* fill = chunk_keys_.data() + static_cast<std::size_t>(k) * keys;
    for (std::size_t j = chunk_start_[static_cast<std::size_t>(k)]; j < chunk_start_[static_cast<std::size_t>(k) + 1];
         ++j)
      place_[j] = fill[key(j)]++;
  }
  // colour_start_: where each group begins (one group: where each colour begins)
  const std::uint32_t stride = groups > 1 ? ncol : 1;
  const std::size_t bounds = groups > 1 ? groups : ncol;
  colour_start_.resize(bounds + 1);
  for (std::size_t q = 0; q <= bounds; ++q) colour_start_[q] = start[2 * q * stride];
  // Colour by colour in lanes (one group): a colour's sphere-sphere contacts, start[2 col] to
  // start[2 col + 1], go four at a time into its blocks of lanes_, the last few (fewer than
  // four) and its boundary contacts into contacts_
  laned_ = groups == 1 && in_lanes();
  if (laned_) {
    lanes_start_.assign(ncol + 1, 0);
    for (std::size_t col = 0; col < ncol; ++col)
      lanes_start_[col + 1] = lanes_start_[col] + (start[2 * col + 1] - start[2 * col]) / 4;
    lanes_.resize(lanes_start_.back());
  }
  place_contacts(&place_);
  return colours;
}

template <class Solve>
void Engine::relax_with(Contact& c, double& delta, Solve&& solve) {
  Velocities& A = spheres.vw[static_cast<std::size_t>(c.a)];
  Velocities* const B = c.b >= 0 ? &spheres.vw[static_cast<std::size_t>(c.b)] : nullptr;  // none: a boundary
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
    if (!solved) return;  // the contact waits (relax_independent_decoupling)
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

void Engine::relax_contact(Contact& c, double& delta) {
  relax_with(c, delta, [&c, this](double Ann, double Att, const Vector3d& b) {
    return solve_block(opt_.solver, Ann, Att, b, c.mu, opt_);
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
    golden_on_circles(circle, count, opt_.golden_iterations, best, avx2 ? VectorWidth::avx2 : VectorWidth::sse2);
    for (int j = 0; j < count; ++j) {
      Contact& c = contacts_[static_cast<std::size_t>(waiting[j])];
      // the first sweep ends on its circle; any later section (not for sphere blocks) is taken here
      const Vector2d y = circle[j].r * circle[j].u(best[j]);
      const Vector3d first(circle[j].xn, y(0), y(1));
      const auto section = [this](const FrictionCircle& fc) -> std::optional<double> {
        return fc.minimum(opt_.golden_iterations);
      };
      relax_with(c, delta, [&](double Ann, double Att, const Vector3d& b) {
        return detail::decouple(Vector3d(Ann, Att, Att).asDiagonal(), b, c.mu, sweeps, section, first, 1);
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
      return detail::decouple(Vector3d(Ann, Att, Att).asDiagonal(), b, c.mu, sweeps, set_aside);
    });
    if (count == most) resume();
  }
  resume();
}

void Engine::prefetch(const Contact& c) const {
  __builtin_prefetch(&spheres.vw[static_cast<std::size_t>(c.a)]);
  if (c.b >= 0) __builtin_prefetch(&spheres.vw[static_cast<std::size_t>(c.b)]);
}

bool Engine::in_lanes() const {
  if (opt_.order != SweepOrder::colour || opt_.vector_width == VectorWidth::one) return false;
  return (opt_.solver == BlockSolver::maxdiss && md::sphere_path(opt_.kernel)) ||
         opt_.solver == BlockSolver::coulomb_exact ||
         (opt_.solver == BlockSolver::coulomb_decoupling && opt_.decoupling_sweeps >= 1);
}

double Engine::largest_impulse() const {
  // the impulses of lanes_ and, after each colour's blocks, of its contacts relaxed one at a time
  const std::size_t colours = colour_start_.size() - 1;
  double largest = 0.0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt_.threads) reduction(max : largest)
  for (std::size_t col = 0; col < colours; ++col) {
    if (laned_) {
      for (std::uint32_t g = lanes_start_[col]; g < lanes_start_[col + 1]; ++g) {
        const ContactBlock& L = lanes_[g];
        for (std::uint32_t j = 0; j < 4; ++j)
          largest = std::max(largest, Vector3d(L.la0[j], L.la1[j], L.la2[j]).cwiseAbs().maxCoeff());
      }
    }
    const std::size_t packed =
        colour_start_[col] + (laned_ ? 4 * std::size_t{lanes_start_[col + 1] - lanes_start_[col]} : 0);
    for (std::size_t k = packed; k < colour_start_[col + 1]; ++k)
      largest = std::max(largest, contacts_[k].lambda.cwiseAbs().maxCoeff());
  }
  return largest;
}

template <int W, BlockSolver law>
void Engine::relax_lanes(int colour, long k0, long k1, bool registers32, double& delta) {
  // k0 - (the colour's first contact) is a multiple of four: the packed contacts W at a time, then
  // the rest one at a time (the order does not matter: they share no sphere)
  const auto col = static_cast<std::size_t>(colour);
  const long c0 = colour_start_[col], g0 = lanes_start_[col];
  const long packed_end = std::min(k1, c0 + 4 * (static_cast<long>(lanes_start_[col + 1]) - g0));
  // the decoupled Coulomb law: the lanes set aside wait for their golden sections, taken together
  // (golden_on_circles, the same bits as one at a time); their spheres are as they were, no other
  // contact of the colour touching them, so the impulse then found is the one-contact path's
  // (the other laws set none aside: room for the four circles their kernel is handed)
  constexpr int most = law == BlockSolver::coulomb_decoupling ? 256 : 4;
  FrictionCircle circle[most];
  struct Waiting {
    ContactBlock* lanes;
    int lane;
  } waiting[most];
  double best[most];
  int count = 0;
  const bool avx2 = W == 4;
  const auto ends = [this](const ContactBlock& L, double*(&A)[4], double*(&B)[4]) {
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
      ContactBlock& L = *waiting[j].lanes;
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
      ends(L, A, B);
      if constexpr (W == 4)
        apply_spheres_avx2(L, A, B, x, lanes, opt_.relaxation, delta);
      else
        apply_spheres_sse2(L, A, B, x, lanes, opt_.relaxation, delta);
    }
    count = 0;
  };
  long k = k0;
  if constexpr (law != BlockSolver::coulomb_decoupling) {
    static_assert(sizeof(Velocities) == 8 * sizeof(double));  // relax_blocks' stride, gather4's line
    ContactBlock* first = lanes_.data() + (g0 + (k0 - c0) / 4);
    const long blocks = std::max(0L, (packed_end - k0) / 4);
    double* vw = spheres.vw.empty() ? nullptr : spheres.vw[0].v.data();
    if constexpr (W == 4) {
      if (registers32)
        relax_blocks_avx512<law>(first, blocks, vw, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta);
      else
        relax_blocks_avx2<law>(first, blocks, vw, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta);
    } else
      relax_blocks_sse2<law>(first, blocks, vw, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta);
    k += 4 * blocks;
  }
  for (; k < packed_end; k += 4) {
    ContactBlock& L = lanes_[static_cast<std::size_t>(g0 + (k - c0) / 4)];
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
      aside =
          relax_spheres_avx2<law>(L, A, B, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta, circle + count);
    else
      aside =
          relax_spheres_sse2<law>(L, A, B, opt_.mu, opt_.kernel.bn_zero_eps, opt_.relaxation, delta, circle + count);
    if constexpr (law == BlockSolver::coulomb_decoupling) {
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
  if constexpr (law == BlockSolver::coulomb_decoupling)
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
  group_of_.resize(detected_ends_.size());
  for (std::size_t k = 0; k < detected_ends_.size(); ++k)
    group_of_[k] = (cell_of_[static_cast<std::size_t>(detected_ends_[k].a)] / stride_x - 1) / width;  // padded grid
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
  // A colour's contacts share no sphere, so the sweep may take several at once (opt_.vector_width): the
  // sphere-sphere contacts two or four to a vector register (relax_lanes), the decoupled Coulomb
  // law's golden sections eight or sixteen together (there and in relax_independent_decoupling),
  // in blocks long enough that its batches are mostly full (1024 contacts for that law, 64 else;
  // md_channel_bench --coulomb.solver=decoupling times it).
  const bool at_once = opt_.order == SweepOrder::colour && opt_.vector_width != VectorWidth::one;
  const bool avx2 = at_once && four_wide(opt_.vector_width);
  const bool registers32 = avx2 && avx512_registers(opt_.vector_width);
  const bool lanes = laned_;
  const auto relax_block = [&](int col, long b0, long b1, double& d) {
    if (lanes && opt_.solver == BlockSolver::maxdiss)
      return avx2 ? relax_lanes<4, BlockSolver::maxdiss>(col, b0, b1, registers32, d)
                  : relax_lanes<2, BlockSolver::maxdiss>(col, b0, b1, registers32, d);
    if (lanes && opt_.solver == BlockSolver::coulomb_exact)
      return avx2 ? relax_lanes<4, BlockSolver::coulomb_exact>(col, b0, b1, registers32, d)
                  : relax_lanes<2, BlockSolver::coulomb_exact>(col, b0, b1, registers32, d);
    if (lanes && opt_.solver == BlockSolver::coulomb_decoupling)
      return avx2 ? relax_lanes<4, BlockSolver::coulomb_decoupling>(col, b0, b1, registers32, d)
                  : relax_lanes<2, BlockSolver::coulomb_decoupling>(col, b0, b1, registers32, d);
    if (at_once && opt_.solver == BlockSolver::coulomb_decoupling) return relax_independent_decoupling(b0, b1, avx2, d);
    relax_range(b0, b1, d);
  };
  const long block =
      at_once && opt_.solver == BlockSolver::coulomb_decoupling ? 1024 : 64;  // contacts handed to a thread
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
  for (std::size_t i = 0; i < n; ++i) spheres.vw[i].v += dv_ext;
}

int Engine::order() {
  switch (opt_.order) {
    case SweepOrder::slabs:
      return slab();
    case SweepOrder::colour:
      return colour(1);
    case SweepOrder::detection:
      laned_ = false;
      place_contacts(nullptr);
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
    for (const Ends& c : detected_ends_) {
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
  double delta = 0.0;
  for (int s = 0; s < opt_.sweeps; ++s) {
    if (coupling_) {
      for (std::size_t k = 0; k < moved_.size(); ++k) {
        v0_[k] = spheres.vw[moved_[k]].v;
        w0_[k] = spheres.vw[moved_[k]].w;
      }
    }
    delta = sweep();
    if (coupling_) coupling_->after_sweep(spheres, moved_, v0_, w0_);  // weighted block Jacobi across subdomains
  }
  clock.lap(Phase::sweeps);
  solves_ += static_cast<double>(contacts_.size()) * opt_.sweeps;
  // the largest impulse component (max: in any order)
  const double largest = largest_impulse();
  st.delta = delta;
  st.largest = largest;
  st.residual = largest > 0.0 ? delta / largest : 0.0;
  clock.lap(Phase::residual);
}

void Engine::integrate(double t) {
  const std::size_t n = spheres.size();
  bool finite = true;
#pragma omp parallel for schedule(static) num_threads(opt_.threads) reduction(&& : finite)
  for (std::size_t i = 0; i < n; ++i) {
    spheres.x[i] += opt_.dt * spheres.vw[i].v;  // x' = x + dt v'
    finite = finite && spheres.vw[i].v.allFinite() && spheres.vw[i].w.allFinite();
  }
  if (!finite) throw cm::NumericalError("non-finite velocity at t = " + cm::format_real(t));
}

void Engine::migrate(StepStats& st) {
  if (!coupling_) return;
  coupling_->remove_ghosts_and_migrate(*this);
  coupling_->reduce(st);
}

}  // namespace md::granular

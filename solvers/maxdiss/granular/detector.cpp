// Detection (detector.hpp): the cell grid, the spheres packed in cell order, and the chunks of
// cells whose pairs and boundaries within reach become contacts.
//
// The geometry only detection calls is here too, beside its caller: the obstacle's signed
// distance (Obstacle::distance, bodies.hpp). The chunks' work (CellScan, below) is compiled twice,
// for SSE2 and for AVX2, as the sweep's blocks are: its candidates are tested two or four at a
// time, with the same result.
#include "maxdiss/granular/detector.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "core/errors.hpp"

namespace md::granular {

// ---------------------------------------------------------------------------------------------
// The geometry of a contact

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

// ---------------------------------------------------------------------------------------------
// The cell grid and the contacts

Detector::Detector(const EngineOptions& options, const Box& box, double max_radius) : box_(box) {
  // A cell no smaller than the largest contact distance 2 R_max + threshold: every contact pair
  // lies in neighbouring cells.
  cell_ = 2.0 * max_radius + std::max(options.threshold, 0.0);
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

double Detector::bytes() const {
  auto cap = [](const auto& a) { return static_cast<double>(a.capacity() * sizeof(a[0])); };
  double b = cap(cell_of_) + cap(cell_start_) + cap(order_) + cap(packed_x_) + cap(packed_y_) + cap(packed_z_) +
             cap(packed_R_) + cap(detected_ends_) + cap(chunk_start_) + cap(chunk_stats_);
  for (const auto& c : chunk_contacts_) b += cap(c);
  for (const auto& c : chunk_ends_) b += cap(c);
  return b;
}

void Detector::build_cells(Spheres& spheres, const EngineOptions& opt, bool sort) {
  const std::size_t n = spheres.size();
  const long cells = static_cast<long>(nx_ + 2) * (ny_ + 2) * (nz_ + 2);
  const Vector3d extent = box_.hi - box_.lo;
  const double sx = nx_ / extent(0), sy = ny_ / extent(1), sz = nz_ / extent(2);
  // floor, then clamped into the grid, is the clamp into [0, n - 1] truncated: the same cell for
  // every finite position, without SSE2's dozen instructions for a floor (or an int out of range)
  const double top_x = nx_ - 1, top_y = ny_ - 1, top_z = nz_ - 1;
  auto index = [&](const Vector3d& p) {
    const int ix = static_cast<int>(std::clamp((p(0) - box_.lo(0)) * sx, 0.0, top_x));
    const int iy = static_cast<int>(std::clamp((p(1) - box_.lo(1)) * sy, 0.0, top_y));
    const int iz = static_cast<int>(std::clamp((p(2) - box_.lo(2)) * sz, 0.0, top_z));
    // x slowest, z fastest: the flow runs along x, so the spheres a sweep touches together (a slab
    // of cells across the channel) lie close in memory
    return static_cast<std::uint32_t>((static_cast<long>(ix + 1) * (ny_ + 2) + iy + 1) * (nz_ + 2) + iz + 1);
  };
  for (int pass = 0; pass < 2; ++pass) {
    // each sphere's cell, by any thread (a non-finite position is named after the loop: the first)
    cell_of_.resize(n);
    bool finite = true;
#pragma omp parallel for schedule(static) num_threads(opt.threads) reduction(&& : finite)
    for (std::size_t i = 0; i < n; ++i) {
      const Vector3d& p = spheres.x[i];
      const bool here = p.allFinite();
      finite = finite && here;
      cell_of_[i] = here ? index(p) : 0;
    }
    if (!finite) {
      for (std::size_t i = 0; i < n; ++i)
        if (!spheres.x[i].allFinite())
          throw cm::NumericalError("sphere " + std::to_string(spheres.id[i]) + " has a non-finite position");
    }
    // counting sort by cell (stable: spheres of a cell keep their order), on one thread
    cell_start_.assign(static_cast<std::size_t>(cells) + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++cell_start_[cell_of_[i] + 1];
    for (long c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
    order_.resize(n);
    std::vector<std::uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) order_[fill[cell_of_[i]]++] = static_cast<std::uint32_t>(i);
    // Every reorder_every steps the arrays themselves are put in cell order (memory locality).
    if (pass == 0 && sort) {
      spheres.permute(order_);
      continue;
    }
    break;
  }
  // positions and radii in cell order, packed a field to an array: the broad phase reads them in
  // runs, several at once (CellScan::within8 reads eight places from a range's first, and a range
  // may begin just past the last sphere)
  for (auto* a : {&packed_x_, &packed_y_, &packed_z_, &packed_R_}) {
    a->resize(n + 8);
    std::fill(a->begin() + static_cast<std::ptrdiff_t>(n), a->end(), 0.0);
  }
#pragma omp parallel for schedule(static) num_threads(opt.threads)
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t i = order_[s];
    packed_x_[s] = spheres.x[i](0), packed_y_[s] = spheres.x[i](1), packed_z_[s] = spheres.x[i](2);
    packed_R_[s] = spheres.R[i];
  }
}

namespace {

/// W doubles in one vector register (GCC's vector extension), and a lane mask of W.
template <int W>
struct CandidateVector;
template <>
struct CandidateVector<2> {
  typedef double type __attribute__((vector_size(16)));
  typedef long long mask __attribute__((vector_size(16)));
};
template <>
struct CandidateVector<4> {
  typedef double type __attribute__((vector_size(32)));
  typedef long long mask __attribute__((vector_size(32)));
};

/// What the chunks of Detector::detect read, and the contacts they make: of a sphere with the
/// boundaries, and of two spheres. Its members are inlined into cells_sse2 and cells_avx2 below,
/// so that each compiles them for its own instruction set (no multiply-add is contracted in
/// either: the same bits).
struct CellScan {
  const Spheres& S;
  const std::vector<Plane>& planes;
  const std::vector<Obstacle>& obstacles;
  const EngineOptions& opt;
  std::size_t owned;
  const ContactPointRule* rule;
  double dt_inv, threshold;
  const std::uint32_t* cell_start;
  const std::uint32_t* order;
  const double *x, *y, *z, *R;  // the spheres in cell order, packed, a field to an array
  long runs[4];                 // the centre cell of each run of three forward neighbours

  [[gnu::always_inline]] void finish(Contact& c) const {
    c.gap_rate = c.xi < 0.0 ? opt.erp * c.xi * dt_inv : c.xi * dt_inv;  // eps min(0, xi/dt) + max(0, xi/dt)
    c.lambda.setZero();
  }

  [[gnu::always_inline]] void add_boundary(std::uint32_t i, int k, const Vector3d& n, double xi, double mu,
                                           std::vector<Contact>& out) const {
    Contact c;
    c.a = static_cast<std::int32_t>(i);
    c.b = -k - 1;
    c.n = n;
    c.xi = xi;
    c.l1 = S.R[i] + xi;  // x_hat = x - (R + xi) n, on the boundary's surface
    c.l2 = 0.0;
    c.mu = mu;
    finish(c);
    out.push_back(c);
  }

  [[gnu::always_inline]] void boundary_contacts(std::uint32_t i, std::vector<Contact>& out) const {
    if (i >= owned) return;  // a ghost's boundary contacts are its owner's
    const Vector3d& p = S.x[i];
    const double Ri = S.R[i];
    const int nplanes = static_cast<int>(planes.size());
    for (int k = 0; k < nplanes; ++k) {
      const Plane& pl = planes[static_cast<std::size_t>(k)];
      const double xi = pl.n.dot(p) - pl.offset - Ri;
      if (xi < threshold) add_boundary(i, k, pl.n, xi, pl.mu, out);
    }
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
      const Obstacle& ob = obstacles[k];
      const double reach = Ri + threshold;  // outside the bounding box by more: no contact
      if (p(0) < ob.cx - ob.radius - reach || p(0) > ob.cx + ob.box_length + reach ||
          std::fabs(p(1) - ob.cy) > ob.radius + reach)
        continue;
      Vector3d n;
      const double xi = ob.distance(p, n) - Ri;
      if (xi < threshold) add_boundary(i, nplanes + static_cast<int>(k), n, xi, ob.mu, out);
    }
  }

  [[gnu::always_inline]] void pair(std::uint32_t i, std::uint32_t j, std::vector<Contact>& out) const {
    const bool ghost = i >= owned || j >= owned;
    if (ghost && !rule) {
      // the subdomain owning the sphere of smaller id relaxes the contact; two ghosts: none
      if (i >= owned && j >= owned) return;
      const bool i_owned = i < owned;
      if ((i_owned ? S.id[i] : S.id[j]) > (i_owned ? S.id[j] : S.id[i])) return;
    } else if (ghost && i >= owned && j >= owned && rule->ghost_owner[i - owned] == rule->ghost_owner[j - owned]) {
      return;  // pe: two ghosts of one owner are that owner's
    }
    const Vector3d d = S.x[i] - S.x[j];
    const double r2 = d.squaredNorm(), reach = S.R[i] + S.R[j] + threshold;
    if (r2 >= reach * reach) return;
    const double dist = std::sqrt(r2);
    Contact c;
    c.a = static_cast<std::int32_t>(i);
    c.b = static_cast<std::int32_t>(j);
    c.n = dist > 0.0 ? Vector3d(d / dist) : Vector3d::UnitZ();
    c.xi = dist - S.R[i] - S.R[j];
    if (opt.contact_point == ContactPoint::midpoint) {
      c.l1 = S.R[i] + 0.5 * c.xi;  // x_hat = x_2 + (R_2 + xi/2) n (pe)
      c.l2 = S.R[j] + 0.5 * c.xi;
    } else {
      c.l1 = S.R[i] + c.xi;  // x_hat = x_2 + R_2 n (the paper)
      c.l2 = S.R[j];
    }
    c.mu = opt.mu;  // one coefficient between spheres: the blocks read EngineOptions::mu, not this
    if (ghost && rule && !rule->holds(S.x[j] + c.l2 * c.n)) return;  // pe: where its contact point lies
    finish(c);
    out.push_back(c);
  }

  /// Of the spheres at packed places s0 .. s1 - 1, the first eight at most, those within reach
  /// of the sphere at packed place s: bit k for place s0 + k. Two vector registers of four (four
  /// of two), whatever the count: |p - q|^2 < (R_p + R_q + threshold)^2 with the operations of
  /// a Vector3d's squaredNorm, as pair() tests it.
  template <int W>
  [[gnu::always_inline]] unsigned within8(std::uint32_t s, std::uint32_t s0, std::uint32_t s1) const {
    using vw = typename CandidateVector<W>::type;
    using mask = typename CandidateVector<W>::mask;
    const vw px = vw{} + x[s], py = vw{} + y[s], pz = vw{} + z[s], pr = vw{} + R[s], thr = vw{} + threshold;
    // each lane's bit (a true lane is all ones) or-ed into one register, then over the lanes
    mask place{}, bits{};
    for (int k = 0; k < W; ++k) place[k] = 1LL << k;
    for (int base = 0; base < 8; base += W) {
      vw qx, qy, qz, qr;  // the packed arrays have eight places after the last sphere
      std::memcpy(&qx, x + s0 + base, sizeof qx);
      std::memcpy(&qy, y + s0 + base, sizeof qy);
      std::memcpy(&qz, z + s0 + base, sizeof qz);
      std::memcpy(&qr, R + s0 + base, sizeof qr);
      const vw dx = px - qx, dy = py - qy, dz = pz - qz;
      const vw reach = pr + qr + thr;
      const auto within = dx * dx + dy * dy + dz * dz < reach * reach;
      bits |= reinterpret_cast<mask>(within) & (place << base);
    }
    if constexpr (W == 4) {
      bits |= __builtin_shufflevector(bits, bits, 2, 3, 0, 1);
      bits |= __builtin_shufflevector(bits, bits, 1, 0, 3, 2);
    } else {
      bits |= __builtin_shufflevector(bits, bits, 1, 0);
    }
    return static_cast<unsigned>(bits[0]) & ((1u << std::min<std::uint32_t>(s1 - s0, 8)) - 1u);
  }

  /// The contacts of the spheres in cells c0 .. c1 - 1 (padded grid: ghost cells are empty), in
  /// order: per sphere, its boundaries, then its candidates in five ranges of packed places (the
  /// rest of its cell and the next cell along z, then the four runs of three forward
  /// neighbours), each in order. The candidates of all five are tested first, eight places a
  /// range, and only those within reach are visited: a test and a loop per range were branches
  /// the processor mispredicted some eight times a sphere (callgrind's branch simulation). A
  /// sphere with a range of more than eight takes the ranges one candidate at a time.
  template <int W>
  [[gnu::always_inline]] void cells(long c0, long c1, std::vector<Contact>& out) const {
    for (long c = c0; c < c1; ++c) {
      const std::uint32_t end = cell_start[c + 1];
      for (std::uint32_t s = cell_start[c]; s < end; ++s) {
        const std::uint32_t i = order[s];
        boundary_contacts(i, out);
        const std::uint32_t first[5] = {s + 1, cell_start[c + runs[0] - 1], cell_start[c + runs[1] - 1],
                                        cell_start[c + runs[2] - 1], cell_start[c + runs[3] - 1]};
        const std::uint32_t last[5] = {cell_start[c + 2], cell_start[c + runs[0] + 2], cell_start[c + runs[1] + 2],
                                       cell_start[c + runs[2] + 2], cell_start[c + runs[3] + 2]};
        bool long_range = false;
        for (int r = 0; r < 5; ++r) long_range |= last[r] - first[r] > 8;
        if (long_range) [[unlikely]] {
          for (int r = 0; r < 5; ++r)
            for (std::uint32_t s2 = first[r]; s2 < last[r]; ++s2)
              if (within8<W>(s, s2, s2 + 1)) pair(i, order[s2], out);
          continue;
        }
        std::uint64_t bits = 0;  // range r's bits from bit 8 r on
        for (int r = 0; r < 5; ++r) bits |= std::uint64_t{within8<W>(s, first[r], last[r])} << (8 * r);
        for (; bits != 0; bits &= bits - 1) {
          const int b = std::countr_zero(bits);
          pair(i, order[first[b / 8] + static_cast<std::uint32_t>(b % 8)], out);
        }
      }
    }
  }
};

// CellScan::cells for SSE2 (every x86-64) and AVX2.
void cells_sse2(const CellScan& d, long c0, long c1, std::vector<Contact>& out) { d.cells<2>(c0, c1, out); }

__attribute__((target("avx2"))) void cells_avx2(const CellScan& d, long c0, long c1, std::vector<Contact>& out) {
  d.cells<4>(c0, c1, out);
}

}  // namespace

StepStats Detector::detect(const DetectionBodies& bodies, const EngineOptions& opt) {
  const long cells = static_cast<long>(nx_ + 2) * (ny_ + 2) * (nz_ + 2);
  const long chunks = static_cast<long>(chunk_contacts_.size());
  // The 13 forward neighbours of a cell (those of larger index) in the padded grid (no bounds to
  // check): the next cell along z, and four runs of three cells consecutive along z, (dx, dy) =
  // (0, 1), (1, -1), (1, 0), (1, 1). With the cell itself they are five contiguous ranges of the
  // cell-ordered spheres, scanned in the order of increasing offset.
  const long sy = nz_ + 2, sx = static_cast<long>(ny_ + 2) * (nz_ + 2);
  const CellScan scan{.S = bodies.spheres,
                      .planes = bodies.planes,
                      .obstacles = bodies.obstacles,
                      .opt = opt,
                      .owned = bodies.owned,
                      .rule = bodies.rule,
                      .dt_inv = 1.0 / opt.dt,
                      .threshold = opt.threshold,
                      .cell_start = cell_start_.data(),
                      .order = order_.data(),
                      .x = packed_x_.data(),
                      .y = packed_y_.data(),
                      .z = packed_z_.data(),
                      .R = packed_R_.data(),
                      .runs = {sy, sx - sy, sx, sx + sy}};
  // the candidates four at a time where the sweep's vector width is AVX2's, else two (never a
  // change to the data)
  const bool avx2 = four_wide(opt.vector_width);

  // each chunk's statistics and the spheres of its contacts while its contacts are in cache (a
  // maximum and a count: the same whatever the grouping)
  chunk_stats_.assign(static_cast<std::size_t>(chunks), StepStats{});
#pragma omp parallel for schedule(dynamic, 4) num_threads(opt.threads)
  for (long k = 0; k < chunks; ++k) {
    auto& out = chunk_contacts_[static_cast<std::size_t>(k)];
    out.clear();
    const long c0 = k * cells / chunks, c1 = (k + 1) * cells / chunks;
    avx2 ? cells_avx2(scan, c0, c1, out) : cells_sse2(scan, c0, c1, out);
    StepStats& cs = chunk_stats_[static_cast<std::size_t>(k)];
    auto& ends = chunk_ends_[static_cast<std::size_t>(k)];
    ends.resize(out.size());
    cs.contacts = static_cast<long>(out.size());
    for (std::size_t j = 0; j < out.size(); ++j) {
      const Contact& c = out[j];
      ends[j] = {c.a, c.b};
      cs.max_penetration = std::max(cs.max_penetration, -c.xi);
      if (c.b >= 0) {  // between two spheres (b < 0: a boundary)
        ++cs.sphere_contacts;
        cs.max_sphere_penetration = std::max(cs.max_sphere_penetration, -c.xi);
      }
    }
  }
  // the chunks one after the other (each copied by any thread to its place), and the spheres of
  // each contact apart (the order's greedy colouring reads 8 bytes of a contact instead of 96, and this
  // copy reads the chunks' ends, not their contacts, which have left the cache)
  StepStats st;
  chunk_start_.resize(static_cast<std::size_t>(chunks) + 1);
  chunk_start_[0] = 0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(chunks); ++k) {
    const StepStats& cs = chunk_stats_[k];
    chunk_start_[k + 1] = chunk_start_[k] + static_cast<std::size_t>(cs.contacts);
    st.contacts += cs.contacts;
    st.sphere_contacts += cs.sphere_contacts;
    st.max_penetration = std::max(st.max_penetration, cs.max_penetration);
    st.max_sphere_penetration = std::max(st.max_sphere_penetration, cs.max_sphere_penetration);
  }
  detected_ends_.resize(chunk_start_.back());
#pragma omp parallel for schedule(dynamic, 16) num_threads(opt.threads)
  for (long k = 0; k < chunks; ++k) {
    const auto& ends = chunk_ends_[static_cast<std::size_t>(k)];
    std::copy(ends.begin(), ends.end(),
              detected_ends_.begin() + static_cast<std::ptrdiff_t>(chunk_start_[static_cast<std::size_t>(k)]));
  }
  return st;
}

}  // namespace md::granular

// A multi-contact hard-contact engine for spheres (Sect. 3.1 and Sect. 4.3 of the paper): the
// impulse-velocity time stepper of Sect. 3.1 with every contact purely inelastic and frictional,
// the discrete contact law of Eq. (5) per contact, and a non-linear block Gauss-Seidel (NBGS) over
// the contacts whose block solver is the single-contact solver of single_contact.hpp.
//
// One step (primed quantities at t + dt), Engine::step() phase by phase:
//   add_ghosts()      coupled: the neighbours' spheres within contact reach join as ghosts
//   detect_contacts() every pair of spheres and every sphere and boundary with gap xi < threshold
//                     at t (a cell grid of cells no smaller than the largest contact distance: the
//                     broad phase)
//   apply_gravity()   v' = v + dt g (the external impulse; spheres have no gyroscopic term)
//   order()           the contacts in the sweep's order (below)
//   relax()           sweeps of NBGS: per contact j, b_j = -Q_c^T dv_j^free - (xi_eff_j / dt) e_n
//                     with the error-reduced gap xi_eff / dt = eps min(0, xi / dt) + max(0, xi / dt)
//                     (spec 001, 2.8), the block solved by the per-contact law, the change of
//                     impulse applied to both bodies at once
//   integrate()       x' = x + dt v' (positions implicitly, velocities explicitly)
//   migrate()         coupled: the ghosts leave, spheres that left the subdomain move to its neighbour
//
// Sphere contacts only: every lever arm lies along the normal, so each Delassus block is
// diag(A_nn, A_tt, A_tt) in any contact frame [n t o] (spec 001, 2.6 and 6.4):
//   A_nn = 1/m_1 + 1/m_2,   A_tt = A_nn + l_1^2 / I_1 + l_2^2 / I_2   (eq. (2) with r_i = -/+ l_i n)
//
// Order and threads: the default sweep visits contacts colour by colour (a greedy colouring in
// detection order, so that no two contacts of one colour share a sphere); the contacts of a colour
// are independent, so they may be relaxed by any number of threads with the same result. The
// alternative `slabs` cuts the grid into slabs of `slab_columns` columns of cells across the
// channel: detection lists the contacts in the order of the cell of their sphere a, whose partner
// lies in the same column or the next, so the contacts of one slab touch its own columns and the
// first column of the next slab only; the even slabs, then the odd ones, are relaxed (each colour
// by colour), slabs of one parity by any thread. This is the shape of a split into subdomains;
// whether it pays on a machine is measured, not written here (md_channel_bench with
// --nbgs.order=slabs against the default). Plain detection order runs on one thread.
// Detection works in fixed chunks of cells concatenated in order. The data therefore depend on the
// keys and never on the thread count.
//
// Lanes: colour by colour, the sweep also takes several contacts at once in vector registers
// (EngineOptions::lanes): the sphere-sphere contacts four to an AVX2 register (two to an SSE2 one
// where the processor has no AVX2), under either law, and the decoupled Coulomb law's golden
// sections sixteen (eight) together, a contact that needs one waiting for them. Where the processor
// has AVX-512VL, the sphere-sphere blocks are compiled with its 32 vector registers (the same AVX2
// operations, fewer values spilled to the stack). Each lane does the operations of the one-contact
// path in the same order, and no multiply-add is contracted, so the data are the same bits either
// way.
//
// Layout: spheres as a structure of arrays (positions; velocity, angular velocity, inverse mass
// and inverse inertia together, a cache line a sphere, whose velocities the sweeps change in
// place; radii), contacts as index pairs with their normal (the frame is formed from it),
// boundaries of infinite mass by index. The sweep is bound by memory: what it can form from what
// it reads anyway is not stored a second time.
//
// Subdomains: an engine may hold one subdomain of a split over ranks (a Coupling, implemented
// with MPI in decomposition.hpp). The neighbours' spheres within contact reach are then appended
// to the arrays as ghosts for the step; a contact between an owned sphere and a ghost is relaxed
// by the subdomain owning the sphere of smaller id (the other one skips it), a contact of two
// ghosts by none, and after every sweep the coupling blends the velocity changes across
// subdomains (pe's weighted block Jacobi) before the ghosts take their owners' velocities again.
//
// Files (solvers/maxdiss/granular/): this header holds the contacts, a step's statistics and
// phases, the Coupling seam and the Engine; bodies.hpp the spheres and boundaries; options.hpp the
// engine's options; laws.hpp the per-contact laws. detection.cpp detects the contacts, engine.cpp
// runs the step and its sweeps, with the vector lanes of lanes.hpp (internal to engine.cpp).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "maxdiss/granular/bodies.hpp"
#include "maxdiss/granular/laws.hpp"
#include "maxdiss/granular/options.hpp"

namespace md::granular {

/// The tangent of pe's contact frame [n t o]: t = n x e_k normalised, e_k the axis of the smallest
/// |n_k|, and o = n x t. e_k is chosen without a branch (which axis it is changes from contact to
/// contact, and a mispredicted branch costs more than the selection); e and the arithmetic on it
/// are those of an if-else chain, bit for bit. A contact stores n alone: the sweep forms t from it
/// (lanes.hpp does the same operations in vector lanes).
[[gnu::always_inline]] inline Vector3d contact_tangent(const Vector3d& n) {
  const Vector3d a = n.cwiseAbs();
  const bool x = (a(0) <= a(1)) & (a(0) <= a(2)), y = !x & (a(1) <= a(2)), z = !x & !y;
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
/// instead of gathering it lane by lane, its costliest part. Written by detection's placement of
/// the contacts (colour order), the impulses staying in them. What a sweep can form from what it
/// reads anyway is not stored: the tangent t = contact_tangent(n) is formed from n, the spheres'
/// 1/m and 1/I come with their velocities (Velocities) and make the block as Delassus does, and
/// mu is the engine's one friction coefficient between spheres (EngineOptions::mu). The sweep
/// streams the blocks ten times a step, so every byte left out is one it does not read (320 bytes
/// a block instead of 576).
struct alignas(64) ContactBlock {
  double n0[4], n1[4], n2[4], l1[4], l2[4], gap[4];
  double la0[4], la1[4], la2[4];
  std::int32_t a[4], b[4];

  /// Puts contact c in lane j.
  void store(int j, const Contact& c) {
    n0[j] = c.n(0), n1[j] = c.n(1), n2[j] = c.n(2);
    l1[j] = c.l1, l2[j] = c.l2, gap[j] = c.gap_rate;
    la0[j] = c.lambda(0), la1[j] = c.lambda(1), la2[j] = c.lambda(2);
    a[j] = c.a, b[j] = c.b;
  }
};

/// What one step did.
struct StepStats {
  long contacts = 0;
  long sphere_contacts = 0;             ///< the contacts between two spheres (boundaries apart)
  double max_penetration = 0.0;         ///< max(-xi) over the contacts detected (0 if none penetrates)
  double max_sphere_penetration = 0.0;  ///< the same over the contacts between two spheres
  double residual = 0.0;                ///< last sweep: max |change of impulse| / max |impulse|
  int colours = 0;                      ///< colours of the greedy colouring (detection order: 1)
  double delta = 0.0, largest = 0.0;    ///< the residual's parts (reduced over subdomains, then divided)
};

class Engine;

/// The phases of a step (Engine::step), for the time each takes.
enum class Phase : std::uint8_t {
  ghosts,     ///< coupled: the neighbours' spheres joining before the step, leaving after it
  detect,     ///< the cell grid and the contacts at t
  order,      ///< gravity, and the contacts put in the sweep's order (colouring), into lanes
  sweeps,     ///< the NBGS sweeps (on the spheres' velocities in place, Spheres::vw)
  residual,   ///< the residual of the last sweep
  integrate,  ///< x' = x + dt v'
};
inline constexpr int phase_count = 6;
/// The phases' names, in the order of Phase.
inline constexpr const char* phase_names[phase_count] = {"ghosts", "detect",   "order",
                                                         "sweeps", "residual", "integrate"};

/// Sums the wall time of consecutive phases into `seconds` (indexed by Phase).
class PhaseClock {
 public:
  explicit PhaseClock(std::array<double, phase_count>& seconds)
      : seconds_(seconds), last_(std::chrono::steady_clock::now()) {}
  /// The time since the last lap (or the start) goes to `phase`.
  void lap(Phase phase) {
    const auto now = std::chrono::steady_clock::now();
    seconds_[static_cast<std::size_t>(phase)] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::array<double, phase_count>& seconds_;
  std::chrono::steady_clock::time_point last_;
};

/// What a split of the spheres over subdomains adds to a step (decomposition.hpp implements it
/// with MPI). Without one, an engine is the whole domain.
class Coupling {
 public:
  virtual ~Coupling() = default;
  /// Before detection: copies of the neighbours' spheres within contact reach are appended to
  /// the engine's spheres as ghosts (Engine::set_ghosts_from).
  virtual void add_ghosts(Engine& engine) = 0;
  /// After a sweep: the velocity changes of the owned spheres and of the ghosts are blended
  /// across subdomains, and the ghosts take their owners' new velocities. `moved` lists the owned
  /// spheres of the step's contacts in index order, then every ghost (the sweep changes no other
  /// sphere); v0, w0 hold their velocities at the start of the sweep, in that order.
  virtual void after_sweep(Spheres& spheres, const std::vector<std::uint32_t>& moved, const std::vector<Vector3d>& v0,
                           const std::vector<Vector3d>& w0) = 0;
  /// After the step: the ghosts are dropped and the spheres that left the subdomain move to
  /// their new owners.
  virtual void remove_ghosts_and_migrate(Engine& engine) = 0;
  /// The statistics of a step over all subdomains (sums, maxima; the residual recomputed).
  virtual void reduce(StepStats& st) = 0;
  /// Whether this subdomain owns a sphere centred at x.
  virtual bool owns(const Vector3d& x) const = 0;
  /// The box of this subdomain's cell grid: its own, widened by the ghosts' reach.
  virtual Box box() const = 0;
  /// Sums each of `values` over the subdomains, in place.
  virtual void sum(std::vector<double>& values) = 0;
  /// Every subdomain's spheres, subdomain by subdomain, on every subdomain (for the diagnostics of
  /// a frame).
  virtual Spheres gather(const Spheres& owned) = 0;
  /// What the split costs, averaged over the ranks (ranks, neighbours, ghosts, bytes sent).
  virtual std::map<std::string, double> statistics() = 0;
};

class Engine {
 public:
  Engine(const EngineOptions& options, const Box& box, double max_radius);

  Spheres spheres;
  std::vector<Plane> planes;
  std::vector<Obstacle> obstacles;

  /// One step of the scheme above; t is only for messages. Throws cm::NumericalError on a
  /// non-finite state.
  StepStats step(double t);
  /// Wall seconds spent in each phase of the steps so far (indexed by Phase).
  const std::array<double, phase_count>& phase_seconds() const { return phase_seconds_; }
  /// The threads' meetings in the sweeps so far (a parallel colour or slab parity, each ending in
  /// a barrier; none on one thread).
  long sweep_barriers() const { return sweep_barriers_; }
  /// The contacts at the current positions, over all subdomains when coupled (public for
  /// diagnostics and tests; step() detects by itself).
  StepStats detect();
  /// Couples this engine, one subdomain, to the others (nullptr: the whole domain).
  void set_coupling(Coupling* coupling) { coupling_ = coupling; }
  /// Spheres from index `first` on are ghosts; size() or more: none.
  void set_ghosts_from(std::size_t first) { owned_ = first; }
  /// The spheres this engine owns (those before the ghosts).
  std::size_t owned() const { return std::min(owned_, spheres.size()); }
  /// Puts the spheres in the order of their cells (done every reorder_every steps).
  void sort_by_cell();
  /// The contacts of the last detection, as many as it found; after step() in lanes, those a
  /// colour's blocks held are left as they were (their values are in the blocks), so read them
  /// after detect().
  const std::vector<Contact>& contacts() const { return contacts_; }
  const EngineOptions& options() const { return opt_; }
  /// Replaces the options (a benchmark times one state under several laws and thread counts).
  void set_options(const EngineOptions& options);
  /// Velocity of boundary k (b = -k - 1).
  Vector3d boundary_velocity(int k) const;
  /// Steps done so far.
  long steps() const { return steps_; }
  /// Sets the steps done (a restart from a saved state: the sort by cell keeps its schedule).
  void set_steps(long steps) { steps_ = steps; }
  /// Contact solves done so far (contacts x sweeps).
  double solves() const { return solves_; }
  /// Bytes held by the engine's arrays (spheres, cells, contacts), for the memory figure.
  double bytes() const;

 private:
  // the phases of step()
  void add_ghosts();                             // coupled: sorted by cell (on schedule), then the ghosts appended
  void apply_gravity();                          // v' = v + dt g
  int order();                                   // the sweep's order (colours, slabs or detection); returns the colours
  void relax(StepStats& st, PhaseClock& clock);  // the sweeps, on the spheres' velocities in place;
                                                 // the residual into st
  void integrate(double t);                      // x' = x + dt v'; throws on a non-finite velocity
  void migrate(StepStats& st);                   // coupled: the ghosts dropped, migrants sent, statistics reduced
  void build_cells(bool may_sort);
  StepStats detect_contacts();
  /// Puts the contacts the chunks hold into contacts_, contact k of detection order at place[k]
  /// (nullptr: at k).
  void place_contacts(const std::vector<std::uint32_t>* place);
  int colour(std::uint32_t groups);  // returns the colours used
  int slab();
  double sweep();  // returns max |change of impulse|
  /// The spheres of the contact so many ahead are fetched while one is relaxed (their addresses
  /// are known in advance).
  static constexpr long prefetch_ahead = 8;
  void prefetch(const Contact& c) const;
  /// Relaxes contact c with the block solution solve(A_nn, A_tt, b) (a Vector3d), or, when solve
  /// returns a std::optional, leaves the contact as it is if that is empty (a contact set aside).
  template <class Solve>
  void relax_with(Contact& c, double& delta, Solve&& solve);
  void relax_contact(Contact& c, double& delta);
  void relax_independent_decoupling(long k0, long k1, bool avx2, double& delta);  // contacts sharing no sphere
  void relax_range(long k0, long k1, double& delta);                              // contacts k0..k1-1 in order
  /// Colour order, the maximum-dissipation law or the decoupled Coulomb law, lanes: a colour's
  /// sphere-sphere contacts relaxed W at a time from lanes_.
  bool in_lanes() const;
  template <int W, BlockSolver law>
  /// registers32: W = 4 in AVX-512VL's 32 registers (avx512_registers(), decided once a sweep).
  void relax_lanes(int colour, long k0, long k1, bool registers32, double& delta);  // contacts k0..k1-1 of the colour
  /// The largest |component| of the step's impulses, in lanes_ and contacts_.
  double largest_impulse() const;

  EngineOptions opt_;
  Box box_;
  double cell_ = 0.0;
  int nx_ = 1, ny_ = 1, nz_ = 1;
  std::vector<std::uint32_t> cell_of_, cell_start_, order_;
  std::vector<double> packed_x_, packed_y_, packed_z_, packed_R_;  // the spheres' x and R in cell order
  struct Ends {
    std::int32_t a, b;
  };
  std::vector<std::vector<Contact>> chunk_contacts_;
  std::vector<std::vector<Ends>> chunk_ends_;  // the spheres of each chunk's contacts
  std::vector<StepStats> chunk_stats_;         // each chunk's count and deepest penetration
  std::vector<std::size_t> chunk_start_;       // where each chunk's contacts begin in contacts_
  std::vector<Contact> contacts_;
  std::vector<Ends> detected_ends_;          // the spheres of each contact, in detection order
  std::vector<std::uint32_t> place_;         // colour(): the place of each contact in the sorted order
  std::vector<std::uint32_t> colour_start_;  // colour: contacts of colour k; slabs: of slab k
  std::vector<std::uint64_t> used_colours_;
  std::vector<std::uint32_t> colour_of_, group_of_;
  std::vector<std::uint32_t> chunk_keys_;  // colour(): each chunk's count of each key, then where they go
  bool laned_ = false;  // order(): the colours' sphere-sphere contacts are in lanes_ (four at a time)
  std::vector<ContactBlock> lanes_;
  std::vector<std::uint32_t> lanes_start_;  // colour k: its blocks are lanes_[lanes_start_[k] .. lanes_start_[k + 1])
  long steps_ = 0;
  double solves_ = 0.0;
  std::array<double, phase_count> phase_seconds_{};
  long sweep_barriers_ = 0;
  Coupling* coupling_ = nullptr;
  std::size_t owned_ = static_cast<std::size_t>(-1);  // index of the first ghost
  std::vector<char> in_contact_;                      // coupled: the owned spheres of the step's contacts
  std::vector<std::uint32_t> moved_;                  // coupled: the spheres a sweep may change
  std::vector<Vector3d> v0_, w0_;                     // ... and their velocities at its start
};

}  // namespace md::granular

// A multi-contact hard-contact engine for spheres (Sect. 3.1 and Sect. 4.3 of the paper): the
// impulse-velocity time stepper of Sect. 3.1 with every contact purely inelastic and frictional,
// the discrete contact law of Eq. (5) per contact, and a non-linear block Gauss-Seidel (NBGS) over
// the contacts whose block solver is the single-contact solver of single_contact.hpp.
//
// One step (primed quantities at t + dt), Engine::step() phase by phase:
//   add_ghosts()   coupled: the neighbours' spheres within contact reach join as ghosts
//   detect         every pair of spheres and every sphere and boundary with gap xi < threshold
//                  at t (Detector, detector.hpp)
//   gravity        v' = v + dt g (the external impulse; spheres have no gyroscopic term)
//   order          the contacts in the sweep's order, colours or slabs (ContactOrder,
//                  contact_order.hpp)
//   relax()        sweeps of NBGS on the velocities in place (Sweep, sweep.hpp), each contact's
//                  block solved by its law (block_laws.hpp); coupled, the subdomains blend their
//                  velocity changes after every sweep; then the residual
//   integrate()    x' = x + dt v' (positions implicitly, velocities explicitly)
//   migrate()      coupled: the ghosts leave, spheres that left the subdomain move to its neighbour
// The data depend on the keys and never on the thread count or the vector width.
//
// Subdomains: an engine may hold one subdomain of a split over ranks (a Coupling, implemented
// in channel/decomposition.hpp). The neighbours' spheres within contact reach are then appended
// to the arrays as ghosts for the step. A contact between an owned sphere and a ghost is relaxed
// by one subdomain: the one owning the sphere of smaller id, or the one holding its contact point
// (pe's rule, Coupling::ghost_rule()). After every sweep the coupling blends the velocity changes across subdomains
// (pe's weighted block Jacobi) before the ghosts take their owners' velocities again.
//
// Files (solvers/maxdiss/granular/): bodies.hpp the spheres and boundaries, contacts.hpp the
// contacts and their blocks, phases.hpp a step's statistics and phases, options.hpp the options,
// laws.hpp and law_*.hpp the per-contact laws, subdomain_grid.hpp a grid of subdomains and
// pe_count.hpp pe's count of the contacts on it; this header the Coupling seam and the Engine.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "maxdiss/granular/bodies.hpp"
#include "maxdiss/granular/contact_order.hpp"
#include "maxdiss/granular/contacts.hpp"
#include "maxdiss/granular/detector.hpp"
#include "maxdiss/granular/laws.hpp"
#include "maxdiss/granular/options.hpp"
#include "maxdiss/granular/phases.hpp"

namespace md::granular {

class Engine;

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
  /// Every subdomain's spheres, subdomain by subdomain, on the first subdomain; none on the others
  /// (for the diagnostics of a frame).
  virtual Spheres gather(const Spheres& owned) = 0;
  /// Whether this is the first subdomain, the one that gathers and writes.
  virtual bool first() const = 0;
  /// pe's rule for the contacts with ghosts (detector.hpp), or none: the subdomain owning the sphere
  /// of smaller id relaxes a contact of an owned sphere and a ghost, and none one of two ghosts.
  virtual const ContactPointRule* ghost_rule() const = 0;
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
  /// Whether the detections from now on count pe's contacts (EngineOptions::pe_blocks; on by
  /// default): a run that reads the count at its samples alone spares the other steps the pass.
  void set_pe_count(bool on) { count_pe_ = on; }
  /// Couples this engine, one subdomain, to the others (nullptr: the whole domain).
  void set_coupling(Coupling* coupling) { coupling_ = coupling; }
  /// Spheres from index `first` on are ghosts; size() or more: none.
  void set_ghosts_from(std::size_t first) { owned_ = first; }
  /// The spheres this engine owns (those before the ghosts).
  std::size_t owned() const { return std::min(owned_, spheres.size()); }
  /// Puts the spheres in the order of their cells (done every reorder_every steps).
  void sort_by_cell();
  /// The contacts of the last detection, as many as it found; after step() in blocks, those a
  /// colour's blocks held are left as they were (their values are in the blocks), so read them
  /// after detect().
  const std::vector<Contact>& contacts() const { return order_.contacts(); }
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
  StepStats detect_contacts();                   // the contacts at t into the detector's chunks
  void apply_gravity();                          // v' = v + dt g
  void relax(StepStats& st, PhaseClock& clock);  // the sweeps, on the spheres' velocities in place;
                                                 // the residual into st
  void integrate(double t);                      // x' = x + dt v'; throws on a non-finite velocity
  void migrate(StepStats& st);                   // coupled: the ghosts dropped, migrants sent, statistics reduced
  /// The options, once their vector width is checked against the processor (std::invalid_argument).
  static EngineOptions checked(const EngineOptions& options);

  EngineOptions opt_;
  Detector detector_;   // the cell grid, the packed spheres, the contacts of detection in chunks
  ContactOrder order_;  // the contacts in the sweep's order, in blocks, and the sweep's passes
  long steps_ = 0;
  double solves_ = 0.0;
  std::array<double, phase_count> phase_seconds_{};
  long sweep_barriers_ = 0;
  Coupling* coupling_ = nullptr;
  bool count_pe_ = true;                              // set_pe_count()
  std::size_t owned_ = static_cast<std::size_t>(-1);  // index of the first ghost
  std::vector<char> in_contact_;                      // coupled: the owned spheres of the step's contacts
  std::vector<std::uint32_t> moved_;                  // coupled: the spheres a sweep may change
  std::vector<Vector3d> v0_, w0_;                     // ... and their velocities at its start
};

}  // namespace md::granular

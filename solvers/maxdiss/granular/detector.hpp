// Detection, the hard-contact engine's broad and narrow phase (engine.hpp, the phase `detect`):
// every pair of spheres and every sphere and boundary with gap xi < threshold at t, as contacts
// (contacts.hpp) in detection order.
//
// Broad phase: a grid of cells no smaller than the largest contact distance 2 R_max + threshold,
// so that every contact pair lies in neighbouring cells, with a layer of empty ghost cells around
// it (no bounds to check). The spheres are counted into the cells, x slowest and z fastest (the
// flow runs along x, so a slab of cells across the channel lies close in memory), and every
// reorder_every steps the spheres themselves are put in cell order. Their positions and radii are
// then packed in cell order, a field to an array, so that the candidates of a sphere are tested
// several at once.
//
// Narrow phase, for a pair: xi = |x_a - x_b| - R_a - R_b, n = (x_a - x_b) / |x_a - x_b|, the lever
// arms by the contact point of EngineOptions::contact_point, and the error-reduced gap rate
//   xi_eff / dt = eps min(0, xi / dt) + max(0, xi / dt)   (spec 001, 2.8).
//
// Chunks: the cells are cut into a fixed number of chunks, whatever the number of threads; each
// chunk detects its contacts by any thread, and the chunks are concatenated in order, so the
// contacts' order depends on the keys and never on the thread count. The Detector owns the grid,
// the packed arrays and the chunks; the order (contact_order.hpp) reads the chunks to place the
// contacts, the engine (engine.hpp) decides when to sort. The work of a chunk is compiled for
// SSE2 and for AVX2 (detector.cpp): its candidates are tested two or four at a time, with the
// same result.
#pragma once

#include <cstdint>
#include <vector>

#include "maxdiss/granular/bodies.hpp"
#include "maxdiss/granular/contacts.hpp"
#include "maxdiss/granular/options.hpp"
#include "maxdiss/granular/phases.hpp"

namespace md::granular {

/// pe's rule for a subdomain's contacts with ghosts (its HCSITS): a contact of two owned spheres is
/// the subdomain's; one with a ghost, or of two ghosts of different owners, is the subdomain's
/// where its contact point lies in `box` (half-open, lo <= x < hi); two ghosts of one owner never.
struct ContactPointRule {
  Box box;                       ///< the subdomain's extent (infinite toward the outside)
  std::vector<int> ghost_owner;  ///< the rank owning each ghost, the first ghost first
  bool holds(const Vector3d& x) const {
    return (box.lo.array() <= x.array()).all() && (x.array() < box.hi.array()).all();
  }
};

/// The bodies detection reads: the spheres (the first `owned` of them owned, the rest ghosts) and
/// the boundaries. `rule`: pe's rule for the contacts with ghosts; none: a contact of an owned
/// sphere and a ghost is detected where the sphere of smaller id is owned, one of two ghosts nowhere.
struct DetectionBodies {
  const Spheres& spheres;
  const std::vector<Plane>& planes;
  const std::vector<Obstacle>& obstacles;
  std::size_t owned;
  const ContactPointRule* rule = nullptr;
};

class Detector {
 public:
  /// The cell grid over `box` for spheres of radius at most max_radius (cm::InputError where it
  /// would have too many cells).
  Detector(const EngineOptions& options, const Box& box, double max_radius);

  /// Each sphere's cell, the spheres in cell order (with sort, the spheres themselves are first
  /// permuted into it) and their positions and radii packed in that order. Throws
  /// cm::NumericalError on a non-finite position.
  void build_cells(Spheres& spheres, const EngineOptions& opt, bool sort);
  /// The contacts at the current positions into the chunks (after build_cells), and their
  /// count and deepest penetration. opt: threshold, erp, dt, mu, contact_point, vector_width.
  StepStats detect(const DetectionBodies& bodies, const EngineOptions& opt);

  /// What detection made: chunk k's contacts, in detection order (the chunks one after the other).
  long chunks() const { return static_cast<long>(chunk_contacts_.size()); }
  const std::vector<Contact>& chunk(long k) const { return chunk_contacts_[static_cast<std::size_t>(k)]; }
  /// Where chunk k's contacts begin in detection order (chunks() + 1 entries).
  const std::vector<std::size_t>& chunk_start() const { return chunk_start_; }
  /// The bodies of each contact, in detection order.
  const std::vector<ContactEnds>& ends() const { return detected_ends_; }
  /// The spheres in cell order (after build_cells): the place of each.
  const std::vector<std::uint32_t>& cell_order() const { return order_; }
  /// The column of cells (along x, from 0) of sphere i's cell.
  std::uint32_t column(std::size_t i) const {
    const std::uint32_t stride_x = static_cast<std::uint32_t>(ny_ + 2) * static_cast<std::uint32_t>(nz_ + 2);
    return cell_of_[i] / stride_x - 1;  // padded grid
  }
  /// The columns of cells along x.
  int columns() const { return nx_; }
  /// Bytes held by the grid, the packed arrays and the chunks.
  double bytes() const;

 private:
  Box box_;
  double cell_ = 0.0;
  int nx_ = 1, ny_ = 1, nz_ = 1;
  std::vector<std::uint32_t> cell_of_, cell_start_, order_;
  std::vector<double> packed_x_, packed_y_, packed_z_, packed_R_;  // the spheres' x and R in cell order
  std::vector<std::vector<Contact>> chunk_contacts_;
  std::vector<std::vector<ContactEnds>> chunk_ends_;  // the spheres of each chunk's contacts
  std::vector<StepStats> chunk_stats_;                // each chunk's count and deepest penetration
  std::vector<std::size_t> chunk_start_;              // where each chunk's contacts begin
  std::vector<ContactEnds> detected_ends_;            // the spheres of each contact, in detection order
};

}  // namespace md::granular

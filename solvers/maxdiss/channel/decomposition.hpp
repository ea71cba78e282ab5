// The granular channel cut into subdomains: a regular grid of them, as the paper ran it (16 x 10 x 4
// subdomains on 640 processes, Sect. 4.3), each relaxed by the NBGS of granular/engine.hpp, blended
// across subdomains by pe's weighted block Jacobi (spec 001, 6.6). The subdomains talk through a
// Transport (transport.hpp): one per MPI rank (coupling = ranks), or all in one process on a few
// threads (coupling = subdomains). Both give the same bits for the same grid.
//
// The cuts between subdomains are even along each axis (the paper's grid), or placed once, at the
// start, by the load of the frame gone on from (mpi.cuts = balanced: each sphere and each of its
// contacts weighed, the cuts at the quantiles along each split axis).
//
// Each subdomain owns the spheres whose centre lies in it (the outer subdomains reach to infinity
// beyond the channel, so a sphere that strays outside still has an owner). One step:
//   1. ghosts: every subdomain sends its neighbours copies of its spheres within contact reach
//      (2 R_max + threshold) of their subdomains, appended to theirs after the owned spheres;
//   2. detection on owned spheres and ghosts; a contact with a ghost is relaxed by one subdomain
//      (mpi.treat): the one owning the sphere of smaller id, or pe's rule, below;
//   3. after every sweep (pe's synchronizeVelocities): each subdomain sends the velocity changes of
//      its ghosts to their owners; every owned sphere takes v = v0 + omega (dv_own + sum of
//      dv_received) (omega = mpi.relaxation; pe relaxes every owned sphere so); the owners send the
//      new velocities back to the ghosts;
//   4. after the positions: the ghosts are dropped, and a sphere whose centre has left the
//      subdomain moves to its new owner (a neighbour: a sphere crosses at most one subdomain in
//      a step, or the run stops with a clear error).
// pe's rule (mpi.treat = contact_point; pe's HCSITS): a contact of two owned spheres is relaxed
// here; one with a ghost, or of two ghosts of different owners, by the subdomain that holds its
// contact point (half-open boxes); two ghosts of one owner are left to that owner.
// Every exchange visits the neighbours in the order of their rank and every sum over subdomains is
// taken in rank order, so a run is deterministic for a given grid. With one subdomain there is no
// coupling at all: the data are those of the serial engine, bit for bit.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/transport.hpp"
#include "maxdiss/granular/engine.hpp"
#include "maxdiss/granular/subdomain_grid.hpp"

namespace md::granular {

/// One subdomain's part of the channel (the Coupling of granular/engine.hpp).
class SubdomainCoupling final : public Coupling {
 public:
  /// `transport`: this subdomain's, of as many subdomains as `grid` has (it outlives the coupling).
  /// `reach`: the largest contact distance, 2 R_max + threshold, the width of the ghost layer.
  /// `relaxation`: omega of the blend across subdomains. `treat`: who relaxes a contact with a ghost.
  SubdomainCoupling(Transport& transport, const SubdomainGrid& grid, double reach, double relaxation,
                    GhostContacts treat);

  void add_ghosts(Engine& engine) override;
  void after_sweep(Spheres& spheres, const std::vector<std::uint32_t>& moved, const std::vector<Vector3d>& v0,
                   const std::vector<Vector3d>& w0) override;
  void remove_ghosts_and_migrate(Engine& engine) override;
  void reduce(StepStats& st) override;
  bool owns(const Vector3d& x) const override { return grid_.owner(x) == rank_; }
  Box box() const override;
  void sum(std::vector<double>& values) override;
  Spheres gather(const Spheres& owned) override;
  bool first() const override { return rank_ == 0; }
  const ContactPointRule* ghost_rule() const override {
    return treat_ == GhostContacts::contact_point ? &rule_ : nullptr;
  }
  std::map<std::string, double> statistics() override;

  int rank() const { return rank_; }
  int ranks() const { return grid_.size(); }
  /// Bytes this rank has sent to other ranks so far, and its number of neighbours.
  double bytes_sent() const { return bytes_sent_; }
  std::size_t neighbours() const { return neighbours_.size(); }
  /// Ghosts held in the last step.
  std::size_t ghosts() const { return ghosts_; }

 private:
  /// One sphere on the wire.
  struct Packed {
    double x[3], v[3], w[3], R, inv_m, inv_I;
    std::uint64_t id;
  };
  static Packed pack(const Spheres& spheres, std::size_t i);
  static void unpack(Spheres& spheres, const Packed& p);
  struct Neighbour {
    int rank = 0;
    Box reach_box;                               // its extent widened by the reach: my spheres in it are its ghosts
    std::vector<std::uint32_t> sent;             // my spheres it holds as ghosts, in the order sent
    std::size_t ghost_begin = 0, ghost_end = 0;  // its spheres I hold as ghosts
  };
  /// Sends each neighbour its buffer and receives one from each (any sizes), viewed by received_
  /// until the next collective.
  template <class T>
  void exchange(const std::vector<std::vector<T>>& out);

  Transport& transport_;
  SubdomainGrid grid_;
  double reach_, omega_;
  GhostContacts treat_;
  int rank_ = 0;
  std::vector<Neighbour> neighbours_;
  std::vector<int> peers_;                            // the neighbours' ranks, in order
  std::vector<std::span<const std::byte>> received_;  // what the last exchange received, per neighbour
  ContactPointRule rule_;                             // pe's rule: this subdomain's box and its ghosts' owners
  std::size_t owned_ = 0, ghosts_ = 0;
  double bytes_sent_ = 0, ghost_sum_ = 0, ghost_layers_ = 0;  // bytes so far; ghosts over the layers built
  std::vector<std::vector<Packed>> spheres_out_;              // ghosts or migrants, per neighbour
  std::vector<std::vector<double>> velocities_out_;
};

/// A point's coordinate along an axis and its load (mpi.cuts = balanced).
struct Load {
  double coordinate, weight;
};
/// The p - 1 cuts that give each of p slabs an equal share of the load (the order of the points
/// changes nothing): cut k lies midway between the last point of the fewest smallest coordinates
/// that carry k / p of the load and the next point. At least p points, weights positive.
std::vector<double> balanced_cuts(std::vector<Load> points, int p);

}  // namespace md::granular

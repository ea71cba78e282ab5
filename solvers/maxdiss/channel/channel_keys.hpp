// The keys of the granular channel (Sect. 4.3; spec 001, 3.4 and 6.6), named once for every study
// of the channel: the geometry, the spheres, the inflow, friction, gravity, the time step and the
// multi-contact solver. With them are the checks that tie them together (an obstacle inside the
// channel, spheres that fit the grid and the walls).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "maxdiss/channel/channel.hpp"
#include "maxdiss/contact_law.hpp"

namespace md::granular {

/// The Coulomb law's block solver (spec 001, 6.4 and 6.6).
enum class CoulombSolver { decoupling, exact };

/// Where the cuts between subdomains lie (mpi.cuts): evenly (the paper's grid), or at the
/// quantiles of the load of the frame gone on from (its spheres and their contacts), so that each
/// rank starts with as much work.
enum class Cuts { even, balanced };

/// Which subdomain relaxes a contact with a ghost (mpi.treat; decomposition.hpp): the one owning the
/// sphere of smaller id, or pe's, the one holding its contact point.
enum class GhostContacts { smaller_id, contact_point };

/// How the channel is simulated (the key coupling): the whole channel in one process, one
/// subdomain of mpi.grid per MPI rank, or every subdomain of mpi.grid in one process.
enum class CouplingChoice { serial, ranks, subdomains };

class Transport;

struct ChannelSetup {
  ChannelOptions channel;
  EngineOptions engine;
  CoulombSolver coulomb = CoulombSolver::exact;
  std::vector<long> subdomains{1, 1, 1};  ///< mpi.grid: subdomains along x, y, z
  double jacobi_relaxation = 0.75;        ///< mpi.relaxation: omega of the blend across subdomains
  Cuts cuts = Cuts::even;                 ///< mpi.cuts
  double contact_weight = 1.5;            ///< mpi.contact_weight: a contact's load, in spheres (balanced cuts)
  std::vector<long> pe_grid{16, 10, 4};   ///< count.pe_grid: pe's blocks on which pe's count is taken
  GhostContacts ghost_contacts = GhostContacts::smaller_id;  ///< mpi.treat
  CouplingChoice coupling_choice = CouplingChoice::serial;   ///< coupling
  /// Ranks the study runs on (1 unless coupling = ranks); set before declare().
  int ranks = 1;

  /// Declares the keys, bound to the fields above, and their checks.
  void declare(cm::Config& c);
  /// The engine's options for a law.
  EngineOptions engine_for(ContactLaw law) const;
  /// The grid of subdomains, mpi.grid, with its cuts (decomposition.cpp). `from`: the spheres of
  /// the frame gone on from (restart.from), by which balanced cuts are placed; none for a run from
  /// t = 0.
  SubdomainGrid grid(const Spheres* from) const;
  /// One subdomain's part of a split over `grid`, talking through `transport`; none for one
  /// subdomain (or no transport).
  std::unique_ptr<Coupling> coupling(const SubdomainGrid& grid, Transport* transport) const;
  /// The reach of a contact, 2 R + threshold: the width of the ghost layer.
  double reach() const { return 2.0 * channel.R + std::max(engine.threshold, 0.0); }

 private:
  void declare_channel(cm::Config& c);  ///< the channel, its spheres, inflow, friction and gravity
  void declare_solver(cm::Config& c);   ///< the time step and the multi-contact solver
  void declare_ranks(cm::Config& c);    ///< the split over MPI ranks and the threads
  void check(cm::Config& c);            ///< the checks across keys, after parsing

  std::vector<double> obstacle_centre_{0.04, 0.04}, gravity_{0.0, 0.0, -9.81};
  long seed_ = 1;
};

/// The keys ChannelSetup declares physics(): the channel simulated, which a run that goes on from
/// another or is compared with it must share (sorted).
std::vector<std::string> channel_physics_keys();

}  // namespace md::granular

// The keys of the granular channel (Sect. 4.3; spec 001, 3.4 and 6.6), named once for every study
// of the channel: the geometry, the spheres, the inflow, friction, gravity, the time step and the
// multi-contact solver, with the checks that tie them together (an obstacle inside the channel,
// spheres that fit the grid and the walls).
#pragma once

#include <vector>

#include "common/options.hpp"
#include "maxdiss/channel.hpp"

namespace md::granular {

/// The Coulomb law's block solver (spec 001, 6.4 and 6.6).
enum class CoulombSolver { decoupling, exact };

struct ChannelSetup {
  ChannelOptions channel;
  EngineOptions engine;
  CoulombSolver coulomb = CoulombSolver::decoupling;

  /// Declares the keys, bound to the fields above, and their checks.
  void declare(cm::Config& c);
  /// The engine's options for law 0 (Coulomb) or 1 (maximum dissipation).
  EngineOptions engine_for(int law) const;

 private:
  std::vector<double> obstacle_centre_{0.04, 0.04}, gravity_{0.0, 0.0, -9.81};
  long seed_ = 1;
};

}  // namespace md::granular

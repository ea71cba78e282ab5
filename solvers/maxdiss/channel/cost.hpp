// What a law's simulation cost and what the paper's run would cost (README.md): the statistics
// cost_<law> of a channel run and the keys projection.* of its projection onto a cluster.
//
// The cost is measured (wall seconds, sphere-steps per second and per thread-second, contact
// solves, memory per sphere), so it changes from run to run and is kept among the statistics,
// never compared as data. The projection takes the measured rate per thread to projection.cores at
// projection.efficiency, and to projection.t_end (the paper's 10 s) of the flow the run averaged.
#pragma once

#include <string>

#include "core/options.hpp"
#include "core/run.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/simulation.hpp"

namespace md::granular {

struct Projection {
  long cores = 640;
  double efficiency = 0.8, t_end = 10.0;

  /// Declares the keys, bound to the fields above.
  void declare(cm::Config& c);
  /// Writes the statistics cost_<law> of the outcome `r` and a note of the projection.
  void record(cm::Run& run, const std::string& law, const Outcome& r, const ChannelSetup& setup) const;
};

}  // namespace md::granular

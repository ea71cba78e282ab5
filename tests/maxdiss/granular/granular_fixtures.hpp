// What the tests of the hard-contact engine share: the engine's options of the paper's channel
// (dt = 10 us, mu = 0.4) and a small channel (2 x 1 x 0.4 cm, obstacle scaled down).
#pragma once

#include "maxdiss/channel/channel.hpp"
#include "maxdiss/granular/engine.hpp"

namespace md::granular::testing {

inline EngineOptions options(BlockSolver law = BlockSolver::maxdiss) {
  EngineOptions o;
  o.solver = law;
  o.dt = 1e-5;
  o.mu = 0.4;
  return o;
}

inline ChannelOptions small_channel() {
  ChannelOptions c;
  c.Lx = 0.02;
  c.Ly = 0.01;
  c.Lz = 0.004;
  c.obstacle.cx = 0.008;
  c.obstacle.cy = 0.005;
  c.obstacle.radius = 0.002;
  c.obstacle.box_length = 0.002;
  return c;
}

}  // namespace md::granular::testing

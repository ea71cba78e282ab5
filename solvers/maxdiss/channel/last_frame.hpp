// The last frame of a law's simulation analysed (README.md): Figs. 9-12 and the claims of
// Sect. 4.3 that read one frame, with their keys (cells.*, rdf.*, regions.*, snapshot.write).
//
// The cell maps of Figs. 10-11 average the velocity and angular velocity over the spheres of each
// x-y cell; the peak speed is the largest of cells holding cells.min_count spheres or more. The
// mean speeds upstream, beside and after the obstacle and the spin next to it against the bulk's
// test the claims of Sect. 4.3. The radial distribution function g(r) of Fig. 12 is counted in
// rdf.region near the outlet, its peaks at the initial grid's distances tested (rdf_peaks.hpp).
// Fig. 9 is a snapshot of the spheres.
#pragma once

#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run.hpp"
#include "maxdiss/channel/channel.hpp"
#include "maxdiss/channel/simulation.hpp"

namespace md::granular {

struct LastFrame {
  long cells_nx = 150, cells_ny = 65, cells_min = 3;
  std::vector<double> rdf_region{0.12, 0.14, 0.0, 0.065, 0.0, 0.02};
  double rdf_dr = 0.02, rdf_rmax = 5.0, rdf_secondary_from = 1.5;
  double rdf_peak_halfwidth = 0.04, rdf_peak_sigmas = 3.0;
  std::vector<double> upstream{0.01, 0.025}, downstream{0.06, 0.14};
  double near_obstacle = 1e-3;
  bool snapshot = true;

  /// Declares the keys, bound to the fields above.
  void declare(cm::Config& c);
  /// The checks against the channel: increasing ranges, bins that hold the grid's distances,
  /// regions on either side of the obstacle.
  void check(cm::Config& c, const ChannelOptions& channel) const;
  /// Writes cells_<law>.tsv, rdf_<law>.tsv and snapshot_<law>.tsv of the spheres `S` (the whole
  /// channel) and sets the last frame's quantities of `r`.
  void analyse(cm::Run& run, const Spheres& S, const Obstacle& ob, const std::string& law, Outcome& r,
               const ChannelOptions& channel) const;

 private:
  /// g(r) over ordered pairs i != j with both spheres in rdf.region (Fig. 12).
  void rdf(cm::Run& run, const Spheres& S, const std::string& law, Outcome& r, const ChannelOptions& channel) const;
};

}  // namespace md::granular

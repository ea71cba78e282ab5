// The time of a channel run (README.md): its end, its samples and its averaging window, the keys
// time.t_end, sample.every and average.* with their checks against the time step.
//
// A run takes time.t_end / time.dt steps and samples the channel every sample.every steps, the
// last step included. Table 2 averages the samples of the window from average.t_start to the end;
// average.max_drift and average.batches say how the window's stationarity is judged
// (numerics/stationarity.hpp). average.whole_run_to asks for the paper's own average beside it:
// every sample from t = 0, through the runs gone on from, projected past the window (simulation.hpp).
#pragma once

#include "core/options.hpp"

namespace md::granular {

struct Schedule {
  double t_end = 10.0;          ///< time.t_end [s]
  double t_avg = 0.0;           ///< average.t_start [s]
  double max_drift = 0.01;      ///< average.max_drift
  long batches = 10;            ///< average.batches
  long sample_every = 1000;     ///< sample.every
  long draws = 1001;            ///< extremes.draws: the snapshots a paper's largest penetration is taken over
  double whole_run_to = 0;      ///< average.whole_run_to [s]: the end of the paper's whole-run average, or 0 (none)
  long whole_run_every = 1000;  ///< average.whole_run_every: steps between the whole-run average's samples
  long steps = 0;               ///< time.t_end / time.dt, set by check()
  double dt = 0.0;              ///< time.dt, set by check()

  /// Declares the keys, bound to the fields above.
  void declare(cm::Config& c);
  /// The checks against the time step (time.dt): a whole number of steps, a window before the end
  /// with a sample in it. Sets steps and dt.
  void check(cm::Config& c, double dt);
  /// The first step whose sample counts in the averages: the first at or after average.t_start.
  long first_averaged_step() const;
  /// The most samples a run from step `from` to the end takes (a bound for its time series).
  long samples_from(long from) const { return steps / sample_every - from / sample_every + 1; }
};

}  // namespace md::granular

// The time of a channel run (schedule.hpp).
#include "maxdiss/channel/schedule.hpp"

#include <cmath>

#include "core/run.hpp"

namespace md::granular {

void Schedule::declare(cm::Config& c) {
  c.add("time.t_end", &t_end, "simulated time").unit("s").range(cm::Range::positive());
  c.add("sample.every", &sample_every, "steps between two samples (the paper: 1000 steps, 10 ms)")
      .range(cm::Range::closed(1, 1e9));
  c.add("average.t_start", &t_avg, "start of the averaging window (the paper averages over all 10 s)")
      .unit("s")
      .range(cm::Range::nonnegative());
  c.add("average.max_drift", &max_drift,
        "the window is steady when the relative drift of each of its sphere count, solid fraction, contacts "
        "and kinetic energy (a least-squares line's change across the window over the mean) is below this")
      .range(cm::Range::open_closed(0.0, 1.0))
      .assumption("ASSUMED: not in the paper, which calls its 10 s steady; 1 % as the issue on Table 2 suggests");
  c.add("average.batches", &batches,
        "batches of consecutive samples for the standard error of each average (batch means)")
      .range(cm::Range::closed(2, 1e6))
      .assumption("ASSUMED: not in the paper; 10 batches, the usual choice for batch means");
  c.add("extremes.draws", &draws,
        "the independent snapshots whose largest penetration the paper reports: the window's deepest penetration "
        "of every step estimates the distribution of that largest one (numerics/extremes.hpp)")
      .range(cm::Range::closed(1, 1e9))
      .assumption(
          "ASSUMED: the paper's maxima are the largest of its 1001 samples, 10 s sampled every 1000 steps with t = 0, "
          "taken as independent draws");
  c.add("average.whole_run_to", &whole_run_to,
        "the paper's average over its whole run beside the window's: a sample every average.whole_run_every steps "
        "from t = 0 to this time, those before this run from the runs it went on from (restart.from, back to t = 0), "
        "those after its end the window's averages; 0: none")
      .unit("s")
      .range(cm::Range::nonnegative())
      .assumption(
          "ASSUMED where given: the flow after the window stays at the window's averages (the paper averages its 10 s "
          "from t = 0, Sect. 4.3)");
  c.add("average.whole_run_every", &whole_run_every,
        "steps between the samples of the whole-run average (the paper: 1000 steps, 10 ms)")
      .range(cm::Range::closed(1, 1e9));
}

void Schedule::check(cm::Config& c, double time_step) {
  dt = time_step;
  cm::planned_steps(c, t_end, dt, "time.dt", "time.t_end");
  const double n = t_end / dt;
  if (std::fabs(n - std::round(n)) > 1e-9 * n) c.fail("time.t_end", "must be a whole number of steps time.dt");
  steps = std::lround(n);
  if (!(t_avg < t_end)) c.fail("average.t_start", "must lie before time.t_end");
  // a sample (every sample.every steps, the last step included) must fall in the window
  const long first = first_averaged_step();
  if ((first + sample_every - 1) / sample_every * sample_every > steps)
    c.fail("sample.every", "no sample falls in the averaging window from average.t_start to time.t_end");
  if (whole_run_to > 0.0) {
    if (whole_run_to < t_end) c.fail("average.whole_run_to", "must not lie before time.t_end");
    if (whole_run_every % sample_every != 0)
      c.fail("average.whole_run_every", "must be a multiple of sample.every, whose samples it takes");
  }
}

long Schedule::first_averaged_step() const { return std::lround(std::ceil(t_avg / dt - 1e-9)); }

}  // namespace md::granular

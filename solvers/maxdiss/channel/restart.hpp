// A channel run that goes on from another (README.md, restarts and runs in parts): the keys
// state.write, restart.from and restart.law, and what they read before the run starts.
//
// restart.from names a run of the same channel that saved each law's last frame (state.write,
// channel_state.hpp). Each law simulated here goes on from its own frame, or with restart.law
// every law from that one law's frame. A window that began before the frame goes on too: the saved
// run's samples of it and its deepest penetration are carried into this run, so that the run going
// on is the run that never stopped, byte for byte. restart.vary lets named keys of the channel differ
// from the run gone on from (an ablation: several solvers from one settled frame); such a run
// carries no window, since its window's samples before the frame are another channel's.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run.hpp"
#include "maxdiss/channel/channel_state.hpp"
#include "maxdiss/channel/schedule.hpp"
#include "maxdiss/contact_law.hpp"

namespace md::granular {

struct Restart {
  bool write = false;             ///< state.write: save each law's last frame
  std::string from = "none";      ///< restart.from: the run gone on from, or none
  std::optional<ContactLaw> law;  ///< restart.law: the law whose frame every law goes on from, or none (same)
  std::vector<std::string> vary;  ///< restart.vary: keys of the channel that may differ from restart.from's

  /// The window begun by the run gone on from: its samples (rows of its time series from
  /// average.t_start to the frame) and its deepest penetration over all its steps.
  struct Carried {
    WindowSoFar window;
    std::vector<std::vector<double>> samples;
  };
  PerLaw<std::optional<ChannelState>> state;  ///< the frame each law goes on from
  PerLaw<std::optional<Carried>> carried;     ///< the window each law goes on with
  std::optional<SavedRun> run;                ///< the run gone on from
  /// A sample of the runs gone on from, back to t = 0 (average.whole_run_to): spheres, contacts
  /// and contacts as pe counted them, by step.
  struct Sampled {
    double particles, contacts, pe_contacts;
  };
  PerLaw<std::map<long, Sampled>> history;  ///< each law's, of the law whose frame it goes on from
  /// A key of restart.vary whose value differs from the run gone on from: here and there.
  struct Varied {
    std::string key, here, there;
  };
  std::vector<Varied> varied;

  /// Declares the keys, bound to the fields above.
  void declare(cm::Config& c);
  /// Reads the run gone on from (a check after parsing, `values` the effective configuration): its
  /// channel must be this one; each law of `laws` must have its frame there (or restart.law's
  /// law its frame), taken before time.t_end; a window begun before the frame is carried.
  void read(cm::Config& c, const std::map<std::string, std::string>& values, const std::vector<ContactLaw>& laws,
            const Schedule& schedule);
  /// The samples the window of `law` carries from the run gone on from.
  double carried_samples(ContactLaw law) const;
  /// The statistic restart.earlier_runs_wall_seconds and the note of a run that goes on from
  /// another (`last`: the last law simulated, whose frame's step the note names).
  void record(cm::Run& out, ContactLaw last) const;

 private:
  /// The samples of `saved` and of every run before it, back to t = 0, of `law`'s series.
  void read_history(const SavedRun& saved, ContactLaw each, const std::string& law);
  Carried carry_window(cm::Config& c, const SavedRun& saved, const std::map<std::string, std::string>& values,
                       ContactLaw each, const ChannelState& s, const Schedule& schedule) const;
};

}  // namespace md::granular

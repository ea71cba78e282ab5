// compare.with (README.md): this channel run's Table 2 against another run's, law by law, over the
// same window. A run on another coupling, grid or sweep order is so checked against the serial
// one; the relative differences are scalars <quantity>_rel_diff_<law>, and a note says what was
// compared with what.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/channel_state.hpp"
#include "maxdiss/channel/simulation.hpp"

namespace md::granular {

class ComparedRun {
 public:
  /// Declares the key compare.with.
  void declare(cm::Config& c);
  /// After every key is read (`values`, the effective configuration): the run named is a run of the
  /// same channel over the same window.
  void check(cm::Config& c, const std::map<std::string, std::string>& values);
  bool asked() const { return name_ != "none"; }
  /// The relative differences (this - other) / other of each law of `laws` and the note.
  void write(cm::Run& run, const std::vector<ContactLaw>& laws, const PerLaw<Outcome>& outcome,
             const ChannelSetup& setup) const;

 private:
  std::string name_ = "none";
  std::optional<SavedRun> other_;
  std::string sweep_order_;  // this run's, for the note
};

}  // namespace md::granular

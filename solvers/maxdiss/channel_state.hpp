// A granular channel's state written into a run and read back: the channel of a later run goes
// on from it exactly as the first run would have (restart.from), on one rank or on many.
//
// A run that saves its state (state.write) holds, per law, `state_<law>.tsv` (every sphere: its
// identity, centre, velocity, angular velocity, radius, 1/m and 1/I, in the engine's order) and
// `state_<law>_clock.tsv` (one row: steps, time, plate, spheres inserted and deleted, random
// numbers drawn, the next identity). Numbers are written with 17 significant digits, so a state
// reads back bit for bit.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "common/errors.hpp"
#include "common/run.hpp"
#include "maxdiss/channel.hpp"

namespace md::granular {

/// Writes the state as the two tables of `law` (its name, e.g. "maxdiss") into `run`.
void write_state(cm::Run& run, const ChannelState& state, const std::string& law);

/// The saved run in `dir`: its run.json, validated. Throws cm::InputError naming `key` when there
/// is no run there or it is not a run of `solvers` (one of them).
struct SavedRun {
  std::filesystem::path dir;
  std::string run_id, study, solver;
  std::map<std::string, std::string> config;  ///< the effective configuration, canonical values
};
SavedRun load_channel_run(const std::filesystem::path& dir, const std::string& key);

/// The state `law` of the saved run. Throws cm::InputError naming `key` when the run saved none
/// or its tables are malformed.
ChannelState read_state(const SavedRun& run, const std::string& law, const std::string& key);

/// Throws cm::InputError naming `key` when a key of `config` has another value in the saved run,
/// or a key is in one and not the other, unless `may_differ(key)` says it may (keys that change
/// no physics of the channel: the time span, the diagnostics, the ranks and threads).
template <class MayDiffer>
void require_same_channel(const SavedRun& run, const std::map<std::string, std::string>& config, MayDiffer may_differ,
                          const std::string& key);

/// The keys that may differ between a run and one it goes on from or is compared with: the end
/// and the diagnostics of the run, the laws simulated, the ranks and threads, the order of the
/// sweep (a split over ranks changes it too), the state's saving and reading, the output.
bool channel_key_may_differ(const std::string& name);

template <class MayDiffer>
void require_same_channel(const SavedRun& run, const std::map<std::string, std::string>& config, MayDiffer may_differ,
                          const std::string& key) {
  for (const auto& [name, value] : config) {
    if (may_differ(name)) continue;
    const auto it = run.config.find(name);
    if (it == run.config.end())
      throw cm::InputError(key + ": the run at '" + run.dir.string() + "' has no key " + name);
    if (it->second != value)
      throw cm::InputError(key + ": the run at '" + run.dir.string() + "' has " + name + " = " + it->second +
                           ", this run " + value + " (the channels must be the same)");
  }
  for (const auto& [name, value] : run.config)
    if (!may_differ(name) && !config.count(name))
      throw cm::InputError(key + ": the run at '" + run.dir.string() + "' has a key " + name +
                           " this run does not know");
}

}  // namespace md::granular

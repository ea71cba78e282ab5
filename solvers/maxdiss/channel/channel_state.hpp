// A granular channel's state written into a run and read back: the channel of a later run goes
// on from it exactly as the first run would have (restart.from), on one rank or on many.
//
// A run that saves its state (state.write) holds, per law, `state_<law>.tsv` (every sphere: its
// identity, centre, velocity, angular velocity, radius, 1/m and 1/I, in the engine's order) and
// `state_<law>_clock.tsv` (one row: steps, time, plate, spheres inserted and deleted, random
// numbers drawn, the next identity) and `state_<law>_window.tsv` (the averaging window so far:
// WindowSoFar). Numbers are written with 17 significant digits, so a state reads back bit for bit.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/run.hpp"
#include "core/run_reader.hpp"
#include "maxdiss/channel/channel.hpp"

namespace md::granular {

/// Writes the state as the two tables of `law` (its name, e.g. "maxdiss") into `run`.
void write_state(cm::Run& run, const ChannelState& state, const std::string& law);

/// What a law's averaging window held when its state was saved, beyond its samples (which are in
/// the run's time series): the window's first step, and the deepest penetration over every step of
/// the window before the state, sampled or not, of every contact and of those between two spheres. Saved with the state
/// (`state_<law>_window.tsv`), so that a run going on from it goes on with the same window: a window of hours run in
/// parts.
struct WindowSoFar {
  long first_step = 0;
  double max_penetration_all = 0.0;
  double max_sphere_penetration_all = 0.0;
  /// The deepest penetration of each step of the window before the state, of every contact and
  /// between two spheres (`state_<law>_window_steps.tsv`), for the estimate of the largest of
  /// extremes.draws snapshots.
  std::vector<double> step_penetration, step_sphere_penetration;
};
void write_window(cm::Run& run, const WindowSoFar& window, const std::string& law);

/// The run of the channel in `dir` (md_channel or md_channel_mpi): its run.json, validated by the
/// pipeline's reader. Throws cm::InputError naming `key` when there is no run there or it is a
/// run of another solver.
struct SavedRun {
  std::filesystem::path dir;
  std::string run_id, study, solver;
  std::map<std::string, std::string> config;  ///< the effective configuration, canonical values
  nlohmann::json json;                        ///< the whole run.json, validated
};
SavedRun load_channel_run(const std::filesystem::path& dir, const std::string& key);

/// The state `law` of the saved run. Throws cm::InputError naming `key` when the run saved none
/// or its tables are malformed.
ChannelState read_state(const SavedRun& run, const std::string& law, const std::string& key);

/// The window of `law` saved with its state. Throws cm::InputError naming `key` when the run saved
/// none (a run older than the window's saving) or it is malformed.
WindowSoFar read_window(const SavedRun& run, const std::string& law, const std::string& key);

/// The name of the file of the time series of `law` in a run: timeseries_<law>.tsv.
std::string series_file(const std::string& law);

/// The time series of `law` that the saved run wrote (series_file(law)), with `columns`.
/// Throws cm::InputError naming `key` when the run wrote none, or it has other columns or a value
/// that is not a number (an infinite one is kept: a sample may be so).
cm::TsvData read_series(const SavedRun& run, const std::string& law, const std::vector<cm::Column>& columns,
                        const std::string& key);

/// Throws cm::InputError naming `key` when a key of the channel has another value in the saved run
/// than in `config` (an effective configuration), or is missing from either. A key of the channel
/// is one of channel_physics_keys(): not the end or the diagnostics of the run, the laws simulated,
/// the ranks and threads, the order of the sweep, the state's saving and reading, the output. The
/// keys of `may_differ` may have other values (an ablation from one frame, restart.vary).
void require_same_channel(const SavedRun& run, const std::map<std::string, std::string>& config, const std::string& key,
                          const std::vector<std::string>& may_differ = {});

}  // namespace md::granular

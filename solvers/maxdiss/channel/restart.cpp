// A channel run that goes on from another (restart.hpp).
#include "maxdiss/channel/restart.hpp"

#include <algorithm>
#include <cmath>

#include "core/text.hpp"
#include "maxdiss/channel/simulation.hpp"

namespace md::granular {

namespace {

/// The wall time of a saved run and of the runs it went on from (its statistic
/// restart.earlier_runs_wall_seconds).
double earlier_runs_wall_seconds(const SavedRun& from) {
  const nlohmann::json& j = from.json;
  const double seconds =
      j.value("wall_time_s", 0.0) + cm::find_statistic(j, "restart", "earlier_runs_wall_seconds").value_or(0.0);
  if (!(std::isfinite(seconds) && seconds >= 0))
    throw cm::InputError("restart.from: the run at '" + from.dir.string() + "' records a wall time that is not a time");
  return seconds;
}

}  // namespace

void Restart::declare(cm::Config& c) {
  c.add("state.write", &write,
        "write each law's last frame in full (state_<law>.tsv, state_<law>_clock.tsv), for restart.from");
  c.add("restart.from", &from,
        "a run of this channel that wrote its state (state.write) to go on from, or none (start at t = 0)")
      .names_run();
  c.add_choice("restart.law", &law,
               {{"same", std::nullopt}, {"coulomb", ContactLaw::coulomb}, {"maxdiss", ContactLaw::maxdiss}},
               "the saved frame of restart.from each simulated law goes on from: same (each law its own, the "
               "run that never stopped), or coulomb or maxdiss (every law from that law's frame)");
  c.add("restart.vary", &vary,
        "keys of the channel that may have other values than in restart.from's run (an ablation from one settled "
        "frame: another solver, friction, seed), or none; such a run carries no window from that run");
}

void Restart::read(cm::Config& c, const std::map<std::string, std::string>& values, const std::vector<ContactLaw>& laws,
                   const Schedule& schedule) {
  const std::vector<std::string> physics = channel_physics_keys();
  for (const std::string& key : vary)
    if (std::find(physics.begin(), physics.end(), key) == physics.end())
      c.fail("restart.vary", "names " + key + ", which is no key of the channel that a run must share");
  const SavedRun saved = load_channel_run(from, "restart.from");
  require_same_channel(saved, values, "restart.from", vary);
  varied.clear();
  for (const std::string& key : vary)
    if (values.at(key) != saved.config.at(key)) varied.push_back({key, values.at(key), saved.config.at(key)});
  const long avg_from = schedule.first_averaged_step();
  for (ContactLaw each : laws) {
    ChannelState s = law ? read_state(saved, name(*law), "restart.law") : read_state(saved, name(each), "restart.from");
    if (s.step >= schedule.steps)
      c.fail("time.t_end", "must lie after the state of restart.from (step " + std::to_string(s.step) + ")");
    if (avg_from < s.step && !vary.empty())
      c.fail("average.t_start",
             "must not lie before the state of restart.from when keys differ from its run "
             "(restart.vary): the window would mix two channels");
    if (avg_from < s.step) carried[each] = carry_window(c, saved, values, each, s, schedule);
    if (schedule.whole_run_to > 0.0) read_history(saved, each, law ? name(*law) : name(each));
    state[each] = std::move(s);
  }
  run = saved;
}

void Restart::read_history(const SavedRun& saved, ContactLaw each, const std::string& of) {
  // each run's series (a sample carried through a restart appears in both runs, the same), then
  // the run it went on from, until one that started at t = 0; a run that went on from one law's
  // frame (its restart.law) has that law's series before it
  SavedRun r = saved;
  std::string law_of = of;
  for (int runs = 0;; ++runs) {
    if (runs == 100000) throw cm::InputError("restart.from: the runs gone on from do not end (a cycle?)");
    const cm::TsvData series = read_series(r, law_of, series_columns, "restart.from");
    for (const auto& row : series.rows)
      history[each][std::lround(row[0])] = {row[2], row[3], row[series_columns.size() - 1]};
    const std::string before = r.config.at("restart.from");
    if (before == "none") return;
    if (const auto it = r.config.find("restart.law"); it != r.config.end() && it->second != "same") law_of = it->second;
    r = load_channel_run(before, "restart.from");
  }
}

/// A window that begins before the state gone on from is that run's window, gone on with: its
/// samples (its time series, from average.t_start to the state) and its deepest penetration over
/// all its steps and of each (state_<law>_window*.tsv), the run's own window of every law and with the same
/// average.t_start and sample.every. The run going on is then the run that never stopped.
Restart::Carried Restart::carry_window(cm::Config& c, const SavedRun& saved,
                                       const std::map<std::string, std::string>& values, ContactLaw each,
                                       const ChannelState& s, const Schedule& schedule) const {
  const std::string before = "must not lie before the state of restart.from (t = " + cm::format_real(s.t) + " s)";
  if (law)
    c.fail("average.t_start", before +
                                  " when every law goes on from one law's frame (restart.law): the window of "
                                  "the other law has no samples before it");
  for (const char* key : {"average.t_start", "sample.every"})
    if (saved.config.at(key) != values.at(key))
      c.fail("average.t_start", before + " unless the window goes on from that run's: it has another " +
                                    std::string(key) + " (" + saved.config.at(key) + ")");
  Carried carried_window;
  carried_window.window = read_window(saved, name(each), "average.t_start");
  const long first = schedule.first_averaged_step();
  if (carried_window.window.first_step != first)
    c.fail("average.t_start", "the window saved by restart.from begins at step " +
                                  std::to_string(carried_window.window.first_step) + ", this run's at step " +
                                  std::to_string(first));
  const long steps_before = s.step - first;
  if (static_cast<long>(carried_window.window.step_penetration.size()) != steps_before)
    c.fail("restart.from", "the window saved by restart.from holds the deepest penetration of " +
                               std::to_string(carried_window.window.step_penetration.size()) + " steps, not the " +
                               std::to_string(steps_before) + " from its first step to the state");
  const cm::TsvData series = read_series(saved, name(each), series_columns, "restart.from");
  for (const std::vector<double>& row : series.rows)
    if (row[0] >= static_cast<double>(first) && row[0] < static_cast<double>(s.step))
      carried_window.samples.push_back(row);
  // one sample every sample.every steps from the first at or after the window's first step
  const long every = schedule.sample_every;
  const long expected = (s.step - 1) / every - (first + every - 1) / every + 1;
  if (static_cast<long>(carried_window.samples.size()) != expected)
    c.fail("restart.from", (saved.dir / series_file(name(each))).string() + " holds " +
                               std::to_string(carried_window.samples.size()) +
                               " samples of the window before the state, not " + std::to_string(expected));
  return carried_window;
}

double Restart::carried_samples(ContactLaw each) const {
  return carried[each] ? static_cast<double>(carried[each]->samples.size()) : 0.0;
}

void Restart::record(cm::Run& out, ContactLaw last) const {
  if (!run) return;
  // the wall time of the runs this one goes on from, each with its own earlier runs: a run of
  // hours made in parts says what the whole took (the report of a run of record shows it)
  out.statistics("restart", {{"earlier_runs_wall_seconds", earlier_runs_wall_seconds(*run)}});
  out.note("goes on from the state of run " + run->run_id + " (study " + run->study + ", " + run->solver +
           ") at step " + std::to_string(state[last]->step) +
           (law ? std::string(", every law from the ") + name(*law) + " law's frame (restart.law)" : std::string()));
  for (const Varied& v : varied) out.note("restart.vary: " + v.key + " = " + v.here + " here, " + v.there + " there");
}

}  // namespace md::granular

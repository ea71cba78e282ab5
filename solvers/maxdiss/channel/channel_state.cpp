// A channel's state in a run, and back (channel_state.hpp).
#include "maxdiss/channel/channel_state.hpp"

#include <algorithm>
#include <cmath>

#include "core/files.hpp"
#include "core/text.hpp"
#include "maxdiss/channel/channel_keys.hpp"

namespace md::granular {

namespace {

const std::vector<cm::Column> sphere_columns{
    {"id", "1"},   {"x", "m"},    {"y", "m"},    {"z", "m"}, {"vx", "m/s"},     {"vy", "m/s"},          {"vz", "m/s"},
    {"wx", "1/s"}, {"wy", "1/s"}, {"wz", "1/s"}, {"R", "m"}, {"inv_m", "1/kg"}, {"inv_I", "1/(kg m^2)"}};
const std::vector<cm::Column> window_columns{
    {"first_step", "1"}, {"max_penetration_all", "m"}, {"max_sphere_penetration_all", "m"}};
const std::vector<cm::Column> window_step_columns{
    {"step", "1"}, {"max_penetration", "m"}, {"max_sphere_penetration", "m"}};
const std::vector<cm::Column> clock_columns{{"step", "1"},    {"t", "s"},     {"plate", "m"},  {"inserted", "1"},
                                            {"deleted", "1"}, {"draws", "1"}, {"next_id", "1"}};

/// A count read back from a table: a whole number in [0, 2^53).
std::uint64_t count(double value, const std::string& what, const std::string& key) {
  if (!(value >= 0 && value < 0x1.0p53 && value == std::floor(value)))
    throw cm::InputError(key + ": " + what + " is not a count (" + cm::format_real(value) + ")");
  return static_cast<std::uint64_t>(value);
}

/// A table the run saved, with `columns`: every value finite, or (a time series, whose samples may
/// be infinite, such as a run's largest speed after a blow-up) every value a number. `missing` says
/// how a run comes to save the table, for the message when it did not.
enum class Values { finite, numbers };
const char* const saved_with_state = "run it with state.write = true, and the law among run.laws";
cm::TsvData read_table(const SavedRun& run, const std::string& name, const std::vector<cm::Column>& columns,
                       const std::string& key, const std::string& missing, Values values = Values::finite) {
  const std::filesystem::path file = run.dir / name;
  if (!std::filesystem::is_regular_file(file))
    throw cm::InputError(key + ": the run at '" + run.dir.string() + "' saved no " + name + " (" + missing + ")");
  cm::TsvData t;
  try {
    t = cm::read_tsv(file);
  } catch (const cm::InputError& e) {
    throw cm::InputError(key + ": " + e.what());
  }
  bool same = t.columns.size() == columns.size();
  for (std::size_t i = 0; same && i < columns.size(); ++i) same = t.columns[i].name == columns[i].name;
  if (!same) throw cm::InputError(key + ": " + file.string() + " does not hold the columns of a channel's " + name);
  for (const auto& row : t.rows)
    for (double x : row)
      if (values == Values::finite ? !std::isfinite(x) : std::isnan(x))
        throw cm::InputError(key + ": " + file.string() + " holds a value that is not " +
                             (values == Values::finite ? "finite" : "a number"));
  return t;
}

}  // namespace

void write_state(cm::Run& run, const ChannelState& s, const std::string& law) {
  const Spheres& S = s.spheres;
  cm::Table spheres = run.table("state_" + law + ".tsv", "every sphere of the last frame, to go on from (" + law + ")",
                                sphere_columns, {static_cast<double>(S.size()), "state.write"});
  for (std::size_t i = 0; i < S.size(); ++i)
    spheres.row({static_cast<double>(S.id[i]), S.x[i](0), S.x[i](1), S.x[i](2), S.vw[i].v(0), S.vw[i].v(1),
                 S.vw[i].v(2), S.vw[i].w(0), S.vw[i].w(1), S.vw[i].w(2), S.R[i], S.vw[i].inv_m, S.vw[i].inv_I});
  cm::Table clock = run.table("state_" + law + "_clock.tsv", "the clock and counters of that frame (" + law + ")",
                              clock_columns, {1, "state.write"});
  clock.row({static_cast<double>(s.step), s.t, s.plate, static_cast<double>(s.inserted), static_cast<double>(s.deleted),
             static_cast<double>(s.draws), static_cast<double>(s.next_id)});
}

void write_window(cm::Run& run, const WindowSoFar& w, const std::string& law) {
  cm::Table t = run.table("state_" + law + "_window.tsv",
                          "the averaging window so far: its first step, the deepest penetration of all its steps, of "
                          "every contact and between two spheres (" +
                              law + ")",
                          window_columns, {1, "state.write"});
  t.row({static_cast<double>(w.first_step), w.max_penetration_all, w.max_sphere_penetration_all});
  const std::size_t n = w.step_penetration.size();
  cm::Table steps = run.table("state_" + law + "_window_steps.tsv",
                              "the deepest penetration of each step of the window so far, of every contact and "
                              "between two spheres (" +
                                  law + ")",
                              window_step_columns, {static_cast<double>(n), "state.write"});
  for (std::size_t k = 0; k < n; ++k)
    steps.row({static_cast<double>(w.first_step + static_cast<long>(k)), w.step_penetration[k],
               w.step_sphere_penetration[k]});
}

SavedRun load_channel_run(const std::filesystem::path& dir, const std::string& key) {
  const std::filesystem::path file = dir / "run.json";
  if (!std::filesystem::is_regular_file(file))
    throw cm::InputError(key + ": no run at '" + dir.string() + "' (no run.json)");
  SavedRun r;
  r.json = cm::parse_run_json(cm::read_text(file, "run"), key + ": " + file.string());
  const nlohmann::json& j = r.json;
  r.dir = dir;
  r.run_id = j.at("run_id").get<std::string>();
  r.study = j.value("study", "");
  r.solver = j.contains("solver") ? j["solver"].value("name", "") : "";
  if (j.value("paper", "") != "maxdiss" || (r.solver != "md_channel" && r.solver != "md_channel_mpi"))
    throw cm::InputError(key + ": '" + dir.string() + "' is not a run of md_channel or md_channel_mpi");
  if (!j.contains("config") || !j["config"].contains("values") || !j["config"]["values"].is_object())
    throw cm::InputError(key + ": the run at '" + dir.string() + "' records no configuration");
  for (const auto& [name, value] : j["config"]["values"].items()) {
    if (!value.is_string()) throw cm::InputError(key + ": the run's configuration value of " + name + " is no text");
    r.config[name] = value.get<std::string>();
  }
  return r;
}

ChannelState read_state(const SavedRun& run, const std::string& law, const std::string& key) {
  const cm::TsvData clock = read_table(run, "state_" + law + "_clock.tsv", clock_columns, key, saved_with_state);
  if (clock.rows.size() != 1) throw cm::InputError(key + ": state_" + law + "_clock.tsv must hold one row");
  const std::vector<double>& c = clock.rows[0];
  ChannelState s;
  s.step = static_cast<long>(count(c[0], "the step", key));
  s.t = c[1];
  s.plate = c[2];
  s.inserted = static_cast<long>(count(c[3], "the spheres inserted", key));
  s.deleted = static_cast<long>(count(c[4], "the spheres deleted", key));
  s.draws = count(c[5], "the random numbers drawn", key);
  s.next_id = count(c[6], "the next identity", key);
  const cm::TsvData spheres = read_table(run, "state_" + law + ".tsv", sphere_columns, key, saved_with_state);
  for (const auto& r : spheres.rows) {
    const std::uint64_t id = count(r[0], "a sphere's identity", key);
    if (id >= s.next_id) throw cm::InputError(key + ": a sphere's identity is not below the next identity");
    if (!(r[10] > 0 && r[11] > 0 && r[12] > 0))
      throw cm::InputError(key + ": a sphere's radius, 1/m or 1/I is not positive");
    s.spheres.push(Vector3d(r[1], r[2], r[3]), Vector3d(r[4], r[5], r[6]), Vector3d(r[7], r[8], r[9]), r[10], r[11],
                   r[12], id);
  }
  s.spheres.set_next_id(s.next_id);
  return s;
}

std::string series_file(const std::string& law) { return "timeseries_" + law + ".tsv"; }

cm::TsvData read_series(const SavedRun& run, const std::string& law, const std::vector<cm::Column>& columns,
                        const std::string& key) {
  return read_table(run, series_file(law), columns, key, "a channel run writes one for each law among run.laws",
                    Values::numbers);
}

WindowSoFar read_window(const SavedRun& run, const std::string& law, const std::string& key) {
  const cm::TsvData t = read_table(run, "state_" + law + "_window.tsv", window_columns, key, saved_with_state);
  if (t.rows.size() != 1) throw cm::InputError(key + ": state_" + law + "_window.tsv must hold one row");
  WindowSoFar w;
  w.first_step = static_cast<long>(count(t.rows[0][0], "the window's first step", key));
  w.max_penetration_all = t.rows[0][1];
  w.max_sphere_penetration_all = t.rows[0][2];
  const cm::TsvData steps =
      read_table(run, "state_" + law + "_window_steps.tsv", window_step_columns, key, saved_with_state);
  for (std::size_t k = 0; k < steps.rows.size(); ++k) {
    const auto& row = steps.rows[k];
    if (row[0] != static_cast<double>(w.first_step + static_cast<long>(k)))
      throw cm::InputError(key + ": state_" + law + "_window_steps.tsv: row " + std::to_string(k + 1) +
                           " is not the step after the one before it");
    if (!(row[1] >= 0 && row[2] >= 0 && row[2] <= row[1]))
      throw cm::InputError(key + ": state_" + law + "_window_steps.tsv: row " + std::to_string(k + 1) +
                           " holds a negative penetration, or one between two spheres deeper than of every contact");
    w.step_penetration.push_back(row[1]);
    w.step_sphere_penetration.push_back(row[2]);
  }
  if (!(w.max_penetration_all >= 0 && w.max_sphere_penetration_all >= 0))
    throw cm::InputError(key + ": state_" + law + "_window.tsv: a deepest penetration is negative");
  if (w.max_sphere_penetration_all > w.max_penetration_all)
    throw cm::InputError(
        key + ": state_" + law +
        "_window.tsv: the deepest penetration between two spheres is deeper than that of every contact");
  return w;
}

void require_same_channel(const SavedRun& run, const std::map<std::string, std::string>& config, const std::string& key,
                          const std::vector<std::string>& may_differ) {
  for (const std::string& name : channel_physics_keys()) {
    const auto here = config.find(name), there = run.config.find(name);
    if (there == run.config.end())
      throw cm::InputError(key + ": the run at '" + run.dir.string() + "' has no key " + name);
    if (here == config.end())
      throw cm::InputError(key + ": the run at '" + run.dir.string() + "' has a key " + name +
                           " this run does not know");
    if (there->second != here->second && std::find(may_differ.begin(), may_differ.end(), name) == may_differ.end())
      throw cm::InputError(key + ": the run at '" + run.dir.string() + "' has " + name + " = " + there->second +
                           ", this run " + here->second + " (the channels must be the same)");
  }
}

}  // namespace md::granular

// md_channel: the granular channel flow of Sect. 4.3 (Table 2, Figs. 9-12), with the Coulomb and
// the maximally dissipative contact law.
//
// Glass spheres are pushed by a moving plate through a channel past an obstacle; every contact
// is hard (purely inelastic, Coulomb friction mu), resolved each step by the impulse-velocity
// stepper of Sect. 3.1 with a non-linear block Gauss-Seidel over the contacts (granular.hpp),
// once with the Coulomb time-stepping law and once with the maximum-dissipation law of Eq. (5).
// The channel, the inflow and the outflow are those of spec 001, 2.13 and 3.4 (channel.hpp).
//
// For each law the run records, at every `sample.every` steps (the paper: 1000 steps, 10 ms), the
// number of spheres and of contacts and the deepest penetration; over the averaging window it
// gives Table 2 (average spheres, solid volume fraction, average contacts, contacts per sphere as
// 2 N_c / N, maximum penetration), and beside it the contacts between two spheres apart (their
// count, and their deepest penetration: the paper's is "between two particles"); from the last
// frame the cell maps of Figs. 10-11 (velocity and angular velocity averaged over the spheres of
// each x-y cell), the peak speed, the radial distribution function near the outlet (Fig. 12) and a
// snapshot of the spheres (Fig. 9).
//
// The paper's run (10 s, 10^6 steps, 2.5e5 spheres) takes days on two cores; the presets:
//   configs/maxdiss/quick/channel.ini    a short, narrow, shallow channel (seconds; tests)
//   configs/maxdiss/channel.ini          full width and height, 8 cm long, 0.06 s: not the paper's
//                                        scale and not shown to be steady (make all's smoke run)
//   configs/maxdiss/channel_paper.ini    the paper's 10 s (its cost is projected into the run)
//   configs/maxdiss/steady_settle.ini    the paper's channel under maximum dissipation from t = 0
//                                        to 1.1 s, its frame saved (hours); then
//   configs/maxdiss/steady.ini           both laws from that frame over 0.3 s (restart.law): Table 2
//                                        from a window whose stationarity the run measures
//
// Over MPI ranks, as the paper ran it, the same study is md_channel_mpi (decomposition.hpp): the
// channel cut into mpi.grid subdomains, one per rank, NBGS inside each, pe's weighted block Jacobi
// across them. Rank 0 writes the run; on one rank the data are md_channel's, bit for bit.
//
// The two laws may be stepped side by side (solver.side_by_side), each on solver.threads threads,
// the one still running taking the other's threads when it ends: on two cores the sweeps then lose
// no time waiting for each other at the colours' barriers while both run, and the data are those of
// the laws stepped one after the other (they never depend on the threads). One law (run.laws) side
// by side has the other's threads from its first step.
//
// A run may save each law's last frame in full (state.write) and a later run go on from it
// (restart.from, channel_state.hpp), on one rank or many: the continuation is the run that never
// stopped, byte for byte. A window that begins before the saved frame goes on too: the saved run's
// samples of it and its deepest penetration (state_<law>_window.tsv) are carried into this run's
// time series and averages, so that a window of hours may be run in parts (make channel-steady-part).
// restart.law goes on from one law's frame with every law simulated: both
// laws then start from the same spheres at the same positions and velocities (the frame of a flow
// settled under one law, continued under each; configs/maxdiss/steady.ini). run.laws simulates one
// law only; compare.with writes this run's Table 2 against another run's over the same window (what
// the blend across ranks or another sweep order changes).
//
// Every run measures whether its averaging window is steady: the relative drift of a
// least-squares line across the window of the sphere count, solid fraction, contacts and kinetic
// energy (scalars drift_<quantity>_<law>; steady_<law> and steady when every one is below
// average.max_drift), and the batch-means standard error of each Table 2 average
// (se_<average>_<law>, average.batches), common/stationarity.hpp.
//
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_channel --config configs/maxdiss/quick/channel.ini --output try/channel
//   md_channel --config configs/maxdiss/quick/channel.ini --particles.radius=0.235e-3 --output try/channel
//   md_channel --config configs/maxdiss/channel.ini --output try/channel          (side by side)
//   md_channel --config configs/maxdiss/channel.ini --solver.side_by_side=false --solver.threads=2 --output try/channel
//   mpirun -np 2 md_channel_mpi --config configs/maxdiss/quick/channel.ini --mpi.grid=2,1,1 --output try/channel
//   md_channel --config configs/maxdiss/quick/channel.ini --state.write --output try/first
//   md_channel --config configs/maxdiss/quick/channel.ini --restart.from=try/first --time.t_end=0.02
//              --average.t_start=0.015 --output try/then          (one command line)
//   md_channel --config configs/maxdiss/quick/channel.ini --time.t_end=0.005 --average.t_start=0.003
//              --state.write --output try/half                    (a window in two parts: one command line,
//   md_channel --config configs/maxdiss/quick/channel.ini --average.t_start=0.003 --restart.from=try/half
//              --output try/rest                                   then another)
//   md_channel --config configs/maxdiss/quick/channel.ini --run.laws=maxdiss --state.write --output try/settled
//   md_channel --config configs/maxdiss/quick/channel.ini --restart.from=try/settled --restart.law=maxdiss
//              --time.t_end=0.02 --average.t_start=0.015 --output try/both   (both laws from one frame)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/run_reader.hpp"
#include "common/stationarity.hpp"
#include "common/study.hpp"
#include "common/text.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/channel_state.hpp"
#include "maxdiss/channel/rdf_peaks.hpp"
#ifdef MD_CHANNEL_MPI
#include "common/mpi_study.hpp"
#endif

namespace {

using namespace md::granular;
using md::ContactLaw, md::contact_laws, md::PerLaw;

/// What one simulation gives (one law).
struct Outcome {
  double avg_particles = 0, avg_contacts = 0, samples = 0;
  double max_pen_sampled = 0, max_pen_all = 0;  ///< the deepest penetration of every contact
  /// The contacts between two spheres apart (the paper's penetration is "between two particles",
  /// Sect. 4.3): their average count, and their deepest penetration, sampled and of all steps.
  double avg_sphere_contacts = 0, max_sphere_pen_sampled = 0, max_sphere_pen_all = 0;
  double wall_seconds = 0, particle_steps = 0, solves = 0;
  double thread_seconds = 0;            ///< the seconds stepped, each times the threads stepping then
  std::optional<long> widened_at_step;  ///< side by side: the step from which this law had the other's threads too
  long steps = 0, inserted = 0, deleted = 0;
  double peak_speed = 0, peak_mean_speed = 0;
  double rdf_first_peak = 0, rdf_secondary = 0;
  double rdf_grid_peaks = 0, rdf_grid_significance = 0;  ///< g(r) at the distances of the initial grid
  double speed_upstream = 0, speed_gap = 0, speed_downstream = 0;
  double spin_obstacle = 0, spin_bulk = 0;
  double memory_per_sphere = 0;
  /// The averaging window's stationarity: the relative drift of its least-squares line (sphere
  /// count, solid fraction, contacts, kinetic energy), and the batch-means standard error of each
  /// Table 2 average.
  double drift_particles = 0, drift_fraction = 0, drift_contacts = 0, drift_kinetic = 0;
  cm::BatchMeans se_particles, se_fraction, se_contacts, se_contacts_per_particle, se_sphere_contacts;
  bool steady = false;  ///< every drift below average.max_drift
};

class ChannelStudy {
 public:
#ifdef MD_CHANNEL_MPI
  static constexpr const char* solver = "md_channel_mpi";
#else
  static constexpr const char* solver = "md_channel";
#endif
  static constexpr cm::StudyInfo info{solver, "maxdiss", "channel",
                                      "Granular channel flow of Sect. 4.3 (Table 2, Figs. 9-12), both friction laws"};

  /// The ranks of the run (md_channel_mpi), before declare().
  void set_ranks(int ranks) { setup_.ranks = ranks; }

  void declare(cm::Config& c) {
    setup_.declare(c);

    // --- time ---
    c.add("time.t_end", &t_end_, "simulated time").unit("s").range(cm::Range::positive());
    c.add("sample.every", &sample_every_, "steps between two samples (the paper: 1000 steps, 10 ms)")
        .range(cm::Range::closed(1, 1e9));
    c.add("average.t_start", &t_avg_, "start of the averaging window (the paper averages over all 10 s)")
        .unit("s")
        .range(cm::Range::nonnegative());
    c.add("average.max_drift", &max_drift_,
          "the window is steady when the relative drift of each of its sphere count, solid fraction, contacts "
          "and kinetic energy (a least-squares line's change across the window over the mean) is below this")
        .range(cm::Range::open_closed(0.0, 1.0))
        .assumption("ASSUMED: not in the paper, which calls its 10 s steady; 1 % as the issue on Table 2 suggests");
    c.add("average.batches", &batches_,
          "batches of consecutive samples for the standard error of each average (batch means)")
        .range(cm::Range::closed(2, 1e6))
        .assumption("ASSUMED: not in the paper; 10 batches, the usual choice for batch means");

    // --- diagnostics ---
    c.add("cells.nx", &cells_nx_, "cells of the velocity maps along x").range(cm::Range::closed(1, 1e5));
    c.add("cells.ny", &cells_ny_, "cells of the velocity maps along y").range(cm::Range::closed(1, 1e5));
    c.add("cells.min_count", &cells_min_, "spheres a cell needs for the peak speed").range(cm::Range::closed(1, 1e6));
    c.add("rdf.region", &rdf_region_, "region of Fig. 12: x0, x1, y0, y1, z0, z1").unit("m").size(6);
    c.add("rdf.dr_over_d", &rdf_dr_, "bin width of g(r) in diameters")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper gives no bin width (spec 001, 6.5 item 18)");
    c.add("rdf.rmax_over_d", &rdf_rmax_, "largest r of g(r) in diameters").range(cm::Range::positive());
    c.add("rdf.secondary_from", &rdf_secondary_from_, "g(r) beyond this many diameters counts as secondary")
        .range(cm::Range::positive());
    c.add("rdf.peak_halfwidth", &rdf_peak_halfwidth_,
          "g(r) at a distance of the initial grid is a peak when it exceeds g this many diameters either side")
        .range(cm::Range::positive());
    c.add("rdf.peak_sigmas", &rdf_peak_sigmas_,
          "by more than this many standard errors of the pair counts (rdf_peaks.hpp)")
        .range(cm::Range::positive());
    c.add("regions.upstream", &upstream_, "x range of the homogeneous flow before the obstacle")
        .unit("m")
        .size(2)
        .increasing();
    c.add("regions.downstream", &downstream_, "x range of the flow after the obstacle").unit("m").size(2).increasing();
    c.add("regions.near_obstacle", &near_obstacle_, "gap to the obstacle within which a sphere is next to it")
        .unit("m")
        .range(cm::Range::positive());
    c.add("snapshot.write", &snapshot_, "write the spheres of the last frame (Fig. 9)");
    c.add_choice("run.laws", &laws_,
                 {{"both", {ContactLaw::coulomb, ContactLaw::maxdiss}},
                  {"coulomb", {ContactLaw::coulomb}},
                  {"maxdiss", {ContactLaw::maxdiss}}},
                 "the contact laws simulated: both (Table 2 and the comparison of the laws), or one");
    c.add("state.write", &state_write_,
          "write each law's last frame in full (state_<law>.tsv, state_<law>_clock.tsv), for restart.from");
    c.add("restart.from", &restart_from_,
          "a run of this channel that wrote its state (state.write) to go on from, or none (start at t = 0)")
        .names_run();
    c.add_choice("restart.law", &restart_law_,
                 {{"same", std::nullopt}, {"coulomb", ContactLaw::coulomb}, {"maxdiss", ContactLaw::maxdiss}},
                 "the saved frame of restart.from each simulated law goes on from: same (each law its own, the "
                 "run that never stopped), or coulomb or maxdiss (every law from that law's frame)");
    c.add("compare.with", &compare_with_,
          "a run of the same channel over the same window whose Table 2 this run's is compared with, or none")
        .names_run();
    c.add("solver.side_by_side", &side_by_side_,
          "step the two laws at the same time, each on solver.threads threads; the law still running when the "
          "other ends, or the one law of run.laws, takes the other's threads too (the data do not depend on it)");
    c.add("projection.cores", &projection_cores_, "cores of the cluster the paper's run is projected onto")
        .range(cm::Range::closed(1, 1e7));
    c.add("projection.efficiency", &projection_efficiency_, "parallel efficiency assumed for that projection")
        .range(cm::Range::open_closed(0.0, 1.0))
        .assumption("ASSUMED: a parallel efficiency for the projection onto a cluster, not measured here");
    c.add("projection.t_end", &projection_t_end_,
          "simulated time whose cost is projected from this run's measured rate per thread on the flow of its "
          "window (the paper's 10 s, Sect. 4.3)")
        .unit("s")
        .range(cm::Range::positive());

    c.check([&c, this] {
      const auto& o = setup_.channel.obstacle;
      cm::planned_steps(c, t_end_, setup_.engine.dt, "time.dt", "time.t_end");
      const double steps = t_end_ / setup_.engine.dt;
      if (std::fabs(steps - std::round(steps)) > 1e-9 * steps)
        c.fail("time.t_end", "must be a whole number of steps time.dt");
      steps_ = std::lround(steps);
      if (!(t_avg_ < t_end_)) c.fail("average.t_start", "must lie before time.t_end");
      if (side_by_side_ && setup_.ranks > 1)
        c.fail("solver.side_by_side", "steps the laws in two threads of one process, not over MPI ranks");
      // a sample (every sample.every steps, the last step included) must fall in the window
      const long first = first_averaged_step();
      if ((first + sample_every_ - 1) / sample_every_ * sample_every_ > steps_)
        c.fail("sample.every", "no sample falls in the averaging window from average.t_start to time.t_end");
      if (!(rdf_region_[0] < rdf_region_[1] && rdf_region_[2] < rdf_region_[3] && rdf_region_[4] < rdf_region_[5]))
        c.fail("rdf.region", "each range must increase (x0 < x1, y0 < y1, z0 < z1)");
      if (!(rdf_rmax_ > rdf_dr_)) c.fail("rdf.rmax_over_d", "must exceed rdf.dr_over_d");
      if (rdf_rmax_ / rdf_dr_ > 1e6) c.fail("rdf.dr_over_d", "more than 1e6 bins");
      // the bins must hold g at the farthest distance of the initial grid and a half-width beyond
      if (!(2.0 * setup_.channel.spacing / (2.0 * setup_.channel.R) + rdf_peak_halfwidth_ + rdf_dr_ < rdf_rmax_))
        c.fail("rdf.rmax_over_d",
               "must reach a bin beyond twice particles.spacing plus rdf.peak_halfwidth (in diameters)");
      if (!(rdf_peak_halfwidth_ < setup_.channel.spacing / (2.0 * setup_.channel.R)))
        c.fail("rdf.peak_halfwidth", "must be less than particles.spacing (in diameters)");
      if (cells_nx_ * cells_ny_ > 1e7) c.fail("cells.nx", "more than 1e7 cells");
      if (!(upstream_[1] <= o.cx - o.radius)) c.fail("regions.upstream", "must end before the obstacle");
      if (!(downstream_[0] >= o.cx + o.box_length)) c.fail("regions.downstream", "must start after the obstacle");
      if (restart_law_ && restart_from_ == "none")
        c.fail("restart.law", "names a saved frame to go on from: it needs restart.from");
      if (setup_.cuts == Cuts::balanced && restart_from_ == "none")
        c.fail("mpi.cuts", "balanced places the cuts by the spheres of a saved frame: it needs restart.from");
      if (restart_from_ == "none" && compare_with_ == "none") return;
      const std::map<std::string, std::string> values = c.effective();
      if (restart_from_ != "none") read_restart(c, values);
      if (compare_with_ != "none") {
        const SavedRun other = load_channel_run(compare_with_, "compare.with");
        require_same_channel(other, values, "compare.with");
        for (const char* key : {"time.t_end", "average.t_start", "sample.every"})
          if (other.config.at(key) != values.at(key))
            c.fail("compare.with", std::string("the run compared with has another ") + key + " (" +
                                       other.config.at(key) + "): the windows must be the same");
        compared_ = other;
        sweep_order_ = values.at("nbgs.order");
      }
    });
  }

  /// restart.from: the saved run's channel must be this one; each law simulated here must have
  /// its state there (or the law of restart.law its state), taken before time.t_end and not after
  /// average.t_start.
  void read_restart(cm::Config& c, const std::map<std::string, std::string>& values) {
    const SavedRun from = load_channel_run(restart_from_, "restart.from");
    require_same_channel(from, values, "restart.from");
    const long avg_from = first_averaged_step();
    for (ContactLaw law : laws_) {
      ChannelState s = restart_law_ ? read_state(from, name(*restart_law_), "restart.law")
                                    : read_state(from, name(law), "restart.from");
      if (s.step >= steps_)
        c.fail("time.t_end", "must lie after the state of restart.from (step " + std::to_string(s.step) + ")");
      if (avg_from < s.step) carried_[law] = carry_window(c, from, values, law, s);
      restart_[law] = std::move(s);
    }
    restarted_from_ = from;
  }

  /// The wall time of a saved run and of the runs it went on from (its statistic restart.earlier_runs_wall_seconds).
  static double earlier_runs_wall_seconds(const SavedRun& from) {
    const nlohmann::json& j = from.json;
    const double seconds =
        j.value("wall_time_s", 0.0) + cm::find_statistic(j, "restart", "earlier_runs_wall_seconds").value_or(0.0);
    if (!(std::isfinite(seconds) && seconds >= 0))
      throw cm::InputError("restart.from: the run at '" + from.dir.string() +
                           "' records a wall time that is not a time");
    return seconds;
  }

  /// A window that begins before the state gone on from is that run's window, gone on with: its
  /// samples (its time series, from average.t_start to the state) and its deepest penetration over
  /// all its steps (state_<law>_window.tsv), the run's own window of every law and with the same
  /// average.t_start and sample.every. The run going on is then the run that never stopped.
  struct Carried {
    WindowSoFar window;
    std::vector<std::vector<double>> samples;
  };
  Carried carry_window(cm::Config& c, const SavedRun& from, const std::map<std::string, std::string>& values,
                       ContactLaw law, const ChannelState& s) const {
    const std::string before = "must not lie before the state of restart.from (t = " + cm::format_real(s.t) + " s)";
    if (restart_law_)
      c.fail("average.t_start", before +
                                    " when every law goes on from one law's frame (restart.law): the window of "
                                    "the other law has no samples before it");
    for (const char* key : {"average.t_start", "sample.every"})
      if (from.config.at(key) != values.at(key))
        c.fail("average.t_start", before + " unless the window goes on from that run's: it has another " +
                                      std::string(key) + " (" + from.config.at(key) + ")");
    Carried carried;
    carried.window = read_window(from, name(law), "average.t_start");
    const long first = first_averaged_step();
    if (carried.window.first_step != first)
      c.fail("average.t_start", "the window saved by restart.from begins at step " +
                                    std::to_string(carried.window.first_step) + ", this run's at step " +
                                    std::to_string(first));
    const cm::TsvData series = read_series(from, name(law), series_columns, "restart.from");
    for (const std::vector<double>& row : series.rows)
      if (row[0] >= static_cast<double>(first) && row[0] < static_cast<double>(s.step)) carried.samples.push_back(row);
    // one sample every sample.every steps from the first at or after the window's first step
    const long expected = (s.step - 1) / sample_every_ - (first + sample_every_ - 1) / sample_every_ + 1;
    if (static_cast<long>(carried.samples.size()) != expected)
      c.fail("restart.from", (from.dir / series_file(name(law))).string() + " holds " +
                                 std::to_string(carried.samples.size()) +
                                 " samples of the window before the state, not " + std::to_string(expected));
    return carried;
  }

  /// The samples a law's window carries from the run gone on from.
  static double carried_samples(const ChannelStudy& study, ContactLaw law) {
    const auto& carried = study.carried_[law];
    return carried ? static_cast<double>(carried->samples.size()) : 0.0;
  }

  void run(cm::Run& run) {
    // the wall time of the runs this one goes on from, each with its own earlier runs: a run of
    // hours made in parts says what the whole took (the report of a run of record shows it)
    if (restarted_from_) {
      run.statistics("restart", {{"earlier_runs_wall_seconds", earlier_runs_wall_seconds(*restarted_from_)}});
      run.note("goes on from the state of run " + restarted_from_->run_id + " (study " + restarted_from_->study + ", " +
               restarted_from_->solver + ") at step " + std::to_string(restart_[laws_.back()]->step) +
               (restart_law_ ? std::string(", every law from the ") + name(*restart_law_) + " law's frame (restart.law)"
                             : std::string()));
    }
    write_geometry(run);
    cm::Table samples_both =
        run.table("table2.tsv", "Table 2 per law: 0 Coulomb, 1 maximum dissipation", table2_columns, {2, "run.study"});
    // Side by side both laws are set up, stepped together and finished; one after the other, each
    // law is set up, stepped and finished before the next, so that one channel is held at a time.
    PerLaw<std::unique_ptr<Simulation>> sims;
    auto finish = [&](ContactLaw law) {
      outcome_[law] = sims[law]->finish(run);
      sims[law].reset();  // its channel's memory
      std::vector<double> row = table2_row(outcome_[law]);
      row.insert(row.begin(), static_cast<double>(law));  // the law column: 0 Coulomb, 1 maximum dissipation
      samples_both.row(row);
    };
    if (side_by_side_ && both_laws()) {
      for (ContactLaw law : contact_laws) sims[law] = std::make_unique<Simulation>(*this, run, law);
      side_by_side(*sims[ContactLaw::coulomb], *sims[ContactLaw::maxdiss]);
      for (ContactLaw law : contact_laws) finish(law);
    } else {
      for (ContactLaw law : laws_) {
        sims[law] = std::make_unique<Simulation>(*this, run, law);
        // one law side by side (run.laws): no other law runs, so it has both laws' threads at once
        SideBySide alone;
        alone.running = 1;
        sims[law]->advance(side_by_side_ ? &alone : nullptr);
        finish(law);
      }
    }
    if (both_laws()) compare(run);
    if (compared_) compare_with(run);
  }

 private:
  /// Whether run.laws simulates both laws (Table 2 side by side, and the laws compared).
  bool both_laws() const { return laws_.size() == contact_laws.size(); }

  /// The first step whose sample counts in the averages: the first at or after average.t_start.
  long first_averaged_step() const { return std::lround(std::ceil(t_avg_ / setup_.engine.dt - 1e-9)); }

  /// The columns of table2.tsv: the law, then Table 2's quantities in the order of table2_row.
  static inline const std::vector<cm::Column> table2_columns{{"law", "1"},
                                                             {"avg_particles", "1"},
                                                             {"solid_volume_fraction", "1"},
                                                             {"avg_contacts", "1"},
                                                             {"contacts_per_particle", "1"},
                                                             {"max_penetration_sampled", "m"},
                                                             {"max_penetration_all", "m"},
                                                             {"avg_sphere_contacts", "1"},
                                                             {"max_sphere_penetration_sampled", "m"},
                                                             {"max_sphere_penetration_all", "m"}};
  /// The columns of timeseries_<law>.tsv, a sample of a law's simulation.
  static inline const std::vector<cm::Column> series_columns{{"step", "1"},
                                                             {"t", "s"},
                                                             {"particles", "1"},
                                                             {"contacts", "1"},
                                                             {"contacts_per_particle", "1"},
                                                             {"max_penetration", "m"},
                                                             {"solid_volume_fraction", "1"},
                                                             {"kinetic_translational", "J"},
                                                             {"kinetic_rotational", "J"},
                                                             {"inserted", "1"},
                                                             {"deleted", "1"},
                                                             {"residual", "1"},
                                                             {"colours", "1"},
                                                             {"sphere_contacts", "1"},
                                                             {"max_sphere_penetration", "m"}};
  /// A law's Table 2: average spheres, solid volume fraction, average contacts, contacts per
  /// sphere 2 N_c / N, deepest penetration of the sampled steps and of all steps of the window;
  /// then the contacts between two spheres apart: their average count, their deepest penetration.
  std::vector<double> table2_row(const Outcome& r) const {
    return {r.avg_particles,     fraction(r),   r.avg_contacts,        2.0 * r.avg_contacts / r.avg_particles,
            r.max_pen_sampled,   r.max_pen_all, r.avg_sphere_contacts, r.max_sphere_pen_sampled,
            r.max_sphere_pen_all};
  }

  /// Solid volume fraction: N (4/3 pi R^3) / V_free (spec 001, 2.13).
  double fraction(const Outcome& r) const {
    return r.avg_particles * sphere_volume(setup_.channel) / free_volume(setup_.channel);
  }

  /// The channel's geometry, for the figures.
  void write_geometry(cm::Run& run) const {
    cm::Table g = run.table("geometry.tsv", "channel, obstacle and spheres",
                            {{"length", "m"},
                             {"width", "m"},
                             {"height", "m"},
                             {"obstacle_x", "m"},
                             {"obstacle_y", "m"},
                             {"obstacle_radius", "m"},
                             {"obstacle_box_length", "m"},
                             {"radius", "m"},
                             {"average_from", "s"},
                             {"t_end", "s"}},
                            {1, "run.study"});
    g.row({setup_.channel.Lx, setup_.channel.Ly, setup_.channel.Lz, setup_.channel.obstacle.cx,
           setup_.channel.obstacle.cy, setup_.channel.obstacle.radius, setup_.channel.obstacle.box_length,
           setup_.channel.R, t_avg_, t_end_});
  }

  /// The laws stepped side by side (solver.side_by_side): how many still run, whether one failed.
  struct SideBySide {
    std::atomic<int> running{2};
    std::atomic<bool> failed{false};
  };

  /// One simulation of the channel with law 0 (Coulomb) or 1 (maximum dissipation), in three
  /// phases: set up (its data file opened), stepped to time.t_end (sampled on the way), and
  /// finished (the last frame's files and the scalars). Setting up and finishing write to the run
  /// and go law by law; stepping writes the law's own data file only, so that two laws may be
  /// stepped side by side (their data and scalars are those of the laws stepped one after the other).
  class Simulation {
   public:
    Simulation(ChannelStudy& study, cm::Run& run, ContactLaw law)
        : study_(study),
          name_(name(law)),
          eo_(study.setup_.engine_for(law)),
          coupling_(study.setup_.coupling(study.restart_[law] ? &study.restart_[law]->spheres
                                                              : nullptr)),  // over MPI ranks; none on one
          channel_(study.setup_.channel, eo_, coupling_.get(), study.restart_[law] ? &*study.restart_[law] : nullptr),
          k0_(channel_.steps()),  // 0, or the step of the state gone on from
          avg_from_(study.first_averaged_step()),
          volume_(channel_.sphere_volume()),
          free_(channel_.free_volume()),
          series_(run.table(series_file(name_), "samples of the " + name_ + " simulation", series_columns,
                            {static_cast<double>(study.steps_ / study.sample_every_ - k0_ / study.sample_every_ + 1 +
                                                 carried_samples(study, law)),
                             "sample.every"})),
          quiet_(run.quiet()) {
      // a window begun by the run gone on from: its samples and its deepest penetration so far
      if (const auto& carried = study.carried_[law]) {
        r_.max_pen_all = carried->window.max_penetration_all;
        r_.max_sphere_pen_all = carried->window.max_sphere_penetration_all;
        for (const std::vector<double>& row : carried->samples) take(row);
      }
    }

    /// Steps to time.t_end. Side by side (`pair`), the law still running when the other ends
    /// takes its threads too (the data do not depend on the threads), and a law stops early when
    /// the other failed (whose error the run reports).
    void advance(SideBySide* pair) {
      const long steps = study_.steps_, every = study_.sample_every_;
      cm::Progress progress("md_channel " + name_, channel_.t(), study_.t_end_, quiet_);
      const auto start = std::chrono::steady_clock::now();
      auto seconds = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      };
      double counted = 0.0;  // the seconds already in r_.thread_seconds
      auto count_thread_seconds = [&] {
        const double now = seconds();
        r_.thread_seconds += channel_.engine.options().threads * (now - counted);
        counted = now;
      };
      for (long k = k0_; k < steps; ++k) {
        if (pair) {
          if (pair->failed.load(std::memory_order_relaxed)) return;
          if (!r_.widened_at_step && pair->running.load(std::memory_order_relaxed) == 1) {
            count_thread_seconds();  // on the threads so far
            EngineOptions wide = channel_.engine.options();
            wide.threads += study_.setup_.engine.threads;  // the other law's (one key sets both)
            channel_.engine.set_options(wide);
            r_.widened_at_step = k;
            if (!quiet_)
              std::fprintf(stderr, "md_channel %s: no other law is running; on %d threads from step %ld\n",
                           name_.c_str(), wide.threads, k);
          }
        }
        const long n = channel_.particles();
        const bool sampled = k % every == 0;
        double kt = 0, kr = 0;
        if (sampled) energies(kt, kr);
        const StepStats st = channel_.step();
        r_.particle_steps += n;
        if (k >= avg_from_) {
          r_.max_pen_all = std::max(r_.max_pen_all, st.max_penetration);
          r_.max_sphere_pen_all = std::max(r_.max_sphere_pen_all, st.max_sphere_penetration);
        }
        if (sampled) sample(k, st, n, kt, kr);
        progress.update(channel_.t(),
                        "step " + std::to_string(k + 1) + "/" + std::to_string(steps) + ", " +
                            std::to_string(channel_.particles()) + " spheres, " + std::to_string(st.contacts) +
                            " contacts, residual " + cm::format_real(st.residual) + ", " +
                            cm::format_real(std::round(r_.particle_steps / seconds())) + " sphere-steps/s");
      }
      count_thread_seconds();  // for the rate per thread
      r_.wall_seconds = counted;
      r_.steps = steps - k0_;
      done_ = true;
    }

    /// The last frame's files and the scalars of the law.
    Outcome finish(cm::Run& run) {
      if (!done_) throw std::logic_error("md_channel: a simulation finished before it was stepped to its end");
      const long steps = study_.steps_;
      std::vector<double> solves{channel_.engine.solves()};
      channel_.sum(solves);  // over the subdomains
      r_.solves = solves[0];
      r_.inserted = channel_.inserted();
      r_.deleted = channel_.deleted();
      r_.memory_per_sphere =
          channel_.engine.bytes() / std::max<double>(1.0, static_cast<double>(channel_.engine.spheres.size()));
      if (study_.state_write_) {
        write_state(run, channel_.state(), name_);
        write_window(run, {avg_from_, r_.max_pen_all, r_.max_sphere_pen_all}, name_);
      }
      // the last frame: its contacts (detected, not solved) and its sample
      const StepStats last = channel_.engine.detect();
      if (steps % study_.sample_every_ == 0) {
        const long n = channel_.particles();
        double kt = 0, kr = 0;
        energies(kt, kr);
        sample(steps, last, n, kt, kr);
      }
      if (r_.samples == 0) throw cm::InputError("average.t_start: no sample lies in the averaging window");
      r_.avg_particles = sum_n_ / r_.samples;
      r_.avg_contacts = sum_c_ / r_.samples;
      r_.avg_sphere_contacts = sum_sc_ / r_.samples;
      const int batches = static_cast<int>(study_.batches_);
      r_.drift_particles = cm::relative_drift(window_.t, window_.n);
      r_.drift_fraction = cm::relative_drift(window_.t, window_.fraction);
      r_.drift_contacts = cm::relative_drift(window_.t, window_.contacts);
      r_.drift_kinetic = cm::relative_drift(window_.t, window_.kinetic);
      r_.se_particles = cm::batch_means(window_.n, batches);
      r_.se_fraction = cm::batch_means(window_.fraction, batches);
      r_.se_contacts = cm::batch_means(window_.contacts, batches);
      r_.se_contacts_per_particle = cm::batch_ratio(window_.contacts, window_.n, 2.0, batches);  // 2 N_c / N
      r_.se_sphere_contacts = cm::batch_means(window_.sphere_contacts, batches);
      r_.steady = true;
      for (double drift : {r_.drift_particles, r_.drift_fraction, r_.drift_contacts, r_.drift_kinetic})
        r_.steady = r_.steady && std::isfinite(drift) && std::fabs(drift) < study_.max_drift_;
      if (coupling_) run.statistics("decomposition_" + name_, coupling_->statistics());
      study_.last_frame(run, channel_.all_spheres(), channel_.engine.obstacles[0], name_, r_);
      study_.write_scalars(run, name_, r_, channel_);
      return r_;
    }

   private:
    /// The kinetic energies of the state at t_k (translational, rotational).
    void energies(double& kt, double& kr) {
      kt = kr = 0.0;
      const auto& S = channel_.engine.spheres;
      for (std::size_t i = 0; i < S.size(); ++i) {
        kt += 0.5 * S.vw[i].v.squaredNorm() / S.vw[i].inv_m;
        kr += 0.5 * S.vw[i].w.squaredNorm() / S.vw[i].inv_I;
      }
      std::vector<double> k{kt, kr};
      channel_.sum(k);  // over the subdomains
      kt = k[0];
      kr = k[1];
    }

    /// The sample of step k: the state at t_k and the contacts resolved in the step.
    void sample(long k, const StepStats& st, long n, double kt, double kr) {
      take({static_cast<double>(k), static_cast<double>(k) * eo_.dt, static_cast<double>(n),
            static_cast<double>(st.contacts), n > 0 ? 2.0 * st.contacts / n : 0.0, st.max_penetration,
            n * volume_ / free_, kt, kr, static_cast<double>(channel_.inserted()),
            static_cast<double>(channel_.deleted()), st.residual, static_cast<double>(st.colours),
            static_cast<double>(st.sphere_contacts), st.max_sphere_penetration});
    }

    /// A sample (a row of series_columns): written to the time series, and counted in the window
    /// when it lies there. A sample carried from the run gone on from is taken as read back, so
    /// that the window is the one of the run that never stopped, bit for bit.
    void take(const std::vector<double>& row) {
      series_.row(row);
      if (row[0] < static_cast<double>(avg_from_)) return;
      const double n = row[2], contacts = row[3];
      window_.t.push_back(row[1]);
      window_.n.push_back(n);
      window_.contacts.push_back(contacts);
      window_.fraction.push_back(row[6]);
      window_.kinetic.push_back(row[7] + row[8]);
      window_.sphere_contacts.push_back(row[13]);
      sum_n_ += n;
      sum_c_ += contacts;
      sum_sc_ += row[13];
      r_.samples += 1;
      r_.max_pen_sampled = std::max(r_.max_pen_sampled, row[5]);
      r_.max_sphere_pen_sampled = std::max(r_.max_sphere_pen_sampled, row[14]);
    }

    ChannelStudy& study_;
    std::string name_;
    EngineOptions eo_;
    std::unique_ptr<Coupling> coupling_;
    Channel channel_;
    long k0_, avg_from_;
    double volume_, free_;
    cm::Table series_;
    bool quiet_;
    Outcome r_;
    double sum_n_ = 0, sum_c_ = 0, sum_sc_ = 0;
    struct Window {  // the samples of the averaging window
      std::vector<double> t, n, contacts, fraction, kinetic, sphere_contacts;
    } window_;
    bool done_ = false;
  };

  /// Steps the two laws side by side (solver.side_by_side), the Coulomb law on a thread of its
  /// own. An error of either is reported once both have stopped.
  static void side_by_side(Simulation& coulomb, Simulation& maxdiss) {
    SideBySide pair;
    PerLaw<std::exception_ptr> error;
    auto lane = [&pair, &error](Simulation& sim, ContactLaw law) {
      try {
        sim.advance(&pair);
      } catch (...) {
        error[law] = std::current_exception();
        pair.failed = true;
      }
      --pair.running;
    };
    std::thread other(lane, std::ref(coulomb), ContactLaw::coulomb);
    lane(maxdiss, ContactLaw::maxdiss);
    other.join();
    for (const auto& e : error.values)
      if (e) std::rethrow_exception(e);
  }

  /// Figs. 9-12 and the claims of Sect. 4.3 from the last frame.
  void last_frame(cm::Run& run, const Spheres& S, const Obstacle& ob, const std::string& name, Outcome& r) {
    const std::size_t n = S.size();
    const double Lx = setup_.channel.Lx, Ly = setup_.channel.Ly;
    // --- Figs. 10, 11: cell averages over the x-y plane ---
    const long nx = cells_nx_, ny = cells_ny_;
    std::vector<double> count(static_cast<std::size_t>(nx * ny), 0.0);
    std::vector<Vector3d> sum_v(count.size(), Vector3d::Zero()), sum_w(count.size(), Vector3d::Zero());
    std::vector<double> sum_speed(count.size(), 0.0), sum_spin(count.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const long ix = std::clamp(static_cast<long>(std::floor(S.x[i](0) / Lx * nx)), 0L, nx - 1);
      const long iy = std::clamp(static_cast<long>(std::floor(S.x[i](1) / Ly * ny)), 0L, ny - 1);
      const std::size_t c = static_cast<std::size_t>(iy * nx + ix);
      count[c] += 1;
      sum_v[c] += S.vw[i].v;
      sum_w[c] += S.vw[i].w;
      sum_speed[c] += S.vw[i].v.norm();
      sum_spin[c] += S.vw[i].w.norm();
    }
    cm::Table cells = run.table("cells_" + name + ".tsv", "cell averages of the last frame (" + name + ", Figs. 10-11)",
                                {{"x", "m"},
                                 {"y", "m"},
                                 {"spheres", "1"},
                                 {"vx", "m/s"},
                                 {"vy", "m/s"},
                                 {"speed_of_mean", "m/s"},
                                 {"mean_speed", "m/s"},
                                 {"spin_of_mean", "1/s"},
                                 {"mean_spin", "1/s"}},
                                {static_cast<double>(nx * ny + ny), "cells.nx"});
    for (long iy = 0; iy < ny; ++iy) {
      for (long ix = 0; ix < nx; ++ix) {
        const std::size_t c = static_cast<std::size_t>(iy * nx + ix);
        const double k = count[c];
        const Vector3d mv = k > 0 ? Vector3d(sum_v[c] / k) : Vector3d::Zero();
        const Vector3d mw = k > 0 ? Vector3d(sum_w[c] / k) : Vector3d::Zero();
        cells.row({(ix + 0.5) * Lx / nx, (iy + 0.5) * Ly / ny, k, mv(0), mv(1), mv.norm(),
                   k > 0 ? sum_speed[c] / k : 0.0, mw.norm(), k > 0 ? sum_spin[c] / k : 0.0});
        if (k >= cells_min_) {
          r.peak_speed = std::max(r.peak_speed, mv.norm());
          r.peak_mean_speed = std::max(r.peak_mean_speed, sum_speed[c] / k);
        }
      }
      cells.gap();
    }
    // --- Sect. 4.3 claims: speeds upstream, beside and after the obstacle; spin at the obstacle ---
    double su = 0, nu = 0, sg = 0, ng = 0, sd = 0, nd = 0, so = 0, no = 0, sb = 0, nb = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Vector3d& p = S.x[i];
      const double speed = S.vw[i].v.norm(), spin = S.vw[i].w.norm();
      Vector3d normal;
      const double gap = ob.distance(p, normal) - S.R[i];
      if (p(0) >= upstream_[0] && p(0) <= upstream_[1]) su += speed, nu += 1;
      if (p(0) >= ob.cx - ob.radius && p(0) <= ob.cx + ob.box_length && std::fabs(p(1) - ob.cy) > ob.radius)
        sg += speed, ng += 1;  // in the gaps beside the obstacle
      if (p(0) >= downstream_[0] && p(0) <= downstream_[1]) {
        sd += speed, nd += 1;
        sb += spin, nb += 1;  // the bulk after the obstacle
      }
      if (gap <= near_obstacle_) so += spin, no += 1;
    }
    auto mean = [](double s, double k) { return k > 0 ? s / k : std::nan(""); };
    r.speed_upstream = mean(su, nu);
    r.speed_gap = mean(sg, ng);
    r.speed_downstream = mean(sd, nd);
    r.spin_obstacle = mean(so, no);
    r.spin_bulk = mean(sb, nb);

    // --- Fig. 12: g(r) in the region near the outlet ---
    rdf(run, S, name, r);

    // --- Fig. 9: the spheres of the last frame ---
    if (snapshot_) {
      cm::Table snap = run.table("snapshot_" + name + ".tsv", "spheres of the last frame (" + name + ", Fig. 9)",
                                 {{"x", "m"}, {"y", "m"}, {"z", "m"}, {"speed", "m/s"}, {"spin", "1/s"}},
                                 {static_cast<double>(n), "snapshot.write"});
      for (std::size_t i = 0; i < n; ++i)
        snap.row({S.x[i](0), S.x[i](1), S.x[i](2), S.vw[i].v.norm(), S.vw[i].w.norm()});
    }
  }

  /// g(r) over ordered pairs i != j with both spheres in the region, normalised by the number of
  /// spheres there and the expected count 4 pi rho r^2 dr of an ideal gas of the same density
  /// (no boundary correction; spec 001, 6.5 item 18).
  void rdf(cm::Run& run, const Spheres& S, const std::string& name, Outcome& r) {
    const double d = 2.0 * setup_.channel.R, dr = rdf_dr_ * d, rmax = rdf_rmax_ * d;
    std::vector<Vector3d> in;
    for (std::size_t i = 0; i < S.size(); ++i) {
      const Vector3d& p = S.x[i];
      if (p(0) >= rdf_region_[0] && p(0) < rdf_region_[1] && p(1) >= rdf_region_[2] && p(1) < rdf_region_[3] &&
          p(2) >= rdf_region_[4] && p(2) < rdf_region_[5])
        in.push_back(p);
    }
    const long bins = std::lround(std::floor(rmax / dr));
    std::vector<double> hist(static_cast<std::size_t>(bins), 0.0);
    // cells of size rmax over the region: pairs within rmax lie in neighbouring cells
    const Vector3d lo(rdf_region_[0], rdf_region_[2], rdf_region_[4]);
    const Vector3d ext(rdf_region_[1] - rdf_region_[0], rdf_region_[3] - rdf_region_[2],
                       rdf_region_[5] - rdf_region_[4]);
    Eigen::Vector3i nc;
    for (int a = 0; a < 3; ++a) nc(a) = std::max(1, std::min(1000, static_cast<int>(std::floor(ext(a) / rmax))));
    auto cell = [&](const Vector3d& p, int a) {
      return std::clamp(static_cast<int>(std::floor((p(a) - lo(a)) / ext(a) * nc(a))), 0, nc(a) - 1);
    };
    std::vector<std::vector<std::size_t>> grid(static_cast<std::size_t>(nc.prod()));
    for (std::size_t i = 0; i < in.size(); ++i)
      grid[static_cast<std::size_t>((cell(in[i], 2) * nc(1) + cell(in[i], 1)) * nc(0) + cell(in[i], 0))].push_back(i);
    for (std::size_t i = 0; i < in.size(); ++i) {
      const int cx = cell(in[i], 0), cy = cell(in[i], 1), cz = cell(in[i], 2);
      for (int z = std::max(0, cz - 1); z <= std::min(nc(2) - 1, cz + 1); ++z)
        for (int y = std::max(0, cy - 1); y <= std::min(nc(1) - 1, cy + 1); ++y)
          for (int x = std::max(0, cx - 1); x <= std::min(nc(0) - 1, cx + 1); ++x)
            for (std::size_t j : grid[static_cast<std::size_t>((z * nc(1) + y) * nc(0) + x)]) {
              if (j == i) continue;
              const double rij = (in[i] - in[j]).norm();
              const long b = static_cast<long>(rij / dr);
              if (b < bins) hist[static_cast<std::size_t>(b)] += 1;
            }
    }
    const double N = static_cast<double>(in.size()), rho = N / ext.prod();
    cm::Table t =
        run.table("rdf_" + name + ".tsv", "radial distribution function near the outlet (" + name + ", Fig. 12)",
                  {{"r_over_diameter", "1"}, {"r", "m"}, {"g", "1"}, {"pairs", "1"}},
                  {static_cast<double>(bins), "rdf.dr_over_d"});
    double gmax = -1;
    r.rdf_secondary = 0;
    std::vector<double> gs(static_cast<std::size_t>(bins), 0.0);
    for (long b = 0; b < bins; ++b) {
      const double r0 = b * dr, r1 = r0 + dr, rc = 0.5 * (r0 + r1);
      const double expected = N * rho * 4.0 / 3.0 * cm::pi * (r1 * r1 * r1 - r0 * r0 * r0);
      const double g = expected > 0 ? hist[static_cast<std::size_t>(b)] / expected : 0.0;
      t.row({rc / d, rc, g, hist[static_cast<std::size_t>(b)]});
      gs[static_cast<std::size_t>(b)] = g;
      if (g > gmax) {
        gmax = g;
        r.rdf_first_peak = rc / d;
      }
      if (rc / d > rdf_secondary_from_) r.rdf_secondary = std::max(r.rdf_secondary, g);
    }
    if (in.size() < 2) throw cm::InputError("rdf.region: fewer than two spheres in the region at the last frame");
    // "No additional favored distances": no peak where the grid of the initial arrangement and of
    // the inflow layers (particles.spacing) puts neighbours.
    r.rdf_grid_peaks = 0;
    r.rdf_grid_significance = -std::numeric_limits<double>::infinity();
    for (const DistancePeak& p : distance_peaks(gs, hist, rdf_dr_, initial_grid_distances(setup_.channel.spacing, d),
                                                rdf_peak_halfwidth_, rdf_peak_sigmas_)) {
      r.rdf_grid_peaks += p.peak ? 1 : 0;
      r.rdf_grid_significance = std::max(r.rdf_grid_significance, p.significance);
    }
  }

  void write_scalars(cm::Run& run, const std::string& name, const Outcome& r, const Channel& channel) {
    const double R = setup_.channel.R;
    run.scalar("avg_particles_" + name, r.avg_particles);
    run.scalar("solid_volume_fraction_pct_" + name, 100.0 * fraction(r), "%");
    run.scalar("avg_contacts_" + name, r.avg_contacts);
    run.scalar("contacts_per_particle_" + name, 2.0 * r.avg_contacts / r.avg_particles);  // 2 N_c / N
    // Stationarity of the window (average.max_drift) and the standard errors of the averages.
    const std::vector<std::pair<std::string, double>> drifts{{"particles", r.drift_particles},
                                                             {"solid_volume_fraction", r.drift_fraction},
                                                             {"contacts", r.drift_contacts},
                                                             {"kinetic_energy", r.drift_kinetic}};
    for (const auto& [quantity, drift] : drifts) run.scalar("drift_" + quantity + "_" + name, drift);
    run.scalar("steady_" + name, r.steady ? 1.0 : 0.0);
    run.scalar("se_avg_particles_" + name, r.se_particles.standard_error);
    run.scalar("se_solid_volume_fraction_pct_" + name, 100.0 * r.se_fraction.standard_error, "%");
    run.scalar("se_avg_contacts_" + name, r.se_contacts.standard_error);
    run.scalar("se_contacts_per_particle_" + name, r.se_contacts_per_particle.standard_error);
    run.scalar("se_batches_" + name, r.se_particles.batches);
    run.scalar("max_penetration_um_" + name, 1e6 * r.max_pen_sampled, "um");
    run.scalar("max_penetration_all_um_" + name, 1e6 * r.max_pen_all, "um");
    run.scalar("max_penetration_pct_radius_" + name, 100.0 * r.max_pen_sampled / R, "%");
    // The contacts between two spheres apart: the paper's penetration is "between two particles"
    // (Sect. 4.3); their count says how many of avg_contacts_* the boundaries hold.
    run.scalar("avg_sphere_contacts_" + name, r.avg_sphere_contacts);
    run.scalar("se_avg_sphere_contacts_" + name, r.se_sphere_contacts.standard_error);
    run.scalar("max_sphere_penetration_um_" + name, 1e6 * r.max_sphere_pen_sampled, "um");
    run.scalar("max_sphere_penetration_all_um_" + name, 1e6 * r.max_sphere_pen_all, "um");
    run.scalar("max_sphere_penetration_pct_radius_" + name, 100.0 * r.max_sphere_pen_sampled / R, "%");
    run.scalar("peak_speed_" + name, r.peak_speed, "m/s");
    run.scalar("peak_mean_speed_" + name, r.peak_mean_speed, "m/s");
    run.scalar("rdf_first_peak_over_diameter_" + name, r.rdf_first_peak);
    run.scalar("rdf_secondary_peak_" + name, r.rdf_secondary);
    run.scalar("rdf_initial_grid_peaks_" + name, r.rdf_grid_peaks);
    run.scalar("rdf_initial_grid_peak_significance_" + name, r.rdf_grid_significance);
    run.scalar("speed_upstream_" + name, r.speed_upstream, "m/s");
    run.scalar("speed_obstacle_" + name, r.speed_gap, "m/s");
    run.scalar("speed_downstream_" + name, r.speed_downstream, "m/s");
    run.scalar("spin_obstacle_" + name, r.spin_obstacle, "1/s");
    run.scalar("spin_bulk_" + name, r.spin_bulk, "1/s");
    run.scalar("samples_" + name, r.samples);
    run.scalar("inserted_" + name, static_cast<double>(r.inserted));
    run.scalar("deleted_" + name, static_cast<double>(r.deleted));
    run.scalar("inflow_rate_" + name, static_cast<double>(r.inserted) / t_end_, "1/s");
    run.scalar("layer_size_" + name, static_cast<double>(channel.layer_size()));
    // The cost of this run: measured, so it changes from run to run and is kept among the
    // statistics (recorded, never compared as data: make verify re-runs and compares scalars).
    const double rate = r.particle_steps / r.wall_seconds;
    const double per_thread = r.particle_steps / (r.thread_seconds * setup_.ranks);
    std::map<std::string, double> cost{
        {"wall_seconds", r.wall_seconds},
        {"sphere_steps_per_second", rate},
        {"sphere_steps_per_thread_second", per_thread},
        {"contact_solves_per_second", r.solves / r.wall_seconds},
        {"seconds_per_step", r.wall_seconds / static_cast<double>(r.steps)},
        {"sphere_steps", r.particle_steps},
        {"threads", static_cast<double>(setup_.engine.threads)},
        {"thread_seconds", r.thread_seconds},
        {"ranks", static_cast<double>(setup_.ranks)},
        {"memory_per_sphere_bytes", r.memory_per_sphere},
        // onto projection.cores at projection.efficiency from the measured rate per thread
        {"projected_seconds_on_cluster", r.particle_steps / (per_thread * projection_cores_ * projection_efficiency_)}};
    // projection.t_end (the paper's 10 s) of the flow this run averaged (its window's average sphere
    // count every step), at this run's rate per thread: one thread, and the cluster as above
    const double projected_steps = r.avg_particles * std::round(projection_t_end_ / setup_.engine.dt);
    cost["projected_sphere_steps_of_projection_t_end"] = projected_steps;
    cost["projected_seconds_of_projection_t_end_one_thread"] = projected_steps / per_thread;
    cost["projected_seconds_of_projection_t_end_on_cluster"] =
        projected_steps / (per_thread * projection_cores_ * projection_efficiency_);
    if (r.widened_at_step) cost["widened_at_step"] = static_cast<double>(*r.widened_at_step);  // side by side
    run.statistics("cost_" + name, cost);
    run.note(name + ": " + cm::format_real(projection_t_end_) + " s of this flow (projection.t_end; " +
             cm::format_g(r.avg_particles, 4) + " spheres on average over the window, " +
             cm::format_g(projected_steps, 3) + " sphere-steps) at this run's measured " + cm::format_g(per_thread, 3) +
             " sphere-steps per thread-second take " + cm::format_g(projected_steps / per_thread / 3600.0, 3) +
             " hours on one thread, " +
             cm::format_g(projected_steps / (per_thread * projection_cores_ * projection_efficiency_) / 3600.0, 3) +
             " hours on " + std::to_string(projection_cores_) + " cores at an efficiency of " +
             cm::format_g(projection_efficiency_, 3) + " (projection.efficiency, assumed)");
  }

  /// The two laws against each other (P49) and the claims of Sect. 4.3 over both.
  void compare(cm::Run& run) {
    const Outcome &c = outcome_[ContactLaw::coulomb], &m = outcome_[ContactLaw::maxdiss];
    auto rel = [](double a, double b) { return std::fabs(a - b) / (0.5 * (std::fabs(a) + std::fabs(b))); };
    const double diff = std::max({rel(c.avg_particles, m.avg_particles), rel(fraction(c), fraction(m)),
                                  rel(c.avg_contacts, m.avg_contacts),
                                  rel(c.avg_contacts / c.avg_particles, m.avg_contacts / m.avg_particles)});
    run.scalar("model_rel_diff_averages_max", diff);
    run.scalar("steady", c.steady && m.steady ? 1.0 : 0.0);  // both windows (average.max_drift)
    run.scalar("rdf_secondary_peak_max", std::max(c.rdf_secondary, m.rdf_secondary));
    run.scalar("rdf_initial_grid_peaks_max", std::max(c.rdf_grid_peaks, m.rdf_grid_peaks));
    run.scalar("speed_obstacle_over_upstream_min",
               std::min(c.speed_gap / c.speed_upstream, m.speed_gap / m.speed_upstream));
    run.scalar("speed_downstream_over_obstacle_max",
               std::max(c.speed_downstream / c.speed_gap, m.speed_downstream / m.speed_gap));
    run.scalar("spin_obstacle_over_bulk_min", std::min(c.spin_obstacle / c.spin_bulk, m.spin_obstacle / m.spin_bulk));
    run.scalar("inflow_rate", static_cast<double>(m.inserted) / t_end_, "1/s");
    run.scalar("time_steps", static_cast<double>(steps_));
    run.scalar("radius", setup_.channel.R, "m");
  }

  /// compare.with: this run's Table 2 against the other run's, law by law, as relative
  /// differences (this - other) / other, and a note that says what was compared with what.
  void compare_with(cm::Run& run) {
    const cm::TsvData other = cm::read_tsv(compared_->dir / "table2.tsv");
    bool same = other.columns.size() == table2_columns.size();
    for (std::size_t q = 0; same && q < table2_columns.size(); ++q)
      same = other.columns[q].name == table2_columns[q].name;
    if (!same) throw cm::InputError("compare.with: the table2.tsv of the run compared with has other columns");
    std::string text;
    for (ContactLaw law : laws_) {
      const std::vector<double> mine = table2_row(outcome_[law]);
      for (const auto& row : other.rows) {
        if (row[0] != static_cast<double>(law)) continue;
        text += std::string(text.empty() ? "" : "; ") + name(law) + ":";
        for (std::size_t q = 0; q < mine.size(); ++q) {
          const std::string& quantity = table2_columns[q + 1].name;
          const double diff = (mine[q] - row[q + 1]) / std::fabs(row[q + 1]);
          run.scalar(quantity + "_rel_diff_" + name(law), diff);
          char item[160];
          std::snprintf(item, sizeof item, "%s %s %.6g against %.6g (%+.2f %%)", q ? "," : "", quantity.c_str(),
                        mine[q], row[q + 1], 100.0 * diff);
          text += item;
        }
      }
    }
    if (text.empty()) throw cm::InputError("compare.with: the run compared with simulated none of this run's laws");
    run.note("Table 2 of this run (" + std::to_string(setup_.ranks) + " rank(s), mpi.grid " +
             std::to_string(setup_.subdomains[0]) + "," + std::to_string(setup_.subdomains[1]) + "," +
             std::to_string(setup_.subdomains[2]) + ", nbgs.order " + sweep_order_ + ") against run " +
             compared_->run_id + " (study " + compared_->study + ", " + compared_->solver +
             "), over the same window: " + text);
  }

  ChannelSetup setup_;
  std::vector<ContactLaw> laws_{contact_laws.begin(), contact_laws.end()};  // run.laws, in the order of the laws
  bool side_by_side_ = false;
  bool state_write_ = false;
  std::string restart_from_ = "none", compare_with_ = "none";
  std::optional<ContactLaw> restart_law_;  // restart.law: the law whose frame every law goes on from, or none (same)
  PerLaw<std::optional<ChannelState>> restart_;
  PerLaw<std::optional<Carried>> carried_;  // the window begun by the run gone on from, per law
  std::optional<SavedRun> restarted_from_, compared_;
  std::string sweep_order_;  // compare.with: this run's sweep order, for its note
  double t_end_ = 10.0, t_avg_ = 0.0, max_drift_ = 0.01;
  long batches_ = 10;
  long sample_every_ = 1000, steps_ = 0;
  long cells_nx_ = 150, cells_ny_ = 65, cells_min_ = 3;
  std::vector<double> rdf_region_{0.12, 0.14, 0.0, 0.065, 0.0, 0.02};
  double rdf_dr_ = 0.02, rdf_rmax_ = 5.0, rdf_secondary_from_ = 1.5;
  double rdf_peak_halfwidth_ = 0.04, rdf_peak_sigmas_ = 3.0;
  std::vector<double> upstream_{0.01, 0.025}, downstream_{0.06, 0.14};
  double near_obstacle_ = 1e-3;
  bool snapshot_ = true;
  long projection_cores_ = 640;
  double projection_efficiency_ = 0.8, projection_t_end_ = 10.0;
  PerLaw<Outcome> outcome_;
};

}  // namespace

#ifdef MD_CHANNEL_MPI
int main(int argc, char** argv) { return cm::mpi::study_main<ChannelStudy>(argc, argv); }
#else
int main(int argc, char** argv) { return cm::study_main<ChannelStudy>(argc, argv); }
#endif

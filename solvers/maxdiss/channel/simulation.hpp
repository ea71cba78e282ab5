// One law's simulation of the channel (README.md): set up from t = 0 or a saved frame, stepped to
// time.t_end with a sample every sample.every steps, and finished with the averages of Table 2
// and the window's stationarity. Two laws may be stepped side by side (side_by_side()).
//
// Setting up and finishing write to the run and go law by law; stepping writes the law's own time
// series only, so that two laws stepped side by side give the data and scalars of the laws stepped
// one after the other. Side by side, the law still running when the other ends takes the other's
// threads too, since the data never depend on the threads.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/restart.hpp"
#include "maxdiss/channel/schedule.hpp"
#include "numerics/extremes.hpp"
#include "numerics/stationarity.hpp"

namespace md::granular {

/// What one simulation gives (one law).
struct Outcome {
  double avg_particles = 0, avg_contacts = 0, samples = 0;
  double max_pen_sampled = 0, max_pen_all = 0;  ///< the deepest penetration of every contact
  /// The contacts between two spheres apart (the paper's penetration is "between two particles",
  /// Sect. 4.3): their average count, and their deepest penetration, sampled and of all steps.
  double avg_sphere_contacts = 0, max_sphere_pen_sampled = 0, max_sphere_pen_all = 0;
  /// The contacts as pe counted them (count.pe_grid): their average count.
  double avg_pe_contacts = 0;
  /// The largest of extremes.draws snapshots' deepest penetration, of every contact and between two
  /// spheres, from the window's steps; none where the window has too few steps for it.
  std::optional<cm::MaximumOfDraws> draws_penetration, draws_sphere_penetration;
  std::string draws_refused;  ///< why they are none
  /// The paper's average over its whole run (average.whole_run_to): spheres, contacts, contacts as pe
  /// counted them, and the share of its samples measured rather than projected; none where not
  /// asked or where the runs gone on from leave a gap (whole_run_refused says which).
  struct WholeRun {
    double particles = 0, contacts = 0, pe_contacts = 0, measured = 0;
  };
  std::optional<WholeRun> whole_run;
  std::string whole_run_refused;
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
  cm::BatchMeans se_pe_contacts, se_pe_contacts_per_particle;
  bool steady = false;  ///< every drift below average.max_drift
};

/// The columns of timeseries_<law>.tsv, a sample of a law's simulation.
extern const std::vector<cm::Column> series_columns;
/// The columns of table2.tsv: the law, then Table 2's quantities in the order of table2_row().
extern const std::vector<cm::Column> table2_columns;
/// Solid volume fraction: N (4/3 pi R^3) / V_free (spec 001, 2.13).
double solid_fraction(const Outcome& r, const ChannelOptions& channel);
/// A law's Table 2: average spheres, solid volume fraction, average contacts, contacts per
/// sphere 2 N_c / N, deepest penetration of the sampled steps and of all steps of the window;
/// then the contacts between two spheres apart: their average count, their deepest penetration.
std::vector<double> table2_row(const Outcome& r, const ChannelOptions& channel);

/// The scalars of the largest of extremes.draws snapshots of `law`, in µm: the median of that
/// largest one (<quantity>_draws_um_<law>), its confidence interval (_lo, _hi) and its own 5 % and
/// 95 % quantiles (_p05, _p95), of every contact and between two spheres; a note where the window
/// is too short for them.
void record_draws(cm::Run& run, const std::string& law, const Outcome& r, long draws);

/// The laws stepped side by side (solver.side_by_side): how many still run, whether one failed.
struct SideBySide {
  std::atomic<int> running{2};
  std::atomic<bool> failed{false};
};

/// One simulation of the channel with law 0 (Coulomb) or 1 (maximum dissipation), in three
/// phases: set up (its time series opened), stepped to time.t_end (sampled on the way), and
/// finished (its averages; the caller then analyses the last frame and writes the scalars).
class Simulation {
 public:
  /// `coupling`: the law's part of a split over ranks (ChannelSetup::coupling()), or none.
  Simulation(const ChannelSetup& setup, const Schedule& schedule, const Restart& restart, cm::Run& run, ContactLaw law,
             std::unique_ptr<Coupling> coupling);

  /// Steps to time.t_end. Side by side (`pair`), the law still running when the other ends
  /// takes its threads too (the data do not depend on the threads), and a law stops early when
  /// the other failed (whose error the run reports).
  void advance(SideBySide* pair);
  /// The saved frame (state.write), the last frame's sample, the window's averages and
  /// stationarity, and the decomposition's statistics over ranks.
  Outcome finish(cm::Run& run, bool write_state);
  const Channel& channel() const { return channel_; }

 private:
  /// The kinetic energies of the state at t_k (translational, rotational).
  void energies(double& kt, double& kr);
  /// The sample of step k: the state at t_k and the contacts resolved in the step.
  void sample(long k, const StepStats& st, long n, double kt, double kr);
  /// A sample (a row of series_columns): written to the time series, and counted in the window
  /// when it lies there.
  void take(const std::vector<double>& row);

  const ChannelSetup& setup_;
  const Schedule& schedule_;
  std::string name_;
  EngineOptions eo_;
  std::unique_ptr<Coupling> coupling_;
  Channel channel_;
  long k0_, avg_from_;
  double volume_, free_;
  cm::Table series_;
  bool quiet_;
  Outcome r_;
  double sum_n_ = 0, sum_c_ = 0, sum_sc_ = 0, sum_pe_ = 0;
  std::vector<double> step_pen_, step_sphere_pen_;   // each step's deepest penetration in the window
  const std::map<long, Restart::Sampled>* history_;  // the runs gone on from, back to t = 0
  std::map<long, Restart::Sampled> own_;             // this run's samples at the whole-run average's steps
  /// The paper's average over its whole run (average.whole_run_to), once the window's are known.
  void whole_run_average();
  struct Window {  // the samples of the averaging window
    std::vector<double> t, n, contacts, fraction, kinetic, sphere_contacts, pe_contacts;
  } window_;
  bool done_ = false;
};

/// Steps the two laws side by side (solver.side_by_side), the Coulomb law on a thread of its
/// own. An error of either is reported once both have stopped.
void side_by_side(Simulation& coulomb, Simulation& maxdiss);

}  // namespace md::granular

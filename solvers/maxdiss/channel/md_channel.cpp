// md_channel: the granular channel flow of Sect. 4.3 (Table 2, Figs. 9-12), with the Coulomb and
// the maximally dissipative contact law. README.md here tells the study whole: the presets, the two
// laws side by side, restarts and runs in parts, MPI ranks and their cuts, the steady pair and the
// run of record.
//
// Glass spheres pushed by a moving plate flow through a channel past an obstacle; every contact is
// hard, resolved each step by the impulse-velocity stepper of Sect. 3.1 (granular/engine.hpp). This
// file is the study (channel_study.hpp): its keys, its run of one law or both (simulation.hpp) and
// what it writes: Table 2 per law, the geometry, the scalars and the comparisons. Its units: the
// channel's keys (channel_keys.hpp), the time and window (schedule.hpp), the restart (restart.hpp),
// the last frame (last_frame.hpp), the cost (cost.hpp) and compare.with (compared_run.hpp). The key coupling, read
// first, chooses one process or one subdomain per MPI rank (over_ranks.cpp), so MPI starts only for ranks.
//
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_channel --config configs/maxdiss/quick/channel.ini --output try/channel
//   md_channel --config configs/maxdiss/channel.ini --output try/channel          (side by side)
//   mpirun -np 2 md_channel --config configs/maxdiss/quick/channel.ini --coupling=ranks --mpi.grid=2,1,1
//          --output try/ranks                                       (one command line)
//   md_channel --config configs/maxdiss/quick/channel.ini --state.write --output try/first
//   md_channel --config configs/maxdiss/quick/channel.ini --restart.from=try/first --time.t_end=0.02
//              --average.t_start=0.015 --output try/then           (one command line)
//   md_channel --config configs/maxdiss/quick/channel.ini --run.laws=maxdiss --state.write --output try/settled
//   md_channel --config configs/maxdiss/quick/channel.ini --restart.from=try/settled --restart.law=maxdiss
//              --time.t_end=0.02 --average.t_start=0.015 --output try/both   (both laws from one frame)
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "maxdiss/channel/channel_study.hpp"
#include "maxdiss/channel/fibers.hpp"

namespace md::granular {

namespace {

/// The ranks an MPI launcher started (Open MPI's, or a PMI's such as Slurm's), 1 without one.
long launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name)) return std::max(1L, std::atol(value));
  return 1;
}

}  // namespace

void ChannelStudy::declare(cm::Config& c) {
  setup_.declare(c);
  schedule_.declare(c);
  last_frame_.declare(c);
  c.add_choice("run.laws", &laws_,
               {{"both", {ContactLaw::coulomb, ContactLaw::maxdiss}},
                {"coulomb", {ContactLaw::coulomb}},
                {"maxdiss", {ContactLaw::maxdiss}}},
               "the contact laws simulated: both (Table 2 and the comparison of the laws), or one");
  restart_.declare(c);
  compared_.declare(c);
  c.add("solver.side_by_side", &side_by_side_,
        "step the two laws at the same time, each on solver.threads threads; the law still running when the "
        "other ends, or the one law of run.laws, takes the other's threads too (the data do not depend on it)");
  projection_.declare(c);

  c.check([&c, this] {
    if (setup_.coupling_choice != CouplingChoice::ranks && launched_ranks() > 1)
      c.fail("coupling", "runs the whole channel in each of the " + std::to_string(launched_ranks()) +
                             " ranks mpirun started, into one output: give coupling = ranks");
    schedule_.check(c, setup_.engine.dt);
    if (side_by_side_ && setup_.coupling_choice != CouplingChoice::serial)
      c.fail("solver.side_by_side", "steps the laws in two threads of one process, not split into subdomains");
    last_frame_.check(c, setup_.channel);
    if (restart_.law && restart_.from == "none")
      c.fail("restart.law", "names a saved frame to go on from: it needs restart.from");
    if (!restart_.vary.empty() && restart_.from == "none")
      c.fail("restart.vary", "names keys that may differ from restart.from's run: it needs restart.from");
    if (setup_.cuts == Cuts::balanced && restart_.from == "none")
      c.fail("mpi.cuts", "balanced places the cuts by the spheres of a saved frame: it needs restart.from");
    if (restart_.from == "none" && !compared_.asked()) return;
    const std::map<std::string, std::string> values = c.effective();
    if (restart_.from != "none") restart_.read(c, values, laws_, schedule_);
    compared_.check(c, values);
  });
}

void ChannelStudy::run(cm::Run& run, Transport* ranks) {
  // the grid of subdomains for each law (balanced cuts follow the frame the law goes on from)
  PerLaw<SubdomainGrid> grids;
  if (setup_.coupling_choice != CouplingChoice::serial)
    for (ContactLaw law : laws_)
      grids[law] = setup_.grid(restart_.state[law] ? &restart_.state[law]->spheres : nullptr);
  if (setup_.coupling_choice != CouplingChoice::subdomains) return run_subdomain(run, grids, ranks);
  // every subdomain in this process, on fibers: the first writes the run, the others compute with it
  const int P = grids[laws_.front()].size();
  std::vector<std::unique_ptr<cm::Run>> quiet;
  for (int r = 1; r < P; ++r) quiet.push_back(run.discarding_twin());
  run_on_fibers(P, setup_.engine.threads, [&](Transport& t) {
    run_subdomain(t.rank() == 0 ? run : *quiet[static_cast<std::size_t>(t.rank() - 1)], grids, &t);
  });
}

void ChannelStudy::run_subdomain(cm::Run& run, const PerLaw<SubdomainGrid>& grids, Transport* transport) {
  restart_.record(run, laws_.back());
  write_geometry(run);
  cm::Table table2 =
      run.table("table2.tsv", "Table 2 per law: 0 Coulomb, 1 maximum dissipation", table2_columns, {2, "run.study"});
  // Side by side both laws are set up, stepped together and finished; one after the other, each
  // law is set up, stepped and finished before the next, so that one channel is held at a time.
  PerLaw<std::unique_ptr<Simulation>> sims;
  auto start = [&](ContactLaw law) {
    sims[law] =
        std::make_unique<Simulation>(setup_, schedule_, restart_, run, law, setup_.coupling(grids[law], transport));
  };
  const bool first = !transport || transport->rank() == 0;  // the subdomain that writes
  auto finish = [&](ContactLaw law) {
    const Channel& channel = sims[law]->channel();
    const Outcome outcome = sims[law]->finish(run, restart_.write);
    const Spheres all = channel.all_spheres();  // gathered on the first subdomain
    if (first) {
      outcome_[law] = outcome;
      last_frame_.analyse(run, all, channel.engine.obstacles[0], name(law), outcome_[law], setup_.channel);
      write_scalars(run, name(law), outcome_[law], channel);
      std::vector<double> row = table2_row(outcome_[law], setup_.channel);
      row.insert(row.begin(), static_cast<double>(law));  // the law column: 0 Coulomb, 1 maximum dissipation
      table2.row(row);
    }
    sims[law].reset();  // its channel's memory
  };
  if (side_by_side_ && both_laws()) {
    for (ContactLaw law : contact_laws) start(law);
    side_by_side(*sims[ContactLaw::coulomb], *sims[ContactLaw::maxdiss]);
    for (ContactLaw law : contact_laws) finish(law);
  } else {
    for (ContactLaw law : laws_) {
      start(law);
      // one law side by side (run.laws): no other law runs, so it has both laws' threads at once
      SideBySide alone;
      alone.running = 1;
      sims[law]->advance(side_by_side_ ? &alone : nullptr);
      finish(law);
    }
  }
  if (!first) return;
  if (both_laws()) compare(run);
  if (compared_.asked()) compared_.write(run, laws_, outcome_, setup_);
}

void ChannelStudy::write_geometry(cm::Run& run) const {
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
         setup_.channel.R, schedule_.t_avg, schedule_.t_end});
}

void ChannelStudy::write_scalars(cm::Run& run, const std::string& name, const Outcome& r,
                                 const Channel& channel) const {
  const double R = setup_.channel.R;
  run.scalar("avg_particles_" + name, r.avg_particles);
  run.scalar("solid_volume_fraction_pct_" + name, 100.0 * solid_fraction(r, setup_.channel), "%");
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
  record_draws(run, name, r, schedule_.draws);
  // The paper's own average: over its whole run from t = 0, the settling flow included
  if (r.whole_run) {
    const Outcome::WholeRun& w = *r.whole_run;
    run.scalar("avg_particles_whole_run_" + name, w.particles);
    run.scalar("avg_contacts_whole_run_" + name, w.contacts);
    run.scalar("contacts_per_particle_whole_run_" + name, 2.0 * w.contacts / w.particles);
    run.scalar("contacts_per_particle_pe_whole_run_" + name, 2.0 * w.pe_contacts / w.particles);
    run.scalar("whole_run_measured_fraction_" + name, w.measured);
    if (restart_.law && std::string(md::name(*restart_.law)) != name)
      run.note("The average over the whole run (" + name + ") takes its samples before this run from the " +
               md::name(*restart_.law) + " law's runs gone on from (restart.law)");
  } else if (schedule_.whole_run_to > 0.0) {
    run.note("No average over the whole run (" + name + "): " + r.whole_run_refused);
  }
  // The contacts as pe counted them on count.pe_grid (pe_count.hpp): a contact across blocks once
  // for each block that holds both its spheres.
  run.scalar("avg_contacts_pe_" + name, r.avg_pe_contacts);
  run.scalar("se_avg_contacts_pe_" + name, r.se_pe_contacts.standard_error);
  run.scalar("contacts_per_particle_pe_" + name, 2.0 * r.avg_pe_contacts / r.avg_particles);  // 2 N_pe / N
  run.scalar("se_contacts_per_particle_pe_" + name, r.se_pe_contacts_per_particle.standard_error);
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
  run.scalar("inflow_rate_" + name, static_cast<double>(r.inserted) / schedule_.t_end, "1/s");
  run.scalar("layer_size_" + name, static_cast<double>(channel.layer_size()));
  projection_.record(run, name, r, setup_);
}

void ChannelStudy::compare(cm::Run& run) const {
  const Outcome &c = outcome_[ContactLaw::coulomb], &m = outcome_[ContactLaw::maxdiss];
  auto rel = [](double a, double b) { return std::fabs(a - b) / (0.5 * (std::fabs(a) + std::fabs(b))); };
  const double diff = std::max(
      {rel(c.avg_particles, m.avg_particles), rel(solid_fraction(c, setup_.channel), solid_fraction(m, setup_.channel)),
       rel(c.avg_contacts, m.avg_contacts), rel(c.avg_contacts / c.avg_particles, m.avg_contacts / m.avg_particles)});
  run.scalar("model_rel_diff_averages_max", diff);
  run.scalar("steady", c.steady && m.steady ? 1.0 : 0.0);  // both windows (average.max_drift)
  run.scalar("rdf_secondary_peak_max", std::max(c.rdf_secondary, m.rdf_secondary));
  run.scalar("rdf_initial_grid_peaks_max", std::max(c.rdf_grid_peaks, m.rdf_grid_peaks));
  run.scalar("speed_obstacle_over_upstream_min",
             std::min(c.speed_gap / c.speed_upstream, m.speed_gap / m.speed_upstream));
  run.scalar("speed_downstream_over_obstacle_max",
             std::max(c.speed_downstream / c.speed_gap, m.speed_downstream / m.speed_gap));
  run.scalar("spin_obstacle_over_bulk_min", std::min(c.spin_obstacle / c.spin_bulk, m.spin_obstacle / m.spin_bulk));
  run.scalar("inflow_rate", static_cast<double>(m.inserted) / schedule_.t_end, "1/s");
  run.scalar("time_steps", static_cast<double>(schedule_.steps));
  run.scalar("radius", setup_.channel.R, "m");
}

}  // namespace md::granular

namespace {

/// Thrown by the first check of coupling_asked(): every key read, none checked.
struct KeysRead {};

/// The coupling the command line asks for (the key coupling, there or in its configuration), read
/// before anything else, so that MPI is initialised for ranks only. None after --help or
/// --version, printed here. A command line that does not parse is left to the serial study, which
/// says why.
std::optional<md::granular::CouplingChoice> coupling_asked(int argc, char** argv) {
  using md::granular::ChannelStudy;
  ChannelStudy study;
  cm::Config c(ChannelStudy::info.solver, ChannelStudy::info.summary);
  c.check([] { throw KeysRead{}; });  // before the checks of the keys
  std::string name;
  cm::Budget budget;
  std::string store;
  cm::declare_run_keys(c, ChannelStudy::info, name, budget, store);
  study.declare(c);
  try {
    c.parse(argc, argv);
    return std::nullopt;
  } catch (const KeysRead&) {
    return study.coupling();
  } catch (const std::exception&) {
    return md::granular::CouplingChoice::serial;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<md::granular::CouplingChoice> coupling = coupling_asked(argc, argv);
  if (!coupling) return cm::exit_ok;
  if (*coupling == md::granular::CouplingChoice::ranks) return md::granular::study_over_ranks(argc, argv);
  return cm::study_main<md::granular::ChannelStudy>(argc, argv);
}

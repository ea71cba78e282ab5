// One law's simulation of the channel (simulation.hpp).
#include "maxdiss/channel/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "core/text.hpp"

namespace md::granular {

const std::vector<cm::Column> series_columns{{"step", "1"},
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
                                             {"max_sphere_penetration", "m"},
                                             {"pe_contacts", "1"}};

const std::vector<cm::Column> table2_columns{{"law", "1"},
                                             {"avg_particles", "1"},
                                             {"solid_volume_fraction", "1"},
                                             {"avg_contacts", "1"},
                                             {"contacts_per_particle", "1"},
                                             {"max_penetration_sampled", "m"},
                                             {"max_penetration_all", "m"},
                                             {"avg_sphere_contacts", "1"},
                                             {"max_sphere_penetration_sampled", "m"},
                                             {"max_sphere_penetration_all", "m"}};

double solid_fraction(const Outcome& r, const ChannelOptions& channel) {
  return r.avg_particles * sphere_volume(channel) / free_volume(channel);
}

std::vector<double> table2_row(const Outcome& r, const ChannelOptions& channel) {
  return {r.avg_particles,       solid_fraction(r, channel),
          r.avg_contacts,        2.0 * r.avg_contacts / r.avg_particles,
          r.max_pen_sampled,     r.max_pen_all,
          r.avg_sphere_contacts, r.max_sphere_pen_sampled,
          r.max_sphere_pen_all};
}

Simulation::Simulation(const ChannelSetup& setup, const Schedule& schedule, const Restart& restart, cm::Run& run,
                       ContactLaw law, std::unique_ptr<Coupling> coupling)
    : setup_(setup),
      schedule_(schedule),
      name_(name(law)),
      eo_(setup.engine_for(law)),
      coupling_(std::move(coupling)),
      channel_(setup.channel, eo_, coupling_.get(), restart.state[law] ? &*restart.state[law] : nullptr),
      k0_(channel_.steps()),  // 0, or the step of the state gone on from
      avg_from_(schedule.first_averaged_step()),
      volume_(channel_.sphere_volume()),
      free_(channel_.free_volume()),
      series_(
          run.table(series_file(name_), "samples of the " + name_ + " simulation", series_columns,
                    {static_cast<double>(schedule.samples_from(k0_)) + restart.carried_samples(law), "sample.every"})),
      quiet_(run.quiet()),
      history_(&restart.history[law]) {
  // a window begun by the run gone on from: its samples and its deepest penetration so far
  if (const auto& carried = restart.carried[law]) {
    r_.max_pen_all = carried->window.max_penetration_all;
    r_.max_sphere_pen_all = carried->window.max_sphere_penetration_all;
    step_pen_ = carried->window.step_penetration;
    step_sphere_pen_ = carried->window.step_sphere_penetration;
    for (const std::vector<double>& row : carried->samples) take(row);
  }
}

void Simulation::advance(SideBySide* pair) {
  const long steps = schedule_.steps, every = schedule_.sample_every;
  cm::Progress progress("md_channel " + name_, channel_.t(), schedule_.t_end, quiet_);
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double counted = 0.0;                 // the seconds already in r_.thread_seconds
  int threads = setup_.engine.threads;  // stepping now (coupling = subdomains: all of them, each engine on one)
  auto count_thread_seconds = [&] {
    const double now = seconds();
    r_.thread_seconds += threads * (now - counted);
    counted = now;
  };
  for (long k = k0_; k < steps; ++k) {
    if (pair) {
      if (pair->failed.load(std::memory_order_relaxed)) return;
      if (!r_.widened_at_step && pair->running.load(std::memory_order_relaxed) == 1) {
        count_thread_seconds();  // on the threads so far
        EngineOptions wide = channel_.engine.options();
        wide.threads += setup_.engine.threads;  // the other law's (one key sets both)
        channel_.engine.set_options(wide);
        threads = wide.threads;
        r_.widened_at_step = k;
        if (!quiet_)
          std::fprintf(stderr, "md_channel %s: no other law is running; on %d threads from step %ld\n", name_.c_str(),
                       wide.threads, k);
      }
    }
    const long n = channel_.particles();
    const bool sampled = k % every == 0;
    double kt = 0, kr = 0;
    if (sampled) energies(kt, kr);
    channel_.engine.set_pe_count(sampled);  // read at the samples alone
    const StepStats st = channel_.step();
    r_.particle_steps += n;
    if (k >= avg_from_) {
      r_.max_pen_all = std::max(r_.max_pen_all, st.max_penetration);
      r_.max_sphere_pen_all = std::max(r_.max_sphere_pen_all, st.max_sphere_penetration);
      step_pen_.push_back(st.max_penetration);
      step_sphere_pen_.push_back(st.max_sphere_penetration);
    }
    if (sampled) sample(k, st, n, kt, kr);
    progress.update(channel_.t(), "step " + std::to_string(k + 1) + "/" + std::to_string(steps) + ", " +
                                      std::to_string(channel_.particles()) + " spheres, " +
                                      std::to_string(st.contacts) + " contacts, residual " +
                                      cm::format_real(st.residual) + ", " +
                                      cm::format_real(std::round(r_.particle_steps / seconds())) + " sphere-steps/s");
  }
  count_thread_seconds();  // for the rate per thread
  r_.wall_seconds = counted;
  r_.steps = steps - k0_;
  done_ = true;
}

Outcome Simulation::finish(cm::Run& run, bool write_state_too) {
  if (!done_) throw std::logic_error("md_channel: a simulation finished before it was stepped to its end");
  const long steps = schedule_.steps;
  std::vector<double> solves{channel_.engine.solves()};
  channel_.sum(solves);  // over the subdomains
  r_.solves = solves[0];
  r_.inserted = channel_.inserted();
  r_.deleted = channel_.deleted();
  r_.memory_per_sphere =
      channel_.engine.bytes() / std::max<double>(1.0, static_cast<double>(channel_.engine.spheres.size()));
  if (write_state_too) {
    write_state(run, channel_.state(), name_);
    write_window(run, {avg_from_, r_.max_pen_all, r_.max_sphere_pen_all, step_pen_, step_sphere_pen_}, name_);
  }
  // the last frame: its contacts (detected, not solved) and its sample
  channel_.engine.set_pe_count(true);
  const StepStats last = channel_.engine.detect();
  if (steps % schedule_.sample_every == 0) {
    const long n = channel_.particles();
    double kt = 0, kr = 0;
    energies(kt, kr);
    sample(steps, last, n, kt, kr);
  }
  if (r_.samples == 0) throw cm::InputError("average.t_start: no sample lies in the averaging window");
  r_.avg_particles = sum_n_ / r_.samples;
  r_.avg_contacts = sum_c_ / r_.samples;
  r_.avg_sphere_contacts = sum_sc_ / r_.samples;
  r_.avg_pe_contacts = sum_pe_ / r_.samples;
  const int batches = static_cast<int>(schedule_.batches);
  r_.drift_particles = cm::relative_drift(window_.t, window_.n);
  r_.drift_fraction = cm::relative_drift(window_.t, window_.fraction);
  r_.drift_contacts = cm::relative_drift(window_.t, window_.contacts);
  r_.drift_kinetic = cm::relative_drift(window_.t, window_.kinetic);
  r_.se_particles = cm::batch_means(window_.n, batches);
  r_.se_fraction = cm::batch_means(window_.fraction, batches);
  r_.se_contacts = cm::batch_means(window_.contacts, batches);
  r_.se_contacts_per_particle = cm::batch_ratio(window_.contacts, window_.n, 2.0, batches);  // 2 N_c / N
  r_.se_sphere_contacts = cm::batch_means(window_.sphere_contacts, batches);
  r_.se_pe_contacts = cm::batch_means(window_.pe_contacts, batches);
  r_.se_pe_contacts_per_particle = cm::batch_ratio(window_.pe_contacts, window_.n, 2.0, batches);
  // the largest of extremes.draws snapshots, from every step of the window (numerics/extremes.hpp),
  // with batch means of as many batches as the averages
  cm::QuantileOptions extremes;
  extremes.batches = batches;
  try {
    r_.draws_penetration = cm::maximum_of_draws(step_pen_, schedule_.draws, 0.90, extremes);
    r_.draws_sphere_penetration = cm::maximum_of_draws(step_sphere_pen_, schedule_.draws, 0.90, extremes);
  } catch (const cm::InputError& e) {
    r_.draws_penetration.reset();
    r_.draws_sphere_penetration.reset();
    r_.draws_refused = e.what();
  }
  if (schedule_.whole_run_to > 0.0) whole_run_average();
  r_.steady = true;
  for (double drift : {r_.drift_particles, r_.drift_fraction, r_.drift_contacts, r_.drift_kinetic})
    r_.steady = r_.steady && std::isfinite(drift) && std::fabs(drift) < schedule_.max_drift;
  if (coupling_) run.statistics("decomposition_" + name_, coupling_->statistics());
  return r_;
}

// The paper averages its 10 s sampled every 1000 steps from t = 0 (Sect. 4.3): the settling flow
// counts. Its samples are this run's, before it those of the runs it went on from, and after its
// end the window's averages (the flow taken as staying as the window found it).
void Simulation::whole_run_average() {
  const long last = std::lround(schedule_.whole_run_to / eo_.dt), every = schedule_.whole_run_every;
  Outcome::WholeRun w;
  double samples = 0;
  for (long k = 0; k <= last; k += every, samples += 1) {
    const auto own = own_.find(k);
    const auto before = history_->find(k);
    const Restart::Sampled* x =
        own != own_.end() ? &own->second : (before != history_->end() ? &before->second : nullptr);
    if (x) {
      w.particles += x->particles, w.contacts += x->contacts, w.pe_contacts += x->pe_contacts;
      w.measured += 1;
    } else if (k > schedule_.steps) {
      w.particles += r_.avg_particles, w.contacts += r_.avg_contacts, w.pe_contacts += r_.avg_pe_contacts;
    } else {
      r_.whole_run_refused = "no sample at step " + std::to_string(k) +
                             " in this run or the runs it went on from (restart.from, back to t = 0)";
      return;
    }
  }
  w.particles /= samples, w.contacts /= samples, w.pe_contacts /= samples, w.measured /= samples;
  r_.whole_run = w;
}

void record_draws(cm::Run& run, const std::string& law, const Outcome& r, long draws) {
  if (!r.draws_penetration) {
    run.note("No estimate of the largest of " + std::to_string(draws) + " snapshots' penetration (" + law +
             "): " + r.draws_refused);
    return;
  }
  const std::pair<const char*, const cm::MaximumOfDraws*> quantities[] = {
      {"max_penetration_draws", &*r.draws_penetration}, {"max_sphere_penetration_draws", &*r.draws_sphere_penetration}};
  for (const auto& [quantity, m] : quantities) {
    const std::string q = quantity;
    run.scalar(q + "_um_" + law, 1e6 * m->median.value, "um");
    run.scalar(q + "_lo_um_" + law, 1e6 * m->median.lower, "um");
    run.scalar(q + "_hi_um_" + law, 1e6 * m->median.upper, "um");
    run.scalar(q + "_p05_um_" + law, 1e6 * m->low.value, "um");
    run.scalar(q + "_p95_um_" + law, 1e6 * m->high.value, "um");
  }
}

void Simulation::energies(double& kt, double& kr) {
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

void Simulation::sample(long k, const StepStats& st, long n, double kt, double kr) {
  take({static_cast<double>(k), static_cast<double>(k) * eo_.dt, static_cast<double>(n),
        static_cast<double>(st.contacts), n > 0 ? 2.0 * st.contacts / n : 0.0, st.max_penetration, n * volume_ / free_,
        kt, kr, static_cast<double>(channel_.inserted()), static_cast<double>(channel_.deleted()), st.residual,
        static_cast<double>(st.colours), static_cast<double>(st.sphere_contacts), st.max_sphere_penetration,
        static_cast<double>(st.pe_contacts)});
}

// A sample carried from the run gone on from is taken as read back, so that the window is the one
// of the run that never stopped, bit for bit.
void Simulation::take(const std::vector<double>& row) {
  series_.row(row);
  if (schedule_.whole_run_to > 0.0 && std::lround(row[0]) % schedule_.whole_run_every == 0)
    own_[std::lround(row[0])] = {row[2], row[3], row[15]};
  if (row[0] < static_cast<double>(avg_from_)) return;
  const double n = row[2], contacts = row[3];
  window_.t.push_back(row[1]);
  window_.n.push_back(n);
  window_.contacts.push_back(contacts);
  window_.fraction.push_back(row[6]);
  window_.kinetic.push_back(row[7] + row[8]);
  window_.sphere_contacts.push_back(row[13]);
  window_.pe_contacts.push_back(row[15]);
  sum_n_ += n;
  sum_c_ += contacts;
  sum_sc_ += row[13];
  sum_pe_ += row[15];
  r_.samples += 1;
  r_.max_pen_sampled = std::max(r_.max_pen_sampled, row[5]);
  r_.max_sphere_pen_sampled = std::max(r_.max_sphere_pen_sampled, row[14]);
}

void side_by_side(Simulation& coulomb, Simulation& maxdiss) {
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

}  // namespace md::granular

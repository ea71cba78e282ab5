// md_channel_bench: what the granular channel's hard-contact engine costs (make bench).
//
// The timed state is the developed flow: the last frame a run of md_channel saved (bench.from, the
// default channel under make bench; its maximum-dissipation frame, the two laws having the same
// unique solution on a sphere contact, spec 001, 2.6), or with bench.from = none the channel of
// md_channel's keys started at t = 0. Either is first run on for bench.warmup seconds. The state is
// then timed for bench.steps steps under each law and each thread count of bench.threads, every
// time from the same state, bench.repeats times in rounds (every law and thread count once a round,
// so that a slow spell of a shared machine falls on all of them alike). Each is reported by its
// median repetition, the spread of its repetitions beside it. Its contacts per sphere are recorded
// beside the rates.
// Beside the engine on the whole channel, the paper's solver on bench.grid is timed from the same
// state: every subdomain in this process on fibers, the threads taking whole subdomains
// (coupling = subdomains, fibers.hpp), on each thread count of bench.threads.
// The run records the sphere-steps and contact solves per second, the parallel efficiency (rate on p threads over p
// times the rate on one), and the memory per sphere (the engine's arrays, and the process's peak resident size). The
// data (the timed state's counts) do not depend on the thread counts; the rates do. The timed state itself is written
// (state.tsv), so that another engine can be timed on the same spheres (pipeline/maxdiss/lammps_channel.sh: LAMMPS'
// granular package, side by side).
//
// Sample run (into a scratch folder of its own):
//   md_channel_bench --config configs/maxdiss/channel_bench.ini --output try/channel_bench
//   (bench.from names results/maxdiss/channel: make results/maxdiss/channel/run.json first, or
//   give --bench.from=none --bench.warmup=0.02 for the flow still developing)
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/study.hpp"
#include "core/text.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/channel_state.hpp"
#include "maxdiss/channel/fibers.hpp"

namespace {

using namespace md::granular;
using md::ContactLaw, md::contact_laws;

class ChannelBench {
 public:
  static constexpr cm::StudyInfo info{"md_channel_bench", "maxdiss", "channel_bench",
                                      "Cost of the granular channel's engine, per law and thread count"};

  void declare(cm::Config& c) {
    setup_.declare(c);
    c.add("bench.from", &from_,
          "a run of this channel that saved its state (state.write): its maximum-dissipation frame is the state "
          "timed, or none (the channel from t = 0)")
        .names_run();
    c.add("bench.warmup", &warmup_, "simulated time before the timing, from bench.from's frame or from t = 0")
        .unit("s")
        .range(cm::Range::nonnegative());
    c.add("bench.steps", &steps_, "steps timed per law and thread count").range(cm::Range::closed(1, 1e7));
    c.add("bench.repeats", &repeats_,
          "times each law and thread count is timed, in rounds; the median is reported (an odd count has one)")
        .range(cm::Range::closed(1, 1000))
        .no_data();
    c.add("bench.threads", &threads_, "thread counts timed")
        .range(cm::Range::closed(1, cm::max_threads))
        .nonempty()
        .no_data();
    c.add("bench.grid", &grid_,
          "subdomains along x, y and z on which the paper's solver is timed too, every subdomain in this process "
          "(coupling = subdomains); 1, 1, 1: none")
        .size(3)
        .range(cm::Range::closed(1, 1e4));
    c.add("bench.grid_steps", &grid_steps_,
          "steps timed on bench.grid per law and thread count (fewer than bench.steps: on two cores a step of the "
          "paper's grid in one process takes several times the whole channel's)")
        .range(cm::Range::closed(1, 1e7));
    c.check([&c, this] {
      if (setup_.coupling_choice != CouplingChoice::serial)
        c.fail("coupling", "md_channel_bench times the whole channel, and the subdomains of bench.grid beside it");
      const double extent[3] = {setup_.channel.Lx, setup_.channel.Ly, setup_.channel.Lz};
      for (std::size_t a = 0; a < 3; ++a)
        if (extent[a] / static_cast<double>(grid_[a]) < setup_.reach())
          c.fail("bench.grid", "a subdomain would be thinner along " + std::string(1, "xyz"[a]) +
                                   " than the contact reach " + cm::format_real(setup_.reach()) + " m");
    });
    c.check([&c, this] {
      // no warm-up (0 s) is no step; any other is a whole time stepping within the budget
      if (warmup_ > 0.0) cm::planned_steps(c, warmup_, setup_.engine.dt, "time.dt", "bench.warmup");
      if (from_ == "none") return;
      const SavedRun saved = load_channel_run(from_, "bench.from");
      require_same_channel(saved, c.effective(), "bench.from");
      from_state_ = read_state(saved, "maxdiss", "bench.from");
      from_run_ = saved.run_id;
    });
  }

  void run(cm::Run& run) {
    const Channel channel = timed_state(run);
    write_state(run, channel);
    // bench.repeats rounds of every law and thread count, then each reported by its median
    std::map<std::pair<ContactLaw, int>, std::vector<Timing>> timed;
    cm::Progress progress("md_channel_bench", 0.0, static_cast<double>(repeats_), run.quiet(), "round");
    for (long round = 0; round < repeats_; ++round) {
      for (ContactLaw law : contact_laws)
        for (int threads : threads_) timed[{law, threads}].push_back(time(channel, law, threads));
      progress.update(static_cast<double>(round + 1), "timed");
    }
    // the paper's grid, on fibers, in rounds of its own after those of the engine on the whole channel
    const bool grid = grid_[0] * grid_[1] * grid_[2] > 1;
    std::map<std::pair<ContactLaw, int>, std::vector<Timing>> timed_grid;
    if (grid) {
      const ChannelState from = channel.state();
      cm::Progress on_grid("md_channel_bench on bench.grid", 0.0, static_cast<double>(repeats_), run.quiet(), "round");
      for (long round = 0; round < repeats_; ++round) {
        for (ContactLaw law : contact_laws)
          for (int threads : threads_) timed_grid[{law, threads}].push_back(time_grid(from, law, threads));
        on_grid.update(static_cast<double>(round + 1), "timed");
      }
    }
    Timings timings(run, threads_.size());
    double spread = 0.0;
    for (ContactLaw law : contact_laws) {
      double rate1 = 0.0;  // the rate on one thread, for the parallel efficiency
      for (int threads : threads_)
        spread = std::max(spread, report(run, timings, law, threads, timed[{law, threads}], rate1));
    }
    if (grid) {
      cm::Table on_grid = grid_table(run, threads_.size());
      for (ContactLaw law : contact_laws) {
        double rate1 = 0.0;
        for (int threads : threads_)
          spread = std::max(spread, report_grid(run, on_grid, law, threads, timed_grid[{law, threads}], rate1));
      }
    }
    // the largest spread of a law and thread count's repetitions, (slowest - fastest) / median: how
    // far one timing alone could have been off on this machine at this time
    run.scalar("largest_spread_of_repetitions", spread);
    // the sweep relaxes four sphere-sphere contacts at once where the processor has AVX2, else two,
    // and holds them in AVX-512VL's 32 registers where it has those (the data are the same bits
    // either way, the rates are not)
    run.scalar("lanes_avx2", avx2_available() ? 1.0 : 0.0);
    run.scalar("lanes_avx512", avx512_available() ? 1.0 : 0.0);
    write_memory(run, channel);
  }

 private:
  /// The columns of a table of timings (timings.tsv, timings_grid.tsv), a row per law and threads.
  static std::vector<cm::Column> timing_columns() {
    return {{"law", "1"},
            {"threads", "1"},
            {"spheres", "1"},
            {"contacts_per_step", "1"},
            {"seconds", "s"},
            {"seconds_fastest", "s"},
            {"seconds_slowest", "s"},
            {"sphere_steps_per_second", "1/s"},
            {"contact_solves_per_second", "1/s"},
            {"parallel_efficiency", "1"}};
  }

  /// The two tables of the timings, a row per law and thread count.
  struct Timings {
    cm::Table rates, phases;
    Timings(cm::Run& run, std::size_t thread_counts)
        : rates(run.table("timings.tsv", "the timed steps, per law (0 Coulomb, 1 maximum dissipation) and threads",
                          timing_columns(), {2.0 * static_cast<double>(thread_counts), "bench.threads"})),
          phases(run.table("phases.tsv",
                           "where a timed step goes: wall seconds per step in each phase of Engine::step, and the "
                           "threads' meetings in its sweeps, per law (0 Coulomb, 1 maximum dissipation) and threads",
                           phase_columns(), {2.0 * static_cast<double>(thread_counts), "bench.threads"})) {}
    static std::vector<cm::Column> phase_columns() {
      std::vector<cm::Column> columns{{"law", "1"}, {"threads", "1"}};
      for (const char* phase : phase_names) columns.push_back({std::string(phase) + "_per_step", "s"});
      columns.push_back({"sweep_barriers_per_step", "1"});
      return columns;
    }
  };

  /// The state timed: the saved frame of bench.from, or the channel from t = 0, gone on for
  /// bench.warmup under the maximum-dissipation law.
  Channel timed_state(cm::Run& run) const {
    Channel channel(setup_.channel, setup_.engine_for(ContactLaw::maxdiss), nullptr,
                    from_state_ ? &*from_state_ : nullptr);
    if (from_state_)
      run.note("times the state of run " + from_run_ + " at t = " + cm::format_real(from_state_->t) + " s" +
               (warmup_ > 0.0 ? ", gone on for bench.warmup" : ""));
    const long warmup_steps = std::lround(warmup_ / setup_.engine.dt);
    const double t0 = channel.t();
    cm::Progress progress("md_channel_bench warm-up", t0, t0 + warmup_, run.quiet());
    for (long k = 0; k < warmup_steps; ++k) {
      channel.step();
      progress.update(channel.t());
    }
    run.scalar("t_timed", channel.t(), "s");
    return channel;
  }

  /// Every sphere of the timed state, for another engine timed on the same spheres
  /// (pipeline/maxdiss/lammps_channel.sh).
  static void write_state(cm::Run& run, const Channel& channel) {
    const Spheres& S = channel.engine.spheres;
    cm::Table state = run.table("state.tsv", "the timed state: every sphere's centre, velocity, spin and radius",
                                {{"x", "m"},
                                 {"y", "m"},
                                 {"z", "m"},
                                 {"vx", "m/s"},
                                 {"vy", "m/s"},
                                 {"vz", "m/s"},
                                 {"wx", "1/s"},
                                 {"wy", "1/s"},
                                 {"wz", "1/s"},
                                 {"R", "m"}},
                                {static_cast<double>(S.size()), "bench.warmup"});
    for (std::size_t i = 0; i < S.size(); ++i)
      state.row({S.x[i](0), S.x[i](1), S.x[i](2), S.vw[i].v(0), S.vw[i].v(1), S.vw[i].v(2), S.vw[i].w(0), S.vw[i].w(1),
                 S.vw[i].w(2), S.R[i]});
    run.scalar("plate_position", channel.plate(), "m");
  }

  /// One timing of bench.steps steps: the counts of the timed steps (the same every time: they do not
  /// depend on the threads or the repetition) and what they cost.
  struct Timing {
    double sphere_steps = 0, contacts = 0, seconds = 0, solves = 0;
    std::array<double, phase_count> phase_seconds{};
    double barriers = 0;
  };

  /// bench.steps steps of the timed state under `law` on `threads` threads.
  Timing time(const Channel& state, ContactLaw law, int threads) const {
    Channel timed = state;
    EngineOptions eo = setup_.engine_for(law);
    eo.threads = threads;
    timed.engine.set_options(eo);
    Timing t;
    const double solves0 = timed.engine.solves();
    const std::array<double, phase_count> phases0 = timed.engine.phase_seconds();
    const long barriers0 = timed.engine.sweep_barriers();
    const auto start = std::chrono::steady_clock::now();
    for (long k = 0; k < steps_; ++k) {
      t.sphere_steps += static_cast<double>(timed.engine.spheres.size());
      t.contacts += static_cast<double>(timed.step().contacts);
    }
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.solves = timed.engine.solves() - solves0;
    for (std::size_t p = 0; p < phase_count; ++p) t.phase_seconds[p] = timed.engine.phase_seconds()[p] - phases0[p];
    t.barriers = static_cast<double>(timed.engine.sweep_barriers() - barriers0);
    return t;
  }

  /// bench.grid_steps steps from `from` under `law` on bench.grid, every subdomain on a fiber, the fibers
  /// on `threads` threads; the time from the first subdomain, between two collectives that every
  /// subdomain reaches (their set-up before, their last step after).
  Timing time_grid(const ChannelState& from, ContactLaw law, int threads) const {
    SubdomainGrid grid;
    for (std::size_t a = 0; a < 3; ++a) grid.p[a] = static_cast<int>(grid_[a]);
    grid.box.hi = Vector3d(setup_.channel.Lx, setup_.channel.Ly, setup_.channel.Lz);
    EngineOptions eo = setup_.engine_for(law);
    eo.threads = 1;  // the threads take whole subdomains
    Timing t;
    run_on_fibers(grid.size(), threads, [&](Transport& transport) {
      const std::unique_ptr<Coupling> coupling = setup_.coupling(grid, &transport);
      Channel part(setup_.channel, eo, coupling.get(), &from);
      long ready[1] = {0};
      transport.sum(ready);  // every subdomain set up
      const auto start = std::chrono::steady_clock::now();
      double sphere_steps = 0, contacts = 0;
      for (long k = 0; k < grid_steps_; ++k) {
        sphere_steps += static_cast<double>(part.particles());
        contacts += static_cast<double>(part.step().contacts);
      }
      std::vector<double> solves{part.engine.solves()};
      part.sum(solves);
      if (transport.rank() != 0) return;
      t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      t.sphere_steps = sphere_steps;
      t.contacts = contacts;
      t.solves = solves[0];
    });
    return t;
  }

  static cm::Table grid_table(cm::Run& run, std::size_t thread_counts) {
    return run.table("timings_grid.tsv",
                     "the timed steps of the paper's solver on bench.grid, every subdomain in this process, per law "
                     "(0 Coulomb, 1 maximum dissipation) and threads",
                     timing_columns(), {2.0 * static_cast<double>(thread_counts), "bench.threads"});
  }

  /// A law and thread count's repetitions by their median (the slower middle one of an even count):
  /// their row of a timing table (timing_columns()) over `steps` steps, and the spread (slowest -
  /// fastest) / median. rate1 holds the rate on one thread once it is reported (the first count of
  /// bench.threads, if 1), for the parallel efficiency.
  struct Median {
    Timing t;
    double rate = 0, efficiency = 0, spread = 0;
    std::vector<double> row;
  };
  static Median median(std::vector<Timing> repeated, ContactLaw law, int threads, double steps, double& rate1) {
    for (const Timing& t : repeated)
      if (t.sphere_steps != repeated.front().sphere_steps || t.contacts != repeated.front().contacts)
        throw std::logic_error("md_channel_bench: the timed steps' counts differ between repetitions");
    std::sort(repeated.begin(), repeated.end(), [](const Timing& a, const Timing& b) { return a.seconds < b.seconds; });
    Median m;
    m.t = repeated[repeated.size() / 2];
    m.rate = m.t.sphere_steps / m.t.seconds;
    if (threads == 1) rate1 = m.rate;
    m.efficiency = rate1 > 0 ? m.rate / (threads * rate1) : std::nan("");
    m.spread = (repeated.back().seconds - repeated.front().seconds) / m.t.seconds;
    m.row = {static_cast<double>(law),
             static_cast<double>(threads),
             m.t.sphere_steps / steps,
             m.t.contacts / steps,
             m.t.seconds,
             repeated.front().seconds,
             repeated.back().seconds,
             m.rate,
             m.t.solves / m.t.seconds,
             m.efficiency};
    return m;
  }

  /// The repetitions on bench.grid of `law` on `threads` threads, by their median, as report().
  double report_grid(cm::Run& run, cm::Table& table, ContactLaw law, int threads, std::vector<Timing> repeated,
                     double& rate1) const {
    const Median m = median(std::move(repeated), law, threads, static_cast<double>(grid_steps_), rate1);
    table.row(m.row);
    const std::string suffix = std::string(name(law)) + "_" + std::to_string(threads) + "_threads";
    run.scalar("grid_sphere_steps_per_second_" + suffix, m.rate, "1/s");
    if (threads > 1 && rate1 > 0) run.scalar("grid_parallel_efficiency_" + suffix, m.efficiency);
    if (law == ContactLaw::maxdiss && threads == threads_.front())
      run.scalar("grid_coordination_number", 2.0 * m.t.contacts / m.t.sphere_steps);
    return m.spread;
  }

  /// The repetitions of `law` on `threads` threads, by their median: the rates, each phase's time
  /// and the barriers. Returns the spread of the repetitions.
  double report(cm::Run& run, Timings& timings, ContactLaw law, int threads, std::vector<Timing> repeated,
                double& rate1) const {
    const double steps = static_cast<double>(steps_);
    const Median m = median(std::move(repeated), law, threads, steps, rate1);
    const Timing& t = m.t;
    const double sphere_steps = t.sphere_steps, contacts = t.contacts, rate = m.rate;
    std::vector<double> phase_row{static_cast<double>(law), static_cast<double>(threads)};
    for (std::size_t p = 0; p < phase_count; ++p) phase_row.push_back(t.phase_seconds[p] / steps);
    phase_row.push_back(t.barriers / steps);
    timings.phases.row(phase_row);
    timings.rates.row(m.row);
    const std::string suffix = std::string(name(law)) + "_" + std::to_string(threads) + "_threads";
    run.scalar("sphere_steps_per_second_" + suffix, rate, "1/s");
    run.scalar("sphere_steps_per_second_per_thread_" + suffix, rate / threads, "1/s");
    run.scalar("contact_solves_per_second_" + suffix, t.solves / t.seconds, "1/s");
    if (threads > 1 && rate1 > 0) {
      run.scalar("parallel_efficiency_" + suffix, m.efficiency);
      // Amdahl's serial fraction f of the speed-up S = rate / rate1 on p threads: S = 1 / (f + (1 - f) / p)
      const double speedup = rate / rate1, p = threads;
      run.scalar("serial_fraction_" + suffix, (p / speedup - 1.0) / (p - 1.0));
    }
    if (law == ContactLaw::maxdiss && threads == threads_.front()) {
      run.scalar("spheres", sphere_steps / steps);
      run.scalar("contacts_per_sphere", contacts / sphere_steps);
      // Table 2's contacts per particle counts a contact for each of its two spheres
      run.scalar("coordination_number", 2.0 * contacts / sphere_steps);
    }
    return m.spread;
  }

  /// The engine's arrays per sphere, and the process's peak resident size per sphere.
  static void write_memory(cm::Run& run, const Channel& channel) {
    const double spheres = static_cast<double>(channel.engine.spheres.size());
    run.scalar("memory_per_sphere_engine_bytes", channel.engine.bytes() / spheres, "B");
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    run.scalar("peak_resident_bytes_per_sphere", 1024.0 * static_cast<double>(usage.ru_maxrss) / spheres, "B");
  }

  ChannelSetup setup_;
  std::string from_ = "none";
  std::optional<ChannelState> from_state_;
  std::string from_run_;
  double warmup_ = 0.02;
  long steps_ = 200, repeats_ = 3, grid_steps_ = 20;
  std::vector<int> threads_{1, 2};
  std::vector<long> grid_{16, 10, 4};
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ChannelBench>(argc, argv); }

// md_channel_bench: what the granular channel's hard-contact engine costs (make bench).
//
// The channel of md_channel (same keys) is run for bench.warmup seconds, until its contacts have
// developed, and the state is then timed for bench.steps steps under each law and each thread
// count of bench.threads, every time from the same state. The run records the sphere-steps and
// contact solves per second, the parallel efficiency (rate on p threads over p times the rate on
// one), and the memory per sphere (the engine's arrays, and the process's peak resident size).
// The data (the timed state's counts) do not depend on the thread counts; the rates do. The timed
// state itself is written (state.tsv), so that another engine can be timed on the same spheres
// (pipeline/maxdiss/lammps_channel.sh: LAMMPS' granular package, side by side).
//
// Sample run (into a scratch folder of its own):
//   md_channel_bench --config configs/maxdiss/channel_bench.ini --output try/channel_bench
#include <sys/resource.h>

#include <chrono>
#include <string>
#include <vector>

#include "common/study.hpp"
#include "maxdiss/channel_keys.hpp"

namespace {

using namespace md::granular;

class ChannelBench {
 public:
  static constexpr cm::StudyInfo info{"md_channel_bench", "maxdiss", "channel_bench",
                                      "Cost of the granular channel's engine, per law and thread count"};

  void declare(cm::Config& c) {
    setup_.declare(c);
    c.add("bench.warmup", &warmup_, "simulated time before the timing (the flow develops its contacts)")
        .unit("s")
        .range(cm::Range::nonnegative());
    c.add("bench.steps", &steps_, "steps timed per law and thread count").range(cm::Range::closed(1, 1e7));
    c.add("bench.threads", &threads_, "thread counts timed")
        .range(cm::Range::closed(1, cm::max_threads))
        .nonempty()
        .no_data();
    c.check([&c, this] {
      // no warm-up (0 s) is no step; any other is a whole time stepping within the budget
      if (warmup_ > 0.0) cm::planned_steps(c, warmup_, setup_.engine.dt, "time.dt", "bench.warmup");
    });
  }

  void run(cm::Run& run) {
    // --- warm-up: the flow develops from the initial arrangement (maximum-dissipation law) ---
    Channel channel(setup_.channel, setup_.engine_for(1));
    const long warmup_steps = std::lround(warmup_ / setup_.engine.dt);
    cm::Progress progress("md_channel_bench warm-up", 0.0, warmup_, run.quiet());
    for (long k = 0; k < warmup_steps; ++k) {
      channel.step();
      progress.update(channel.t());
    }
    // --- the timed state, for a side-by-side timing of another engine ---
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
      state.row(
          {S.x[i](0), S.x[i](1), S.x[i](2), S.v[i](0), S.v[i](1), S.v[i](2), S.w[i](0), S.w[i](1), S.w[i](2), S.R[i]});
    run.scalar("plate_position", channel.plate(), "m");
    // --- timing: the same state under each law and thread count ---
    cm::Table t = run.table("timings.tsv", "the timed steps, per law (0 Coulomb, 1 maximum dissipation) and threads",
                            {{"law", "1"},
                             {"threads", "1"},
                             {"spheres", "1"},
                             {"contacts_per_step", "1"},
                             {"seconds", "s"},
                             {"sphere_steps_per_second", "1/s"},
                             {"contact_solves_per_second", "1/s"},
                             {"parallel_efficiency", "1"}},
                            {2.0 * static_cast<double>(threads_.size()), "bench.threads"});
    for (int law = 0; law < 2; ++law) {
      const std::string name = law == 0 ? "coulomb" : "maxdiss";
      double rate1 = 0;
      for (int threads : threads_) {
        Channel timed = channel;
        EngineOptions eo = setup_.engine_for(law);
        eo.threads = threads;
        timed.engine.set_options(eo);
        double sphere_steps = 0, contacts = 0;
        const double solves0 = timed.engine.solves();
        const auto start = std::chrono::steady_clock::now();
        for (long k = 0; k < steps_; ++k) {
          sphere_steps += static_cast<double>(timed.engine.spheres.size());
          contacts += static_cast<double>(timed.step().contacts);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double rate = sphere_steps / seconds;
        if (threads == 1) rate1 = rate;
        const double efficiency = rate1 > 0 ? rate / (threads * rate1) : std::nan("");
        t.row({static_cast<double>(law), static_cast<double>(threads), sphere_steps / steps_, contacts / steps_,
               seconds, rate, (timed.engine.solves() - solves0) / seconds, efficiency});
        const std::string suffix = name + "_" + std::to_string(threads) + "_threads";
        run.scalar("sphere_steps_per_second_" + suffix, rate, "1/s");
        run.scalar("sphere_steps_per_second_per_thread_" + suffix, rate / threads, "1/s");
        run.scalar("contact_solves_per_second_" + suffix, (timed.engine.solves() - solves0) / seconds, "1/s");
        if (threads > 1) run.scalar("parallel_efficiency_" + suffix, efficiency);
        if (law == 1 && threads == threads_.front()) {
          run.scalar("spheres", sphere_steps / steps_);
          run.scalar("contacts_per_sphere", contacts / sphere_steps);
        }
      }
    }
    // the sweep relaxes four sphere-sphere contacts (either law) and takes sixteen golden sections
    // (Coulomb) at once where the processor has AVX2, else two and eight (the data are the same
    // bits either way, the rates are not)
    run.scalar("lanes_avx2", avx2_available() ? 1.0 : 0.0);
    // --- memory ---
    run.scalar("memory_per_sphere_engine_bytes",
               channel.engine.bytes() / static_cast<double>(channel.engine.spheres.size()), "B");
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    run.scalar("peak_resident_bytes_per_sphere",
               1024.0 * static_cast<double>(usage.ru_maxrss) / static_cast<double>(channel.engine.spheres.size()), "B");
  }

 private:
  ChannelSetup setup_;
  double warmup_ = 0.02;
  long steps_ = 200;
  std::vector<int> threads_{1, 2};
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ChannelBench>(argc, argv); }

// md_mpi_scaling: how the granular channel scales over MPI ranks (make bench), from runs of
// md_channel_mpi, and what the paper's run would cost on the paper's 640 ranks.
//
// Strong scaling: one channel on P = 1 and on P = 2 ranks (scaling.strong; make bench runs the
// developed flow at t = 0.06 s, gone on from the frame of channel_developed.ini, not shown to be
// steady).
// Weak scaling: a channel on one rank and one twice as large on two (scaling.weak; make bench runs
// the developing flow from t = 0, since each size would need its own development of the flow).
// For each law the run records the sphere-steps per second in all and per rank, and the parallel
// efficiency (strong: rate on 2 over twice the rate on 1; weak: rate per rank on 2 over the rate
// on 1). It also records the bytes each rank sent per step and the ghosts it held (both measured
// by md_channel_mpi).
//
// The projection onto projection.ranks ranks (the paper: 640, as 16 x 10 x 4 subdomains) of the
// paper's channel (projection.channel, projection.steps) per law:
//   spheres N = phi (Lx Ly - obstacle cross-section) Lz / (4/3 pi R^3), phi the solid volume
//     fraction measured on two ranks (the strong run), R and the obstacle from that run's keys;
//   compute per step: N / ranks spheres at the per-rank rate measured on two ranks (the
//     decomposition's own work included: ghosts, blending, exchange through shared memory), on
//     the flow of the saved frame when the strong runs go on from it (make bench);
//   ghosts per rank: the number density N / V times the shell of width h = 2 R + threshold
//     around a subdomain, (a + 2h)(b + 2h)(c + 2h) - abc; bytes per step per rank: those ghosts
//     times the bytes per ghost and step measured on two ranks;
//   network per step: bytes / projection.bandwidth + messages x projection.latency, with
//     2 (2 + 2 sweeps) messages to each of 26 neighbours (counts and data of the ghosts, of two
//     exchanges per sweep and of the migration) and three reductions of log2(ranks) latencies.
// Bandwidth and latency are assumptions (keys), not measurements.
//
// Sample run (after the four runs of pipeline/maxdiss/studies.mk, bench-maxdiss-mpi):
//   md_mpi_scaling --scaling.strong=results/bench/maxdiss-mpi/strong_1,results/bench/maxdiss-mpi/strong_2
//                  --scaling.weak=results/bench/maxdiss-mpi/weak_1,results/bench/maxdiss-mpi/weak_2
//                  --output results/bench/maxdiss-mpi/scaling
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/study.hpp"
#include "maxdiss/channel/channel.hpp"
#include "maxdiss/channel/channel_state.hpp"

namespace {

/// What a run of md_channel_mpi says of its cost and setup (read by channel_state.hpp's
/// load_channel_run, as md_channel reads the runs it goes on from).
struct ChannelRun {
  md::granular::SavedRun run;
  double ranks = 0;

  /// statistics.<group>.<name>, or an InputError naming `key`.
  double statistic(const std::string& group, const std::string& name, const std::string& key) const {
    const auto& s = run.json.at("statistics");
    if (!s.contains(group) || !s[group].contains(name) || !s[group][name].is_number())
      throw cm::InputError(key + ": the run has no statistic " + group + "." + name +
                           " (is it a run of md_channel_mpi over two ranks?)");
    return s[group][name].get<double>();
  }
  double scalar(const std::string& name, const std::string& key) const {
    const auto& s = run.json.at("scalars");
    if (!s.contains(name) || !s[name].at("value").is_number())
      throw cm::InputError(key + ": the run has no scalar " + name);
    return s[name]["value"].get<double>();
  }
  /// A real key of the run's configuration (recorded as canonical text).
  double config(const std::string& name, const std::string& key) const {
    const auto it = run.config.find(name);
    if (it == run.config.end()) throw cm::InputError(key + ": the run's configuration has no key " + name);
    return std::stod(it->second);
  }
};

ChannelRun load(const std::string& dir, const std::string& key) {
  ChannelRun r{md::granular::load_channel_run(dir, key)};
  if (r.run.solver != "md_channel_mpi") throw cm::InputError(key + ": '" + dir + "' is not a run of md_channel_mpi");
  r.ranks = r.statistic("cost_maxdiss", "ranks", key);
  return r;
}

class Scaling {
 public:
  static constexpr cm::StudyInfo info{"md_mpi_scaling", "maxdiss", "mpi_scaling",
                                      "Strong and weak scaling of md_channel_mpi, and the paper's run projected"};

  void declare(cm::Config& c) {
    c.add("scaling.strong", &strong_, "runs of md_channel_mpi of one channel on 1 and 2 ranks").size(2).names_run();
    c.add("scaling.weak", &weak_, "runs of md_channel_mpi: a channel on 1 rank, one twice as large on 2")
        .size(2)
        .names_run();
    c.add("projection.ranks", &ranks_, "ranks of the projection (the paper: 640)").range(cm::Range::closed(1, 1e8));
    c.add("projection.grid", &grid_, "subdomains of the projection along x, y, z (the paper: 16, 10, 4)")
        .size(3)
        .range(cm::Range::closed(1, 1e6));
    c.add("projection.channel", &channel_, "the paper's channel: length, width, height").unit("m").size(3);
    c.add("projection.steps", &steps_, "steps of the paper's run (10 s of 10 us)").range(cm::Range::positive());
    c.add("projection.bandwidth", &bandwidth_, "network bandwidth per rank of the cluster")
        .unit("B/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: a bandwidth per rank for the projection; not measured here");
    c.add("projection.latency", &latency_, "network latency of one message")
        .unit("s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: a message latency for the projection; not measured here");
    c.check([&c, this] {
      if (grid_[0] * grid_[1] * grid_[2] != ranks_)
        c.fail("projection.grid", "the subdomains must number projection.ranks");
      for (double L : channel_)
        if (!(L > 0)) c.fail("projection.channel", "every extent must be positive");
    });
  }

  void run(cm::Run& run) {
    const ChannelRun s1 = load(strong_[0], "scaling.strong"), s2 = load(strong_[1], "scaling.strong");
    const ChannelRun w1 = load(weak_[0], "scaling.weak"), w2 = load(weak_[1], "scaling.weak");
    if (s1.ranks != 1 || w1.ranks != 1 || s2.ranks != 2 || w2.ranks != 2)
      throw cm::InputError("scaling.strong: the runs must be on 1 and on 2 ranks (scaling.weak too)");
    // strong scaling is one channel on more ranks: the two runs must be of the same channel
    md::granular::require_same_channel(s2.run, s1.run.config, "scaling.strong");
    cm::Table t = run.table("scaling.tsv", "strong (0) and weak (1) scaling per law (0 Coulomb, 1 maximum dissipation)",
                            {{"kind", "1"},
                             {"law", "1"},
                             {"ranks", "1"},
                             {"sphere_steps_per_second", "1/s"},
                             {"per_rank", "1/s"},
                             {"efficiency", "1"},
                             {"bytes_per_step_per_rank", "B"},
                             {"ghosts_per_rank", "1"}},
                            {8, "scaling.strong"});
    const char* laws[2] = {"coulomb", "maxdiss"};
    for (int law = 0; law < 2; ++law) {
      const std::string name = laws[law], cost = "cost_" + name, dec = "decomposition_" + name;
      std::map<std::string, double> stats;
      for (int kind = 0; kind < 2; ++kind) {
        const ChannelRun& one = kind == 0 ? s1 : w1;
        const ChannelRun& two = kind == 0 ? s2 : w2;
        const std::string key = kind == 0 ? "scaling.strong" : "scaling.weak";
        const double r1 = one.statistic(cost, "sphere_steps_per_second", key);
        const double r2 = two.statistic(cost, "sphere_steps_per_second", key);
        const double efficiency = kind == 0 ? r2 / (2.0 * r1) : (r2 / 2.0) / r1;
        const double bytes = two.statistic(dec, "bytes_sent_per_rank_per_step", key);
        const double ghosts = two.statistic(dec, "ghosts_per_rank_per_step", key);
        t.row({double(kind), double(law), 1.0, r1, r1, 1.0, 0.0, 0.0});
        t.row({double(kind), double(law), 2.0, r2, r2 / 2.0, efficiency, bytes, ghosts});
        const std::string k = kind == 0 ? "strong_" : "weak_";
        stats[k + "efficiency"] = efficiency;
        stats[k + "per_rank_1"] = r1;
        stats[k + "per_rank_2"] = r2 / 2.0;
        stats[k + "bytes_per_step_per_rank"] = bytes;
      }
      project(s2, name, stats);
      run.statistics("scaling_" + name, stats);
    }
    run.note(
        "Measured rates are the runs' own (statistics cost_<law> of md_channel_mpi), on this machine's cores "
        "through shared memory; the projection adds a network model of assumed bandwidth and latency.");
  }

 private:
  /// The paper's run on projection.ranks ranks, from the two-rank strong run (see the header).
  void project(const ChannelRun& two, const std::string& law, std::map<std::string, double>& stats) const {
    const std::string key = "scaling.strong";
    // the paper's channel with the run's spheres and obstacle
    md::granular::ChannelOptions paper;
    paper.Lx = channel_[0];
    paper.Ly = channel_[1];
    paper.Lz = channel_[2];
    paper.R = two.config("particles.radius", key);
    paper.obstacle.radius = two.config("obstacle.radius", key);
    paper.obstacle.box_length = two.config("obstacle.box_length", key);
    const double R = paper.R;
    const double threshold = two.config("nbgs.threshold", key);
    const double sweeps = two.config("nbgs.sweeps", key);
    const double phi = two.scalar("solid_volume_fraction_pct_" + law, key) / 100.0;
    const double volume = md::granular::free_volume(paper);
    const double N = phi * volume / md::granular::sphere_volume(paper), density = N / volume;
    const double P = static_cast<double>(ranks_);
    const double per_rank = two.statistic("cost_" + law, "sphere_steps_per_second", key) / 2.0;
    const double compute = N / P / per_rank;
    const double h = 2.0 * R + threshold;
    const double a = channel_[0] / grid_[0], b = channel_[1] / grid_[1], c = channel_[2] / grid_[2];
    const double ghosts = density * ((a + 2 * h) * (b + 2 * h) * (c + 2 * h) - a * b * c);
    const double bytes_per_ghost = two.statistic("decomposition_" + law, "bytes_sent_per_rank_per_step", key) /
                                   two.statistic("decomposition_" + law, "ghosts_per_rank_per_step", key);
    const double bytes = ghosts * bytes_per_ghost;
    const double messages = 2.0 * (2.0 + 2.0 * sweeps) * 26.0;
    const double network = bytes / bandwidth_ + (messages + 3.0 * std::log2(std::max(2.0, P))) * latency_;
    const double seconds = steps_ * (compute + network);
    stats["paper_spheres"] = N;
    stats["paper_ghosts_per_rank"] = ghosts;
    stats["paper_bytes_per_step_per_rank"] = bytes;
    stats["paper_compute_seconds_per_step"] = compute;
    stats["paper_network_seconds_per_step"] = network;
    stats["paper_projected_seconds"] = seconds;
    stats["paper_projected_hours"] = seconds / 3600.0;
    stats["paper_network_share"] = network / (compute + network);
  }

  std::vector<std::string> strong_{"", ""}, weak_{"", ""};
  long ranks_ = 640;
  std::vector<long> grid_{16, 10, 4};
  std::vector<double> channel_{0.15, 0.065, 0.02};
  double steps_ = 1e6, bandwidth_ = 5e9, latency_ = 2e-6;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<Scaling>(argc, argv); }

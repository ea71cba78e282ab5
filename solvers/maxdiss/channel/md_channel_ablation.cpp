// md_channel_ablation: which of the choices the paper leaves unstated moves Table 2's contact count,
// and by how much. It reads runs of md_channel that went on from one settled frame over the same
// short window under one law, each with one choice changed (configs/maxdiss/ablation/); the first
// run is the baseline.
//
// For each run, a row of ablation.tsv: contacts per sphere (2 N_c / N, unique and as pe counted
// them) and between two spheres, each with its batch-means standard error. Then the deepest
// penetration of every step of the window, of every contact and between two spheres, the solver's
// mean residual over the window's samples and whether the window is steady. Last comes the change
// of contacts per sphere from the baseline in units of the two standard errors combined. A note
// names each variant by the keys in which its run differs from the baseline's.
//
// Sample run (after make channel-ablation's runs, pipeline/maxdiss/studies.mk):
//   md_channel_ablation --ablation.runs=results/parts/maxdiss/ablation/baseline,results/parts/maxdiss/ablation/erp0
//                       --output try/ablation                                     (one command line)
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/study.hpp"
#include "core/text.hpp"
#include "maxdiss/channel/channel_state.hpp"
#include "maxdiss/channel/simulation.hpp"

namespace {

using md::granular::SavedRun;

/// The keys that never make a variant: the run's limits, where it was kept, how fast it ran, and
/// restart.vary, which only lets the choice differ (their names as run.json records them).
const std::set<std::string> not_a_choice{"output.max_bytes", "output.max_rows", "output.store",   "run.max_bodies",
                                         "run.max_memory",   "run.max_steps",   "solver.threads", "solver.side_by_side",
                                         "nbgs.lanes",       "restart.vary"};

double scalar(const SavedRun& r, const std::string& name) {
  const auto& s = r.json.at("scalars");
  if (!s.contains(name) || !s[name].at("value").is_number())
    throw cm::InputError("ablation.runs: the run at '" + r.dir.string() + "' has no scalar " + name);
  return s[name]["value"].get<double>();
}

class Ablation {
 public:
  static constexpr cm::StudyInfo info{"md_channel_ablation", "maxdiss", "channel_ablation",
                                      "Which unstated choices move Table 2's contact count (runs from one frame)"};

  void declare(cm::Config& c) {
    c.add("ablation.runs", &runs_,
          "runs of md_channel from one settled frame over one window, each with one choice changed; the first is "
          "the baseline")
        .names_run();
    c.add_choice("ablation.law", &law_, {{"coulomb", "coulomb"}, {"maxdiss", "maxdiss"}},
                 "the contact law the runs simulated");
    c.check([&c, this] {
      if (runs_.size() < 2) c.fail("ablation.runs", "needs the baseline and at least one variant");
    });
  }

  void run(cm::Run& run) {
    std::vector<SavedRun> runs;
    for (const std::string& dir : runs_) runs.push_back(md::granular::load_channel_run(dir, "ablation.runs"));
    const SavedRun& base = runs.front();
    // one frame and one window for all: the same frame gone on from, the same times
    for (const SavedRun& r : runs)
      for (const char* key : {"restart.from", "time.t_end", "average.t_start", "sample.every"})
        if (r.config.at(key) != base.config.at(key))
          throw cm::InputError("ablation.runs: the run at '" + r.dir.string() + "' has " + key + " = " +
                               r.config.at(key) + ", the baseline " + base.config.at(key));
    cm::Table t = run.table("ablation.tsv",
                            "each variant from one settled frame (" + law_ +
                                "): contacts per sphere, unique and as pe "
                                "counted them, between two spheres, with standard errors; penetrations; residual",
                            {{"variant", "1"},
                             {"contacts_per_particle", "1"},
                             {"se_contacts_per_particle", "1"},
                             {"contacts_per_particle_pe", "1"},
                             {"se_contacts_per_particle_pe", "1"},
                             {"sphere_contacts_per_particle", "1"},
                             {"se_sphere_contacts_per_particle", "1"},
                             {"max_penetration_all", "um"},
                             {"max_sphere_penetration_all", "um"},
                             {"mean_residual", "1"},
                             {"steady", "1"},
                             {"change_from_baseline", "1"},
                             {"change_in_standard_errors", "1"}},
                            {static_cast<double>(runs.size()), "ablation.runs"});
    const double z0 = scalar(base, "contacts_per_particle_" + law_);
    const double se0 = scalar(base, "se_contacts_per_particle_" + law_);
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const SavedRun& r = runs[k];
      const double z = scalar(r, "contacts_per_particle_" + law_), se = scalar(r, "se_contacts_per_particle_" + law_);
      const double n = scalar(r, "avg_particles_" + law_);
      const double change = z - z0, combined = std::sqrt(se * se + se0 * se0);
      t.row({static_cast<double>(k), z, se, scalar(r, "contacts_per_particle_pe_" + law_),
             scalar(r, "se_contacts_per_particle_pe_" + law_), 2.0 * scalar(r, "avg_sphere_contacts_" + law_) / n,
             2.0 * scalar(r, "se_avg_sphere_contacts_" + law_) / n, scalar(r, "max_penetration_all_um_" + law_),
             scalar(r, "max_sphere_penetration_all_um_" + law_), mean_residual(r), scalar(r, "steady_" + law_), change,
             k == 0 ? 0.0 : change / combined});
      run.note("variant " + std::to_string(k) + " (run " + r.run_id + "): " + label(base, r));
      run.scalar("contacts_per_particle_variant_" + std::to_string(k), z);
    }
    run.scalar("variants", static_cast<double>(runs.size()));
  }

 private:
  /// The keys in which a run differs from the baseline's, "key = value" each; "baseline" for none.
  static std::string label(const SavedRun& base, const SavedRun& r) {
    std::string out;
    for (const auto& [key, value] : r.config) {
      if (not_a_choice.count(key)) continue;
      const auto there = base.config.find(key);
      if (there != base.config.end() && there->second == value) continue;
      out += (out.empty() ? "" : "; ") + key + " = " + value;
    }
    return out.empty() ? "baseline" : out;
  }

  /// The solver's residual averaged over the samples of the window (from its first step, as the
  /// run's schedule counts it, Schedule::first_averaged_step).
  double mean_residual(const SavedRun& r) const {
    const cm::TsvData series = md::granular::read_series(r, law_, md::granular::series_columns, "ablation.runs");
    auto column = [&series](const std::string& name) {
      for (std::size_t c = 0; c < series.columns.size(); ++c)
        if (series.columns[c].name == name) return c;
      throw cm::InputError("ablation.runs: a time series without the column " + name);
    };
    const std::size_t step = column("step"), residual = column("residual");
    const double first =
        std::ceil(std::stod(r.config.at("average.t_start")) / std::stod(r.config.at("time.dt")) - 1e-9);
    double sum = 0.0, count = 0.0;
    for (const auto& row : series.rows)
      if (row[step] >= first) {
        sum += row[residual];
        count += 1.0;
      }
    if (count == 0)
      throw cm::InputError("ablation.runs: the run at '" + r.dir.string() + "' has no sample in its window");
    return sum / count;
  }

  std::vector<std::string> runs_;
  std::string law_ = "maxdiss";
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<Ablation>(argc, argv); }

// What a law's simulation cost and what the paper's run would cost (cost.hpp).
#include "maxdiss/channel/cost.hpp"

#include <cmath>
#include <map>

#include "core/text.hpp"

namespace md::granular {

void Projection::declare(cm::Config& c) {
  c.add("projection.cores", &cores, "cores of the cluster the paper's run is projected onto")
      .range(cm::Range::closed(1, 1e7));
  c.add("projection.efficiency", &efficiency, "parallel efficiency assumed for that projection")
      .range(cm::Range::open_closed(0.0, 1.0))
      .assumption("ASSUMED: a parallel efficiency for the projection onto a cluster, not measured here");
  c.add("projection.t_end", &t_end,
        "simulated time whose cost is projected from this run's measured rate per thread on the flow of its "
        "window (the paper's 10 s, Sect. 4.3)")
      .unit("s")
      .range(cm::Range::positive());
}

void Projection::record(cm::Run& run, const std::string& law, const Outcome& r, const ChannelSetup& setup) const {
  // The cost of this run: measured, so it changes from run to run and is kept among the
  // statistics (recorded, never compared as data: make verify re-runs and compares scalars).
  const double rate = r.particle_steps / r.wall_seconds;
  const double per_thread = r.particle_steps / (r.thread_seconds * setup.ranks);
  std::map<std::string, double> cost{
      {"wall_seconds", r.wall_seconds},
      {"sphere_steps_per_second", rate},
      {"sphere_steps_per_thread_second", per_thread},
      {"contact_solves_per_second", r.solves / r.wall_seconds},
      {"seconds_per_step", r.wall_seconds / static_cast<double>(r.steps)},
      {"sphere_steps", r.particle_steps},
      {"threads", static_cast<double>(setup.engine.threads)},
      {"thread_seconds", r.thread_seconds},
      {"ranks", static_cast<double>(setup.ranks)},
      {"memory_per_sphere_bytes", r.memory_per_sphere},
      // onto projection.cores at projection.efficiency from the measured rate per thread
      {"projected_seconds_on_cluster", r.particle_steps / (per_thread * cores * efficiency)}};
  // projection.t_end (the paper's 10 s) of the flow this run averaged (its window's average sphere
  // count every step), at this run's rate per thread: one thread, and the cluster as above
  const double projected_steps = r.avg_particles * std::round(t_end / setup.engine.dt);
  cost["projected_sphere_steps_of_projection_t_end"] = projected_steps;
  cost["projected_seconds_of_projection_t_end_one_thread"] = projected_steps / per_thread;
  cost["projected_seconds_of_projection_t_end_on_cluster"] = projected_steps / (per_thread * cores * efficiency);
  if (r.widened_at_step) cost["widened_at_step"] = static_cast<double>(*r.widened_at_step);  // side by side
  run.statistics("cost_" + law, cost);
  run.note(law + ": " + cm::format_real(t_end) + " s of this flow (projection.t_end; " +
           cm::format_g(r.avg_particles, 4) + " spheres on average over the window, " +
           cm::format_g(projected_steps, 3) + " sphere-steps) at this run's measured " + cm::format_g(per_thread, 3) +
           " sphere-steps per thread-second take " + cm::format_g(projected_steps / per_thread / 3600.0, 3) +
           " hours on one thread, " + cm::format_g(projected_steps / (per_thread * cores * efficiency) / 3600.0, 3) +
           " hours on " + std::to_string(cores) + " cores at an efficiency of " + cm::format_g(efficiency, 3) +
           " (projection.efficiency, assumed)");
}

}  // namespace md::granular

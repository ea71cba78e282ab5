// The granular channel flow of Sect. 4.3 on the hard-contact engine of granular/engine.hpp.
//
// A channel [0, Lx] x [0, Ly] x [0, Lz] closed by walls in y and z (half-spaces of infinite mass)
// and open at x = Lx, where spheres whose centre passes Lx are deleted. A stationary obstacle
// (half-cylinder upstream, box downstream, full height) stands in the flow. At x = 0 a plate of
// infinite mass moves with the inflow velocity in +x. Once it has moved 2R it is set back by 2R, and
// a new layer of spheres is placed touching it, on the grid of the initial arrangement (centres
// (j + 1/2, k + 1/2) spacing in y and z, every centre at least R from the walls). Gravity acts in
// -z. Spheres start on the same grid through the whole channel (or not at all), with velocity
// (v_in, U(-a, a), U(-a, a)).
#pragma once

#include <cstdint>
#include <random>

#include "maxdiss/granular/engine.hpp"

namespace md::granular {

struct ChannelOptions {
  double Lx = 0.15, Ly = 0.065, Lz = 0.02;  ///< channel extent [m]
  Obstacle obstacle{};                      ///< the stationary object
  double R = 0.47e-3;                       ///< sphere radius [m]
  double density = 2650.0;                  ///< [kg/m^3]
  double spacing = 1e-3;                    ///< grid of the initial arrangement and the layers [m]
  double inflow_velocity = 1.0;             ///< plate velocity and the spheres' initial v_x [m/s]
  double perturbation = 0.5;                ///< a: v_y, v_z ~ U(-a, a) [m/s]
  bool perturb_layers = true;               ///< inflow layers get the perturbation too
  bool initial_fill = true;                 ///< the whole channel filled at t = 0
  double mu_wall = 0.4;                     ///< friction at walls, obstacle and plate
  std::uint64_t seed = 1;
};

/// Volume of one sphere and the volume of the channel free of the obstacle.
double sphere_volume(const ChannelOptions& o);
double free_volume(const ChannelOptions& o);

/// The state of a channel between two steps: what a run needs to go on from it as if it had never
/// stopped (the spheres in the engine's order, the clock, the plate, the counters and how many
/// random numbers the inflow has drawn).
struct ChannelState {
  long step = 0;       ///< steps done
  double t = 0.0;      ///< time reached, summed step by step as the run summed it
  double plate = 0.0;  ///< the plate's position
  long inserted = 0, deleted = 0;
  std::uint64_t draws = 0;    ///< random numbers drawn so far
  std::uint64_t next_id = 0;  ///< identity of the next sphere
  Spheres spheres;            ///< every sphere of the channel
};

class Channel {
 public:
  /// The whole channel, or with a coupling one subdomain of it (decomposition.hpp): then the
  /// spheres are numbered as in the whole channel and each subdomain keeps those it owns. From a
  /// saved state (`from`), the channel goes on where that state was taken; else it starts at t = 0.
  Channel(const ChannelOptions& options, const EngineOptions& engine, Coupling* coupling = nullptr,
          const ChannelState* from = nullptr);

  /// Advances one time step: the engine's step, then the plate, the inflow and the outflow.
  StepStats step();

  Engine engine;
  double t() const { return t_; }
  /// Spheres, inserted and deleted so far, over the whole channel (every subdomain).
  long particles() const { return particles_; }
  long inserted() const { return inserted_; }
  long deleted() const { return deleted_; }
  /// Sums over the subdomains, in place (nothing to do for the whole channel).
  void sum(std::vector<double>& values) const {
    if (coupling_) coupling_->sum(values);
  }
  /// The spheres of the whole channel (gathered from every subdomain, subdomain by subdomain).
  Spheres all_spheres() const { return coupling_ ? coupling_->gather(engine.spheres) : engine.spheres; }
  double plate() const { return plate_; }
  /// Mass of one sphere, volume of one sphere, and the volume free of the obstacle.
  double sphere_mass() const { return mass_; }
  double sphere_volume() const { return md::granular::sphere_volume(opt_); }
  double free_volume() const { return md::granular::free_volume(opt_); }
  /// The state now, over the whole channel (gathered from every subdomain).
  ChannelState state() const;
  /// Steps done.
  long steps() const { return engine.steps(); }
  /// Spheres of one inflow layer.
  long layer_size() const { return static_cast<long>(layer_y_.size() * layer_z_.size()); }
  const ChannelOptions& options() const { return opt_; }

 private:
  void add_layer(double x);
  /// Adds a sphere to this subdomain if it owns it, else passes over its identity.
  void place(const Vector3d& x, const Vector3d& v);
  /// particles_ and deleted_ over the subdomains.
  void count();
  double uniform(double a);  ///< U(-a, a) from the seeded generator (the same on every platform)
  /// An inserted sphere's velocity: inflow.velocity along x, U(-a, a) along y and z.
  Vector3d inflow_velocity(double a);

  ChannelOptions opt_;
  double mass_;
  std::vector<double> layer_y_, layer_z_;
  std::mt19937_64 rng_;
  std::uint64_t draws_ = 0;  ///< numbers drawn from rng_
  Coupling* coupling_;
  double t_ = 0.0, plate_ = 0.0;
  long inserted_ = 0, deleted_ = 0, deleted_here_ = 0, deleted_before_ = 0, particles_ = 0;
  static constexpr int plate_index = 4;  ///< planes: y = 0, y = Ly, z = 0, z = Lz, the plate
};

/// Positions of a grid of spacing s in [0, L] at (i + 1/2) s whose spheres of radius R stay inside
/// (centre at least R from both ends when `walls`, else only the centre inside).
std::vector<double> grid_positions(double L, double s, double R, bool walls);

}  // namespace md::granular

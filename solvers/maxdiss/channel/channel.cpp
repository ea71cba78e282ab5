// The granular channel of channel.hpp.
#include "maxdiss/channel/channel.hpp"

#include <cmath>

#include "core/math.hpp"

namespace md::granular {

std::vector<double> grid_positions(double L, double s, double R, bool walls) {
  std::vector<double> p;
  for (long i = 0;; ++i) {
    const double c = (static_cast<double>(i) + 0.5) * s;
    if (walls ? c + R > L : c >= L) break;
    p.push_back(c);
  }
  return p;
}

namespace {
Box channel_box(const ChannelOptions& o) {
  Box b;
  b.lo = Vector3d::Zero();
  b.hi = Vector3d(o.Lx, o.Ly, o.Lz);
  return b;
}
}  // namespace

Channel::Channel(const ChannelOptions& options, const EngineOptions& engine_options, Coupling* coupling,
                 const ChannelState* from)
    : engine(engine_options, coupling ? coupling->box() : channel_box(options), options.R),
      opt_(options),
      mass_(options.density * 4.0 / 3.0 * cm::pi * options.R * options.R * options.R),
      rng_(options.seed),
      coupling_(coupling) {
  engine.set_coupling(coupling);
  auto wall = [&](const Vector3d& n, double offset) {
    Plane p;
    p.n = n;
    p.offset = offset;
    p.mu = opt_.mu_wall;
    engine.planes.push_back(p);
  };
  wall(Vector3d::UnitY(), 0.0);
  wall(-Vector3d::UnitY(), -opt_.Ly);
  wall(Vector3d::UnitZ(), 0.0);
  wall(-Vector3d::UnitZ(), -opt_.Lz);
  wall(Vector3d::UnitX(), 0.0);  // the plate
  engine.planes[plate_index].velocity = Vector3d(opt_.inflow_velocity, 0.0, 0.0);
  Obstacle obstacle = opt_.obstacle;
  obstacle.mu = opt_.mu_wall;
  engine.obstacles.push_back(obstacle);

  layer_y_ = grid_positions(opt_.Ly, opt_.spacing, opt_.R, true);
  layer_z_ = grid_positions(opt_.Lz, opt_.spacing, opt_.R, true);
  if (from) {
    // Going on from a saved state: its spheres (those this subdomain owns), in the saved order,
    // and every counter where it stood; the generator is re-seeded and advanced past the numbers
    // already drawn.
    const Spheres& S = from->spheres;
    for (std::size_t i = 0; i < S.size(); ++i)
      if (!coupling_ || coupling_->owns(S.x[i]))
        engine.spheres.push(S.x[i], S.vw[i].v, S.vw[i].w, S.R[i], S.vw[i].inv_m, S.vw[i].inv_I, S.id[i]);
    engine.spheres.set_next_id(from->next_id);
    engine.set_steps(from->step);
    rng_.discard(from->draws);
    draws_ = from->draws;
    t_ = from->t;
    plate_ = from->plate;
    engine.planes[plate_index].offset = plate_;
    inserted_ = from->inserted;
    deleted_before_ = from->deleted;
  } else if (opt_.initial_fill) {
    const std::vector<double> xs = grid_positions(opt_.Lx, opt_.spacing, opt_.R, false);
    for (double x : xs) {
      for (double y : layer_y_)
        for (double z : layer_z_) {
          const Vector3d p(x, y, z);
          Vector3d n;
          if (engine.obstacles[0].distance(p, n) < opt_.R) continue;  // would overlap the obstacle
          if (x < opt_.R) continue;                                   // would overlap the plate
          place(p, inflow_velocity(opt_.perturbation));
        }
    }
  }
  count();
}

void Channel::place(const Vector3d& x, const Vector3d& v) {
  if (coupling_ && !coupling_->owns(x))
    engine.spheres.skip_id();
  else
    engine.spheres.add(x, v, Vector3d::Zero(), opt_.R, mass_);
}

void Channel::count() {
  std::vector<double> c{static_cast<double>(engine.spheres.size()), static_cast<double>(deleted_here_)};
  sum(c);
  particles_ = std::lround(c[0]);
  deleted_ = deleted_before_ + std::lround(c[1]);
}

ChannelState Channel::state() const {
  ChannelState s;
  s.step = engine.steps();
  s.t = t_;
  s.plate = plate_;
  s.inserted = inserted_;
  s.deleted = deleted_;
  s.draws = draws_;
  s.next_id = engine.spheres.next_id();
  s.spheres = all_spheres();
  return s;
}

Vector3d Channel::inflow_velocity(double a) {
  // Two draws in a fixed order, z first: the order GCC gave the arguments of Vector3d(u, draw,
  // draw), which C++ leaves unspecified (Clang gave the other), so that saved runs keep their bits.
  const double vz = uniform(a);
  const double vy = uniform(a);
  return {opt_.inflow_velocity, vy, vz};
}

double Channel::uniform(double a) {
  ++draws_;
  const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;  // [0, 1), 53 random bits
  return a * (2.0 * u - 1.0);
}

double sphere_volume(const ChannelOptions& o) { return 4.0 / 3.0 * cm::pi * o.R * o.R * o.R; }

double free_volume(const ChannelOptions& o) { return (o.Lx * o.Ly - o.obstacle.area()) * o.Lz; }

void Channel::add_layer(double x) {
  for (double y : layer_y_)
    for (double z : layer_z_) {
      place(Vector3d(x, y, z), inflow_velocity(opt_.perturb_layers ? opt_.perturbation : 0.0));
      ++inserted_;  // every subdomain counts the whole layer
    }
}

StepStats Channel::step() {
  const StepStats st = engine.step(t_);
  const double dt = engine.options().dt;
  t_ += dt;
  // The plate: once it has moved 2R it is set back by 2R (the remainder of the last step is kept,
  // so the inflow rate is exactly layer / (2R / v_in)) and a layer is placed touching it.
  plate_ += opt_.inflow_velocity * dt;
  if (plate_ >= 2.0 * opt_.R - 0.5 * opt_.inflow_velocity * dt) {  // the step nearest to 2R
    plate_ -= 2.0 * opt_.R;
    add_layer(plate_ + opt_.R);
  }
  engine.planes[plate_index].offset = plate_;
  // The outlet: spheres whose centre has left the channel are deleted.
  const double Lx = opt_.Lx;
  const auto& x = engine.spheres.x;
  deleted_here_ += static_cast<long>(engine.spheres.keep_if([&](std::size_t i) { return x[i](0) <= Lx; }));
  count();
  return st;
}

}  // namespace md::granular

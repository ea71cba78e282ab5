#include "rollingball/config.hpp"

#include <algorithm>
#include <cmath>

#include "core/grid.hpp"
#include "numerics/sundials.hpp"

namespace rb {

namespace {

/// Lists that must hold `per` values per mass.
void check_per_mass(const cm::Config& config, const std::string& key, std::size_t size, std::size_t n, std::size_t per,
                    const std::string& what) {
  if (size != per * n)
    config.fail(key, "needs " + what + " per mass (masses.m has " + std::to_string(n) + "), got " +
                         std::to_string(size) + " values");
}

/// Rails lie inside the body: 0 < r_i < r.
void check_rails_inside(const cm::Config& config, const std::vector<double>& radius, double r) {
  for (std::size_t i = 0; i < radius.size(); ++i)
    if (!(radius[i] < r))
      config.fail("rails.radius", "rail " + std::to_string(i + 1) + " of radius " + cm::format_real(radius[i]) +
                                      " does not lie inside the body of radius model.r = " + cm::format_real(r));
}

void check_actuation(cm::Config& config, const ActuationOptions& a, std::size_t n) {
  if (!(a.t2 > a.t1)) config.fail("actuation.t2", "must exceed actuation.t1");
  if (a.sign == "list") check_per_mass(config, "actuation.signs", a.signs.size(), n, 1, "one sign");
}

}  // namespace

void declare_actuation_keys(cm::Config& config, ActuationOptions& o) {
  config.add("actuation.t1", &o.t1, "end of the plateau of u_i, eqs. (5.5)/(6.11)")
      .unit("1")
      .range(cm::Range::positive());
  config.add("actuation.t2", &o.t2, "end of the ramp of u_i (u_i = 0 after)").unit("1").range(cm::Range::positive());
  config.add("actuation.amp", &o.amp, "plateau height of |u_i| (0 freezes the masses' acceleration)")
      .unit("1")
      .range(cm::Range::any());
  config
      .add("actuation.sign", &o.sign,
           "sign pattern s_i of u_i: alternating = (-1)^i (5.5), plus = +1 (6.11), list = actuation.signs")
      .choices({"alternating", "plus", "minus", "list"});
  config.add("actuation.signs", &o.signs, "explicit signs s_i when actuation.sign = list")
      .unit("1")
      .range(cm::Range::closed(-1e6, 1e6));
}

StepRamp actuation_from(const ActuationOptions& o, std::size_t n) {
  StepRamp a;
  a.t1 = o.t1;
  a.t2 = o.t2;
  a.amp = o.amp;
  for (std::size_t i = 1; i <= n; ++i) {
    if (o.sign == "alternating")
      a.sign.push_back(i % 2 == 0 ? 1.0 : -1.0);  // (-1)^i, i = 1..n, eq. (5.5)
    else if (o.sign == "plus")
      a.sign.push_back(1.0);  // eq. (6.11)
    else if (o.sign == "minus")
      a.sign.push_back(-1.0);
  }
  if (o.sign == "list") a.sign = o.signs;
  return a;
}

void declare_ball_model_keys(cm::Config& config, BallModelOptions& o) {
  config.add("model.m0", &o.m0, "mass m0 of the ball with its static structure").unit("1").range(cm::Range::positive());
  config.add("model.r", &o.r, "radius r of the ball").unit("1").range(cm::Range::positive());
  config.add("model.g", &o.g, "gravity g (rescaled to 1 in the paper)").unit("1").range(cm::Range::nonnegative());
  config.add("model.d", &o.d, "principal moments of inertia d1, d2, d3 of m0")
      .unit("1")
      .range(cm::Range::positive())
      .size(3);
  config.add("model.zeta0", &o.zeta0, "GC -> CM offset zeta_0 of m0 (body frame)")
      .unit("1")
      .range(cm::Range::any())
      .size(3);
  config.add("masses.m", &o.m, "internal point masses m_1..m_n (none: the Chaplygin ball)")
      .unit("1")
      .range(cm::Range::positive());
  config.add("rails.radius", &o.radius, "rail radii r_1..r_n, each below model.r")
      .unit("1")
      .range(cm::Range::positive());
  config.add("rails.v", &o.v, "spherical coordinates (azimuth, elevation, rho) of n_i, three per rail, eq. (6.10)")
      .unit("rad,rad,1")
      .range(cm::Range::any());
  config.add("rails.basis", &o.basis, "column order of the rail basis B_i(n) built by Frisvad's algorithm, eq. (6.8)")
      .choices(basis_orders())
      .assumption(
          "RECONSTRUCTED: the paper does not give the column order of B_i; [n, b2, -b1] is the one that "
          "puts the total CM above the GC at the printed theta_a (spec 002, section 2.9)");
  config.add("force.Fe", &o.Fe, "constant external force F_e at the GC (spatial frame)")
      .unit("1")
      .range(cm::Range::any())
      .size(3);
  declare_actuation_keys(config, o.actuation);
  config.check([&config, &o] {
    const std::size_t n = o.m.size();
    check_per_mass(config, "rails.radius", o.radius.size(), n, 1, "one radius");
    check_per_mass(config, "rails.v", o.v.size(), n, 3, "three spherical coordinates");
    check_rails_inside(config, o.radius, o.r);
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 nv = spherical_to_cartesian(o.v[3 * i], o.v[3 * i + 1], o.v[3 * i + 2]);  // eq. (6.9)
      // 1e-12: rho is given as 1 and the angles only rotate it; rounding leaves ~1e-16.
      if (!(std::abs(nv.norm() - 1.0) <= 1e-12)) config.fail("rails.v", "rho must be 1 (n_i is a unit vector)");
    }
    check_actuation(config, o.actuation, n);
  });
}

BallParameters ball_parameters_from(const BallModelOptions& o) {
  BallParameters p;
  p.m0 = o.m0;
  p.r = o.r;
  p.g = o.g;
  p.d = Vec3(o.d[0], o.d[1], o.d[2]);
  p.zeta0 = Vec3(o.zeta0[0], o.zeta0[1], o.zeta0[2]);
  p.Fe = Vec3(o.Fe[0], o.Fe[1], o.Fe[2]);
  p.m = o.m;
  for (std::size_t i = 0; i < p.m.size(); ++i) {
    Rail rail;
    rail.radius = o.radius[i];
    const Vec3 n = spherical_to_cartesian(o.v[3 * i], o.v[3 * i + 1], o.v[3 * i + 2]);  // eq. (6.9)
    rail.B = rail_basis(n, o.basis);
    p.rails.push_back(rail);
  }
  p.actuation = actuation_from(o.actuation, p.m.size());
  return p;
}

void declare_disk_model_keys(cm::Config& config, DiskModelOptions& o) {
  config.add("model.m0", &o.m0, "mass m0 of the disk").unit("1").range(cm::Range::positive());
  config.add("model.r", &o.r, "radius r of the disk").unit("1").range(cm::Range::positive());
  config.add("model.d2", &o.d2, "polar moment of inertia d2 of m0").unit("1").range(cm::Range::positive());
  config.add("model.g", &o.g, "gravity g (rescaled to 1 in the paper)").unit("1").range(cm::Range::nonnegative());
  config.add("model.zeta0", &o.zeta0, "CM of m0 in the body frame, components 1 and 3")
      .unit("1")
      .range(cm::Range::any())
      .size(2);
  config.add("masses.m", &o.m, "internal point masses m_1..m_n (none: the bare disk)")
      .unit("1")
      .range(cm::Range::positive());
  config.add("rails.radius", &o.radius, "radii r_i of the circular rails (5.4), each below model.r")
      .unit("1")
      .range(cm::Range::positive());
  config.add("force.Fe", &o.Fe, "external force at the GC, components e1 and e3")
      .unit("1")
      .range(cm::Range::any())
      .size(2);
  declare_actuation_keys(config, o.actuation);
  config.check([&config, &o] {
    check_per_mass(config, "rails.radius", o.radius.size(), o.m.size(), 1, "one radius");
    check_rails_inside(config, o.radius, o.r);
    check_actuation(config, o.actuation, o.m.size());
  });
}

DiskParameters disk_parameters_from(const DiskModelOptions& o) {
  DiskParameters p;
  p.m0 = o.m0;
  p.r = o.r;
  p.d2 = o.d2;
  p.g = o.g;
  p.zeta01 = o.zeta0[0];
  p.zeta03 = o.zeta0[1];
  p.Fe1 = o.Fe[0];
  p.Fe3 = o.Fe[1];
  p.m = o.m;
  p.radius = o.radius;
  p.actuation = actuation_from(o.actuation, p.m.size());
  return p;
}

void declare_march_keys(cm::Config& config, MarchKeys& o) {
  config.add("time.a", &o.a, "initial time a").unit("1").range(cm::Range::closed(-1e12, 1e12));
  config.add("time.b", &o.b, "final time b").unit("1").range(cm::Range::closed(-1e12, 1e12));
  cm::declare_integrator_keys(config, o.integrator, "solver");
  config.add("solver.split_at_kinks", &o.split_at_kinks, "restart the integrator at the kinks t1, t2 of u(t)");
  config.add("analysis.dt", &o.dt_scan, "scan grid of f_s/N and N (their extrema refined by golden section)")
      .unit("1")
      .range(cm::Range::positive());
  config.add("output.dt", &o.dt_output, "spacing of the rows of trajectory.tsv").unit("1").range(cm::Range::positive());
  config.add("crosscheck.methods", &o.crosscheck, "ODE methods run again for mu_hat_spread, or none");
  config.check([&config, &o] {
    if (!(o.b > o.a)) config.fail("time.b", "must exceed time.a");
    const auto& known = cm::ode_methods();
    for (const auto& m : o.crosscheck)
      if (m != "none" && std::find(known.begin(), known.end(), m) == known.end())
        config.fail("crosscheck.methods", "unknown method '" + m + "'");
  });
}

MarchOptions march_options_from(const MarchKeys& o, const ActuationOptions& actuation, long max_points) {
  MarchOptions m;
  m.a = o.a;
  m.b = o.b;
  m.split_at_kinks = o.split_at_kinks;
  m.dt_scan = o.dt_scan;
  m.dt_output = o.dt_output;
  m.max_steps = o.integrator.max_steps;
  m.kinks = {actuation.t1, actuation.t2};
  m.max_points = max_points;
  cm::grid_points("analysis.dt", m.a, m.b, m.dt_scan, max_points);
  cm::grid_points("output.dt", m.a, m.b, m.dt_output, max_points);
  return m;
}

std::vector<std::string> crosscheck_methods_from(const MarchKeys& o) {
  std::vector<std::string> list;
  for (const auto& m : o.crosscheck)
    if (m != "none") list.push_back(m);
  return list;
}

std::array<int, 2> free_angles_from(const std::vector<long>& free) {
  return {static_cast<int>(free.at(0)) - 1, static_cast<int>(free.at(1)) - 1};
}

void check_free_angles(const cm::Config& config, const std::vector<long>& free, std::size_t n) {
  if (free.size() != 2) config.fail("ic.free", "needs two 1-based indices");
  if (free[0] == free[1]) config.fail("ic.free", "the two free angles must differ");
  for (long f : free)
    if (f < 1 || static_cast<std::size_t>(f) > n)
      config.fail("ic.free", "index " + std::to_string(f) + " is not a mass (1.." + std::to_string(n) + ")");
}

}  // namespace rb

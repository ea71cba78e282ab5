#include "rollingball/config.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/sundials.hpp"

namespace rb {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

void declare_actuation_keys(cm::Config& config, const std::string& default_sign) {
  config.add_real("actuation.t1", 0.1, "1", "end of the plateau of u_i, eqs. (5.5)/(6.11)", cm::Range::positive());
  config.add_real("actuation.t2", 0.2, "1", "end of the ramp of u_i (u_i = 0 after)", cm::Range::positive());
  config.add_real("actuation.amp", 1.0, "1", "plateau height of |u_i| (0 freezes the masses' acceleration)");
  config.add_choice("actuation.sign", default_sign, {"alternating", "plus", "minus", "list"},
                    "sign pattern s_i of u_i: alternating = (-1)^i (5.5), plus = +1 (6.11), list = actuation.signs");
  config.add_reals("actuation.signs", {}, "1", "explicit signs s_i when actuation.sign = list");
}

StepRamp actuation_from(const cm::Config& config, std::size_t n) {
  StepRamp a;
  a.t1 = config.real("actuation.t1");
  a.t2 = config.real("actuation.t2");
  if (!(a.t2 > a.t1)) config.fail("actuation.t2", "must exceed actuation.t1");
  a.amp = config.real("actuation.amp");
  const std::string& s = config.text("actuation.sign");
  for (std::size_t i = 1; i <= n; ++i) {
    if (s == "alternating")
      a.sign.push_back(i % 2 == 0 ? 1.0 : -1.0);  // (-1)^i, i = 1..n, eq. (5.5)
    else if (s == "plus")
      a.sign.push_back(1.0);  // eq. (6.11)
    else if (s == "minus")
      a.sign.push_back(-1.0);
  }
  if (s == "list") {
    a.sign = config.reals("actuation.signs");
    if (a.sign.size() != n) config.fail("actuation.signs", "needs one sign per mass");
  }
  return a;
}

void declare_ball_model_keys(cm::Config& config) {
  config.add_real("model.m0", 1.0, "1", "mass m0 of the ball with its static structure", cm::Range::positive());
  config.add_real("model.r", 1.0, "1", "radius r of the ball", cm::Range::positive());
  config.add_real("model.g", 1.0, "1", "gravity g (rescaled to 1 in the paper)", cm::Range::nonnegative());
  config.add_reals("model.d", {0.9, 1.0, 1.1}, "1", "principal moments of inertia d1, d2, d3 of m0",
                   cm::Range::positive(), 3);
  config.add_reals("model.zeta0", {0.0, 0.0, -0.05}, "1", "GC -> CM offset zeta_0 of m0 (body frame)", cm::Range::any(),
                   3);
  config.add_reals("masses.m", {1.0, 1.0, 1.0}, "1", "internal point masses m_1..m_n", cm::Range::positive());
  config.add_reals("rails.radius", {0.95, 0.9, 0.85}, "1", "rail radii r_1..r_n", cm::Range::positive());
  config.add_reals("rails.v", {0.0, 0.0, 1.0, cm::pi / 2, 0.0, 1.0, cm::pi / 4, cm::pi / 4, 1.0}, "rad,rad,1",
                   "spherical coordinates (azimuth, elevation, rho) of n_i, three per rail, eq. (6.10)");
  config.add_choice("rails.basis", "n_b2_mb1", basis_orders(),
                    "column order of the rail basis B_i(n) built by Frisvad's algorithm, eq. (6.8)");
  config.assumption("rails.basis",
                    "RECONSTRUCTED: the paper does not give the column order of B_i; [n, b2, -b1] is the one that "
                    "puts the total CM above the GC at the printed theta_a (spec 002, section 2.9)");
  config.add_reals("force.Fe", {0.0, 0.0, 0.0}, "1", "constant external force F_e at the GC (spatial frame)",
                   cm::Range::any(), 3);
  declare_actuation_keys(config, "plus");
}

BallParameters ball_parameters_from(const cm::Config& config) {
  BallParameters p;
  p.m0 = config.real("model.m0");
  p.r = config.real("model.r");
  p.g = config.real("model.g");
  const auto d = config.reals("model.d"), z0 = config.reals("model.zeta0"), Fe = config.reals("force.Fe");
  p.d = Vec3(d[0], d[1], d[2]);
  p.zeta0 = Vec3(z0[0], z0[1], z0[2]);
  p.Fe = Vec3(Fe[0], Fe[1], Fe[2]);
  p.m = config.reals("masses.m");
  const auto radius = config.reals("rails.radius");
  const auto v = config.reals("rails.v");
  if (radius.size() != p.m.size()) config.fail("rails.radius", "needs one radius per mass (masses.m)");
  if (v.size() != 3 * p.m.size()) config.fail("rails.v", "needs three spherical coordinates per mass");
  for (std::size_t i = 0; i < p.m.size(); ++i) {
    Rail rail;
    rail.radius = radius[i];
    const Vec3 n = spherical_to_cartesian(v[3 * i], v[3 * i + 1], v[3 * i + 2]);  // eq. (6.9)
    if (std::abs(n.norm() - 1.0) > 1e-12) config.fail("rails.v", "rho must be 1 (n_i is a unit vector)");
    rail.B = rail_basis(n, config.text("rails.basis"));
    p.rails.push_back(rail);
  }
  p.actuation = actuation_from(config, p.m.size());
  return p;
}

void declare_disk_model_keys(cm::Config& config) {
  config.add_real("model.m0", 1.0, "1", "mass m0 of the disk", cm::Range::positive());
  config.add_real("model.r", 1.0, "1", "radius r of the disk", cm::Range::positive());
  config.add_real("model.d2", 1.0, "1", "polar moment of inertia d2 of m0", cm::Range::positive());
  config.add_real("model.g", 1.0, "1", "gravity g (rescaled to 1 in the paper)", cm::Range::nonnegative());
  config.add_reals("model.zeta0", {0.0, 0.0}, "1", "CM of m0 in the body frame, components 1 and 3", cm::Range::any(),
                   2);
  config.add_reals("masses.m", {1.0, 1.0, 1.0, 1.0}, "1", "internal point masses m_1..m_n", cm::Range::positive());
  config.add_reals("rails.radius", {0.9, 19.0 / 30.0, 11.0 / 30.0, 0.1}, "1", "radii r_i of the circular rails (5.4)",
                   cm::Range::positive());
  config.add_reals("force.Fe", {0.0, 0.0}, "1", "external force at the GC, components e1 and e3", cm::Range::any(), 2);
  declare_actuation_keys(config, "alternating");
}

DiskParameters disk_parameters_from(const cm::Config& config) {
  DiskParameters p;
  p.m0 = config.real("model.m0");
  p.r = config.real("model.r");
  p.d2 = config.real("model.d2");
  p.g = config.real("model.g");
  const auto z0 = config.reals("model.zeta0"), Fe = config.reals("force.Fe");
  p.zeta01 = z0[0];
  p.zeta03 = z0[1];
  p.Fe1 = Fe[0];
  p.Fe3 = Fe[1];
  p.m = config.reals("masses.m");
  p.radius = config.reals("rails.radius");
  if (p.radius.size() != p.m.size()) config.fail("rails.radius", "needs one radius per mass (masses.m)");
  p.actuation = actuation_from(config, p.m.size());
  return p;
}

void declare_march_keys(cm::Config& config, double tol, const std::string& method) {
  config.add_real("time.a", 0.0, "1", "initial time a");
  config.add_real("time.b", 20.0, "1", "final time b");
  std::vector<std::string> methods = cm::ode_methods();
  config.add_choice("solver.method", method, methods, "ODE integrator");
  config.add_real("solver.rtol", tol, "1", "relative tolerance", cm::Range::positive());
  config.add_real("solver.atol", tol, "1", "absolute tolerance", cm::Range::positive());
  config.add_flag("solver.split_at_kinks", true, "restart the integrator at the kinks t1, t2 of u(t)");
  config.add_integer("solver.max_steps", 2000000, "maximum internal steps per call", 1, 1000000000);
  config.add_real("analysis.dt", 1e-4, "1", "scan grid of f_s/N, N_min, ... (refined by golden section)",
                  cm::Range::positive());
  config.add_real("output.dt", 1e-2, "1", "spacing of the rows of trajectory.tsv", cm::Range::positive());
  config.add_text("crosscheck.methods", "none", "comma-separated ODE methods run again for mu_hat_spread, or none");
}

MarchOptions march_options_from(const cm::Config& config) {
  MarchOptions o;
  o.a = config.real("time.a");
  o.b = config.real("time.b");
  if (!(o.b > o.a)) config.fail("time.b", "must exceed time.a");
  o.split_at_kinks = config.flag("solver.split_at_kinks");
  o.dt_scan = config.real("analysis.dt");
  o.dt_output = config.real("output.dt");
  o.max_steps = config.integer("solver.max_steps");
  o.kinks = {config.real("actuation.t1"), config.real("actuation.t2")};
  return o;
}

cm::Tolerances tolerances_from(const cm::Config& config) {
  return {config.real("solver.rtol"), config.real("solver.atol")};
}

std::vector<std::string> crosscheck_methods_from(const cm::Config& config) {
  const std::string& text = config.text("crosscheck.methods");
  if (text == "none") return {};
  const auto list = split_list(text);
  const auto& known = cm::ode_methods();
  for (const auto& m : list)
    if (std::find(known.begin(), known.end(), m) == known.end())
      config.fail("crosscheck.methods", "unknown method '" + m + "'");
  return list;
}

std::array<int, 2> free_angles_from(const cm::Config& config) {
  const auto f = config.reals("ic.free");
  if (f.size() != 2) config.fail("ic.free", "needs two 1-based indices");
  std::array<int, 2> out{};
  for (int k = 0; k < 2; ++k) {
    if (f[k] != std::floor(f[k]) || f[k] < 1) config.fail("ic.free", "indices are integers >= 1");
    out[k] = static_cast<int>(f[k]) - 1;
  }
  return out;
}

}  // namespace rb

#include "basketball/config.hpp"

#include "common/sundials.hpp"

namespace bb {

void declare_model_keys(cm::Config& c) {
  const Parameters d;
  c.add_real("model.r", d.r, "m", "ball radius r", cm::Range::positive());
  c.add_real("model.a", d.a, "m", "minor radius a of the rim torus (rho = a + r)", cm::Range::nonnegative());
  c.add_real("model.R", d.R, "m", "major radius R of the rim torus", cm::Range::positive());
  c.add_real("model.j", d.j, "1", "dimensionless moment of inertia j (J = j m r^2)", cm::Range::positive());
  c.add_real("model.g", d.g, "m/s^2", "gravitational acceleration", cm::Range::positive());
  c.add_real("model.mu", d.mu, "1", "Coulomb friction coefficient mu", cm::Range::positive());
  c.add_flag("model.dissipative_friction", d.dissipative_friction,
             "rolling friction forces include the share of the dissipative moments (spec §2.17)");
  c.assumption("model.r", "RECONSTRUCTED: Table 1 missing from the text; size-7 ball (spec 004 §3.1)");
  c.assumption("model.a", "RECONSTRUCTED: Table 1 missing; half the rim rod diameter (spec 004 §3.1)");
  c.assumption("model.R",
               "RECONSTRUCTED: Table 1 missing; rho/R pinned by the printed beta* and beta-hat "
               "(spec 004 §3.1)");
  c.assumption("model.g", "ASSUMED: not stated in the paper");
  c.assumption("model.mu",
               "ASSUMED for the slipping panels of Figs. 11-13; stated (mu = 1) for Figs. 6, 8 "
               "(spec 004 T-21)");
  c.assumption("model.dissipative_friction", "ASSUMED: spec 004 §2.17 addition, not in the paper");
}

Parameters parameters_from(const cm::Config& c) {
  Parameters p;
  p.r = c.real("model.r");
  p.a = c.real("model.a");
  p.R = c.real("model.R");
  p.j = c.real("model.j");
  p.g = c.real("model.g");
  p.mu = c.real("model.mu");
  p.dissipative_friction = c.flag("model.dissipative_friction");
  if (p.R <= p.rho()) c.fail("model.R", "must exceed rho = a + r (the ball's centre stays off the axis)");
  return p;
}

void declare_simulation_keys(cm::Config& c, double t_max) {
  const SimulationOptions d;
  c.add_choice("solver.method", d.method, cm::ode_methods(), "integrator of the rolling and slipping phases");
  c.add_choice("solver.slip_method", d.slip_method, cm::ode_methods(),
               "integrator of the slipping phases (the slip direction is stiff near u = 0)");
  c.add_choice("solver.fallback_method", d.fallback_method, cm::ode_methods(),
               "integrator of a slipping phase on which solver.slip_method failed (explicit Runge-Kutta "
               "methods follow the slip direction poorly right after a roll -> slip switch)");
  c.add_real("solver.rtol", d.rtol, "1", "relative tolerance", cm::Range::positive());
  c.add_real("solver.atol", d.atol, "1", "absolute tolerance", cm::Range::positive());
  c.add_real("solver.t_max", t_max, "s", "time after which a trajectory is undetermined", cm::Range::positive());
  c.add_real("slip.delta", d.delta, "m/s", "slip speed set along phi1 at a roll -> slip switch", cm::Range::positive());
  c.add_real("slip.u_tol", d.u_tol, "m/s", "slip speed below which a slip phase sticks (re-stick tolerance)",
             cm::Range::positive());
  c.add_integer("slip.max_switches", d.max_switches, "roll <-> slip switches before a trajectory is undetermined", 1,
                1000000);
  c.add_choice("outcome.inout_rule", d.ballistic ? "ballistic" : "cosbeta", {"ballistic", "cosbeta"},
               "in/out after separation: ballistic rim-plane crossing, or cos(beta) > 0 means in");
  c.assumption("solver.rtol", "ASSUMED: the paper gives no tolerances (Julia adaptive Runge-Kutta)");
  c.assumption("solver.atol", "ASSUMED: the paper gives no tolerances (Julia adaptive Runge-Kutta)");
  c.assumption("solver.t_max", "ASSUMED: no time span stated (spec 004 §3.2)");
  c.assumption("slip.delta", "ASSUMED: the paper gives no value for the start-up offset (Sect. 5.2.1)");
  c.assumption("slip.u_tol", "ASSUMED: the paper gives no re-stick tolerance (Sect. 5.2.1)");
  c.assumption("slip.max_switches",
               "ASSUMED: cap on chattering, not in the paper; the stick-slip cycles of Fig. 12 (top right) "
               "take several hundred switches within t_max = 100 s");
  c.assumption("outcome.inout_rule",
               "RECONSTRUCTED: 'basic calculation of free-fall' (Sect. 5.1.1), "
               "spec 004 §2.18");
}

SimulationOptions simulation_options_from(const cm::Config& c) {
  SimulationOptions o;
  o.method = c.text("solver.method");
  o.slip_method = c.text("solver.slip_method");
  o.fallback_method = c.text("solver.fallback_method");
  o.rtol = c.real("solver.rtol");
  o.atol = c.real("solver.atol");
  o.t_max = c.real("solver.t_max");
  o.delta = c.real("slip.delta");
  o.u_tol = c.real("slip.u_tol");
  o.max_switches = c.integer("slip.max_switches");
  o.ballistic = c.text("outcome.inout_rule") == "ballistic";
  return o;
}

}  // namespace bb

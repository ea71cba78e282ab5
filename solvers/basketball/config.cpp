#include "basketball/config.hpp"

#include <cmath>

#include "numerics/sundials.hpp"

namespace bb {

void declare_model_keys(cm::Config& c, Parameters& p) {
  c.add("model.r", &p.r, "ball radius r")
      .unit("m")
      .range(cm::Range::positive())
      .assumption("RECONSTRUCTED: Table 1 missing from the text; size-7 ball (spec 004 §3.1)");
  c.add("model.a", &p.a, "minor radius a of the rim torus (rho = a + r)")
      .unit("m")
      .range(cm::Range::nonnegative())
      .assumption("RECONSTRUCTED: Table 1 missing; half the rim rod diameter (spec 004 §3.1)");
  c.add("model.R", &p.R, "major radius R of the rim torus")
      .unit("m")
      .range(cm::Range::positive())
      .assumption("RECONSTRUCTED: Table 1 missing; rho/R pinned by the printed beta* and beta-hat (spec 004 §3.1)");
  c.add("model.j", &p.j, "dimensionless moment of inertia j (J = j m r^2)").unit("1").range(cm::Range::positive());
  c.add("model.g", &p.g, "gravitational acceleration")
      .unit("m/s^2")
      .range(cm::Range::positive())
      .assumption("ASSUMED: not stated in the paper");
  c.add("model.mu", &p.mu, "Coulomb friction coefficient mu")
      .unit("1")
      .range(cm::Range::positive())
      .assumption("ASSUMED for the slipping panels of Figs. 11-13; stated (mu = 1) for Figs. 6, 8 (spec 004 T-21)");
  c.add("model.dissipative_friction", &p.dissipative_friction,
        "rolling friction forces include the share of the dissipative moments (spec §2.17)")
      .assumption("ASSUMED: spec 004 §2.17 addition, not in the paper");
  c.check([&c, &p] {
    if (!(p.R > p.rho()))
      c.fail("model.R", "must exceed rho = model.a + model.r (the ball's centre stays off the axis)");
    // Every key is finite, but their combination may not be: rho/R and the speeds built from g rho.
    if (!std::isfinite(p.rho()) || !std::isfinite(p.rho() / p.R) || !std::isfinite(p.g * p.rho()))
      c.fail("model.r", "model.r, model.a, model.R and model.g give a non-finite rho = a + r, rho/R or g rho");
  });
}

void declare_simulation_keys(cm::Config& c, SimulationOptions& o) {
  cm::declare_integrator_keys(c, o.integrator, "solver");
  cm::KeyBuilder(c, "solver.rtol")
      .unit("1")
      .assumption("ASSUMED: the paper gives no tolerances (Julia adaptive Runge-Kutta)");
  cm::KeyBuilder(c, "solver.atol")
      .unit("1")
      .assumption("ASSUMED: the paper gives no tolerances (Julia adaptive Runge-Kutta)");
  c.add("solver.slip_method", &o.slip_method,
        "integrator of the slipping phases (the slip direction is stiff near u = 0)")
      .choices(cm::ode_methods());
  c.add("solver.fallback_method", &o.fallback_method,
        "integrator of a slipping phase on which solver.slip_method failed, done again from its start "
        "(explicit methods follow the stiff slip direction near u = 0 in many small steps)")
      .choices(cm::ode_methods())
      .assumption(
          "ASSUMED: the paper states no fallback for a failed integration (Julia adaptive Runge-Kutta); a failed "
          "slipping phase is redone from its start by solver.fallback_method at solver.fallback_tolerance_factor "
          "times the tolerances, then by solver.second_fallback_method");
  c.add("solver.fallback_tolerance_factor", &o.fallback_tolerance_factor,
        "solver.fallback_method's rtol and atol are solver.rtol and solver.atol times this")
      .range(cm::Range::open_closed(0.0, 1.0));
  std::vector<std::string> second = cm::ode_methods();
  second.insert(second.begin(), "none");
  c.add("solver.second_fallback_method", &o.second_fallback_method,
        "integrator of a slipping phase on which solver.fallback_method failed too, at solver.rtol and "
        "solver.atol (none: the simulation stops with a numerical error)")
      .choices(second);
  c.add("solver.t_max", &o.t_max, "time after which a trajectory is undetermined")
      .unit("s")
      .range(cm::Range::positive())
      .assumption("ASSUMED: no time span stated (spec 004 §3.2)");
  c.add("slip.delta", &o.delta, "slip speed set along phi1 at a roll -> slip switch")
      .unit("m/s")
      .range(cm::Range::positive())
      .assumption("ASSUMED: the paper gives no value for the start-up offset (Sect. 5.2.1)");
  c.add("slip.u_tol", &o.u_tol, "slip speed below which a slip phase sticks (re-stick tolerance)")
      .unit("m/s")
      .range(cm::Range::positive())
      .assumption("ASSUMED: the paper gives no re-stick tolerance (Sect. 5.2.1)");
  c.add("slip.max_switches", &o.max_switches, "roll <-> slip switches before a trajectory is undetermined")
      .range(cm::Range::closed(1, 1000000))
      .assumption(
          "ASSUMED: cap on chattering, not in the paper; the stick-slip cycles of Fig. 12 (top right) take several "
          "hundred switches within t_max = 100 s");
  c.add_choice("outcome.inout_rule", &o.ballistic, {{"ballistic", true}, {"cosbeta", false}},
               "in/out after separation: ballistic rim-plane crossing, or cos(beta) > 0 means in")
      .assumption("RECONSTRUCTED: 'basic calculation of free-fall' (Sect. 5.1.1), spec 004 §2.18");
}

std::pair<cm::KeyBuilder, cm::KeyBuilder> declare_dissipation_keys(cm::Config& c, double& k_d, double& k_r) {
  auto drilling = c.add("dissipation.k_d", &k_d, "drilling group C_d/(j m R^2) of (83)");
  drilling.unit("1/s").range(cm::Range::nonnegative());
  auto rolling = c.add("dissipation.k_r", &k_r, "rolling-resistance group C_r/(j m R^2) of (83)");
  rolling.unit("1/s").range(cm::Range::nonnegative());
  return {drilling, rolling};
}

}  // namespace bb

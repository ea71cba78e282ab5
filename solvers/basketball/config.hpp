// The configuration keys shared by the basketball studies, each bound to the field of the model's
// parameters or of the simulation options that holds it (the field's value is the key's default).
#pragma once

#include <utility>

#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "core/options.hpp"

namespace bb {

/// model.r, a, R, j, g, mu, dissipative_friction (Table 1, reconstructed in spec 004 §3.1; each
/// marked as an assumption), bound to `p`; refuses R <= rho = a + r.
void declare_model_keys(cm::Config& config, Parameters& p);

/// dissipation.k_d and dissipation.k_r, the drilling and rolling-resistance groups C_d/(j m R^2)
/// and C_r/(j m R^2) of (83), bound to `k_d` and `k_r` (>= 0). A study that needs more of them
/// (strictly positive, an assumption note) refines the builders returned.
std::pair<cm::KeyBuilder, cm::KeyBuilder> declare_dissipation_keys(cm::Config& config, double& k_d, double& k_r);

/// solver.method, rtol, atol, max_steps (cm::declare_integrator_keys), solver.slip_method,
/// fallback_method, t_max, slip.delta, u_tol, max_switches, outcome.inout_rule, bound to `o`.
void declare_simulation_keys(cm::Config& config, SimulationOptions& o);

}  // namespace bb

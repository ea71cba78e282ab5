// The configuration keys shared by the basketball studies, declared once and turned into the
// model's parameters and the simulation options here.
#pragma once

#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "common/options.hpp"

namespace bb {

/// model.r, a, R, j, g, mu (Table 1, reconstructed in spec 004 §3.1; each marked as an assumption).
void declare_model_keys(cm::Config& config);
Parameters parameters_from(const cm::Config& config);

/// solver.method, rtol, atol, t_max, delta, u_tol, max_switches, inout_rule.
void declare_simulation_keys(cm::Config& config, double t_max);
SimulationOptions simulation_options_from(const cm::Config& config);

}  // namespace bb

// Sect. 7 in rescaled time: the keys and the cases of the phase portraits (fr_portraits) and the
// stopping simulations (fr_stopping).
#include "friction/sphere.hpp"

namespace fr {

namespace {

bool known_model(const std::string& m, long n_max) {
  if (m == "fitted" || m == "exact" || m == "series" || m == "series_printed") return true;
  return m.size() >= 2 && m.size() <= 3 && m[0] == 'N' && m.find_first_not_of("0123456789", 1) == std::string::npos &&
         std::stol(m.substr(1)) >= 1 && std::stol(m.substr(1)) <= n_max;
}

}  // namespace

void declare_sphere_keys(cm::Config& c, SphereOptions& o) {
  const std::vector<std::pair<std::string, Pressure>> pressures{{"uniform", Pressure::uniform},
                                                                {"hertz", Pressure::hertz}};
  c.add_choice("problem.disc_pressure", &o.disc_pressure, pressures, "disc: pressure (Sect. 4.1)");
  // j = J/(m Rbar^2) <= 1 for any body whose mass lies within Rbar; j -> 0 makes a of (126) unbounded
  c.add("problem.disc_j", &o.disc_j, "disc: J/(m Rbar^2) (solid disc 1/2)")
      .unit("1")
      .range(cm::Range::closed(1e-6, 1.0));
  c.add_choice("problem.ball_pressure", &o.ball_pressure, pressures, "ball: pressure (Sect. 4.2)");
  c.add("problem.ball_j", &o.ball_j, "ball: J/(m Rbar^2) (2/5)").unit("1").range(cm::Range::closed(1e-6, 1.0));
  c.add("problem.ball_lambda", &o.ball_lambda, "ball: lambda = Rbar/R").unit("1").range(cm::Range::closed(1.0, 1e6));
  declare_rho_over_kappa_key(c, o.rho_over_kappa);
  declare_harmonic_keys(c, o.harmonic);
  c.add("dynamics.k_stab", &o.k_stab, "constraint stabilisation gain k_c of -k_c (|w|^2 - 1) w")
      .unit("1")
      .range(cm::Range::closed(0.0, 1e6));
  declare_classification_key(c, o.zero_tol);
  cm::declare_integrator_keys(c, o.solver, "solver");
  cm::KeyBuilder(c, "solver.rtol").assumption("ASSUMED: the paper gives no tolerances");
}

void check_sphere_cases(cm::Config& c, const SphereOptions& o, const std::vector<double>& forces,
                        const std::string& forces_key, const std::vector<std::string>& models,
                        const std::string& models_key, const std::vector<std::string>& bodies,
                        const std::string& bodies_key) {
  if (forces.empty()) c.fail(forces_key, "no force given");
  if (models.size() != forces.size())
    c.fail(models_key, "needs " + std::to_string(forces.size()) + " comma separated entries, one per " + forces_key);
  if (bodies.size() != forces.size())
    c.fail(bodies_key, "needs " + std::to_string(forces.size()) + " comma separated entries, one per " + forces_key);
  for (std::size_t i = 0; i < forces.size(); ++i) {
    if (bodies[i] != "disc" && bodies[i] != "ball") c.fail(bodies_key, "'" + bodies[i] + "': disc or ball");
    if (!known_model(models[i], o.harmonic.N_max))
      c.fail(models_key, "unknown model '" + models[i] + "' (fitted, exact, series, series_printed, N1..N" +
                             std::to_string(o.harmonic.N_max) + " with models.N_max)");
    const Pressure p = bodies[i] == "disc" ? o.disc_pressure : o.ball_pressure;
    if (models[i].rfind("series", 0) == 0 && p != Pressure::uniform)
      c.fail(models_key, "the series model (78)-(79) is for the uniform pressure");
  }
}

SphereCase SphereCases::make(const std::string& body, const std::string& model, double f) {
  SphereCase c;
  c.body = body;
  const bool disc = body == "disc";
  c.p = disc ? o_.disc_pressure : o_.ball_pressure;
  const double kappa = kappa_closed_form(c.p);
  c.rho = o_.rho_over_kappa * kappa;
  c.j = disc ? o_.disc_j : o_.ball_j;
  c.Rbar = disc ? 1.0 : o_.ball_lambda;
  const std::string key = join(pressure_name(c.p), "_", format_g(c.rho));
  if (!coefficients_.count(key))
    coefficients_[key] =
        harmonic_coefficients(c.p, c.rho, static_cast<int>(o_.harmonic.N_max), o_.harmonic.quad_tol);  // (83)
  c.model = make_model("model list", model, c.p, c.rho, coefficients_[key]);
  c.prob = disc ? disc_problem(c.j, kappa, c.rho, c.Rbar, f) : ball_problem(c.j, kappa, c.rho, c.Rbar, f);
  c.prob.zero_tol = o_.zero_tol;
  return c;
}

}  // namespace fr

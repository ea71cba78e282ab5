// Sect. 7 in rescaled time, what the phase portraits (fr_portraits) and the stopping simulations
// (fr_stopping) share: the bodies, their friction models and the integrator, as keys, and one case
// (a body, a model and a force) as a test problem.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"
#include "numerics/sundials.hpp"

namespace fr {

/// The keys both studies have; the values here are the defaults.
struct SphereOptions {
  Pressure disc_pressure = Pressure::uniform;
  double disc_j = 0.5;
  Pressure ball_pressure = Pressure::hertz;
  double ball_j = 0.4;
  double ball_lambda = 5.0;
  double rho_over_kappa = 1.0;
  HarmonicKeys harmonic;
  double k_stab = 1.0;
  double zero_tol = TestProblem{}.zero_tol;
  cm::IntegratorOptions solver;
};

/// The keys of the bodies, the models and the integrator.
void declare_sphere_keys(cm::Config& c, SphereOptions& o);

/// Checks a study's cases: one per force of `forces` (key `forces_key`), with as many `models` and
/// `bodies` (keys `models_key`, `bodies_key`), each known and each model fit for its body's pressure.
void check_sphere_cases(cm::Config& c, const SphereOptions& o, const std::vector<double>& forces,
                        const std::string& forces_key, const std::vector<std::string>& models,
                        const std::string& models_key, const std::vector<std::string>& bodies,
                        const std::string& bodies_key);

/// One case: a body (disc: j = 1/2, Rbar = R; ball: j = 2/5, Rbar = lambda R), a friction model
/// and a force.
struct SphereCase {
  std::string body;
  Pressure p;
  double rho, j, Rbar;
  std::unique_ptr<FrictionModel> model;
  TestProblem prob;
};

/// The cases of one study, the harmonic coefficients (83) of each contact computed once.
class SphereCases {
 public:
  explicit SphereCases(const SphereOptions& o) : o_(o) {}
  SphereCase make(const std::string& body, const std::string& model, double f);

 private:
  const SphereOptions& o_;
  std::map<std::string, HarmonicCoefficients> coefficients_;
};

}  // namespace fr

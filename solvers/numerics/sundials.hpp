// A thin RAII layer over SUNDIALS 6.4: one interface, cm::Integrator, for CVODE (Adams or BDF),
// ARKODE ERKStep (explicit Runge-Kutta, e.g. Dormand-Prince 5(4)) and IDA (DAEs).
// Every return code is checked; a failure throws cm::NumericalError naming the call and the
// time reached (exit status 3). A C++ exception thrown in a right-hand side is carried across
// the C library and rethrown from the call that ran it.
//
//   auto ode = cm::make_integrator("cvode_adams", rhs, y0, t0, {1e-12, 1e-12});
//   ode->set_stop_time(0.1);
//   auto step = ode->advance(0.1);            // step.t, step.y, step.root
//   Eigen::VectorXd y = ode->dense(0.05);     // interpolant between steps
#pragma once

#include <Eigen/Core>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/options.hpp"

namespace cm {

using VectorRef = Eigen::Ref<Eigen::VectorXd>;
using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;

/// y' = f(t, y)
using Rhs = std::function<void(double t, ConstVectorRef y, VectorRef ydot)>;
/// Residual of an implicit DAE F(t, y, y') = 0.
using Residual = std::function<void(double t, ConstVectorRef y, ConstVectorRef yp, VectorRef r)>;
/// Root functions g(t, y); a root of any component stops advance().
using RootFunction = std::function<void(double t, ConstVectorRef y, VectorRef g)>;

struct Tolerances {
  double rtol;
  double atol;
};

struct IntegratorStatistics {
  long steps = 0, rhs_evaluations = 0, jacobian_evaluations = 0, linear_setups = 0;
  long error_test_failures = 0, nonlinear_iterations = 0, nonlinear_failures = 0, root_evaluations = 0;
  double last_step = 0.0;
  std::map<std::string, double> as_map() const;
};

struct Step {
  double t;                ///< time reached
  Eigen::VectorXd y;       ///< state at t
  bool root = false;       ///< a root function vanished at t
  std::vector<int> roots;  ///< per root function: +1 rising, -1 falling, 0 none (when root)
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  /// Integrates to tout, or to the first root or the stop time before it.
  virtual Step advance(double tout) = 0;
  /// The k-th derivative of the interpolant at t within the last step,
  /// [current_time() - statistics().last_step, current_time()].
  virtual Eigen::VectorXd dense(double t, int k = 0) const = 0;
  /// The integrator's internal time (the end of the last step; may lie beyond the last tout).
  virtual double current_time() const = 0;
  /// Never step past t (a kink of the forcing); cleared by reinit().
  virtual void set_stop_time(double t) = 0;
  /// Restarts at (t0, y0) keeping the settings (after a kink).
  virtual void reinit(double t0, const Eigen::VectorXd& y0) = 0;
  /// `count` root functions; direction per function: 0 both, +1 rising only, -1 falling only.
  virtual void set_roots(int count, RootFunction g, const std::vector<int>& direction = {}) = 0;
  virtual void set_max_steps(long steps) = 0;
  virtual IntegratorStatistics statistics() const = 0;
  virtual const std::string& name() const = 0;
};

/// The ODE methods: "cvode_adams", "cvode_bdf" (dense direct linear solver, difference-quotient
/// Jacobian), "arkode_dp5" (ERKStep, Dormand-Prince 7-4-5, the ode45 analogue), "arkode_verner6"
/// (ERKStep, Verner 8-5-6), "arkode_fehlberg8" (ERKStep, Fehlberg 13-7-8).
const std::vector<std::string>& ode_methods();
std::unique_ptr<Integrator> make_integrator(const std::string& method, Rhs f, const Eigen::VectorXd& y0, double t0,
                                            Tolerances tol);

/// IDA on F(t, y, y') = 0 with a consistent (y0, yp0); `differential` marks the differential
/// components (1) and the algebraic ones (0), used for error control and IDASetId.
/// The Integrator interface applies; dense() interpolates y (k = 0) and y' (k = 1).
std::unique_ptr<Integrator> make_dae_integrator(Residual F, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0,
                                                const Eigen::VectorXd& differential, double t0, Tolerances tol,
                                                bool suppress_algebraic_error);

/// "6.4.1" from sundials_config.h
std::string sundials_version();

/// The one integrator key block of every study that integrates: <prefix>.method, .rtol, .atol,
/// .max_steps (prefix "solver"; a second integrator of the same study, such as a tighter
/// reference, takes its own prefix). The fields' values are the defaults.
struct IntegratorOptions {
  std::string method = "cvode_adams";
  double rtol = 1e-10;
  double atol = 1e-12;
  long max_steps = 1'000'000;
  Tolerances tolerances() const { return {rtol, atol}; }
};
void declare_integrator_keys(Config& config, IntegratorOptions& options, const std::string& prefix = "solver");

}  // namespace cm

// Time marching shared by the studies. It integrates piecewise across the kinks of the actuation
// (stop time + restart at t1 and t2, where u(t) is only C^0), and visits a fine scan grid and a
// coarser output grid. It locates zeros of a root function (detachment, N = 0), and finds the
// maximum of an objective (f_s / N) with a golden-section search refined on the solution itself.
//
// Refinement: the grid maximum t_k is bracketed by [t_{k-1}, t_{k+1}]; the objective is then
// maximised by golden-section search, each trial value computed from a fresh integration (same
// method and tolerances) started from the stored grid state at t_{k-1} and stopped exactly at the
// trial time. (The wrapper's dense output is valid only inside the last internal step, which need
// not contain the whole bracket; a restart over 2 grid spacings is cheap and as accurate.)
#pragma once

#include <Eigen/Core>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "numerics/sundials.hpp"

namespace rb {

/// Makes an integrator started at (t0, y0).
using Factory = std::function<std::unique_ptr<cm::Integrator>(double t0, const Eigen::VectorXd& y0)>;

/// Integrators of the ODE x' = model.rhs(t, x) by `method` (cm::make_integrator) at `tol`; `model`
/// must outlive them.
template <class Model>
Factory ode_factory(const Model& model, const std::string& method, const cm::Tolerances& tol) {
  const Model* m = &model;
  return [m, method, tol](double t0, const Eigen::VectorXd& y0) {
    return cm::make_integrator(
        method, [m](double t, cm::ConstVectorRef y, cm::VectorRef yd) { m->rhs(t, y, yd); }, y0, t0, tol);
  };
}

struct Crossing {
  double t;
  int direction;  ///< +1 rising, -1 falling
};

struct MarchResult {
  double t_end = 0.0;
  Eigen::VectorXd y_end;
  bool stopped_on_root = false;
  std::vector<Crossing> crossings;
  double best_t = 0.0, best_value = 0.0;  ///< refined maximum of the objective
  double grid_best_t = 0.0, grid_best_value = 0.0;
  double low_t = 0.0, low_value = 0.0;  ///< refined minimum of the minimised function (N)
  double grid_low_t = 0.0, grid_low_value = 0.0;
  std::map<std::string, double> statistics;  ///< summed over the pieces
  /// A statistic by name, 0 when the integrator does not report it.
  double stat(const std::string& key) const {
    const auto it = statistics.find(key);
    return it == statistics.end() ? 0.0 : it->second;
  }
};

struct MarchOptions {
  double a = 0.0, b = 1.0;
  std::vector<double> kinks;   ///< restart points inside (a, b)
  bool split_at_kinks = true;  ///< false: integrate straight through (diagnostic)
  double dt_scan = 1e-3;       ///< the objective is sampled here
  double dt_output = 1e-2;     ///< the observer is told "output" here
  long max_steps = 1000000;
  long max_points = 20'000'000;  ///< most points of a grid (output.max_rows)
  bool fresh_restart = false;    ///< restart with a new integrator from the factory instead of reinit (DAE)
};

class March {
 public:
  using Observer = std::function<void(double t, const Eigen::VectorXd& y, bool output)>;
  using Objective = std::function<double(double t, const Eigen::VectorXd& y)>;

  March(Factory make, MarchOptions options);

  /// The objective to maximise (none: no maximum is sought).
  void objective(Objective f) { objective_ = std::move(f); }
  /// A function to minimise as well (N of (3.3)/(4.3)), refined the same way.
  void minimise(Objective f) { minimised_ = std::move(f); }
  /// One root function; direction 0 both, -1 falling, +1 rising; stop at the first root or go on.
  void root(cm::RootFunction g, int direction, bool stop);

  /// Runs from (a, y0); calls `observer` at every grid point (scan and output) and at a stopping root.
  MarchResult run(const Eigen::VectorXd& y0, const Observer& observer);

  /// The state at time t, integrated from (t0, y0) across the kinks (used by the refinement).
  Eigen::VectorXd state_at(double t0, const Eigen::VectorXd& y0, double t) const;

 private:
  Factory make_;
  MarchOptions o_;
  Objective objective_, minimised_;
  cm::RootFunction root_;
  int root_direction_ = 0;
  bool root_stop_ = false;
};

/// The grid points of [a, b] at spacing dt, exact multiples a + k dt (b always included), counted
/// first by cm::grid_points (an InputError naming `key` when more than max_points).
std::vector<double> grid(double a, double b, double dt, const std::string& key, long max_points);

/// Golden-section maximisation of f on [lo, hi] to |interval| <= tol.
std::pair<double, double> golden_maximum(const std::function<double(double)>& f, double lo, double hi, double tol);

}  // namespace rb

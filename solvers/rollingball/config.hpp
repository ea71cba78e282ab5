// The configuration keys of the rolling ball and disk studies: each key bound once to the field of
// an options struct that holds its default, and turned into model parameters here, so that every
// executable of the paper reads the same keys the same way.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "numerics/sundials.hpp"
#include "rollingball/ball.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/march.hpp"

namespace rb {

/// actuation.*: the step-ramp u_i(t) of (5.5)/(6.11).
struct ActuationOptions {
  double t1 = 0.1, t2 = 0.2, amp = 1.0;
  std::string sign = "plus";
  std::vector<double> signs;
};
void declare_actuation_keys(cm::Config& config, ActuationOptions& o);
StepRamp actuation_from(const ActuationOptions& o, std::size_t n);

/// model.*, masses.*, rails.*, force.*, actuation.* of the ball (Sect. 6, Fig. 6.1 defaults).
struct BallModelOptions {
  double m0 = 1.0, r = 1.0, g = 1.0;
  std::vector<double> d{0.9, 1.0, 1.1}, zeta0{0.0, 0.0, -0.05};
  std::vector<double> m{1.0, 1.0, 1.0}, radius{0.95, 0.9, 0.85};
  std::vector<double> v{0.0, 0.0, 1.0, cm::pi / 2, 0.0, 1.0, cm::pi / 4, cm::pi / 4, 1.0};
  std::string basis = "n_b2_mb1";
  std::vector<double> Fe{0.0, 0.0, 0.0};
  ActuationOptions actuation{};
};
void declare_ball_model_keys(cm::Config& config, BallModelOptions& o);
BallParameters ball_parameters_from(const BallModelOptions& o);

/// model.*, masses.*, rails.*, force.*, actuation.* of the disk (Sect. 5, Fig. 5.2 defaults).
struct DiskModelOptions {
  double m0 = 1.0, r = 1.0, d2 = 1.0, g = 1.0;
  std::vector<double> zeta0{0.0, 0.0};
  std::vector<double> m{1.0, 1.0, 1.0, 1.0}, radius{0.9, 19.0 / 30.0, 11.0 / 30.0, 0.1};
  std::vector<double> Fe{0.0, 0.0};
  ActuationOptions actuation{0.1, 0.2, 1.0, "alternating", {}};
};
void declare_disk_model_keys(cm::Config& config, DiskModelOptions& o);
DiskParameters disk_parameters_from(const DiskModelOptions& o);

/// time.*, solver.*, analysis.*, output.*, crosscheck.*.
struct MarchKeys {
  double a = 0.0, b = 20.0;
  cm::IntegratorOptions integrator;
  MarchKeys() {
    integrator.method = "arkode_dp5";  // plays MATLAB's ode45 (Sect. 5, 6)
    integrator.rtol = 1e-10;
    integrator.atol = 1e-10;
    integrator.max_steps = 2'000'000;
  }
  bool split_at_kinks = true;
  double dt_scan = 1e-4, dt_output = 1e-2;
  std::vector<std::string> crosscheck{"none"};
};
void declare_march_keys(cm::Config& config, MarchKeys& o);
/// The march of [time.a, time.b] with the kinks t1, t2 of the actuation; the grids counted
/// against `max_points` (a step too fine for the budget is an InputError naming its key).
MarchOptions march_options_from(const MarchKeys& o, const ActuationOptions& actuation, long max_points);
/// crosscheck.methods without "none".
std::vector<std::string> crosscheck_methods_from(const MarchKeys& o);

/// ic.free: the two free angles of the initial-configuration solver (1-based keys, 0-based here).
std::array<int, 2> free_angles_from(const std::vector<long>& free);
/// Checks ic.free against the number of masses n (inside config.check).
void check_free_angles(const cm::Config& config, const std::vector<long>& free, std::size_t n);

}  // namespace rb

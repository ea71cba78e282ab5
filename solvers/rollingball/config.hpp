// The configuration keys of the rolling ball and disk studies, declared once and turned into
// model parameters here, so that every executable of the paper reads the same keys the same way.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "common/options.hpp"
#include "rollingball/ball.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/march.hpp"

namespace rb {

/// actuation.t1, t2, amp, sign, signs.
void declare_actuation_keys(cm::Config& config, const std::string& default_sign);
StepRamp actuation_from(const cm::Config& config, std::size_t n);

/// model.*, masses.*, rails.*, force.*, actuation.* of the ball (Sect. 6, Fig. 6.1 defaults).
void declare_ball_model_keys(cm::Config& config);
BallParameters ball_parameters_from(const cm::Config& config);

/// model.*, masses.*, rails.*, force.*, actuation.* of the disk (Sect. 5, Fig. 5.2 defaults).
void declare_disk_model_keys(cm::Config& config);
DiskParameters disk_parameters_from(const cm::Config& config);

/// time.*, solver.*, analysis.*, output.*, crosscheck.*.
void declare_march_keys(cm::Config& config, double tol, const std::string& method);
MarchOptions march_options_from(const cm::Config& config);
cm::Tolerances tolerances_from(const cm::Config& config);
/// crosscheck.methods, validated against cm::ode_methods().
std::vector<std::string> crosscheck_methods_from(const cm::Config& config);

/// ic.free: the two free angles of the initial-configuration solver (0-based).
std::array<int, 2> free_angles_from(const cm::Config& config);

/// Splits a comma-separated list of names ("" -> none).
std::vector<std::string> split_list(const std::string& text);

}  // namespace rb

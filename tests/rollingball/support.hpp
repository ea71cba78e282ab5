// Shared set-up of the rolling-ball tests: the paper's parameter sets and small integration helpers.
#pragma once

#include <cmath>
#include <memory>

#include "core/options.hpp"
#include "numerics/sundials.hpp"
#include "rollingball/ball.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/march.hpp"
#include "rollingball/rails.hpp"

namespace rbtest {

/// The ball of Sect. 6 (Fig. 6.1) with the reconstructed rail bases.
inline rb::BallParameters paper_ball() {
  rb::BallParameters p;
  p.m = {1.0, 1.0, 1.0};
  const double v[3][3] = {{0, 0, 1}, {cm::pi / 2, 0, 1}, {cm::pi / 4, cm::pi / 4, 1}};
  const double radius[3] = {0.95, 0.9, 0.85};
  for (int i = 0; i < 3; ++i) {
    rb::Rail rail;
    rail.radius = radius[i];
    rail.B = rb::rail_basis(rb::spherical_to_cartesian(v[i][0], v[i][1], v[i][2]), "n_b2_mb1");
    p.rails.push_back(rail);
  }
  p.actuation.sign = {1.0, 1.0, 1.0};
  return p;
}

/// The disk of Sect. 5 (Fig. 5.2).
inline rb::DiskParameters paper_disk() {
  rb::DiskParameters p;
  p.m = {1, 1, 1, 1};
  p.radius = {0.9, 19.0 / 30.0, 11.0 / 30.0, 0.1};
  p.actuation.sign = {-1, 1, -1, 1};
  return p;
}

inline rb::Factory ball_factory(const rb::Ball& ball, double tol, const std::string& method = "cvode_adams") {
  return [&ball, tol, method](double t0, const Eigen::VectorXd& y0) {
    return cm::make_integrator(
        method, [&ball](double t, cm::ConstVectorRef y, cm::VectorRef yd) { ball.rhs(t, y, yd); }, y0, t0, {tol, tol});
  };
}

inline rb::Factory disk_factory(const rb::Disk& disk, double tol, const std::string& method = "cvode_adams") {
  return [&disk, tol, method](double t0, const Eigen::VectorXd& y0) {
    return cm::make_integrator(
        method, [&disk](double t, cm::ConstVectorRef y, cm::VectorRef yd) { disk.rhs(t, y, yd); }, y0, t0, {tol, tol});
  };
}

inline rb::MarchOptions options(double b, double dt) {
  rb::MarchOptions o;
  o.a = 0.0;
  o.b = b;
  o.kinks = {0.1, 0.2};
  o.dt_scan = dt;
  o.dt_output = dt;
  return o;
}

}  // namespace rbtest

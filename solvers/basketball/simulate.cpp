// The hybrid simulation of Sect. 5: rolling (33)-(36), slipping (42), the limit-direction switch
// of Sect. 5.2.1, separation as a CVODE root of F2 and the free-flight in/out rule (spec §2.18).
#include "basketball/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/errors.hpp"

namespace bb {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The full state carried by the integrator: (beta, w1, w2, w3, u1, u3, alpha).
using State = Eigen::Matrix<double, 7, 1>;

enum class Mode { roll, slip };

Slipping slipping_part(const Eigen::VectorXd& y) { return y.head<6>(); }
Rolling rolling_part(const Eigen::VectorXd& y) { return y.head<4>(); }

// d(F2/m)/dt along the flow, from the gradient of (41) (which holds for rolling with u = 0).
double normal_force_rate(const Model& m, const Slipping& y, const Slipping& yd) {
  const Parameters& p = m.parameters();
  const double beta = y(0), r = p.r, rho = p.rho(), D = p.D(beta);
  const double s = std::sin(beta), c = std::cos(beta);
  const double vt = y(4) - r * y(3), vs = y(5) + r * y(1);
  const double dbeta = -vt * vt * p.R * s / (D * D) + p.g * c;
  const double dvt = 2 * vt * c / D, dvs = -2 * vs / rho;
  return dbeta * yd(0) + dvs * (yd(5) + r * yd(1)) + dvt * (yd(4) - r * yd(3));
}

}  // namespace

Outcome simulate(const Model& model, const Rolling& x0, const SimulationOptions& o) {
  const Parameters& p = model.parameters();
  Outcome out;
  out.period = nan;
  out.separation.setConstant(nan);
  out.d_cross = nan;

  Mode mode = Mode::roll;
  State y0 = State::Zero();
  y0.head<4>() = x0;
  const auto start_slip = [&](State& y) {
    // Roll -> slip (Sect. 5.2.1, step 1): leave X along the repelling limit direction phi1 (81).
    const Model::Limits L = model.limits(y.head<4>());
    y(4) = o.delta * std::cos(L.phi1);
    y(5) = o.delta * std::sin(L.phi1);
    mode = Mode::slip;
    out.slipped = true;
  };

  out.F2min = model.normal_force(y0.head<6>());
  if (out.F2min <= 0) {  // no contact at all: separates at t = 0
    const Model::Landing L = model.land(y0.head<6>());
    out.separation = y0.head<6>();
    out.d_cross = L.d_cross;
    out.code = (o.ballistic ? L.in : std::cos(x0(0)) > 0) ? Code::in : Code::out;
    if (o.sample && o.sample_dt > 0) o.sample(0.0, out.separation, 0.0, false);
    if (o.trace) {
      o.trace("separation", 0.0, out.separation);
      o.trace("end", 0.0, out.separation);
    }
    return out;
  }
  if (o.slipping && model.slip_margin(x0) < 0) start_slip(y0);
  if (o.trace) o.trace("start", 0.0, y0.head<6>());

  const auto rhs = [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
    const Slipping ys = y.head<6>();
    Slipping d;
    if (mode == Mode::roll) {
      d.head<4>() = model.rolling_rhs(ys.head<4>());
      d(4) = d(5) = 0;
    } else {
      d = model.slipping_rhs(ys);
    }
    yd.head<6>() = d;
    yd(6) = (ys(4) - p.r * ys(3)) / p.D(ys(0));  // eq. (19): the cyclic angle alpha
  };
  // Root functions: 0 F2 (separation), 1 omega1 (Prop. 4), 2 slip margin (39) or u - u_tol,
  // 3 dF2/dt (minimum of F2, eq. (74)), 4 u - delta/2 (a slip phase that started below u_tol).
  const auto roots = [&](double, cm::ConstVectorRef y, cm::VectorRef g) {
    const Slipping ys = y.head<6>();
    g(0) = model.normal_force(ys);
    Slipping d;
    if (mode == Mode::roll) {
      d.head<4>() = model.rolling_rhs(ys.head<4>());
      d(4) = d(5) = 0;
      g(1) = ys(1);
      g(2) = o.slipping ? model.slip_margin(ys.head<4>()) : 1.0;
      g(4) = 1.0;
    } else {
      d = model.slipping_rhs(ys);
      g(1) = 1.0;
      const double u = std::hypot(ys(4), ys(5));
      g(2) = u - o.u_tol;
      g(4) = u - 0.5 * o.delta;
    }
    g(3) = normal_force_rate(model, ys, d);
  };

  // One integrator per phase: the slip phases start at u = delta, where the direction of the slip
  // relaxes on the time scale u/|B| (stiff), so they get their own (implicit) method.
  bool fallback = false;  // the slip method failed in this phase: the rolling method takes over
  double t_phase = 0;
  Eigen::VectorXd y_phase = y0;
  const auto make = [&](double t0, const Eigen::VectorXd& yr) {
    t_phase = t0;
    y_phase = yr;
    const std::string& method = mode == Mode::roll ? o.method : fallback ? o.fallback_method : o.slip_method;
    auto ode = cm::make_integrator(method, rhs, yr, t0, {o.rtol, o.atol});
    ode->set_roots(5, roots, {-1, 0, -1, +1, -1});
    ode->set_stop_time(o.t_max);
    return ode;
  };
  auto ode = make(0.0, y0);

  int zeros = 0;
  double t_first_zero = 0;
  double t = 0;
  Eigen::VectorXd y = y0;
  // Uniform output (SimulationOptions::sample): advance() stops at each output time, where the
  // integrator's dense output is read; an output time passed by the extrapolated sticking step is
  // interpolated linearly between the state the integration reached and the state after the step.
  const bool sampling = o.sample && o.sample_dt > 0;
  long k_sample = 0;  // the next output time is k_sample sample_dt
  double t_reached = 0;
  Eigen::VectorXd y_reached = y0;
  const auto next_sample = [&] { return double(k_sample) * o.sample_dt; };
  // An output time within rounding of t is taken at t (an integrator refuses a tout that close to t0).
  const auto close_to = [](double t) { return t + 1e-12 * std::max(1.0, std::abs(t)); };
  const auto take_samples = [&] {
    for (; sampling && next_sample() <= close_to(t); ++k_sample) {
      const double s = t > t_reached ? std::clamp((next_sample() - t_reached) / (t - t_reached), 0.0, 1.0) : 1.0;
      const Eigen::VectorXd ys = y_reached + s * (y - y_reached);
      o.sample(next_sample(), slipping_part(ys), ys(6), mode == Mode::slip);
    }
  };
  Mode phase_mode = mode;  // the mode of the phase being integrated, to name the switches traced
  const auto restart = [&](double t0, const Eigen::VectorXd& yr) {
    if (o.trace)
      o.trace(mode == Mode::roll ? "stick" : phase_mode == Mode::roll ? "slip" : "transit", t0, slipping_part(yr));
    phase_mode = mode;
    fallback = false;
    ode = make(t0, yr);
  };
  const auto finish = [&](Code code) {
    take_samples();
    if (o.trace) o.trace("end", t, slipping_part(y));
    out.code = code;
    out.t_end = t;
    out.revolutions = y(6) / (2 * 3.14159265358979323846);
    const cm::IntegratorStatistics st = ode->statistics();
    out.steps += st.steps;
    out.rhs_evaluations += st.rhs_evaluations;
    return out;
  };
  const auto flush_statistics = [&] {
    const cm::IntegratorStatistics st = ode->statistics();
    out.steps += st.steps;
    out.rhs_evaluations += st.rhs_evaluations;
  };

  while (true) {
    take_samples();
    cm::Step step;
    try {
      step = ode->advance(sampling ? std::min(next_sample(), o.t_max) : o.t_max);
    } catch (const cm::NumericalError&) {
      if (mode == Mode::roll && t > t_phase) {
        // CVODE refuses to go on where a root function vanishes at and right after the point it
        // returned (omega1 and dF2/dt stay at rounding level along a steady motion): resume there
        // with a fresh integrator, on which such a root function is inactive until it moves away
        // from zero, as at the start of every phase.
        flush_statistics();
        ode = make(t, y);
        continue;
      }
      if (mode != Mode::slip || fallback) throw;
      // BDF can fail on the slip direction's fast relaxation right after a switch; redo the
      // phase with the explicit fallback method.
      fallback = true;
      flush_statistics();
      ode = make(t_phase, Eigen::VectorXd(y_phase));
      if (o.trace) o.trace("redo", t_phase, slipping_part(y_phase));
      if (sampling) {  // the output times after t_phase come again
        t = t_reached = t_phase;
        y = y_reached = y_phase;
        k_sample = std::max(0L, long(t_phase / o.sample_dt) - 1);
        while (next_sample() <= close_to(t_phase)) ++k_sample;
      }
      continue;
    }
    t = step.t;
    y = step.y;
    t_reached = t;
    y_reached = y;
    if (!step.root) {
      if (sampling && t < o.t_max) continue;  // an output time, taken at the top of the loop
      return finish(Code::undetermined);      // t_max reached
    }
    const Slipping ys = slipping_part(y);
    if (o.trace) {
      if (step.roots[0] != 0) o.trace("separation", t, ys);
      if (mode == Mode::roll && step.roots[1] != 0) o.trace("zero", t, ys);
      if (step.roots[3] != 0) o.trace("minimum", t, ys);
    }
    if (step.roots[3] != 0) out.F2min = std::min(out.F2min, model.normal_force(ys));
    if (step.roots[0] != 0) {
      // Separation: F2 reaches zero (40); free flight decides in or out (spec §2.18).
      out.F2min = std::min(out.F2min, 0.0);
      const Model::Landing L = model.land(ys);
      out.separation = ys;
      out.d_cross = L.d_cross;
      const bool in = o.ballistic ? L.in : std::cos(ys(0)) > 0;
      return finish(in ? Code::in : Code::out);
    }
    if (mode == Mode::roll) {
      if (step.roots[2] != 0) {
        State s = y;
        start_slip(s);
        y = s;
        zeros = 0;
        if (++out.switches > o.max_switches) return finish(Code::undetermined);
        flush_statistics();
        restart(t, y);
        continue;
      }
      if (step.roots[1] != 0) {
        // A transversal zero of omega1; two of them in one rolling phase give a periodic orbit (Prop. 4).
        if (++zeros == 1) {
          t_first_zero = t;
        } else if (o.detect_periodic) {
          out.period = 2 * (t - t_first_zero);
          return finish(Code::periodic);
        }
      }
    } else if (step.roots[2] != 0 || step.roots[4] != 0) {
      // Slip -> roll (Sect. 5.2.1, step 2): u is small; stick if rolling is sustainable there.
      const Model::Limits L = model.limits(rolling_part(y));
      const double u = std::hypot(y(4), y(5)), phi = std::atan2(y(5), y(4));
      if (std::hypot(L.B1, L.B3) <= L.C) {
        const double udot = L.B1 * std::cos(phi) + L.B3 * std::sin(phi) - L.C;  // eq. (79)
        const double dt = udot < 0 ? u / -udot : 0.0;                           // extrapolated sticking time
        Eigen::VectorXd yd(7);
        rhs(t, y, yd);
        y += dt * yd;
        t += dt;
        y(4) = y(5) = 0;
        mode = Mode::roll;
        zeros = 0;
      } else {
        // Through X: arrived along the attracting phi2, leave along the repelling phi1 (81).
        State s = y;
        start_slip(s);
        y = s;
      }
      if (++out.switches > o.max_switches) return finish(Code::undetermined);
      flush_statistics();
      restart(t, y);
    }
  }
}

}  // namespace bb

// The hybrid simulation of Sect. 5: rolling (33)-(36), slipping (42), the limit-direction switch
// of Sect. 5.2.1, separation as a CVODE root of F2 and the free-flight in/out rule (spec §2.18).
#include "basketball/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "core/math.hpp"

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

// One hybrid simulation: the state shared by the phases (the mode, the integrator of the current
// phase, the output times) and the steps of Sect. 5 as member functions.
class Simulation {
 public:
  Simulation(const Model& model, const SimulationOptions& o)
      : model_(model), p_(model.parameters()), o_(o), sampling_(o.sample && o.sample_dt > 0) {
    out_.period = nan;
    out_.separation.setConstant(nan);
    out_.d_cross = nan;
  }

  Outcome run(const Rolling& x0) {
    State y0 = State::Zero();
    y0.head<4>() = x0;
    out_.F2min = model_.normal_force(y0.head<6>());
    if (out_.F2min <= 0) return separate_at_start(x0, y0);
    if (o_.slipping && model_.slip_margin(x0) < 0) start_slip(y0);
    if (o_.trace) o_.trace("start", 0.0, y0.head<6>());
    y_ = y0;
    y_reached_ = y0;
    phase_mode_ = mode_;
    ode_ = make(0.0, y0);
    while (true) {
      take_samples();
      cm::Step step;
      try {
        step = ode_->advance(sampling_ ? std::min(next_sample(), o_.t_max) : o_.t_max);
      } catch (const cm::NumericalError&) {
        if (mode_ == Mode::roll && t_ > t_phase_) {
          // CVODE refuses to go on where a root function vanishes at and right after the point it
          // returned (omega1 and dF2/dt stay at rounding level along a steady motion). Resume there
          // with a fresh integrator, on which such a root function is inactive until it moves away
          // from zero, as at the start of every phase.
          flush_statistics();
          ode_ = make(t_, y_);
          continue;
        }
        if (mode_ != Mode::slip || fallback_ == 2 || (fallback_ == 1 && o_.second_fallback_method == "none")) throw;
        redo_with_fallback();
        continue;
      }
      t_ = step.t;
      y_ = step.y;
      t_reached_ = t_;
      y_reached_ = y_;
      if (!step.root) {
        if (sampling_ && t_ < o_.t_max) continue;  // an output time, taken at the top of the loop
        return finish(Code::undetermined);         // t_max reached
      }
      if (const auto decided = on_root(step)) return *decided;
    }
  }

 private:
  // No contact at all: separates at t = 0.
  Outcome separate_at_start(const Rolling& x0, const State& y0) {
    const Model::Landing L = model_.land(y0.head<6>());
    out_.separation = y0.head<6>();
    out_.d_cross = L.d_cross;
    out_.code = (o_.ballistic ? L.in : std::cos(x0(0)) > 0) ? Code::in : Code::out;
    if (sampling_) o_.sample(0.0, out_.separation, 0.0, false);
    if (o_.trace) {
      o_.trace("separation", 0.0, out_.separation);
      o_.trace("end", 0.0, out_.separation);
    }
    return out_;
  }

  // Roll -> slip (Sect. 5.2.1, step 1): leave X along the repelling limit direction phi1 (81).
  void start_slip(State& y) {
    const Model::Limits L = model_.limits(y.head<4>());
    y(4) = o_.delta * std::cos(L.phi1);
    y(5) = o_.delta * std::sin(L.phi1);
    mode_ = Mode::slip;
    out_.slipped = true;
  }

  // The rate of the phase's mode: rolling (33)-(36) or slipping (42).
  Slipping rate(const Slipping& ys) const {
    Slipping d;
    if (mode_ == Mode::roll) {
      d.head<4>() = model_.rolling_rhs(ys.head<4>());
      d(4) = d(5) = 0;
    } else {
      d = model_.slipping_rhs(ys);
    }
    return d;
  }

  void rhs(cm::ConstVectorRef y, cm::VectorRef yd) const {
    const Slipping ys = y.head<6>();
    yd.head<6>() = rate(ys);
    yd(6) = (ys(4) - p_.r * ys(3)) / p_.D(ys(0));  // eq. (19): the cyclic angle alpha
  }

  // Root functions: 0 F2 (separation), 1 omega1 (Prop. 4), 2 slip margin (39) or u - u_tol,
  // 3 dF2/dt (minimum of F2, eq. (74)), 4 u - delta/2 (a slip phase that started below u_tol).
  void roots(cm::ConstVectorRef y, cm::VectorRef g) const {
    const Slipping ys = y.head<6>();
    g(0) = model_.normal_force(ys);
    if (mode_ == Mode::roll) {
      g(1) = ys(1);
      g(2) = o_.slipping ? model_.slip_margin(ys.head<4>()) : 1.0;
      g(4) = 1.0;
    } else {
      g(1) = 1.0;
      const double u = std::hypot(ys(4), ys(5));
      g(2) = u - o_.u_tol;
      g(4) = u - 0.5 * o_.delta;
    }
    g(3) = normal_force_rate(model_, ys, rate(ys));
  }

  // One integrator per phase: the slip phases start at u = delta, where the direction of the slip
  // relaxes on the time scale u/|B| (stiff), so they get their own (implicit) method.
  std::unique_ptr<cm::Integrator> make(double t0, const Eigen::VectorXd& yr) {
    t_phase_ = t0;
    y_phase_ = yr;
    const std::string& method = mode_ == Mode::roll ? o_.integrator.method
                                : fallback_ == 1    ? o_.fallback_method
                                : fallback_ == 2    ? o_.second_fallback_method
                                                    : o_.slip_method;
    cm::Tolerances tol = o_.integrator.tolerances();
    if (fallback_ == 1) tol.rtol *= o_.fallback_tolerance_factor, tol.atol *= o_.fallback_tolerance_factor;
    auto ode = cm::make_integrator(
        method, [this](double, cm::ConstVectorRef y, cm::VectorRef yd) { rhs(y, yd); }, yr, t0, tol);
    ode->set_roots(5, [this](double, cm::ConstVectorRef y, cm::VectorRef g) { roots(y, g); }, {-1, 0, -1, +1, -1});
    ode->set_stop_time(o_.t_max);
    ode->set_max_steps(o_.integrator.max_steps);
    return ode;
  }

  // Uniform output (SimulationOptions::sample): advance() stops at each output time, where the
  // integrator's dense output is read; an output time passed by the extrapolated sticking step is
  // interpolated linearly between the state the integration reached and the state after the step.
  double next_sample() const { return double(k_sample_) * o_.sample_dt; }
  // An output time within rounding of t is taken at t (an integrator refuses a tout that close to t0).
  static double close_to(double t) { return t + 1e-12 * std::max(1.0, std::abs(t)); }
  void take_samples() {
    for (; sampling_ && next_sample() <= close_to(t_); ++k_sample_) {
      const double s = t_ > t_reached_ ? std::clamp((next_sample() - t_reached_) / (t_ - t_reached_), 0.0, 1.0) : 1.0;
      const Eigen::VectorXd ys = y_reached_ + s * (y_ - y_reached_);
      o_.sample(next_sample(), slipping_part(ys), ys(6), mode_ == Mode::slip);
    }
  }

  void flush_statistics() {
    const cm::IntegratorStatistics st = ode_->statistics();
    out_.steps += st.steps;
    out_.rhs_evaluations += st.rhs_evaluations;
  }

  // A new phase from (t0, yr), named by the switch that started it.
  void restart(double t0, const Eigen::VectorXd& yr) {
    if (o_.trace)
      o_.trace(mode_ == Mode::roll ? "stick" : phase_mode_ == Mode::roll ? "slip" : "transit", t0, slipping_part(yr));
    phase_mode_ = mode_;
    fallback_ = 0;
    ode_ = make(t0, yr);
  }

  // The slip method can fail in a slipping phase: CVODE's BDF error test fails down to the smallest
  // step, right after a switch or on a stretch where its solution had drifted. The phase is then
  // done again from its start by the fallback method at its tighter tolerance, and should that
  // fail too, by the second fallback method at the solver's.
  void redo_with_fallback() {
    ++fallback_;
    ++out_.fallbacks;
    flush_statistics();
    ode_ = make(t_phase_, Eigen::VectorXd(y_phase_));
    if (o_.trace) o_.trace("redo", t_phase_, slipping_part(y_phase_));
    if (sampling_) {  // the output times after t_phase come again
      t_ = t_reached_ = t_phase_;
      y_ = y_reached_ = y_phase_;
      k_sample_ = std::max(0L, long(t_phase_ / o_.sample_dt) - 1);
      while (next_sample() <= close_to(t_phase_)) ++k_sample_;
    }
  }

  Outcome finish(Code code) {
    take_samples();
    if (o_.trace) o_.trace("end", t_, slipping_part(y_));
    out_.code = code;
    out_.t_end = t_;
    out_.revolutions = y_(6) / (2 * cm::pi);
    flush_statistics();
    return out_;
  }

  // A root of the phase: separation, a zero of omega1, a minimum of F2, or a switch.
  std::optional<Outcome> on_root(const cm::Step& step) {
    const Slipping ys = slipping_part(y_);
    if (o_.trace) {
      if (step.roots[0] != 0) o_.trace("separation", t_, ys);
      if (mode_ == Mode::roll && step.roots[1] != 0) o_.trace("zero", t_, ys);
      if (step.roots[3] != 0) o_.trace("minimum", t_, ys);
    }
    if (step.roots[3] != 0) out_.F2min = std::min(out_.F2min, model_.normal_force(ys));
    if (step.roots[0] != 0) {
      // Separation: F2 reaches zero (40); free flight decides in or out (spec §2.18).
      out_.F2min = std::min(out_.F2min, 0.0);
      const Model::Landing L = model_.land(ys);
      out_.separation = ys;
      out_.d_cross = L.d_cross;
      const bool in = o_.ballistic ? L.in : std::cos(ys(0)) > 0;
      return finish(in ? Code::in : Code::out);
    }
    if (mode_ == Mode::roll) {
      if (step.roots[2] != 0) {
        State s = y_;
        start_slip(s);
        y_ = s;
        zeros_ = 0;
        if (++out_.switches > o_.max_switches) return finish(Code::undetermined);
        flush_statistics();
        restart(t_, y_);
        return std::nullopt;
      }
      if (step.roots[1] != 0) {
        // A transversal zero of omega1; two of them in one rolling phase give a periodic orbit (Prop. 4).
        if (++zeros_ == 1) {
          t_first_zero_ = t_;
        } else if (o_.detect_periodic) {
          out_.period = 2 * (t_ - t_first_zero_);
          return finish(Code::periodic);
        }
      }
    } else if (step.roots[2] != 0 || step.roots[4] != 0) {
      stick_or_transit();
      if (++out_.switches > o_.max_switches) return finish(Code::undetermined);
      flush_statistics();
      restart(t_, y_);
    }
    return std::nullopt;
  }

  // Slip -> roll (Sect. 5.2.1, step 2): u is small; stick if rolling is sustainable there.
  void stick_or_transit() {
    const Model::Limits L = model_.limits(rolling_part(y_));
    const double u = std::hypot(y_(4), y_(5)), phi = std::atan2(y_(5), y_(4));
    if (std::hypot(L.B1, L.B3) <= L.C) {
      const double udot = L.B1 * std::cos(phi) + L.B3 * std::sin(phi) - L.C;  // eq. (79)
      const double dt = udot < 0 ? u / -udot : 0.0;                           // extrapolated sticking time
      Eigen::VectorXd yd(7);
      rhs(y_, yd);
      y_ += dt * yd;
      t_ += dt;
      y_(4) = y_(5) = 0;
      mode_ = Mode::roll;
      zeros_ = 0;
    } else {
      // Through X: arrived along the attracting phi2, leave along the repelling phi1 (81).
      State s = y_;
      start_slip(s);
      y_ = s;
    }
  }

  const Model& model_;
  const Parameters& p_;
  const SimulationOptions& o_;
  const bool sampling_;
  Outcome out_;
  Mode mode_ = Mode::roll;
  Mode phase_mode_ = Mode::roll;  // the mode of the phase being integrated, to name the switches traced
  int fallback_ = 0;              // this phase's method: 0 the slip method, 1 the fallback, 2 the second fallback
  double t_phase_ = 0;
  Eigen::VectorXd y_phase_;
  std::unique_ptr<cm::Integrator> ode_;
  int zeros_ = 0;
  double t_first_zero_ = 0;
  double t_ = 0;
  Eigen::VectorXd y_;
  long k_sample_ = 0;  // the next output time is k_sample sample_dt
  double t_reached_ = 0;
  Eigen::VectorXd y_reached_;
};

}  // namespace

Outcome simulate(const Model& model, const Rolling& x0, const SimulationOptions& options) {
  return Simulation(model, options).run(x0);
}

}  // namespace bb

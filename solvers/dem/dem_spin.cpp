// dem_spin: Example 5.1 (Sect. 5.1, Figs. 4-5): a sphere released spinning and sliding onto a flat
// rigid surface, against the closed-form sliding-then-rolling solution of Eqs. (51)-(54).
//
//   1. The paper's run (dt = 1e-4 s, 5 s): the histories of Fig. 5, the slopes of Eq. (51)-(52),
//      the rolling time, speed and spin, the iterations per step, the deviations from the closed form.
//   2. Evidence for the three corrections of spec 003: the same example with each printed form in
//      turn (the rotation factor of Eq. (27), the friction sign of Eq. (31), the overlap sign of
//      Eqs. (19), (21)), and the orthogonality of the printed and corrected rotation tensors.
//   3. The rolling time and speed over a sequence of time steps.
//
// A simulation whose mechanical energy grows (a time step that does not resolve the contact) is a
// numerical failure: Example 5.1 has no source of energy.
//
//   dem_spin --config configs/dem/spin.ini --output try/spin
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/study.hpp"
#include "core/text.hpp"
#include "dem/analysis.hpp"
#include "dem/model.hpp"

namespace {

using namespace dem;

/// The sampled motion of the sphere, one entry per step (and t = 0).
struct Trace {
  std::vector<double> t, x, theta, v, w, vC, Fn, Ft, slip, iterations, ke, y;
  double energy_gain = 0.0;    ///< largest rise of the mechanical energy over its initial value, relative
  double energy_gain_t = 0.0;  ///< where it was largest
  long nonconverged = 0;
  long iterations_max = 0;
};

class SpinStudy {
 public:
  static constexpr cm::StudyInfo info{"dem_spin", "dem", "spin",
                                      "Example 5.1: a sphere spinning and sliding on a plane until it rolls (Fig. 5)"};

  void declare(cm::Config& c) {
    dem::declare_particle_keys(c, particle_);
    c.add("initial.v0", &v0_, "initial velocity v_x(0)").unit("m/s");
    c.add("initial.w0", &w0_, "initial spin omega_z(0)").unit("rad/s");
    c.add_choice("initial.overlap", &static_overlap_, {{"static", true}, {"zero", false}},
                 "initial height: resting at the static overlap, or just touching the plane")
        .assumption(
            "ASSUMED: the initial height is not given; the static overlap avoids an undamped vertical "
            "Hertz oscillation with xi = 0 (spec 003 §3.1)");
    c.add("time.t_end", &t_end_, "simulated time").unit("s").range(cm::Range::positive());
    c.add("output.every", &every_, "steps between rows of the time series").range(cm::Range::closed(1, 1e9));
    c.add("analysis.slope_window", &slope_window_, "time window of the fitted slopes of v, omega, v_C")
        .unit("s")
        .size(2)
        .increasing()
        .range(cm::Range::nonnegative())
        .assumption("ASSUMED: the sliding phase away from its ends (spec 003 PV-02)");
    c.add("analysis.roll_window", &roll_window_, "time window of the rolling speed and spin (means)")
        .unit("s")
        .size(2)
        .increasing()
        .range(cm::Range::nonnegative())
        .assumption("ASSUMED: the rolling phase, t in [3, 5] s (spec 003 S-F5)");
    c.add("analysis.roll_margin", &roll_margin_,
          "half-width of the interval around t_roll left out of the deviations from the closed form")
        .unit("s")
        .range(cm::Range::nonnegative())
        .assumption("ASSUMED: spec 003 PV-12, +-0.01 s around the kink of the closed form");
    c.add("evidence.printed_overlap_t_end", &printed_overlap_t_end_,
          "simulated time of the run with the printed overlap sign (the sphere is pulled into the plane)")
        .unit("s")
        .range(cm::Range::positive());
    c.add("check.energy_gain", &energy_gain_limit_,
          "largest rise of the mechanical energy over its initial value (relative) that a simulation may show: "
          "Example 5.1 has no source of energy, so a larger one is a numerical failure (exit 3), a time step "
          "that does not resolve the contact")
        .range(cm::Range::nonnegative());
    c.add("dt_study.dt", &dt_study_, "time steps of the convergence study of t_roll and v_roll")
        .unit("s")
        .range(cm::Range::positive())
        .nonempty();
    declare_model_keys(c, model_);
    c.check([&c, this] {
      if (!(model_.gravity[1] < 0.0) || model_.gravity[0] != 0.0 || model_.gravity[2] != 0.0)
        c.fail("model.gravity", "Example 5.1 needs gravity along -y, onto the plane y = 0");
      if (slope_window_[1] > t_end_) c.fail("analysis.slope_window", "must end before time.t_end");
      if (roll_window_[1] > t_end_ + 1e-12) c.fail("analysis.roll_window", "must end by time.t_end");
      if (model_.particle_wall.mu_d <= 0.0) c.fail("contact.wall_mu_d", "must be positive: the sphere must roll");
      if (!model_.rotations)
        c.fail("model.rotations",
               "must be true: Example 5.1 is a sphere that spins until it rolls, and its closed form (51)-(54), "
               "t_roll and the rolling speed and spin describe that rotation");
      // The work, counted before any step: every simulation keeps a trace of every step.
      plan(c, t_end_, model_.dt, "solver.dt", "time.t_end");
      plan(c, printed_overlap_t_end_, model_.dt, "solver.dt", "evidence.printed_overlap_t_end");
      for (const double dt : dt_study_) plan(c, t_end_, dt, "dt_study.dt", "time.t_end");
    });
  }

  void run(cm::Run& run) {
    g_ = -model_.gravity[1];
    closed_ = {v0_, w0_, particle_.r, model_.particle_wall.mu_d, g_};
    const Trace trace = simulate(model_, t_end_, &run);
    check_energy(trace, "solver.dt", model_.dt);
    write_series(run, trace);
    compare(run, trace);
    evidence(run);
    dt_study(run);
  }

 private:
  /// The steps of one simulation over `span` by `dt` and the memory of its trace (Trace: 12 values
  /// a step), against the budgets of the run.
  static void plan(const cm::Config& c, double span, double dt, const std::string& dt_key,
                   const std::string& span_key) {
    const double steps = static_cast<double>(cm::planned_steps(c, span, dt, dt_key, span_key));
    cm::planned_memory(c, (steps + 1.0) * 12.0 * sizeof(double), dt_key, "the trace of every step");
  }

  /// t_roll of a simulation: the first sign change of the slip v_C,x, either way (a backspin slides
  /// with v_C,x > 0), linearly interpolated within its step; NaN if the slip never vanishes.
  static double rolling_time(const Trace& tr) { return first_crossing(tr.t, tr.vC, 0.0, 0.0, 0); }

  /// A simulation whose mechanical energy rose above its start by more than check.energy_gain has
  /// failed: friction and damping only remove energy, the Hertz contact stores it.
  void check_energy(const Trace& tr, const std::string& dt_key, double dt) const {
    if (!(tr.energy_gain <= energy_gain_limit_))
      throw cm::NumericalError("the mechanical energy rose to " + cm::format_real(1.0 + tr.energy_gain) +
                               " times its initial value at t = " + cm::format_real(tr.energy_gain_t) +
                               " s (check.energy_gain allows " + cm::format_real(energy_gain_limit_) +
                               "): the time step " + dt_key + " = " + cm::format_real(dt) +
                               " s does not resolve the contact");
  }

  Trace simulate(const Options& o, double t_end, cm::Run* progress_run) const {
    const double delta0 = static_overlap_ ? static_overlap(particle_, g_, o.wall_material) : 0.0;
    State s0;
    s0.x = Vector3d(0.0, particle_.r - delta0, 0.0);
    s0.v = Vector3d(v0_, 0.0, 0.0);
    s0.w = Vector3d(0.0, 0.0, w0_);
    System sys({particle_}, {s0}, {Wall::plane(Vector3d::Zero(), Vector3d::UnitY())}, o);
    const long n = std::lround(t_end / o.dt);
    Trace tr;
    double theta = 0.0;
    // The mechanical energy: kinetic, of gravity, and elastic of the Hertz contact (the integral of
    // eq. (19), 2/5 F_n delta); friction and the damping of eq. (22) only ever remove energy.
    const double hertz = 4.0 / 3.0 * std::sqrt(particle_.r) * wall_E(particle_, o.wall_material);
    double energy0 = 0.0;
    auto record = [&](long iterations) {
      const State& s = sys.state(0);
      const ContactForce c = sys.wall_contact(0, 0);
      tr.t.push_back(sys.t());
      tr.x.push_back(s.x(0) - s0.x(0));
      tr.y.push_back(s.x(1));
      tr.theta.push_back(theta);
      tr.v.push_back(s.v(0));
      tr.w.push_back(s.w(2));
      tr.vC.push_back(s.v(0) + s.w(2) * particle_.r);  // v_C,x = v + omega r (Eq. (52))
      tr.Fn.push_back(c.active ? c.Fn : 0.0);
      tr.Ft.push_back(c.active ? c.f_fric(0) : 0.0);
      tr.slip.push_back(c.active && c.slipping ? 1.0 : 0.0);
      tr.iterations.push_back(static_cast<double>(iterations));
      tr.ke.push_back(sys.kinetic_translational() + sys.kinetic_rotational());
      const double energy = tr.ke.back() + particle_.m * g_ * (s.x(1) - s0.x(1)) +
                            (c.active ? 0.4 * hertz * std::pow(c.delta, 2.5) : 0.0);
      if (tr.t.size() == 1) energy0 = energy;
      if ((energy - energy0) / energy0 > tr.energy_gain) {
        tr.energy_gain = (energy - energy0) / energy0;
        tr.energy_gain_t = sys.t();
      }
    };
    record(0);
    cm::Progress progress("Example 5.1", 0.0, t_end, progress_run == nullptr || progress_run->quiet());
    for (long k = 0; k < n; ++k) {
      const StepReport rep = sys.step();
      if (!rep.converged) ++tr.nonconverged;
      tr.iterations_max = std::max(tr.iterations_max, rep.iterations);
      // the total rotation about z: the sum of the scalar increments (Sect. 5.1); with the exact
      // increment alpha^Delta = 2 tan(theta/2) e, the angle of each is 2 atan(alpha^Delta / 2)
      const double aD = sys.state(0).aD(2);
      theta += o.exact_increment ? 2.0 * std::atan(0.5 * aD) : aD;
      record(rep.iterations);
      progress.update(sys.t());
    }
    return tr;
  }

  void write_series(cm::Run& run, const Trace& tr) const {
    const double rows = static_cast<double>(tr.t.size()) / static_cast<double>(every_) + 1;
    auto ts = run.table("timeseries.tsv", "Example 5.1: the simulated sphere (Fig. 5, solid lines) and its contact",
                        {{"t", "s"},
                         {"x", "m"},
                         {"theta", "rad"},
                         {"v", "m/s"},
                         {"w", "rad/s"},
                         {"vC", "m/s"},
                         {"Fn", "N"},
                         {"Ft", "N"},
                         {"slipping", "1"},
                         {"iterations", "1"},
                         {"KE", "J"}},
                        {rows, "output.every"});
    auto an = run.table("closed_form.tsv", "Example 5.1: the closed form of Eqs. (51)-(54) (Fig. 5, markers)",
                        {{"t", "s"}, {"x", "m"}, {"theta", "rad"}, {"v", "m/s"}, {"w", "rad/s"}, {"vC", "m/s"}},
                        {rows, "output.every"});
    for (std::size_t k = 0; k < tr.t.size(); k += static_cast<std::size_t>(every_)) {
      ts.row({tr.t[k], tr.x[k], tr.theta[k], tr.v[k], tr.w[k], tr.vC[k], tr.Fn[k], tr.Ft[k], tr.slip[k],
              tr.iterations[k], tr.ke[k]});
      const auto a = closed_.at(tr.t[k]);
      an.row({tr.t[k], a.x, a.theta, a.v, a.w, a.v + a.w * particle_.r});
    }
  }

  void compare(cm::Run& run, const Trace& tr) const {
    run.scalar("vC_x_0", tr.vC.front(), "m/s");
    run.scalar("v_slope", fitted_slope(tr.t, tr.v, slope_window_[0], slope_window_[1]), "m/s^2");
    run.scalar("w_slope", fitted_slope(tr.t, tr.w, slope_window_[0], slope_window_[1]), "rad/s^2");
    run.scalar("vC_slope", fitted_slope(tr.t, tr.vC, slope_window_[0], slope_window_[1]), "m/s^2");
    const double tr_exact = closed_.t_roll();
    const auto roll = closed_.at(tr_exact);
    run.scalar("t_roll_closed_form", tr_exact, "s");
    run.scalar("v_roll_closed_form", roll.v, "m/s");
    run.scalar("w_roll_closed_form", roll.w, "rad/s");
    // the paper evaluates (51) at its rounded t_roll = 2.69 s (spec 003 T11): the same formula there
    const double t_rounded = std::round(tr_exact * 100.0) / 100.0;
    run.scalar("closed_form_t_roll_rounded", t_rounded, "s");
    run.scalar("v_closed_form_at_rounded_t_roll", closed_.sliding(t_rounded).v, "m/s");
    run.scalar("w_closed_form_at_rounded_t_roll", closed_.sliding(t_rounded).w, "rad/s");
    const double t_roll = rolling_time(tr);
    run.scalar("t_roll", t_roll, "s");
    // the time the contact slid: the steps in which the return mapping (35) acted (column slipping)
    double slipping_time = 0.0;
    for (std::size_t k = 1; k < tr.t.size(); ++k) slipping_time += tr.slip[k] * (tr.t[k] - tr.t[k - 1]);
    run.scalar("slipping_time", slipping_time, "s");
    double vs = 0, ws = 0, n = 0, vmin = 1e300, vmax = -1e300, wmin = 1e300, wmax = -1e300;
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      if (tr.t[k] < roll_window_[0] || tr.t[k] > roll_window_[1]) continue;
      vs += tr.v[k];
      ws += tr.w[k];
      n += 1;
      vmin = std::min(vmin, tr.v[k]);
      vmax = std::max(vmax, tr.v[k]);
      wmin = std::min(wmin, tr.w[k]);
      wmax = std::max(wmax, tr.w[k]);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    run.scalar("v_roll", n > 0 ? vs / n : nan, "m/s");
    run.scalar("w_roll", n > 0 ? ws / n : nan, "rad/s");
    run.scalar("v_roll_ripple", n > 0 ? vmax - vmin : nan, "m/s");
    run.scalar("w_roll_ripple", n > 0 ? wmax - wmin : nan, "rad/s");
    double it = 0;
    for (std::size_t k = 1; k < tr.iterations.size(); ++k) it += tr.iterations[k];
    run.scalar("iterations_mean", it / static_cast<double>(tr.iterations.size() - 1));
    run.scalar("iterations_max", static_cast<double>(tr.iterations_max));
    run.scalar("nonconverged_steps", static_cast<double>(tr.nonconverged));
    double dx = 0, dth = 0, dv = 0, dw = 0, dy = 0;
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      dy = std::max(dy, std::fabs(tr.y[k] - tr.y[0]));
      if (std::fabs(tr.t[k] - tr_exact) <= roll_margin_) continue;
      const auto a = closed_.at(tr.t[k]);
      dx = std::max(dx, std::fabs(tr.x[k] - a.x));
      dth = std::max(dth, std::fabs(tr.theta[k] - a.theta));
      dv = std::max(dv, std::fabs(tr.v[k] - a.v));
      dw = std::max(dw, std::fabs(tr.w[k] - a.w));
    }
    run.scalar("max_dev_x", dx, "m");
    run.scalar("max_dev_theta", dth, "rad");
    run.scalar("max_dev_v", dv, "m/s");
    run.scalar("max_dev_w", dw, "rad/s");
    run.scalar("max_vertical_motion", dy, "m");
    run.scalar("x_end", tr.x.back(), "m");
    run.scalar("theta_end", tr.theta.back(), "rad");
    // O-8: the energy dissipated by sliding friction, mu m g 1/2 |v_C(0)| t_roll
    run.scalar("energy_dissipated", tr.ke.front() - tr.ke.back(), "J");
    run.scalar("energy_gain_max", tr.energy_gain);
    run.scalar("energy_dissipated_closed_form",
               closed_.mu * particle_.m * closed_.g * 0.5 * std::fabs(v0_ + w0_ * particle_.r) * tr_exact, "J");
    if (!run.quiet())
      std::printf(
          "Example 5.1: t_roll %.5f s (closed form %.5f), v_roll %.5f m/s, w_roll %.5f rad/s, %.3f iterations\n",
          t_roll, tr_exact, n > 0 ? vs / n : nan, n > 0 ? ws / n : nan,
          it / static_cast<double>(tr.iterations.size() - 1));
  }

  /// The three corrections of spec 003, each replaced by its printed form in turn.
  void evidence(cm::Run& run) const {
    // the rotation tensor at |alpha| = 1 (theta = 53 degrees) about a skew axis
    const Vector3d alpha = Vector3d(1.0, 2.0, 2.0) / 3.0;
    const Matrix3d Qc = rotation_tensor(alpha, Correction::corrected), Qp = rotation_tensor(alpha, Correction::printed);
    run.scalar("corrected_factor_orthogonality_error", (Qc.transpose() * Qc - Matrix3d::Identity()).norm());
    run.scalar("printed_factor_orthogonality_error", (Qp.transpose() * Qp - Matrix3d::Identity()).norm());
    run.scalar("printed_factor_det", Qp.determinant());

    Options o = model_;
    o.rotation_factor = Correction::printed;
    const Trace a = simulate(o, t_end_, nullptr);
    run.scalar("printed_factor_v_end", a.v.back(), "m/s");
    run.scalar("printed_factor_w_end", a.w.back(), "rad/s");
    run.scalar("printed_factor_slip_end", a.vC.back(), "m/s");
    run.scalar("printed_factor_t_roll", rolling_time(a), "s");

    o = model_;
    o.friction_sign = Correction::printed;
    const Trace b = simulate(o, t_end_, nullptr);
    run.scalar("printed_friction_v_end", b.v.back(), "m/s");
    run.scalar("printed_friction_w_end", b.w.back(), "rad/s");
    run.scalar("printed_friction_slip_end", b.vC.back(), "m/s");

    o = model_;
    o.overlap_sign = Correction::printed;
    const Trace c = simulate(o, printed_overlap_t_end_, nullptr);
    run.scalar("printed_overlap_height_drop", c.y.front() - c.y.back(), "m");
    run.scalar("printed_overlap_drop_over_static_overlap",
               (c.y.front() - c.y.back()) / static_overlap(particle_, g_, model_.wall_material));
    run.scalar("printed_overlap_power_is_real",
               std::isfinite(std::pow(-static_overlap(particle_, g_, model_.wall_material), 1.5)) ? 1.0 : 0.0);
    const double drop = c.y.front() - c.y.back();
    const double delta0 = static_overlap(particle_, g_, model_.wall_material);
    char text[1400];
    std::snprintf(text, sizeof text,
                  "Corrections of spec 003, each printed form run in turn on Example 5.1 (scalars printed_*). "
                  "(1) Rotation factor, Eq. (27): at |alpha| = 1 the printed 4/(1 + alpha^2) gives |Q^T Q - I| = %.3g "
                  "and det Q = %.3g (corrected: %.2g); with it the sphere never rolls: v(%g s) = %.4g m/s, "
                  "omega = %.4g rad/s, slip v + omega r = %.4g m/s (corrected: rolling, slip ~ 0). "
                  "(2) Friction sign, Eq. (31): with the printed +k_t s the slip grows instead of vanishing: "
                  "v(%g s) = %.4g m/s, omega = %.4g rad/s, slip %.4g m/s. "
                  "(3) Overlap sign, Eq. (21): the printed delta is negative in contact, so delta^(3/2) is not real "
                  "(std::pow returns a number: %s); read with |delta| along +n_ij the contact force attracts, and the "
                  "sphere sinks %.3g m (%.3g static overlaps) into the plane in %g s.",
                  (Qp.transpose() * Qp - Matrix3d::Identity()).norm(), Qp.determinant(),
                  (Qc.transpose() * Qc - Matrix3d::Identity()).norm(), t_end_, a.v.back(), a.w.back(), a.vC.back(),
                  t_end_, b.v.back(), b.w.back(), b.vC.back(), std::isfinite(std::pow(-delta0, 1.5)) ? "yes" : "no",
                  drop, drop / delta0, printed_overlap_t_end_);
    run.note(text);
  }

  void dt_study(cm::Run& run) const {
    auto tab = run.table("dt_study.tsv", "Example 5.1 per time step: rolling time, final speed and spin, iterations",
                         {{"dt", "s"},
                          {"t_roll", "s"},
                          {"v_end", "m/s"},
                          {"w_end", "rad/s"},
                          {"iterations_mean", "1"},
                          {"iterations_max", "1"}});
    double lo = 1e300, hi = -1e300;
    for (const double dt : dt_study_) {
      Options o = model_;
      o.dt = dt;
      const Trace tr = simulate(o, t_end_, nullptr);
      check_energy(tr, "dt_study.dt", dt);
      double it = 0;
      for (std::size_t k = 1; k < tr.iterations.size(); ++k) it += tr.iterations[k];
      const double t_roll = rolling_time(tr);
      tab.row({dt, t_roll, tr.v.back(), tr.w.back(), it / static_cast<double>(tr.iterations.size() - 1),
               static_cast<double>(tr.iterations_max)});
      lo = std::min(lo, t_roll);
      hi = std::max(hi, t_roll);
    }
    if (!dt_study_.empty()) run.scalar("dt_study_t_roll_spread", hi - lo, "s");
  }

  Particle particle_{1000.0, 0.2, 1e10, 0.25};
  double v0_ = 2.355, w0_ = -127.03;
  bool static_overlap_ = true;
  double t_end_ = 5.0;
  long every_ = 10;
  std::vector<double> slope_window_{0.1, 2.5}, roll_window_{3.0, 5.0};
  double roll_margin_ = 0.01, printed_overlap_t_end_ = 0.01, energy_gain_limit_ = 0.01;
  std::vector<double> dt_study_{1e-3, 2e-4, 1e-4, 5e-5};
  Options model_;
  double g_ = 9.81;
  SphereOnPlane closed_{0, 0, 1, 1, 1};
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<SpinStudy>(argc, argv); }

// md_stepper: the impulse-velocity time stepper of Sect. 3.1 on one body, validated on a sphere
// (spec 001, E6: oracles O14-O16) against closed forms and a CVODE reference.
//
// A rigid sphere (radius R, mass m, solid: I = 2/5 m R^2) on the plane z = 0, gravity g0 tilted
// by the incline angle beta. Each step solves the single-contact problem of Eq. (5) with the
// maximally dissipative law (Fig. 5) or the Coulomb-like law; both must agree for spheres.
//
//   1. Rolling onset (O14): the sphere slides with v0 and no spin on a level plane; friction turns
//      slip into rolling at t = 2 v0 / (7 mu g) with v = 5/7 v0. Errors of the position against
//      the closed form (and CVODE) over a sequence of dt give the observed order of convergence.
//   2. Incline (O15): from rest the sphere rolls with a = 5/7 g sin(beta) if tan(beta) <= 7/2 mu,
//      else slides with a = g (sin(beta) - mu cos(beta)); the threshold is found by bisection on
//      beta with the stepper itself.
//   3. Rest (O16): a sphere resting on the level plane stays put: no drift, no jitter, and the
//      normal impulse per step is m g dt.
//
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_stepper --config configs/maxdiss/stepper.ini --output try/stepper
//   md_stepper --config configs/maxdiss/stepper.ini --contact.law=coulomb --contact.mu=0.2 --output try/stepper
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/study.hpp"
#include "core/text.hpp"
#include "maxdiss/stepper.hpp"
#include "numerics/convergence.hpp"
#include "numerics/optimize.hpp"
#include "numerics/sundials.hpp"

namespace {

using namespace md;

/// The sampled motion of the sphere along the slope (x), one row per sample time.
struct Motion {
  std::vector<SphereReferenceSample> samples;
  double t_roll = -1.0;  ///< end of the first step with zero post-step slip
  double u_roll = 0.0;   ///< down-slope velocity at that time
};

/// Does dt divide the span h (to rounding)? The number of steps, or 0 if not.
long steps_in(double h, double dt) {
  const long n = std::lround(h / dt);
  return (n >= 1 && std::fabs(static_cast<double>(n) * dt - h) <= 1e-9 * h) ? n : 0;
}

class StepperStudy {
 public:
  static constexpr cm::StudyInfo info{
      "md_stepper", "maxdiss", "stepper",
      "Impulse-velocity time stepper of Sect. 3.1 on a sphere: rolling onset, incline, rest"};

  void declare(cm::Config& c) {
    c.add("body.m", &body_.m, "mass m")
        .unit("kg")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper gives no test body for Sect. 3.1 (spec 001, E6)");
    c.add("body.R", &R_, "radius R of the sphere")
        .unit("m")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper gives no test body for Sect. 3.1 (spec 001, E6)");
    c.add("body.kappa", &kappa_, "inertia factor I = kappa m R^2 (2/5: solid sphere)")
        .unit("1")
        .range(cm::Range::positive());
    c.add("gravity.g0", &g0_, "gravity g0").unit("m/s^2").range(cm::Range::positive());
    c.add("contact.mu", &mu_, "friction coefficient mu")
        .range(cm::Range::nonnegative())
        .assumption("ASSUMED: the classical oracles O14-O16 are beyond the paper (spec 001, 5.2)");
    c.add("contact.erp", &erp_, "error reduction eps of the gap term (Sect. 3.1)")
        .range(cm::Range{0.0, 1.0, false, true})
        .assumption("ASSUMED: error reduction not given; pe default 0.8 (spec 001, 6.6)");
    c.add_choice("contact.law", &law_, {{"maxdiss", ContactLaw::maxdiss}, {"coulomb", ContactLaw::coulomb}},
                 "per-contact law of the time stepper");
    c.add_choice("contact.coulomb_pick", &pick_,
                 {{"lowest_energy", CoulombPick::lowest_energy}, {"smallest_normal", CoulombPick::smallest_normal}},
                 "Coulomb-like solution taken when there are several")
        .assumption(
            "ASSUMED: Sect. 3.1 does not say which Coulomb-like solution a time step takes when there are "
            "several; for spheres the solution is unique (spec 001, 6.4)");
    c.add("contact.compare_laws", &compare_laws_, "also run the other law and report the largest difference (O15)");
    c.add("roll.v0", &v0_, "initial sliding speed v0 (no spin)")
        .unit("m/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: oracle O14 is symbolic (spec 001, 5.2)");
    c.add("roll.t_end", &roll_t_end_, "end of the rolling-onset runs").unit("s").range(cm::Range::positive());
    c.add("conv.dt", &dts_, "time steps of the convergence study (each must divide t_end / conv.samples)")
        .unit("s")
        .range(cm::Range::positive());
    c.add("conv.samples", &samples_, "sample times per run at which the errors are measured")
        .range(cm::Range::closed(1, 100000));
    c.add("plot.dt", &plot_dt_, "time step of the trajectories written for the figure (must divide both t_end)")
        .unit("s")
        .range(cm::Range::positive());
    c.add("incline.beta_deg", &betas_deg_, "incline angles")
        .unit("deg")
        .range(cm::Range{0.0, 90.0, false, true})
        .nonempty();
    c.add("incline.t_end", &incline_t_end_, "end of the incline runs").unit("s").range(cm::Range::positive());
    c.add("threshold.bracket", &threshold_bracket_,
          "incline angles bracketing the rolling/sliding threshold (the sphere must roll at the first, slide at "
          "the second; just below pi/2, where cos(beta) > 0)")
        .unit("rad")
        .size(2)
        .increasing()
        .range(cm::Range{0.0, cm::pi / 2, false, true});
    c.add("threshold.bisections", &bisections_, "bisection steps for the rolling/sliding threshold angle")
        .range(cm::Range::closed(1, 200));
    c.add("threshold.steps", &threshold_steps_, "time steps per probe run of the threshold bisection")
        .range(cm::Range::closed(1, 1e7));
    c.add("threshold.dt", &threshold_dt_, "time step of the threshold probe runs")
        .unit("s")
        .range(cm::Range::positive());
    c.add("rest.steps", &rest_steps_, "steps of the resting-sphere run").range(cm::Range::closed(1, 1e8));
    c.add("rest.dt", &rest_dt_, "time step of the resting-sphere run").unit("s").range(cm::Range::positive());
    reference_.method = "cvode_bdf";
    cm::declare_integrator_keys(c, reference_, "solver");
    c.check([&c, this] {
      if (dts_.empty()) c.fail("conv.dt", "needs at least one time step");
      for (const double t_end : {roll_t_end_, incline_t_end_}) {
        const double h = t_end / static_cast<double>(samples_);
        for (const double dt : dts_)
          if (steps_in(h, dt) == 0)
            c.fail("conv.dt", "each dt must divide t_end / conv.samples (" + cm::format_real(h) + " s); " +
                                  cm::format_real(dt) + " does not");
        if (steps_in(t_end, plot_dt_) == 0)
          c.fail("plot.dt", "must divide roll.t_end and incline.t_end; " + cm::format_real(plot_dt_) +
                                " does not divide " + cm::format_real(t_end));
      }
      if (!(std::isfinite(kappa_ * body_.m * R_ * R_) && kappa_ * body_.m * R_ * R_ > 0.0))
        c.fail("body.R", "the moment of inertia kappa m R^2 (body.kappa, body.m, body.R) is not a positive number");
      // Every time stepping of the study, counted against run.max_steps before any is taken.
      for (const double dt : dts_) {
        cm::planned_steps(c, roll_t_end_, dt, "conv.dt", "roll.t_end");
        cm::planned_steps(c, incline_t_end_, dt, "conv.dt", "incline.t_end");
      }
      cm::planned_steps(c, std::max(roll_t_end_, incline_t_end_), plot_dt_, "plot.dt", "roll.t_end, incline.t_end");
      cm::planned_steps(c, static_cast<double>(threshold_steps_) * threshold_dt_, threshold_dt_, "threshold.steps",
                        "threshold.steps x threshold.dt");
      cm::planned_steps(c, static_cast<double>(rest_steps_) * rest_dt_, rest_dt_, "rest.steps", "rest.steps x rest.dt");
    });
  }

  void run(cm::Run& run) {
    setup();
    rolling(run);
    incline(run);
    rest(run);
    write_convergence(run);
    if (compare_laws_) run.scalar("law_max_difference", law_diff_);
    run.note(std::string("The contact impulse of every step is the single-contact solution of Eq. (5) (") + name(law_) +
             " law); positions are compared at conv.samples times per run.");
  }

 private:
  void setup() {
    body_.semi_axes = Vector3d::Constant(R_);
    body_.I0 = Vector3d::Constant(kappa_ * body_.m * R_ * R_);
  }

  StepperOptions options(double dt, double beta, ContactLaw law) const {
    StepperOptions o;
    o.dt = dt;
    o.g0 = g0_;
    o.beta = beta;
    o.mu = mu_;
    o.erp = erp_;
    o.law = law;
    o.pick = pick_;
    return o;
  }

  SphereReferenceOptions reference_options(double beta, double u0) const {
    SphereReferenceOptions r;
    r.R = R_;
    r.m = body_.m;
    r.kappa = kappa_;
    r.g0 = g0_;
    r.beta = beta;
    r.mu = mu_;
    r.u0 = u0;
    r.method = reference_.method;
    r.rtol = reference_.rtol;
    r.atol = reference_.atol;
    r.max_steps = reference_.max_steps;
    return r;
  }

  /// Steps of size dt (the value of key `dt_key`) to t_end, sampled every `stride` steps. The
  /// sphere starts touching the plane.
  Motion simulate(const std::string& dt_key, double dt, double t_end, long stride, double beta, double u0,
                  ContactLaw law) const {
    const long n = steps_in(t_end, dt);
    if (n == 0)
      throw cm::InputError(dt_key + ": the time step " + cm::format_real(dt) + " does not divide the end time " +
                           cm::format_real(t_end));
    const ImpulseVelocityStepper stepper(body_, options(dt, beta, law));
    BodyState s;
    s.x = Vector3d(0.0, 0.0, R_);
    s.v = Vector3d(u0, 0.0, 0.0);
    Motion m;
    m.samples.push_back({0.0, s.x(0), s.v(0), s.w(1), false});
    for (long k = 0; k < n; ++k) {
      const StepRecord rec = stepper.step(s, k * dt);
      if (rec.sticking && m.t_roll < 0.0) {
        m.t_roll = (k + 1) * dt;
        m.u_roll = s.v(0);
      }
      if ((k + 1) % stride == 0) m.samples.push_back({(k + 1) * dt, s.x(0), s.v(0), s.w(1), rec.sticking});
    }
    return m;
  }

  long stride_of(double dt, double t_end) const {
    const double h = t_end / static_cast<double>(samples_);
    const long stride = steps_in(h, dt);
    if (stride == 0)
      throw cm::InputError("conv.dt: each dt must divide t_end / conv.samples (" + cm::format_real(h) + " s)");
    return stride;
  }

  /// Largest position and velocity errors against the closed form and against CVODE.
  struct Errors {
    double s_exact = 0, u_exact = 0, s_cvode = 0, u_cvode = 0;
  };
  static Errors errors(const Motion& m, const SphereReferenceOptions& ro, const SphereReference& ref) {
    Errors e;
    for (std::size_t j = 0; j < m.samples.size(); ++j) {
      const auto& p = m.samples[j];
      const auto x = sphere_closed_form(ro, p.t);
      e.s_exact = std::max(e.s_exact, std::fabs(p.s - x.s));
      e.u_exact = std::max(e.u_exact, std::fabs(p.u - x.u));
      e.s_cvode = std::max(e.s_cvode, std::fabs(p.s - ref.samples[j].s));
      e.u_cvode = std::max(e.u_cvode, std::fabs(p.u - ref.samples[j].u));
    }
    return e;
  }

  // 1. O14: rolling onset, and the convergence in dt.
  void rolling(cm::Run& run) {
    const double v0 = v0_, t_end = roll_t_end_;
    const SphereReferenceOptions ro = reference_options(0.0, v0);
    const SphereReference ref = sphere_reference(ro, t_end, static_cast<int>(samples_));
    run.statistics("reference_roll", {{"steps", double(ref.steps)}, {"rhs_evaluations", double(ref.rhs_evaluations)}});
    double t_exact = 0.0;
    sphere_closed_form(ro, 0.0, &t_exact);
    auto tab = run.table("roll.tsv", "rolling onset per dt: stepper, closed form, CVODE reference",
                         {{"dt", "s"},
                          {"t_roll_num", "s"},
                          {"t_roll_exact", "s"},
                          {"t_roll_cvode", "s"},
                          {"v_roll_num", "m/s"},
                          {"v_roll_exact", "m/s"},
                          {"err_t_roll", "s"},
                          {"err_s_exact", "m"},
                          {"err_u_exact", "m/s"},
                          {"err_s_cvode", "m"},
                          {"err_u_cvode", "m/s"}});
    std::vector<double> es, et;
    Motion finest;
    for (double dt : dts_) {
      const Motion m = simulate("conv.dt", dt, t_end, stride_of(dt, t_end), 0.0, v0, law_);
      const Errors e = errors(m, ro, ref);
      const double err_t = std::fabs(m.t_roll - t_exact);
      tab.row({dt, m.t_roll, t_exact, ref.t_roll, m.u_roll, v0 * (1.0 / (1.0 + kappa_)), err_t, e.s_exact, e.u_exact,
               e.s_cvode, e.u_cvode});
      es.push_back(e.s_exact);
      et.push_back(err_t / dt);
      if (dt == *std::min_element(dts_.begin(), dts_.end())) finest = m;
      conv_.push_back({dt, e.s_exact, e.s_cvode, 0.0, 0.0});
    }
    const double order = cm::observed_order(dts_, es);
    run.scalar("roll_order_position", order);
    run.scalar("roll_t_roll_err_over_dt_max", *std::max_element(et.begin(), et.end()));
    run.scalar("roll_t_roll_exact", t_exact, "s");
    run.scalar("roll_t_roll_cvode", ref.t_roll, "s");
    run.scalar("roll_t_roll_num", finest.t_roll, "s");
    run.scalar("roll_time_nondim", finest.t_roll * mu_ * g0_ / v0);  // O14: 2/7 for a solid sphere
    run.scalar("roll_speed_ratio", finest.u_roll / v0);              // O14: 5/7
    run.scalar("roll_dt_finest", *std::min_element(dts_.begin(), dts_.end()), "s");
    if (!run.quiet())
      std::printf("rolling onset: t = %.10f s (closed form %.10f, CVODE %.10f), v/v0 = %.15f; order %.4f\n",
                  finest.t_roll, t_exact, ref.t_roll, finest.u_roll / v0, order);

    // trajectories for the figure (one coarse dt), with the closed form beside them
    const double pdt = plot_dt_;
    const Motion m = simulate("plot.dt", pdt, t_end, 1, 0.0, v0, law_);
    auto traj = run.table("roll_trajectory.tsv", "sliding sphere: stepper (dt = plot.dt) and closed form",
                          {{"t", "s"}, {"u", "m/s"}, {"Rw", "m/s"}, {"u_exact", "m/s"}, {"Rw_exact", "m/s"}});
    for (const auto& p : m.samples) {
      const auto x = sphere_closed_form(ro, p.t);
      traj.row({p.t, p.u, R_ * p.w, x.u, R_ * x.w});
    }
    if (compare_laws_) {
      const ContactLaw other = md::other(law_);
      const Motion o = simulate("plot.dt", pdt, t_end, 1, 0.0, v0, other);
      for (std::size_t j = 0; j < m.samples.size(); ++j)
        law_diff_ = std::max({law_diff_, std::fabs(o.samples[j].s - m.samples[j].s),
                              std::fabs(o.samples[j].u - m.samples[j].u), std::fabs(o.samples[j].w - m.samples[j].w)});
    }
  }

  // 2. O15: the incline, from rest, and the threshold angle.
  void incline(cm::Run& run) {
    const double t_end = incline_t_end_;
    const double threshold = std::atan(mu_ * (1.0 + kappa_) / kappa_);  // tan(beta*) = 7/2 mu
    auto tab = run.table("incline.tsv", "sphere released on an incline: acceleration per angle (finest dt)",
                         {{"beta", "deg"},
                          {"tan_beta_over_mu", "1"},
                          {"rolling_num", "1"},
                          {"a_num", "m/s^2"},
                          {"a_exact", "m/s^2"},
                          {"a_cvode", "m/s^2"},
                          {"err_s_exact", "m"},
                          {"err_s_cvode", "m"}});
    auto traj = run.table("incline_trajectory.tsv", "incline: velocity, stepper (dt = plot.dt) and closed form",
                          {{"beta", "deg"}, {"t", "s"}, {"u", "m/s"}, {"u_exact", "m/s"}});
    const double dt_min = *std::min_element(dts_.begin(), dts_.end());
    bool have_roll = false, have_slide = false;
    std::vector<double> es;
    for (double deg : betas_deg_) {
      const double beta = deg * cm::pi / 180.0;
      const SphereReferenceOptions ro = reference_options(beta, 0.0);
      const SphereReference ref = sphere_reference(ro, t_end, static_cast<int>(samples_));
      const Motion m = simulate("conv.dt", dt_min, t_end, stride_of(dt_min, t_end), beta, 0.0, law_);
      const Errors e = errors(m, ro, ref);
      bool rolling = true;
      for (std::size_t j = 1; j < m.samples.size(); ++j) rolling = rolling && m.samples[j].rolling;
      const double a_num = m.samples.back().u / t_end;  // constant acceleration from rest
      const double a_exact = sphere_closed_form(ro, t_end).u / t_end;
      const double a_cvode = ref.samples.back().u / t_end;
      tab.row({deg, std::tan(beta) / mu_, double(rolling), a_num, a_exact, a_cvode, e.s_exact, e.s_cvode});
      // O15 in the textbook form: a / (5/7 g sin beta) when rolling, a / (g (sin - mu cos)) when sliding
      if (rolling && !have_roll && beta > 0.0) {
        have_roll = true;
        run.scalar("incline_roll_accel_ratio", a_num / (g0_ * std::sin(beta)));  // 5/7
        run.scalar("incline_roll_beta", deg, "deg");
      }
      if (!rolling && !have_slide) {
        have_slide = true;
        run.scalar("incline_slide_accel_ratio", a_num / (g0_ * (std::sin(beta) - mu_ * std::cos(beta))));  // 1
        run.scalar("incline_slide_beta", deg, "deg");
        // convergence of the sliding motion in dt
        for (std::size_t i = 0; i < dts_.size(); ++i) {
          const Motion mi = simulate("conv.dt", dts_[i], t_end, stride_of(dts_[i], t_end), beta, 0.0, law_);
          const Errors ei = errors(mi, ro, ref);
          es.push_back(ei.s_exact);
          if (i < conv_.size()) {
            conv_[i].incline_exact = ei.s_exact;
            conv_[i].incline_cvode = ei.s_cvode;
          }
        }
      }
      const Motion p = simulate("plot.dt", plot_dt_, t_end, 1, beta, 0.0, law_);
      for (const auto& q : p.samples) traj.row({deg, q.t, q.u, sphere_closed_form(ro, q.t).u});
      traj.gap();
      traj.gap();
      if (compare_laws_) {
        const ContactLaw other = md::other(law_);
        const Motion o = simulate("plot.dt", plot_dt_, t_end, 1, beta, 0.0, other);
        for (std::size_t j = 0; j < p.samples.size(); ++j)
          law_diff_ = std::max(
              {law_diff_, std::fabs(o.samples[j].s - p.samples[j].s), std::fabs(o.samples[j].u - p.samples[j].u)});
      }
    }
    if (!es.empty()) run.scalar("incline_order_position", cm::observed_order(dts_, es));

    // The threshold angle by bisection on the stepper's own regime (rolling: every step sticks).
    const double tdt = threshold_dt_;
    const long steps = threshold_steps_;
    auto rolls = [&](double beta) {
      const Motion m = simulate("threshold.dt", tdt, static_cast<double>(steps) * tdt, 1, beta, 0.0, law_);
      for (std::size_t j = 1; j < m.samples.size(); ++j)
        if (!m.samples[j].rolling) return false;
      return true;
    };
    const double lo = threshold_bracket_[0], hi = threshold_bracket_[1];
    if (rolls(hi))
      throw cm::InputError(
          "contact.mu: the sphere rolls on every incline up to threshold.bracket's end; no "
          "threshold to find");
    if (!rolls(lo)) throw cm::InputError("threshold.bracket: the sphere already slides at the bracket's start");
    // rolling: -1, sliding: +1; the threshold is the sign change
    const double found =
        cm::bisect([&](double beta) { return rolls(beta) ? -1.0 : 1.0; }, lo, hi, static_cast<int>(bisections_));
    run.scalar("incline_threshold_beta", found * 180.0 / cm::pi, "deg");
    run.scalar("incline_threshold_beta_closed_form", threshold * 180.0 / cm::pi, "deg");
    run.scalar("incline_threshold_tan_over_mu", std::tan(found) / mu_);  // O15: 7/2
    if (!run.quiet())
      std::printf("incline threshold: tan(beta*)/mu = %.12f (closed form %.12f)\n", std::tan(found) / mu_,
                  (1.0 + kappa_) / kappa_);
  }

  // 3. O16: the resting sphere.
  void rest(cm::Run& run) {
    const double dt = rest_dt_;
    const ImpulseVelocityStepper stepper(body_, options(dt, 0.0, law_));
    BodyState s;
    s.x = Vector3d(0.0, 0.0, R_);
    double drift = 0.0, speed = 0.0, lam = 0.0, pen = 0.0;
    const double mgdt = body_.m * g0_ * dt;
    for (long k = 0; k < rest_steps_; ++k) {
      const StepRecord rec = stepper.step(s, k * dt);
      drift = std::max(drift, (s.x - Vector3d(0.0, 0.0, R_)).norm());
      speed = std::max({speed, s.v.norm(), R_ * s.w.norm()});
      lam = std::max(lam, std::fabs(rec.lambda(0) - mgdt) / mgdt + rec.lambda.tail<2>().norm() / mgdt);
      pen = std::max(pen, -stepper.contact(s).xi);
    }
    run.scalar("rest_max_drift", drift, "m");
    run.scalar("rest_max_speed", speed, "m/s");
    run.scalar("rest_max_penetration", pen, "m");
    run.scalar("rest_impulse_rel_err", lam);
    if (!run.quiet())
      std::printf("resting sphere: drift %.3g m, speed %.3g m/s, impulse error %.3g\n", drift, speed, lam);
  }

  void write_convergence(cm::Run& run) {
    auto tab = run.table("convergence.tsv", "largest position errors per dt (level rolling onset, sliding incline)",
                         {{"dt", "s"},
                          {"roll_err_exact", "m"},
                          {"roll_err_cvode", "m"},
                          {"incline_err_exact", "m"},
                          {"incline_err_cvode", "m"}});
    for (const auto& c : conv_) tab.row({c.dt, c.roll_exact, c.roll_cvode, c.incline_exact, c.incline_cvode});
  }

 private:
  struct ConvRow {
    double dt, roll_exact, roll_cvode, incline_exact, incline_cvode;
  };
  EllipsoidBody body_;
  double R_ = 0.1, kappa_ = 0.4, g0_ = 9.81, mu_ = 0.5, erp_ = 0.8;
  ContactLaw law_ = ContactLaw::maxdiss;
  CoulombPick pick_ = CoulombPick::lowest_energy;
  bool compare_laws_ = true;
  double v0_ = 1.0, roll_t_end_ = 0.2, plot_dt_ = 2e-3, incline_t_end_ = 0.4;
  std::vector<double> dts_{1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5};
  long samples_ = 20;
  std::vector<double> betas_deg_{10, 30, 60, 70};
  std::vector<double> threshold_bracket_{0.0, 0.5 * cm::pi - 1e-9};
  long bisections_ = 40, threshold_steps_ = 50, rest_steps_ = 10000;
  double threshold_dt_ = 1e-3, rest_dt_ = 1e-3;
  cm::IntegratorOptions reference_;
  std::vector<ConvRow> conv_;
  double law_diff_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<StepperStudy>(argc, argv); }

// dem_reference: the time integration of Sect. 4 (the generalised trapezoidal rule solved by the
// fixed-point iteration of Algorithm 1) against a CVODE reference on a smooth part of the model: a
// binary Hertz impact with the damping of Eq. (22) (spec 003 O-12, §6.1). The reference integrates the
// overlap delta'' = -F_n(delta, delta') / m* with a root at delta = 0 (separation); the DEM runs the same
// pair of spheres at a sequence of time steps; the errors of the overlap history and of the separation
// velocity give the observed order of convergence (Fig. "reference_order").
//
// Second, the rotation update of Sect. 4 (alpha^Delta by the trapezoidal rule (45), composed by
// Eq. (47)) against an independent integrator. A torque-free asymmetric top and a heavy top supply
// the spin history (Euler's equations with a quaternion, CVODE at reference.rtol). The attitude
// Q(alpha) of the update is compared with the quaternion's over a sequence of steps (Fig.
// "top_order"). The paper's spheres have isotropic inertia; the tops exercise the update with a
// spin axis that moves. Third, the whole time integration of Sect. 4 runs on a free asymmetric top
// over many revolutions: the spin from the angular momentum balance (40), the rotation by (45),
// (47), the implicit step solved by fixed-point iteration. It gives the drift of the top's kinetic
// energy and angular momentum, which a torque-free motion conserves exactly, and how it shrinks
// with the step (Fig. "top_drift").
//
//   dem_reference --config configs/dem/reference.ini --output try/reference
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/study.hpp"
#include "core/text.hpp"
#include "dem/model.hpp"
#include "numerics/convergence.hpp"
#include "numerics/rotation.hpp"
#include "numerics/sundials.hpp"

namespace {

using namespace dem;

class ReferenceStudy {
 public:
  static constexpr cm::StudyInfo info{
      "dem_reference", "dem", "reference",
      "The time integration of Sect. 4 against a CVODE reference: binary Hertz impact, order of convergence"};

  void declare(cm::Config& c) {
    dem::declare_particle_keys(c, particle_);
    c.add("impact.v_rel", &v_rel_, "approach speed of the two spheres").unit("m/s").range(cm::Range::positive());
    c.add("impact.xi", &xi_, "damping rate xi of Eq. (22)").range(cm::Range::nonnegative());
    c.add("conv.dt_over_duration", &fractions_,
          "time steps as fractions of the Hertz duration of Eq. (50), largest first (each an integer divisor of "
          "the first)")
        .range(cm::Range{0.0, 1.0, true, false});
    c.add("conv.samples", &samples_, "samples of the overlap history per Hertz duration")
        .range(cm::Range::closed(2, 1e6));
    c.add("conv.tol", &tol_, "TOL of the fixed-point iteration in the convergence runs (far below the errors)")
        .range(cm::Range::positive());
    c.add("top.inertia", &inertia_, "principal moments of inertia of the tops (body frame)")
        .unit("kg m^2")
        .size(3)
        .range(cm::Range::positive());
    c.add("top.omega0", &omega0_, "initial body spin of the tops").unit("rad/s").size(3);
    c.add("top.mgl", &mgl_, "m g l of the heavy top (centre of mass at l along the body's third axis)")
        .unit("N m")
        .range(cm::Range::nonnegative());
    c.add("top.t_end", &top_t_end_, "time span of the tops (the total rotation must stay below pi for alpha)")
        .unit("s")
        .range(cm::Range::positive());
    c.add("top.steps", &top_steps_, "numbers of steps over top.t_end, increasing, each dividing the last")
        .increasing()
        .range(cm::Range::closed(1, 1e7));
    c.add("top.revolutions", &revolutions_,
          "revolutions of the free top in the drift runs (one revolution: 2 pi / |top.omega0|)")
        .range(cm::Range::closed(1, 1e6));
    c.add("top.steps_per_revolution", &steps_per_revolution_,
          "time steps per revolution of the drift runs, one run each, increasing")
        .increasing()
        .range(cm::Range::closed(4, 1e6));
    c.add("top.tol", &top_tol_, "TOL of the fixed-point iteration in the drift runs (far below the drift)")
        .range(cm::Range{0.0, 1.0, true, true});
    c.add("top.err_eta", &top_err_eta_,
          "(49) replaces (48) in the drift runs when the step's change of the spin is below top.err_eta times the "
          "spin (a sphere's spin does not change)")
        .range(cm::Range::positive())
        .assumption("ASSUMED: 'vanishes or approaches zero' has no threshold in the paper (spec 003 §2.10, T9)");
    reference_.method = "cvode_bdf";
    reference_.rtol = 1e-12;
    reference_.atol = 1e-16;
    cm::declare_integrator_keys(c, reference_, "reference");
    c.check([&c, this] {
      if (fractions_.size() < 2) c.fail("conv.dt_over_duration", "needs at least two time steps");
      for (const double f : fractions_) {
        const double k = fractions_[0] / f;
        if (std::fabs(k - std::round(k)) > 1e-9 * k)
          c.fail("conv.dt_over_duration", "each step must divide the first (" + cm::format_real(f) + " does not)");
      }
      const double k = 1.0 / (fractions_[0] * static_cast<double>(samples_));
      if (std::fabs(k - std::round(k)) > 1e-9 * k || std::round(k) < 1.0)
        c.fail("conv.samples", "the sample spacing must be a whole number of the largest time step");
      if (top_steps_.size() < 2) c.fail("top.steps", "needs at least two step counts");
      if (steps_per_revolution_.size() < 2) c.fail("top.steps_per_revolution", "needs at least two step counts");
      if (!(Vector3d(omega0_[0], omega0_[1], omega0_[2]).norm() > 0.0))
        c.fail("top.omega0", "must not be zero (a revolution is 2 pi / |top.omega0|)");
      if (static_cast<double>(revolutions_) * static_cast<double>(steps_per_revolution_.back()) > 1e8)
        c.fail("top.revolutions", "times the largest top.steps_per_revolution exceeds 1e8 steps");
      for (const long n : top_steps_)
        if (top_steps_.back() % n != 0) c.fail("top.steps", "each count must divide the last");
      // The work, counted before any step: the impact's time span, twice the Hertz duration of
      // Eq. (50), must be a number (a mass of 1e300 kg overflows it), and each of its time steppings
      // (the span by each step of conv.dt_over_duration) within the budget of steps.
      const double t_c =
          hertz_duration(0.5 * particle_.m, 0.5 * particle_.r, effective_E(particle_, particle_), v_rel_);
      if (!(std::isfinite(t_c) && t_c > 0.0))
        c.fail("particle.m", "the Hertz duration of Eq. (50) is " + cm::format_real(t_c) +
                                 " s, not a positive number (particle.m, particle.r, particle.E, impact.v_rel)");
      for (const double f : fractions_)
        cm::planned_steps(c, 2.0 * t_c, f * t_c, "conv.dt_over_duration", "twice the Hertz duration");
    });
  }

  void run(cm::Run& run) {
    setup();
    impact_reference(run);
    impact_convergence(run);
    tops(run);
    drift(run);
    if (!run.quiet())
      std::printf(
          "Hertz impact: reference duration %.9g s (Eq. (50): %.9g), e = %.9g; observed orders %.3f (overlap), "
          "%.3f (separation velocity)\n",
          t_sep_, t_c_, v_sep_ / v_rel_, order_overlap_, order_separation_);
  }

 private:
  // --- set up: the binary impact of two equal spheres, its Hertz duration and its samples ---------------
  void setup() {
    const Particle& p = particle_;
    m_star_ = 0.5 * p.m;
    const double r_star = 0.5 * p.r, E_star = effective_E(p, p);
    t_c_ = hertz_duration(m_star_, r_star, E_star, v_rel_);  // eq. (50)
    K_ = 4.0 / 3.0 * std::sqrt(r_star) * E_star;
    D_ = 2.0 * xi_ * std::sqrt(2.0 * std::sqrt(r_star) * E_star * m_star_);
    h_ = t_c_ / static_cast<double>(samples_);
    n_samples_ = std::lround(2.0 * t_c_ / h_);  // the impact and as long again in free flight
  }

  // --- the reference: the overlap delta(t) by CVODE, up to the separation and in free flight after it ------
  void impact_reference(cm::Run& run) {
    // delta'' = -(K delta^(3/2) + D delta^(1/4) delta') / m*, eqs. (19), (22)
    cm::Rhs rhs = [this](double, cm::ConstVectorRef y, cm::VectorRef yd) {
      const double d = std::max(y(0), 0.0);
      yd(0) = y(1);
      yd(1) = -(K_ * std::pow(d, 1.5) + D_ * std::pow(d, 0.25) * y(1)) / m_star_;
    };
    Eigen::VectorXd y0(2);
    y0 << 0.0, v_rel_;
    auto ode = cm::make_integrator(reference_.method, rhs, y0, 0.0, reference_.tolerances());
    ode->set_max_steps(reference_.max_steps);
    ode->set_roots(1, [](double t, cm::ConstVectorRef y, cm::VectorRef g) { g(0) = t > 0.0 ? y(0) : 1.0; }, {-1});
    ref_.assign(static_cast<std::size_t>(n_samples_) + 1, 0.0);
    t_sep_ = std::nan("");
    v_sep_ = std::nan("");
    for (long k = 1; k <= n_samples_; ++k) {
      const double tk = static_cast<double>(k) * h_;
      if (std::isfinite(t_sep_)) {
        ref_[static_cast<std::size_t>(k)] = -v_sep_ * (tk - t_sep_);  // free flight after separation
        continue;
      }
      cm::Step s = ode->advance(tk);
      while (s.root && s.t < tk) {
        t_sep_ = s.t;
        v_sep_ = -s.y(1);
        ref_[static_cast<std::size_t>(k)] = -v_sep_ * (tk - t_sep_);
        break;
      }
      if (!std::isfinite(t_sep_)) ref_[static_cast<std::size_t>(k)] = s.y(0);
    }
    run.statistics("reference", ode->statistics().as_map());
    run.scalar("duration_hertz_eq50", t_c_, "s");
    run.scalar("duration_reference", t_sep_, "s");
    run.scalar("restitution_reference", v_sep_ / v_rel_);
  }

  /// One DEM run of the impact at time step dt: the overlap at the samples, the relative velocity
  /// after the impact, the mean fixed-point iterations of a step and the steps in contact.
  struct DemImpact {
    std::vector<double> delta;
    double v_out = 0.0, iterations_mean = 0.0, contact_steps = 0.0;
  };

  DemImpact dem_impact(double dt) const {
    const Particle& p = particle_;
    Options o;
    o.dt = dt;
    o.tol = tol_;
    o.gravity = {0.0, 0.0, 0.0};
    o.particle_particle = {0.0, 0.0, xi_};
    State a, b;
    a.x = Vector3d(-p.r, 0.0, 0.0);
    b.x = Vector3d(p.r, 0.0, 0.0);
    a.v = Vector3d(0.5 * v_rel_, 0.0, 0.0);
    b.v = -a.v;
    System sys({p, p}, {a, b}, {}, o);
    const long stride = std::lround(h_ / o.dt), steps = n_samples_ * stride;
    DemImpact out;
    out.delta.assign(static_cast<std::size_t>(n_samples_) + 1, 0.0);
    double iterations = 0.0;
    for (long k = 1; k <= steps; ++k) {
      iterations += static_cast<double>(sys.step().iterations);
      out.contact_steps += sys.active_pairs() > 0 ? 1.0 : 0.0;
      if (k % stride == 0)
        out.delta[static_cast<std::size_t>(k / stride)] = 2.0 * p.r - (sys.state(1).x - sys.state(0).x).norm();
    }
    out.v_out = sys.state(1).v(0) - sys.state(0).v(0);
    out.iterations_mean = iterations / static_cast<double>(steps);
    return out;
  }

  // --- the order of convergence: the DEM at each time step of conv.dt_over_duration against the reference ---
  void impact_convergence(cm::Run& run) {
    auto hist =
        run.table("overlap.tsv", "overlap 2r - |x_2 - x_1| of the CVODE reference and the DEM (finest step)",
                  {{"t", "s"}, {"delta_reference", "m"}, {"delta_dem", "m"}}, {double(n_samples_ + 1), "conv.samples"});
    auto conv = run.table("convergence.tsv", "errors of the DEM against the reference per time step",
                          {{"dt", "s"},
                           {"err_delta", "m"},
                           {"err_v_sep", "m/s"},
                           {"duration", "s"},
                           {"restitution", "1"},
                           {"iterations_mean", "1"}});
    std::vector<double> dts, e_delta, e_v;
    DemImpact finest;
    for (const double f : fractions_) {
      const double dt = f * t_c_;
      DemImpact dem = dem_impact(dt);
      double err = 0.0, dmax = 0.0;
      for (std::size_t j = 1; j < dem.delta.size(); ++j) {
        err = std::max(err, std::fabs(dem.delta[j] - ref_[j]));
        dmax = std::max(dmax, ref_[j]);
      }
      dts.push_back(dt);
      e_delta.push_back(err / dmax);
      e_v.push_back(std::fabs(dem.v_out - v_sep_) / v_rel_);
      conv.row(
          {dt, err, std::fabs(dem.v_out - v_sep_), dem.contact_steps * dt, dem.v_out / v_rel_, dem.iterations_mean});
      finest = std::move(dem);
    }
    for (long k = 0; k <= n_samples_; ++k)
      hist.row(
          {static_cast<double>(k) * h_, ref_[static_cast<std::size_t>(k)], finest.delta[static_cast<std::size_t>(k)]});
    order_overlap_ = cm::observed_order(dts, e_delta);
    order_separation_ = cm::observed_order(dts, e_v);
    run.scalar("order_overlap", order_overlap_);
    run.scalar("order_separation_velocity", order_separation_);
    run.scalar("err_overlap_finest_relative", e_delta.back());
  }

  /// The spatial spin and the attitude of a top from CVODE (quaternion and body spin, Euler's
  /// equations), at n + 1 equally spaced times over top.t_end.
  void top_reference(double mgl, long n, std::vector<Vector3d>& omega, std::vector<Matrix3d>& Q) const {
    const Vector3d I(inertia_[0], inertia_[1], inertia_[2]);
    cm::Rhs rhs = [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
      const cm::Quaternion q = y.head<4>();
      const Vector3d W = y.tail<3>();
      yd.head<4>() = cm::quaternion_rate(q, W);
      const Vector3d torque = mgl * cm::vertical_in_body(q).cross(Vector3d::UnitZ());  // l e3 x (-m g Gamma)
      yd.tail<3>() = (I.cwiseProduct(W).cross(W) + torque).cwiseQuotient(I);
    };
    Eigen::VectorXd y0(7);
    y0 << 1.0, 0.0, 0.0, 0.0, omega0_[0], omega0_[1], omega0_[2];
    auto ode = cm::make_integrator(reference_.method, rhs, y0, 0.0, reference_.tolerances());
    ode->set_max_steps(reference_.max_steps);
    omega.assign(static_cast<std::size_t>(n) + 1, Vector3d::Zero());
    Q.assign(static_cast<std::size_t>(n) + 1, Matrix3d::Identity());
    for (long k = 0; k <= n; ++k) {
      Eigen::VectorXd y = y0;
      if (k > 0) y = ode->advance(top_t_end_ * static_cast<double>(k) / static_cast<double>(n)).y;
      const cm::Quaternion q = y.head<4>();
      Q[static_cast<std::size_t>(k)] = cm::attitude(q);
      omega[static_cast<std::size_t>(k)] = cm::attitude(q) * Vector3d(y.tail<3>());  // spatial spin
    }
  }

  /// The rotation update of Sect. 4 driven by a reference spin history: alpha^Delta by Eq. (45)
  /// (phi = 1/2), alpha by Eq. (47); the largest attitude error against the reference.
  static double top_update_error(const std::vector<Vector3d>& omega, const std::vector<Matrix3d>& Q, long stride,
                                 double dt) {
    Vector3d alpha = Vector3d::Zero();
    double err = 0.0;
    for (std::size_t k = static_cast<std::size_t>(stride); k < omega.size(); k += static_cast<std::size_t>(stride)) {
      const Vector3d aD = 0.5 * (omega[k - static_cast<std::size_t>(stride)] + omega[k]) * dt;  // eq. (45)
      alpha = cm::compose_rodrigues(alpha, aD);                                                 // eq. (47)
      err = std::max(err, (cm::rotation_from_rodrigues(alpha) - Q[k]).cwiseAbs().maxCoeff());
    }
    return err;
  }

  void tops(cm::Run& run) const {
    const long n = top_steps_.back();
    std::vector<Vector3d> w_free, w_heavy;
    std::vector<Matrix3d> Q_free, Q_heavy;
    top_reference(0.0, n, w_free, Q_free);
    top_reference(mgl_, n, w_heavy, Q_heavy);
    double angle = 0.0;
    for (const auto& Q : {Q_free.back(), Q_heavy.back()})
      angle = std::max(angle, std::acos(std::clamp(0.5 * (Q.trace() - 1.0), -1.0, 1.0)));
    run.scalar("top_final_rotation_angle", angle, "rad");
    auto tab = run.table("top.tsv", "attitude error of the rotation update (45), (47) against the CVODE tops",
                         {{"dt", "s"}, {"err_torque_free", "1"}, {"err_heavy", "1"}},
                         {static_cast<double>(top_steps_.size()), "top.steps"});
    std::vector<double> dts, ef, eh;
    for (const long steps : top_steps_) {
      const double dt = top_t_end_ / static_cast<double>(steps);
      const long stride = n / steps;
      dts.push_back(dt);
      ef.push_back(top_update_error(w_free, Q_free, stride, dt));
      eh.push_back(top_update_error(w_heavy, Q_heavy, stride, dt));
      tab.row({dt, ef.back(), eh.back()});
    }
    run.scalar("top_order_torque_free", cm::observed_order(dts, ef));
    run.scalar("top_order_heavy", cm::observed_order(dts, eh));
    run.scalar("top_err_finest_heavy", eh.back());
    if (!run.quiet())
      std::printf("tops: observed order of the rotation update %.3f (torque-free), %.3f (heavy)\n",
                  cm::observed_order(dts, ef), cm::observed_order(dts, eh));
  }

  /// The free asymmetric top advanced by the time integration of Sect. 4 itself (dem::rigid_body_step)
  /// for top.revolutions revolutions at each top.steps_per_revolution. It gives the largest relative
  /// change of its kinetic energy and of its angular momentum, both conserved by the exact motion,
  /// per revolution (top_drift_history.tsv, whether the error grows) and over the run
  /// (top_drift.tsv, how it shrinks with the step).
  void drift(cm::Run& run) const {
    const Vector3d J(inertia_[0], inertia_[1], inertia_[2]), w0(omega0_[0], omega0_[1], omega0_[2]);
    const double period = 2.0 * cm::pi / w0.norm();
    const std::size_t runs = steps_per_revolution_.size();
    auto history = run.table("top_drift_history.tsv",
                             "free top, per revolution and time step: largest relative change of its kinetic "
                             "energy and angular momentum in that revolution (one block per time step)",
                             {{"dt", "s"}, {"revolution", "1"}, {"energy_change", "1"}, {"momentum_change", "1"}},
                             {static_cast<double>(runs * static_cast<std::size_t>(revolutions_)), "top.revolutions"});
    auto table = run.table("top_drift.tsv",
                           "free top: largest relative change of kinetic energy and angular momentum over the run, "
                           "at the end, and the fixed-point iterations, per time step",
                           {{"dt", "s"},
                            {"steps_per_revolution", "1"},
                            {"energy_change_max", "1"},
                            {"energy_change_end", "1"},
                            {"momentum_change_max", "1"},
                            {"iterations_mean", "1"},
                            {"nonconverged_steps", "1"}},
                           {static_cast<double>(runs), "top.steps_per_revolution"});
    std::vector<double> dts, energy_max;
    double momentum_max = 0.0, nonconverged = 0.0, first_half = 0.0, second_half = 0.0;
    for (std::size_t r = 0; r < runs; ++r) {
      const long n = steps_per_revolution_[r];
      const double dt = period / static_cast<double>(n);
      RigidBody body;
      body.J = J;
      body.omega = w0;
      const double E0 = body.kinetic_energy();
      const Vector3d L0 = body.angular_momentum();
      double e_max = 0.0, e_end = 0.0, l_max = 0.0, iterations = 0.0, failed = 0.0;
      if (r > 0) {  // one gnuplot index per time step
        history.gap();
        history.gap();
      }
      for (long rev = 1; rev <= revolutions_; ++rev) {
        double e_rev = 0.0, l_rev = 0.0;
        for (long k = 0; k < n; ++k) {
          const long taken = rigid_body_step(body, dt, 0.5, top_tol_, top_err_eta_, 1000, false);
          iterations += static_cast<double>(taken > 0 ? taken : 1000);
          if (taken < 0) failed += 1.0;
          e_end = std::fabs(body.kinetic_energy() - E0) / E0;
          e_rev = std::max(e_rev, e_end);
          l_rev = std::max(l_rev, (body.angular_momentum() - L0).norm() / L0.norm());
        }
        history.row({dt, static_cast<double>(rev), e_rev, l_rev});
        if (r + 1 == runs) {  // the finest step
          double& half = 2 * rev <= revolutions_ ? first_half : second_half;
          half = std::max(half, e_rev);
        }
        e_max = std::max(e_max, e_rev);
        l_max = std::max(l_max, l_rev);
      }
      const double steps = static_cast<double>(n) * static_cast<double>(revolutions_);
      table.row({dt, static_cast<double>(n), e_max, e_end, l_max, iterations / steps, failed});
      dts.push_back(dt);
      energy_max.push_back(e_max);
      momentum_max = std::max(momentum_max, l_max);
      nonconverged += failed;
    }
    run.scalar("top_energy_drift_order", cm::observed_order(dts, energy_max));
    run.scalar("top_energy_drift_finest", energy_max.back());
    run.scalar("top_energy_drift_coarsest", energy_max.front());
    // a drift that grows with time (secular) doubles from the first half of the run to the second; a
    // bounded error oscillates: the ratio of the halves' largest changes at the finest step
    run.scalar("top_energy_drift_growth", revolutions_ >= 2 ? second_half / first_half : std::nan(""));
    run.scalar("top_momentum_drift_max", momentum_max);
    run.scalar("top_drift_nonconverged_steps", nonconverged);
    if (!run.quiet())
      std::printf(
          "free top, %ld revolutions: energy changes by at most %.3g (coarsest step) ... %.3g (finest), observed "
          "order %.3f; angular momentum by at most %.3g\n",
          revolutions_, energy_max.front(), energy_max.back(), cm::observed_order(dts, energy_max), momentum_max);
  }

  std::vector<double> inertia_{1.0, 2.0, 3.0}, omega0_{0.3, 1.0, 0.2};
  double mgl_ = 1.0, top_t_end_ = 2.0;
  std::vector<long> top_steps_{20, 40, 80, 160, 320, 640};
  long revolutions_ = 100;
  std::vector<long> steps_per_revolution_{25, 50, 100, 200, 400};
  double top_tol_ = 1e-13, top_err_eta_ = 1e-9;
  Particle particle_{10.47197551196598, 0.1, 1e8, 0.25};
  double v_rel_ = 5.0, xi_ = 0.0, tol_ = 1e-12;
  std::vector<double> fractions_{1.0 / 10, 1.0 / 20, 1.0 / 40, 1.0 / 80, 1.0 / 160, 1.0 / 320};
  long samples_ = 10;
  cm::IntegratorOptions reference_;

  // the impact: reduced mass m*, Hertz duration t_c (50), the coefficients K, D of (19), (22), and
  // the sample spacing h of its n_samples + 1 samples over 2 t_c
  double m_star_ = 0.0, t_c_ = 0.0, K_ = 0.0, D_ = 0.0, h_ = 0.0;
  long n_samples_ = 0;
  std::vector<double> ref_;                              ///< the reference overlap at the samples
  double t_sep_ = 0.0, v_sep_ = 0.0;                     ///< the reference's separation time and speed
  double order_overlap_ = 0.0, order_separation_ = 0.0;  ///< observed orders of convergence
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ReferenceStudy>(argc, argv); }

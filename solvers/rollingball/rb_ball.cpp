// rb_ball: the rolling ball of Sect. 6 (Putkaradze & Rogers, RCD 24(2), 2019), and its detachment.
//
// A ball of radius r rolls without slipping on a plane, moved by n point masses on circular rails
// tilted by the bases B_i of (6.8)-(6.10), their parameter accelerations the step-ramp (6.11). The
// attitude is a versor q; the state x = [theta; theta'; q; Omega; z] (2n + 9 components) obeys the
// ODE (6.4) or the index-1 DAE (6.5), with Omega' from (3.2); the normal force (3.3) and the
// friction (3.4) follow at every instant, and mu_hat = max_t f_s / N, eq. (1.3). The paper reports
// mu_hat = .19 and N > 0 on [0, 20] for the data of Fig. 6.1 and Table 6.2, and, with
// m0 = m1 = m2 = .1, m3 = 60 under perfect friction, detachment (N = 0, f_s > 0) at t = 3.7358.
//
//   build/bin/rb_ball --config configs/rollingball/ball.ini --output try/ball          # ODE (6.4)
//   build/bin/rb_ball --config configs/rollingball/ball_dae.ini --output try/ball_dae  # DAE (6.5), IDA
//   build/bin/rb_ball --config configs/rollingball/detach.ini --output try/detach      # stops where N = 0
//   build/bin/rb_ball --masses.m= --rails.radius= --rails.v= --ic.theta= --ic.thetadot= --ic.free=
//       --ic.Omega=0,1,0 --output try/chaplygin   # the Chaplygin ball: rolls on, N = M g
//
// One executable serves the studies ball, ball_dae, ball_exact, frozen, detach, detach_*: each
// INI names its study under [run] study.
//
// Writes trajectory.tsv, rails0.tsv / masses0.tsv (Fig. 6.1), and for the detachment diagnostic
// N_window.tsv (N(t) finely on a window) and crossings.tsv (every zero of N there).
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include "core/errors.hpp"
#include "core/grid.hpp"
#include "core/options.hpp"
#include "core/run.hpp"
#include "core/study.hpp"
#include "core/text.hpp"
#include "numerics/sundials.hpp"
#include "rollingball/ball.hpp"
#include "rollingball/config.hpp"
#include "rollingball/initial_configuration.hpp"
#include "rollingball/march.hpp"

namespace {

struct BallOptions {
  rb::BallModelOptions model;
  std::vector<double> theta{0.0, 2.0369, 0.7044};
  bool theta_from_cm_solver = false;
  std::vector<long> free{2, 3};
  std::string want = "above";
  std::vector<double> thetadot{0, 0, 0}, q{1, 0, 0, 0}, Omega{0, 0, 0}, z{0, 0};
  rb::MarchKeys march;
  std::string formulation = "ode";
  bool suppress_algebraic_error = false, ode_vs_dae = false, stop_on_N_zero = false;
  std::vector<double> window;
  double diagnostic_dt = 1e-4;
  bool rails = true;
  long rail_points = 180;
};

class BallStudy {
 public:
  static constexpr cm::StudyInfo info{"rb_ball", "rollingball", "ball",
                                      "Rolling ball actuated by internal point masses (Sect. 6)"};

  void declare(cm::Config& config) {
    BallOptions& o = o_;
    rb::declare_ball_model_keys(config, o.model);
    config.add("ic.theta", &o.theta, "initial rail angles theta_a (Table 6.2)").unit("rad").range(cm::Range::any());
    config.add("ic.theta_from_cm_solver", &o.theta_from_cm_solver,
               "replace the free angles of ic.theta by the exact root of the CM condition (rb_ic)");
    config
        .add("ic.free", &o.free,
             "1-based indices of the angles the CM condition solves for (ic.theta_from_cm_solver); each must name "
             "a mass whenever there are two or more")
        .range(cm::Range::at_least(1));
    config.add("ic.want", &o.want, "root with the total CM above or below the GC").choices({"above", "below"});
    config.add("ic.thetadot", &o.thetadot, "initial rates theta_a' (Table 6.2)").unit("rad").range(cm::Range::any());
    config.add("ic.q", &o.q, "initial versor q_a, scalar first (Table 6.2)").range(cm::Range::any()).size(4);
    config.add("ic.Omega", &o.Omega, "initial body angular velocity Omega_a")
        .unit("rad")
        .range(cm::Range::any())
        .size(3);
    config.add("ic.z", &o.z, "initial GC position z_a").unit("1").range(cm::Range::any()).size(2);
    rb::declare_march_keys(config, o.march);
    config.add("solver.formulation", &o.formulation, "ODE (6.4) or DAE (6.5, IDA) form").choices({"ode", "dae"});
    config.add("solver.suppress_algebraic_error", &o.suppress_algebraic_error, "DAE: leave q0 out of IDA's error test");
    config.add("crosscheck.ode_vs_dae", &o.ode_vs_dae, "DAE: integrate the ODE (6.4) too and report the difference");
    config.add("event.stop_on_N_zero", &o.stop_on_N_zero, "stop at the first falling zero of N (detachment)");
    config
        .add("diagnostic.window", &o.window,
             "t0, t1: continue the rolling model past N = 0 to t1, write N on [t0, t1] and every zero")
        .unit("1")
        .range(cm::Range::any())
        .increasing();
    config.add("diagnostic.dt", &o.diagnostic_dt, "spacing of N_window.tsv").unit("1").range(cm::Range::positive());
    config.add("output.rails", &o.rails, "write rails0.tsv and masses0.tsv (the configuration at t = a)");
    config
        .add("output.rail_points", &o.rail_points,
             "segments of each rail drawn in rails0.tsv (a plotting resolution: it does not enter the solution)")
        .range(cm::Range::closed(1, 1e6));
    config.check([&config, &o] {
      const std::size_t n = o.model.m.size();
      if (o.theta.size() != n) config.fail("ic.theta", "needs one value per mass (masses.m)");
      if (o.thetadot.size() != n) config.fail("ic.thetadot", "needs one value per mass (masses.m)");
      // ic.free names two of the masses (used by ic.theta_from_cm_solver): checked whenever there are two
      if (o.theta_from_cm_solver || n >= 2) rb::check_free_angles(config, o.free, n);
      // a versor has norm 1 to rounding (sqrt(1/2) reads exactly; 0.7071 does not)
      const double norm = std::sqrt(o.q[0] * o.q[0] + o.q[1] * o.q[1] + o.q[2] * o.q[2] + o.q[3] * o.q[3]);
      if (!(std::fabs(norm - 1.0) <= 1e-12))
        config.fail("ic.q", "is not a unit versor: its norm is " + cm::format_real(norm) +
                                ", not 1 (to 1e-12; e.g. 1, 0, 0, 0 or sqrt(1/2), 0, sqrt(1/2), 0)");
      if (!o.window.empty() && o.window.size() != 2) config.fail("diagnostic.window", "needs t0 < t1");
      if (!o.window.empty() && !(o.window[1] > o.march.a)) config.fail("diagnostic.window", "t1 must exceed time.a");
    });
  }

  void run(cm::Run& run) {
    setup(run);
    solve(run);
    crosscheck(run);
    if (dae_ && o_.ode_vs_dae) compare_with_ode(run);
    if (!o_.window.empty()) diagnostic(run);
    write(run);
  }

 private:
  // --- set up: the ball of Fig. 6.1 and the initial state (6.12) -----------------------------------
  void setup(cm::Run& run) {
    ball_ = std::make_unique<rb::Ball>(rb::ball_parameters_from(o_.model));
    const rb::Ball& ball = *ball_;
    const int n = ball.n();
    theta_ = Eigen::Map<const Eigen::VectorXd>(o_.theta.data(), n);
    const Eigen::VectorXd thetadot = Eigen::Map<const Eigen::VectorXd>(o_.thetadot.data(), n);
    if (o_.theta_from_cm_solver) {
      const auto ic = rb::solve_initial_configuration(ball, theta_, rb::free_angles_from(o_.free), o_.want == "above");
      theta_ = ic.theta;
      run.note("theta_a from the CM condition (exact root) instead of the printed values");
    }
    const auto &qv = o_.q, &Om = o_.Omega, &zv = o_.z;
    const cm::Quaternion q_a(qv[0], qv[1], qv[2], qv[3]);
    x_a_ = ball.initial_state(theta_, thetadot, q_a, rb::Vec3(Om[0], Om[1], Om[2]),
                              Eigen::Vector2d(zv[0], zv[1]));  // eq. (6.12)
    dae_ = o_.formulation == "dae";
    options_ = rb::march_options_from(o_.march, o_.model.actuation, run.budget().max_rows);
    options_.fresh_restart = dae_;  // at a kink the DAE starts afresh from a consistent x', not by reinit
    if (!o_.window.empty())
      cm::grid_points("diagnostic.dt", options_.a, o_.window[1], o_.diagnostic_dt, run.budget().max_rows);
    const rb::BallContact c0 = ball.contact(options_.a, x_a_);
    if (!std::isfinite(c0.N) || !std::isfinite(c0.fs))
      throw cm::InputError(
          "model.m0, model.d, masses.m, rails.radius, ic.theta, ic.Omega: the normal force at t = a is not "
          "finite (N = " +
          cm::format_real(c0.N) + ")");
  }

  /// An integrator of the ODE (6.4) by method m.
  rb::Factory ode_factory(const std::string& m) const {
    return rb::ode_factory(*ball_, m, o_.march.integrator.tolerances());
  }

  /// An integrator (IDA) of the index-1 DAE (6.5), started from a consistent x'.
  rb::Factory dae_factory() const {
    const rb::Ball* ball = ball_.get();
    const cm::Tolerances tol = o_.march.integrator.tolerances();
    const bool suppress = o_.suppress_algebraic_error;
    return [ball, tol, suppress](double t0, const Eigen::VectorXd& y0) {
      Eigen::VectorXd yp0(y0.size());
      ball->rhs(t0, y0, yp0);  // consistent x' from (6.4); q0' = -q_flat . Omega / 2
      return cm::make_dae_integrator([ball](double t, cm::ConstVectorRef y, cm::ConstVectorRef yp,
                                            cm::VectorRef F) { ball->residual(t, y, yp, F); },
                                     y0, yp0, ball->differential_components(), t0, tol, suppress);
    };
  }

  /// N as a root function: detachment is N = 0, eq. (1.1).
  cm::RootFunction normal_force() const {
    const rb::Ball* ball = ball_.get();
    return [ball](double t, cm::ConstVectorRef x, cm::VectorRef g) { g(0) = ball->contact(t, x).N; };
  }

  /// What every march of the study seeks: the maximum of f_s/N (1.3), the minimum of N and, with
  /// event.stop_on_N_zero, the first falling zero of N.
  void configure(rb::March& march) const {
    const rb::Ball* ball = ball_.get();
    march.objective([ball](double t, const Eigen::VectorXd& x) {
      const rb::BallContact c = ball->contact(t, x);
      return c.fs / c.N;  // the objective of (1.3)
    });
    march.minimise([ball](double t, const Eigen::VectorXd& x) { return ball->contact(t, x).N; });
    if (o_.stop_on_N_zero) march.root(normal_force(), -1, true);
  }

  double cost_of(const rb::MarchResult& r) const {
    return r.stat("rhs_evaluations") + ball_->state_size() * r.stat("jacobian_evaluations");
  }

  // --- solve: integrate (6.4) or (6.5) piecewise, track N, f_s/N, |q|, q0 ----------------------------
  void solve(cm::Run& run) {
    const rb::Ball& ball = *ball_;
    const std::string& method = o_.march.integrator.method;
    auto traj = run.table("trajectory.tsv",
                          std::string("ball of Sect. 6 (") + (dae_ ? "DAE (6.5)" : "ODE (6.4)") +
                              "): state, contact forces (3.3)/(3.4), ratio f_s/N; zeta = body frame translated "
                              "to the GC, X = spatial frame translated to the GC",
                          trajectory_columns(ball.n()));
    tr_.energy0 = ball.energy(x_a_);
    auto observer = [&](double t, const Eigen::VectorXd& x, bool output) {
      const rb::BallContact c = ball.contact(t, x);
      tr_.update(t, x, c, ball);
      if (!output) return;
      if (dae_ && o_.ode_vs_dae) grid_states_.emplace_back(t, x);
      traj.row(trajectory_row(ball, t, x, c));
    };
    rb::March march(dae_ ? dae_factory() : ode_factory(method), options_);
    configure(march);
    res_ = march.run(x_a_, observer);
    run.statistics(dae_ ? "ida" : method, res_.statistics);
  }

  // Cross-check: the same march by other integrators of (6.4).
  void crosscheck(cm::Run& run) {
    const std::string& method = o_.march.integrator.method;
    if (!dae_) cost_[method] = cost_of(res_);
    for (const std::string& m : rb::crosscheck_methods_from(o_.march)) {
      rb::March other(ode_factory(m), options_);
      configure(other);
      const rb::MarchResult r = other.run(x_a_, [](double, const Eigen::VectorXd&, bool) {});
      run.scalar("mu_hat." + m, r.best_value);
      run.statistics(m, r.statistics);
      cost_[m] = cost_of(r);
      spread_ = std::max(spread_, std::abs(r.best_value - res_.best_value));
      if (o_.stop_on_N_zero && r.stopped_on_root && res_.stopped_on_root) {
        run.scalar("t_det." + m, r.t_end);
        tdet_spread_ = std::max(tdet_spread_, std::abs(r.t_end - res_.t_end));
      }
    }
  }

  // The DAE (6.5) against the ODE (6.4) on the output grid.
  void compare_with_ode(cm::Run& run) const {
    rb::MarchOptions options = options_;
    options.fresh_restart = false;
    std::size_t k = 0;
    double diff = 0.0, diff_half = 0.0;
    const double t_half = 0.5 * (options.a + options.b);
    rb::March ode(ode_factory(o_.march.integrator.method), options);
    ode.run(x_a_, [&](double t, const Eigen::VectorXd& x, bool output) {
      if (!output || k >= grid_states_.size()) return;
      if (std::abs(grid_states_[k].first - t) < 1e-12) {
        const double d = (grid_states_[k].second - x).lpNorm<Eigen::Infinity>();
        diff = std::max(diff, d);
        if (t <= t_half) diff_half = std::max(diff_half, d);
      }
      ++k;
    });
    run.scalar("ode_dae_max_diff", diff);
    run.scalar("ode_dae_max_diff_first_half", diff_half);
  }

  // The detachment diagnostic: the rolling model continued past N = 0 (unphysical after the first
  // zero, but it shows the dip of N that makes the first zero ill-conditioned).
  void diagnostic(cm::Run& run) const {
    const rb::Ball& ball = *ball_;
    const std::vector<double>& window = o_.window;
    rb::MarchOptions options = options_;
    options.b = window[1];
    options.dt_scan = o_.diagnostic_dt;
    options.dt_output = o_.diagnostic_dt;
    options.fresh_restart = false;
    auto table = run.table("N_window.tsv",
                           "normal force of the rolling model continued past N = 0 (diagnostic of the detachment)",
                           {{"t", "1"}, {"N", "1"}, {"fs", "1"}, {"ratio", "1"}});
    double N_min = std::numeric_limits<double>::infinity(), t_N_min = 0;
    rb::March march(ode_factory(o_.march.integrator.method), options);
    march.root(normal_force(), 0, false);
    const rb::MarchResult res = march.run(x_a_, [&](double t, const Eigen::VectorXd& x, bool) {
      if (t < window[0] - 1e-12) return;
      const rb::BallContact c = ball.contact(t, x);
      table.row({t, c.N, c.fs, c.fs / c.N});
      if (c.N < N_min) N_min = c.N, t_N_min = t;
    });
    auto crossings = run.table("crossings.tsv", "zeros of N(t) on [time.a, diagnostic.window t1]",
                               {{"t", "1"}, {"direction", "1"}, {"fs", "1"}});
    int down = 0, up = 0;
    for (const rb::Crossing& c : res.crossings) {
      const Eigen::VectorXd x = march.state_at(options.a, x_a_, c.t);
      crossings.row({c.t, static_cast<double>(c.direction), ball.contact(c.t, x).fs});
      if (c.direction < 0 && down < 2) run.scalar("t_N_down" + std::to_string(++down), c.t);
      if (c.direction > 0 && up < 2) run.scalar("t_N_up" + std::to_string(++up), c.t);
    }
    run.scalar("N_crossings", static_cast<double>(res.crossings.size()));
    run.scalar("N_window_min", N_min);
    run.scalar("t_N_window_min", t_N_min);
  }

  // --- write ----------------------------------------------------------------------------------------
  void write(cm::Run& run) const {
    if (o_.rails) write_rails(run);
    write_maximum(run);
    write_initial_state(run);
    write_extrema(run);
    if (o_.stop_on_N_zero) write_detachment(run);
    run.note(
        "mu_hat = max f_s/N sampled every analysis.dt and refined by golden section on the solution "
        "restarted from the grid state before the maximum.");
    run.note("energy_drift = max |E(t) - E(a)|: a conservation check only when the masses are frozen.");
  }

  void write_maximum(cm::Run& run) const {
    auto best = run.table("maximum.tsv", "the maximiser of f_s/N, eq. (1.3), and the end of the run (one row)",
                          {{"t_mu_hat", "1"}, {"mu_hat", "1"}, {"t_end", "1"}, {"N_end", "1"}, {"fs_end", "1"}});
    const rb::BallContact ce = ball_->contact(res_.t_end, res_.y_end);
    best.row({res_.best_t, res_.best_value, res_.t_end, ce.N, ce.fs});
  }

  // The configuration at t = a: the total CM and the contact forces (3.3), (3.4).
  void write_initial_state(cm::Run& run) const {
    const rb::Ball& ball = *ball_;
    const int n = ball.n();
    const rb::BallContact c0 = ball.contact(options_.a, x_a_);
    const rb::Vec3 cB0 = ball.centre_of_mass(theta_);
    run.scalar("M", ball.total_mass());
    run.scalar("state_size", ball.state_size());
    if (n > 0) run.scalar("theta_a1", theta_(0));
    if (n > 1) run.scalar("theta_a2", theta_(1));
    if (n > 2) run.scalar("theta_a3", theta_(2));
    run.scalar("cB1_0", cB0(0));
    run.scalar("cB2_0", cB0(1));
    run.scalar("cB3_0", cB0(2));
    run.scalar("N_0", c0.N);
    run.scalar("fs_0", c0.fs);
    run.scalar("Ffr1_0", c0.Ffr(0));
    run.scalar("Ffr2_0", c0.Ffr(1));
  }

  // mu_hat of (1.3), the extremes of N and f_s, the conservation checks and the end of the run.
  void write_extrema(cm::Run& run) const {
    const rb::Ball& ball = *ball_;
    run.scalar("mu_hat", res_.best_value);
    run.scalar("t_mu_hat", res_.best_t);
    run.scalar("mu_hat_grid", res_.grid_best_value);
    run.scalar("N_min", res_.low_value);  // refined between grid points (golden section)
    run.scalar("t_N_min", res_.low_t);
    run.scalar("N_min_grid", res_.grid_low_value);
    run.scalar("N_max", tr_.N_max);
    run.scalar("t_N_max", tr_.t_N_max);
    run.scalar("fs_max", tr_.fs_max);
    run.scalar("max_qnorm_err", tr_.qnorm_err);
    run.scalar("q0_sign_changes", tr_.q0_changes);
    run.scalar("t_q0_first_sign_change", tr_.t_q0_change);
    run.scalar("energy_drift", tr_.energy_drift);
    run.scalar("mu_hat_spread", spread_);
    if (cost_.count("cvode_adams") && cost_.count("cvode_bdf"))
      run.scalar("cost_adams_over_bdf", cost_.at("cvode_adams") / cost_.at("cvode_bdf"));
    run.scalar("t_end", res_.t_end);
    for (int k = 0; k < 3; ++k) run.scalar("Omega_end" + std::to_string(k + 1), res_.y_end(ball.i_Omega() + k));
    for (int k = 0; k < 2; ++k) run.scalar("z_end" + std::to_string(k + 1), res_.y_end(ball.i_z() + k));
  }

  // Detachment: the first falling zero of N, eq. (1.1), where the march stopped (NaN if it did not).
  void write_detachment(cm::Run& run) const {
    const rb::Ball& ball = *ball_;
    const bool detached = res_.stopped_on_root;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const rb::BallContact cd = ball.contact(res_.t_end, res_.y_end);
    run.scalar("detached", detached ? 1.0 : 0.0);
    run.scalar("t_det", detached ? res_.t_end : nan);
    run.scalar("N_at_det", detached ? cd.N : nan);
    run.scalar("fs_at_det", detached ? cd.fs : nan);
    for (int k = 0; k < 3; ++k)
      run.scalar("Omega_at_det" + std::to_string(k + 1), detached ? res_.y_end(ball.i_Omega() + k) : nan);
    for (int k = 0; k < 2; ++k)
      run.scalar("z_at_det" + std::to_string(k + 1), detached ? res_.y_end(ball.i_z() + k) : nan);
    if (!rb::crosscheck_methods_from(o_.march).empty()) run.scalar("t_det_spread", tdet_spread_);
  }

  struct Track {
    double N_min = std::numeric_limits<double>::infinity(), t_N_min = 0, N_max = -1e300, t_N_max = 0;
    double fs_max = 0, qnorm_err = 0, energy0 = 0, energy_drift = 0, last_q0 = 0, t_q0_change = -1;
    int q0_changes = 0;
    bool first = true;
    void update(double t, const Eigen::VectorXd& x, const rb::BallContact& c, const rb::Ball& ball) {
      if (c.N < N_min) N_min = c.N, t_N_min = t;
      if (c.N > N_max) N_max = c.N, t_N_max = t;
      fs_max = std::max(fs_max, c.fs);
      qnorm_err = std::max(qnorm_err, std::abs(x.segment<4>(ball.i_q()).norm() - 1.0));
      energy_drift = std::max(energy_drift, std::abs(ball.energy(x) - energy0));
      const double q0 = x(ball.i_q());
      if (!first && q0 * last_q0 < 0.0) {
        if (q0_changes == 0) t_q0_change = t;
        ++q0_changes;
      }
      last_q0 = q0;
      first = false;
    }
  };

  static std::vector<cm::Column> trajectory_columns(int n) {
    std::vector<cm::Column> cols{{"t", "1"}};
    for (int i = 1; i <= n; ++i) cols.push_back({"theta" + std::to_string(i), "rad"});
    for (int i = 1; i <= n; ++i) cols.push_back({"thetadot" + std::to_string(i), "rad"});
    for (const char* c : {"q0", "q1", "q2", "q3", "qnorm_err"}) cols.push_back({c, "1"});
    for (const char* c :
         {"Omega1", "Omega2", "Omega3", "Omegadot1", "Omegadot2", "Omegadot3", "omega1", "omega2", "omega3"})
      cols.push_back({c, "rad"});
    for (const char* c : {"z1", "z2", "N", "Ffr1", "Ffr2", "fs", "ratio", "energy"}) cols.push_back({c, "1"});
    for (int i = 1; i <= n; ++i)
      for (const char* k : {"1", "2", "3"}) cols.push_back({"zeta" + std::to_string(i) + "_" + k, "1"});
    for (const char* c : {"cB1", "cB2", "cB3"}) cols.push_back({c, "1"});
    for (int i = 1; i <= n; ++i)
      for (const char* k : {"1", "2", "3"}) cols.push_back({"X" + std::to_string(i) + "_" + k, "1"});
    for (const char* c : {"Xc1", "Xc2", "Xc3"}) cols.push_back({c, "1"});
    return cols;
  }

  static std::vector<double> trajectory_row(const rb::Ball& ball, double t, const Eigen::VectorXd& x,
                                            const rb::BallContact& c) {
    const int n = ball.n();
    std::vector<double> row{t};
    for (int i = 0; i < 2 * n + 4; ++i) row.push_back(x(i));
    row.push_back(x.segment<4>(ball.i_q()).norm() - 1.0);
    for (int k = 0; k < 3; ++k) row.push_back(x(ball.i_Omega() + k));
    for (int k = 0; k < 3; ++k) row.push_back(c.Omegadot(k));
    for (int k = 0; k < 3; ++k) row.push_back(c.omega(k));
    row.insert(row.end(),
               {x(ball.i_z()), x(ball.i_z() + 1), c.N, c.Ffr(0), c.Ffr(1), c.fs, c.fs / c.N, ball.energy(x)});
    for (int i = 1; i <= n; ++i) {
      const rb::Vec3 z = ball.zeta(i, x);
      row.insert(row.end(), {z(0), z(1), z(2)});
    }
    const rb::Vec3 cB = ball.centre_of_mass(x.segment(ball.i_theta(), n));
    row.insert(row.end(), {cB(0), cB(1), cB(2)});
    for (int i = 1; i <= n; ++i) {
      const rb::Vec3 X = c.Lambda * ball.zeta(i, x);
      row.insert(row.end(), {X(0), X(1), X(2)});
    }
    const rb::Vec3 Xc = c.Lambda * cB;
    row.insert(row.end(), {Xc(0), Xc(1), Xc(2)});
    return row;
  }

  // Fig. 6.1: the rails, the masses and the total CM at t = a.
  void write_rails(cm::Run& run) const {
    const rb::Ball& ball = *ball_;
    const Eigen::VectorXd& x_a = x_a_;
    auto rails = run.table("rails0.tsv",
                           "the rails in the body frame translated to the GC (= space at t = a when q_a = 1); "
                           "one block (two empty lines) per rail",
                           {{"theta", "rad"}, {"x1", "1"}, {"x2", "1"}, {"x3", "1"}});
    const cm::Quaternion q = x_a.segment<4>(ball.i_q());
    const rb::Mat3 L = cm::attitude(q);
    for (int i = 0; i < ball.n(); ++i) {
      for (long k = 0; k <= o_.rail_points; ++k) {
        const double th = 2.0 * cm::pi * static_cast<double>(k) / static_cast<double>(o_.rail_points);
        const rb::Vec3 X = L * ball.parameters().rails[i].zeta(th);
        rails.row({th, X(0), X(1), X(2)});
      }
      rails.gap();
      rails.gap();
    }
    auto masses = run.table("masses0.tsv",
                            "masses m_0..m_n and the total CM (index n+1) at t = a, spatial frame "
                            "translated to the GC",
                            {{"i", "1"}, {"x1", "1"}, {"x2", "1"}, {"x3", "1"}, {"m", "1"}});
    for (int i = 0; i <= ball.n(); ++i) {
      const rb::Vec3 X = L * ball.zeta(i, x_a);
      masses.row(
          {static_cast<double>(i), X(0), X(1), X(2), i == 0 ? ball.parameters().m0 : ball.parameters().m[i - 1]});
    }
    const rb::Vec3 Xc = L * ball.centre_of_mass(x_a.segment(ball.i_theta(), ball.n()));
    masses.row({static_cast<double>(ball.n() + 1), Xc(0), Xc(1), Xc(2), ball.total_mass()});
  }

  BallOptions o_;
  std::unique_ptr<rb::Ball> ball_;
  Eigen::VectorXd theta_, x_a_;  ///< theta_a and the initial state (6.12)
  bool dae_ = false;             ///< the DAE (6.5) instead of the ODE (6.4)
  rb::MarchOptions options_;
  rb::MarchResult res_;
  Track tr_;
  std::vector<std::pair<double, Eigen::VectorXd>> grid_states_;  ///< the DAE's output grid, for compare_with_ode
  double spread_ = 0.0, tdet_spread_ = 0.0;                      ///< across crosscheck.methods
  std::map<std::string, double> cost_;  ///< rhs evaluations + state size x Jacobian evaluations
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<BallStudy>(argc, argv); }

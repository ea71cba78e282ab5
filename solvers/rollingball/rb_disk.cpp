// rb_disk: the rolling disk of Sect. 5 (Putkaradze & Rogers, RCD 24(2), 2019).
//
// A disk of radius r rolls without slipping on a line, moved by n point masses on concentric circular
// rails (5.4) whose parameter accelerations are the prescribed step-ramp (5.5). The state
// x = [theta; theta'; phi; phi'] obeys (5.2) with phi'' from (4.1); the normal force (4.3) and the
// friction (4.4) follow at every instant, and the minimum coefficient of static friction that
// prevents slip is mu_hat = max_t f_s / N, eq. (1.3). The paper reports mu_hat = .2951 and N > 0
// for the data of Fig. 5.2 and Table 5.1 on t in [0, 20].
//
//   build/bin/rb_disk --config configs/rollingball/disk.ini --output try/disk
//   build/bin/rb_disk --config configs/rollingball/disk.ini --solver.method=cvode_bdf --time.b=5 --output try/disk
//   build/bin/rb_disk --config configs/rollingball/disk.ini --masses.m= --rails.radius= --ic.theta=
//       --ic.thetadot= --ic.zdot=1 --output try/bare_disk   # the bare disk: constant speed, N = M g
//
// Writes trajectory.tsv (state, forces, mass positions in body and space), actuation.tsv (u_i(t))
// and the scalars mu_hat, t_mu_hat, N_min (refined between grid points), N_max, ..., mu_hat_spread (across
// crosscheck.methods).
#include <cmath>
#include <limits>
#include <map>

#include "core/errors.hpp"
#include "core/grid.hpp"
#include "core/options.hpp"
#include "core/run.hpp"
#include "core/study.hpp"
#include "core/text.hpp"
#include "numerics/sundials.hpp"
#include "rollingball/config.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/march.hpp"

namespace {

struct DiskOptions {
  rb::DiskModelOptions model;
  std::vector<double> theta{-cm::pi / 2, -cm::pi / 2, -cm::pi / 2, -cm::pi / 2}, thetadot{0, 0, 0, 0};
  double phi = 0.0, zdot = 0.0, z = 0.0;
  rb::MarchKeys march;
  double actuation_dt = 1e-3, actuation_fine_until = 0.4, actuation_coarse_dt = 0.1;
  DiskOptions() {
    // The paper's AbsTol = RelTol = 1e-12 (Sect. 5).
    march.integrator.rtol = 1e-12;
    march.integrator.atol = 1e-12;
  }
};

class DiskStudy {
 public:
  static constexpr cm::StudyInfo info{"rb_disk", "rollingball", "disk",
                                      "Rolling disk actuated by internal point masses (Sect. 5)"};

  void declare(cm::Config& config) {
    DiskOptions& o = o_;
    rb::declare_disk_model_keys(config, o.model);
    config.add("ic.theta", &o.theta, "initial rail angles theta_a (Table 5.1)").unit("rad").range(cm::Range::any());
    config.add("ic.thetadot", &o.thetadot, "initial rates theta_a' (Table 5.1)").unit("rad").range(cm::Range::any());
    config.add("ic.phi", &o.phi, "initial rotation angle phi_a").unit("rad").range(cm::Range::any());
    config.add("ic.zdot", &o.zdot, "initial GC velocity z_a' (phi_a' = -z_a'/r, eq. (5.3))")
        .unit("1")
        .range(cm::Range::any());
    config.add("ic.z", &o.z, "initial GC position z_a").unit("1").range(cm::Range::any());
    rb::declare_march_keys(config, o.march);
    config
        .add("output.actuation_dt", &o.actuation_dt,
             "spacing of actuation.tsv on the pulse (a plotting grid: it does not enter the solution)")
        .unit("1")
        .range(cm::Range::positive());
    config
        .add("output.actuation_fine_until", &o.actuation_fine_until,
             "end of the fine part of actuation.tsv (after it, rows every output.actuation_coarse_dt)")
        .unit("1")
        .range(cm::Range::any());
    config
        .add("output.actuation_coarse_dt", &o.actuation_coarse_dt,
             "spacing of actuation.tsv after the pulse (a multiple of output.actuation_dt)")
        .unit("1")
        .range(cm::Range::positive());
    config.check([&config, &o] {
      const std::size_t n = o.model.m.size();
      if (o.theta.size() != n) config.fail("ic.theta", "needs one angle per mass (masses.m)");
      if (o.thetadot.size() != n) config.fail("ic.thetadot", "needs one rate per mass (masses.m)");
    });
  }

  void run(cm::Run& run) {
    setup(run);
    solve(run);
    write(run);
  }

 private:
  // --- set up: the disk of Fig. 5.2 and the initial state (5.6) -----------------------------------
  void setup(cm::Run& run) {
    disk_ = std::make_unique<rb::Disk>(rb::disk_parameters_from(o_.model));
    const int n = disk_->n();
    r_ = disk_->parameters().r;
    x_a_ = Eigen::VectorXd(disk_->state_size());
    for (int i = 0; i < n; ++i) {
      x_a_(disk_->i_theta() + i) = o_.theta[static_cast<std::size_t>(i)];
      x_a_(disk_->i_thetadot() + i) = o_.thetadot[static_cast<std::size_t>(i)];
    }
    x_a_(disk_->i_phi()) = o_.phi;
    x_a_(disk_->i_phidot()) = -o_.zdot / r_;  // eq. (5.3)
    options_ = rb::march_options_from(o_.march, o_.model.actuation, run.budget().max_rows);
    actuation_t_ = actuation_times(run.budget().max_rows);
    const rb::DiskContact c0 = disk_->contact(options_.a, x_a_);
    if (!std::isfinite(c0.N) || !std::isfinite(c0.phiddot))
      throw cm::InputError(
          "model.m0, model.d2, masses.m, rails.radius, ic.theta: the normal force at t = a is not finite (N = " +
          cm::format_real(c0.N) + ")");
  }

  std::vector<double> actuation_times(long max_points) const {
    std::vector<double> out;
    const std::vector<double> fine =
        rb::grid(options_.a, options_.b, o_.actuation_dt, "output.actuation_dt", max_points);
    for (double t : fine) {
      // fine on the pulse, coarse after (the coarse points are the multiples of the coarse step)
      if (t > o_.actuation_fine_until &&
          std::fmod(t + 1e-12 * o_.actuation_coarse_dt, o_.actuation_coarse_dt) > 1e-9 * o_.actuation_coarse_dt)
        continue;
      out.push_back(t);
    }
    return out;
  }

  std::vector<cm::Column> trajectory_columns() const {
    const int n = disk_->n();
    std::vector<cm::Column> cols{{"t", "1"}};
    for (int i = 1; i <= n; ++i) cols.push_back({"theta" + std::to_string(i), "rad"});
    for (int i = 1; i <= n; ++i) cols.push_back({"thetadot" + std::to_string(i), "rad"});
    for (int i = 1; i <= n; ++i) cols.push_back({"u" + std::to_string(i), "rad"});
    for (const char* c : {"phi", "phidot", "phiddot"}) cols.push_back({c, "rad"});
    for (const char* c : {"z", "N", "Ffr1", "fs", "ratio"}) cols.push_back({c, "1"});
    for (int i = 1; i <= n; ++i)
      for (const char* k : {"1", "3"}) cols.push_back({"zeta" + std::to_string(i) + "_" + k, "1"});
    cols.push_back({"cB1", "1"});
    cols.push_back({"cB3", "1"});
    for (int i = 1; i <= n; ++i)
      for (const char* k : {"1", "3"}) cols.push_back({"X" + std::to_string(i) + "_" + k, "1"});
    cols.push_back({"Xc1", "1"});
    cols.push_back({"Xc3", "1"});
    return cols;
  }

  std::vector<double> trajectory_row(double t, const Eigen::VectorXd& x, const rb::DiskContact& c) const {
    const rb::Disk& disk = *disk_;
    const int n = disk.n();
    const double phi = x(disk.i_phi());
    std::vector<double> row{t};
    for (int i = 0; i < 2 * n; ++i) row.push_back(x(i));
    for (int i = 0; i < n; ++i) row.push_back(disk.parameters().actuation.u(static_cast<std::size_t>(i), t));
    row.insert(row.end(),
               {phi, x(disk.i_phidot()), c.phiddot, o_.z - r_ * (phi - o_.phi), c.N, c.Ffr1, c.fs, c.fs / c.N});
    for (int i = 1; i <= n; ++i) {
      const Eigen::Vector2d z = disk.zeta(i, x);
      row.insert(row.end(), {z(0), z(1)});
    }
    const Eigen::Vector2d cB = disk.centre_of_mass(x);
    row.insert(row.end(), {cB(0), cB(1)});
    for (int i = 1; i <= n; ++i) {
      const Eigen::Vector2d X = disk.to_space(phi, disk.zeta(i, x));
      row.insert(row.end(), {X(0), X(1)});
    }
    const Eigen::Vector2d Xc = disk.to_space(phi, cB);
    row.insert(row.end(), {Xc(0), Xc(1)});
    return row;
  }

  rb::Factory factory(const std::string& m) const {
    return rb::ode_factory(*disk_, m, o_.march.integrator.tolerances());  // (5.2)
  }

  void configure(rb::March& march) const {
    const rb::Disk* disk = disk_.get();
    march.objective([disk](double t, const Eigen::VectorXd& x) {
      const rb::DiskContact c = disk->contact(t, x);
      return c.fs / c.N;  // the objective of (1.3)
    });
    march.minimise([disk](double t, const Eigen::VectorXd& x) { return disk->contact(t, x).N; });
  }

  // --- solve: integrate (5.2) piecewise, track N and f_s/N ----------------------------------------
  void solve(cm::Run& run) {
    const rb::Disk& disk = *disk_;
    const std::string& method = o_.march.integrator.method;
    const long rows = cm::grid_points("output.dt", options_.a, options_.b, options_.dt_output, options_.max_points);
    auto traj = run.table("trajectory.tsv",
                          "disk of Sect. 5: state, contact forces (4.3)/(4.4), ratio f_s/N; zeta = body frame "
                          "translated to the GC, X = spatial frame translated to the GC",
                          trajectory_columns(), cm::Planned{static_cast<double>(rows + 1), "output.dt"});
    auto observer = [&](double t, const Eigen::VectorXd& x, bool output) {
      const rb::DiskContact c = disk.contact(t, x);
      if (c.N > tr_.N_max) tr_.N_max = c.N, tr_.t_N_max = t;
      tr_.Ffr_max = std::max(tr_.Ffr_max, std::abs(c.Ffr1));
      tr_.phidot_min = std::min(tr_.phidot_min, x(disk.i_phidot()));
      tr_.phidot_max = std::max(tr_.phidot_max, x(disk.i_phidot()));
      if (output) traj.row(trajectory_row(t, x, c));
    };
    rb::March march(factory(method), options_);
    configure(march);
    res_ = march.run(x_a_, observer);

    // Cross-check: the same study with other integrators (the paper: "identical results").
    cost_[method] = cost_of(res_);
    for (const std::string& m : rb::crosscheck_methods_from(o_.march)) {
      rb::March other(factory(m), options_);
      configure(other);
      const rb::MarchResult r = other.run(x_a_, [](double, const Eigen::VectorXd&, bool) {});
      run.scalar("mu_hat." + m, r.best_value);
      run.statistics(m, r.statistics);
      spread_ = std::max(spread_, std::abs(r.best_value - res_.best_value));
      cost_[m] = cost_of(r);
    }
  }

  double cost_of(const rb::MarchResult& r) const {
    return r.stat("rhs_evaluations") + disk_->state_size() * r.stat("jacobian_evaluations");
  }

  // --- write --------------------------------------------------------------------------------------
  void write(cm::Run& run) {
    const rb::Disk& disk = *disk_;
    const int n = disk.n();
    std::vector<cm::Column> ac{{"t", "1"}};
    for (int i = 1; i <= n; ++i) ac.push_back({"u" + std::to_string(i), "rad"});
    ac.push_back({"abs_u", "rad"});
    auto act = run.table("actuation.tsv", "prescribed accelerations u_i(t), eq. (5.5); abs_u = amp shape(t)", ac,
                         cm::Planned{static_cast<double>(actuation_t_.size()), "output.actuation_dt"});
    const rb::StepRamp& u = disk.parameters().actuation;
    for (double t : actuation_t_) {
      std::vector<double> row{t};
      for (int i = 0; i < n; ++i) row.push_back(u.u(static_cast<std::size_t>(i), t));
      row.push_back(std::abs(u.amp * u.shape(t)));  // |u_i| is the same for every i, eq. (5.5)
      act.row(row);
    }

    auto best = run.table("maximum.tsv", "the maximiser of f_s/N, eq. (1.3) (one row)",
                          {{"t_mu_hat", "1"}, {"mu_hat", "1"}}, cm::Planned{1, cm::Budget::max_rows_key});
    best.row({res_.best_t, res_.best_value});
    const rb::DiskContact c0 = disk.contact(options_.a, x_a_);
    const Eigen::Vector2d cB0 = disk.centre_of_mass(x_a_);
    const rb::DiskContact cb = disk.contact(res_.t_end, res_.y_end);
    run.scalar("M", disk.total_mass());
    run.scalar("state_size", disk.state_size());
    run.scalar("mu_hat", res_.best_value);
    run.scalar("t_mu_hat", res_.best_t);
    run.scalar("mu_hat_grid", res_.grid_best_value);
    run.scalar("N_min", res_.low_value);
    run.scalar("t_N_min", res_.low_t);
    run.scalar("N_min_grid", res_.grid_low_value);
    run.scalar("N_max", tr_.N_max);
    run.scalar("t_N_max", tr_.t_N_max);
    run.scalar("max_abs_Ffr1", tr_.Ffr_max);
    run.scalar("phidot_min", tr_.phidot_min);
    run.scalar("phidot_max", tr_.phidot_max);
    run.scalar("N_0", c0.N);
    run.scalar("Ffr1_0", c0.Ffr1);
    run.scalar("phiddot_0", c0.phiddot);
    run.scalar("ratio_0", c0.fs / c0.N);
    run.scalar("cB1_0", cB0(0));
    run.scalar("cB3_0", cB0(1));
    run.scalar("t_end", res_.t_end);
    run.scalar("phi_end", res_.y_end(disk.i_phi()));
    run.scalar("phidot_end", res_.y_end(disk.i_phidot()));
    run.scalar("z_end", o_.z - r_ * (res_.y_end(disk.i_phi()) - o_.phi));
    run.scalar("N_end", cb.N);
    run.scalar("Ffr1_end", cb.Ffr1);
    run.scalar("mu_hat_spread", spread_);
    if (cost_.count("cvode_adams") && cost_.count("cvode_bdf"))
      run.scalar("cost_adams_over_bdf", cost_["cvode_adams"] / cost_["cvode_bdf"]);
    run.statistics(o_.march.integrator.method, res_.statistics);
    run.note(
        "mu_hat = max f_s/N and N_min = min N sampled every analysis.dt and refined by golden section on the "
        "solution restarted from the grid state before the extremum.");
    if (!rb::crosscheck_methods_from(o_.march).empty())
      run.note(
          "cost = rhs evaluations + state size x Jacobian evaluations (difference-quotient Jacobian), "
          "a deterministic stand-in for the wall time the paper compares.");
  }

  struct Track {
    double N_max = -std::numeric_limits<double>::infinity(), t_N_max = 0;
    double Ffr_max = 0, phidot_min = std::numeric_limits<double>::infinity(),
           phidot_max = -std::numeric_limits<double>::infinity();
  };

  DiskOptions o_;
  std::unique_ptr<rb::Disk> disk_;
  double r_ = 1.0;
  Eigen::VectorXd x_a_;
  rb::MarchOptions options_;
  std::vector<double> actuation_t_;
  Track tr_;
  rb::MarchResult res_;
  double spread_ = 0.0;
  std::map<std::string, double> cost_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<DiskStudy>(argc, argv); }

// rb_disk: the rolling disk of Sect. 5 (Putkaradze & Rogers, RCD 24(2), 2019).
//
// A disk of radius r rolls without slipping on a line, moved by n point masses on concentric circular
// rails (5.4) whose parameter accelerations are the prescribed step-ramp (5.5). The state
// x = [theta; theta'; phi; phi'] obeys (5.2) with phi'' from (4.1); the normal force (4.3) and the
// friction (4.4) follow at every instant, and the minimum coefficient of static friction that
// prevents slip is mu_hat = max_t f_s / N, eq. (1.3). The paper reports mu_hat = .2951 and N > 0
// for the data of Fig. 5.2 and Table 5.1 on t in [0, 20].
//
//   build/bin/rb_disk --config configs/rollingball/disk.ini --output results/rollingball/disk
//   build/bin/rb_disk --config configs/rollingball/disk.ini --solver.method=cvode_bdf --time.b=5
//
// Writes trajectory.tsv (state, forces, mass positions in body and space), actuation.tsv (u_i(t))
// and the scalars mu_hat, t_mu_hat, N_min, N_max, ..., mu_hat_spread (across crosscheck.methods).
#include <cmath>
#include <limits>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"
#include "common/sundials.hpp"
#include "rollingball/config.hpp"
#include "rollingball/disk.hpp"
#include "rollingball/march.hpp"

namespace {

class DiskStudy {
 public:
  explicit DiskStudy(cm::Config& config) : config_(config) {}

  void declare() {
    rb::declare_disk_model_keys(config_);
    config_.add_reals("ic.theta", {-cm::pi / 2, -cm::pi / 2, -cm::pi / 2, -cm::pi / 2}, "rad",
                      "initial rail angles theta_a (Table 5.1)");
    config_.add_reals("ic.thetadot", {0, 0, 0, 0}, "rad", "initial rates theta_a' (Table 5.1)");
    config_.add_real("ic.phi", 0.0, "rad", "initial rotation angle phi_a");
    config_.add_real("ic.zdot", 0.0, "1", "initial GC velocity z_a' (phi_a' = -z_a'/r, eq. (5.3))");
    config_.add_real("ic.z", 0.0, "1", "initial GC position z_a");
    rb::declare_march_keys(config_, 1e-12, "arkode_dp5");
  }

  void run() {
    // --- set up: the disk of Fig. 5.2 and the initial state (5.6) ---------------------------------
    const rb::Disk disk(rb::disk_parameters_from(config_));
    const int n = disk.n();
    const auto theta = config_.reals("ic.theta"), thetadot = config_.reals("ic.thetadot");
    if (static_cast<int>(theta.size()) != n) config_.fail("ic.theta", "needs one angle per mass");
    if (static_cast<int>(thetadot.size()) != n) config_.fail("ic.thetadot", "needs one rate per mass");
    const double r = disk.parameters().r, z_a = config_.real("ic.z"), phi_a = config_.real("ic.phi");
    Eigen::VectorXd x_a(disk.state_size());
    for (int i = 0; i < n; ++i) {
      x_a(disk.i_theta() + i) = theta[i];
      x_a(disk.i_thetadot() + i) = thetadot[i];
    }
    x_a(disk.i_phi()) = phi_a;
    x_a(disk.i_phidot()) = -config_.real("ic.zdot") / r;  // eq. (5.3)
    const rb::MarchOptions options = rb::march_options_from(config_);
    const cm::Tolerances tol = rb::tolerances_from(config_);
    const std::string method = config_.text("solver.method");
    const auto crosscheck = rb::crosscheck_methods_from(config_);

    cm::Run out(config_);
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
    auto traj = out.table("trajectory.tsv",
                          "disk of Sect. 5: state, contact forces (4.3)/(4.4), ratio f_s/N; zeta = body frame "
                          "translated to the GC, X = spatial frame translated to the GC",
                          cols);

    // --- solve: integrate (5.2) piecewise, track N and f_s/N -------------------------------------
    struct Track {
      double N_min = std::numeric_limits<double>::infinity(), t_N_min = 0, N_max = -1e300, t_N_max = 0;
      double Ffr_max = 0, phidot_min = 1e300, phidot_max = -1e300, energy0 = 0;
    } tr;
    auto observer = [&](double t, const Eigen::VectorXd& x, bool output) {
      const rb::DiskContact c = disk.contact(t, x);
      if (c.N < tr.N_min) tr.N_min = c.N, tr.t_N_min = t;
      if (c.N > tr.N_max) tr.N_max = c.N, tr.t_N_max = t;
      tr.Ffr_max = std::max(tr.Ffr_max, std::abs(c.Ffr1));
      tr.phidot_min = std::min(tr.phidot_min, x(disk.i_phidot()));
      tr.phidot_max = std::max(tr.phidot_max, x(disk.i_phidot()));
      if (!output) return;
      const double phi = x(disk.i_phi());
      std::vector<double> row{t};
      for (int i = 0; i < 2 * n; ++i) row.push_back(x(i));
      for (int i = 0; i < n; ++i) row.push_back(disk.parameters().actuation.u(i, t));
      row.insert(row.end(),
                 {phi, x(disk.i_phidot()), c.phiddot, z_a - r * (phi - phi_a), c.N, c.Ffr1, c.fs, c.fs / c.N});
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
      traj.row(row);
    };
    const auto ratio = [&](double t, const Eigen::VectorXd& x) {
      const rb::DiskContact c = disk.contact(t, x);
      return c.fs / c.N;  // the objective of (1.3)
    };
    const auto factory = [&](const std::string& m) {
      return [&disk, m, tol](double t0, const Eigen::VectorXd& y0) {
        return cm::make_integrator(
            m, [&disk](double t, cm::ConstVectorRef y, cm::VectorRef yd) { disk.rhs(t, y, yd); }, y0, t0, tol);
      };
    };
    rb::March march(factory(method), options);
    march.objective(ratio);
    const rb::MarchResult res = march.run(x_a, observer);

    // Cross-check: the same study with other integrators (the paper: "identical results").
    double spread = 0.0;
    std::map<std::string, double> cost;
    cost[method] = res.stat("rhs_evaluations") + disk.state_size() * res.stat("jacobian_evaluations");
    for (const std::string& m : crosscheck) {
      rb::March other(factory(m), options);
      other.objective(ratio);
      const rb::MarchResult o = other.run(x_a, [](double, const Eigen::VectorXd&, bool) {});
      out.scalar("mu_hat." + m, o.best_value);
      out.statistics(m, o.statistics);
      spread = std::max(spread, std::abs(o.best_value - res.best_value));
      cost[m] = o.stat("rhs_evaluations") + disk.state_size() * o.stat("jacobian_evaluations");
    }

    // --- write ------------------------------------------------------------------------------------
    auto act = out.table("actuation.tsv", "prescribed accelerations u_i(t), eq. (5.5)", [&] {
      std::vector<cm::Column> c{{"t", "1"}};
      for (int i = 1; i <= n; ++i) c.push_back({"u" + std::to_string(i), "rad"});
      c.push_back({"abs_u", "rad"});
      return c;
    }());
    for (double t : rb::grid(options.a, options.b, 1e-3)) {
      if (t > 0.4 && std::fmod(t + 1e-12, 0.1) > 1e-9) continue;  // fine on the pulse, coarse after
      std::vector<double> row{t};
      for (int i = 0; i < n; ++i) row.push_back(disk.parameters().actuation.u(i, t));
      row.push_back(std::abs(disk.parameters().actuation.u(0, t)));
      act.row(row);
    }

    auto best =
        out.table("maximum.tsv", "the maximiser of f_s/N, eq. (1.3) (one row)", {{"t_mu_hat", "1"}, {"mu_hat", "1"}});
    best.row({res.best_t, res.best_value});
    const rb::DiskContact c0 = disk.contact(options.a, x_a);
    const Eigen::Vector2d cB0 = disk.centre_of_mass(x_a);
    const rb::DiskContact cb = disk.contact(res.t_end, res.y_end);
    out.scalar("M", disk.total_mass());
    out.scalar("state_size", disk.state_size());
    out.scalar("mu_hat", res.best_value);
    out.scalar("t_mu_hat", res.best_t);
    out.scalar("mu_hat_grid", res.grid_best_value);
    out.scalar("N_min", tr.N_min);
    out.scalar("t_N_min", tr.t_N_min);
    out.scalar("N_max", tr.N_max);
    out.scalar("t_N_max", tr.t_N_max);
    out.scalar("max_abs_Ffr1", tr.Ffr_max);
    out.scalar("phidot_min", tr.phidot_min);
    out.scalar("phidot_max", tr.phidot_max);
    out.scalar("N_0", c0.N);
    out.scalar("Ffr1_0", c0.Ffr1);
    out.scalar("phiddot_0", c0.phiddot);
    out.scalar("ratio_0", c0.fs / c0.N);
    out.scalar("cB1_0", cB0(0));
    out.scalar("cB3_0", cB0(1));
    out.scalar("t_end", res.t_end);
    out.scalar("phi_end", res.y_end(disk.i_phi()));
    out.scalar("phidot_end", res.y_end(disk.i_phidot()));
    out.scalar("z_end", z_a - r * (res.y_end(disk.i_phi()) - phi_a));
    out.scalar("N_end", cb.N);
    out.scalar("Ffr1_end", cb.Ffr1);
    out.scalar("mu_hat_spread", spread);
    if (cost.count("cvode_adams") && cost.count("cvode_bdf"))
      out.scalar("cost_adams_over_bdf", cost["cvode_adams"] / cost["cvode_bdf"]);
    out.statistics(method, res.statistics);
    out.note(
        "mu_hat = max f_s/N sampled every analysis.dt and refined by golden section on the solution "
        "restarted from the grid state before the maximum.");
    if (!crosscheck.empty())
      out.note(
          "cost = rhs evaluations + state size x Jacobian evaluations (difference-quotient Jacobian), "
          "a deterministic stand-in for the wall time the paper compares.");
    out.commit();
  }

 private:
  cm::Config& config_;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("rb_disk", "rollingball", "disk", "Rolling disk actuated by internal point masses (Sect. 5)");
    DiskStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.run();
    return 0;
  });
}

// Studies `portraits` and `stopping`: phase portraits on the unit sphere of slip directions
// (Figs. 12, 15, 16) and direct simulations of the stopping disc and ball.
//
// Problem. With x_o = r w the test problems (13)/(18) become r' = r R*(w), w' = V*(w) (114) in the
// rescaled time d/dt = r d/dtau; F_o depends on w alone, so the direction dynamics (115) is exact
// for every r and r, t are quadratures along w(tau): (ln r)' = R*(w), t' = r.
//   portraits: w' = V*(w) from a Fibonacci set of seeds on the sphere, for each force of the list
//              (Fig. 12: Cases 1-4 of the disc with N = 2; Fig. 15: F = 0, linear model; Fig. 16:
//              F = 0, N = 2), with the limit directions and their types;
//   stopping:  the full state (w, ln r, t) from given initial slip velocities until r < r_stop, for
//              the disc and the ball: the stop time and the final direction, compared with the
//              attracting, stable limit direction predicted by the analysis of Sect. 7.
// Both integrate with CVODE (cm::make_integrator) in tau; |w| is kept at 1 by the stabilising term
// -k_c (|w|^2 - 1) w.
//
// This source is built twice, as fr_portraits and fr_stopping (FR_STUDY).
//
// Sample runs:
//   fr_portraits --config configs/friction/portraits.ini
//   fr_stopping --config configs/friction/stopping.ini
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>

#include "common/options.hpp"
#include "common/run.hpp"
#include "common/sundials.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

using fr::Pressure;
constexpr double pi = std::numbers::pi;

class SphereStudy {
 public:
  explicit SphereStudy(const cm::Config& config) : config_(config), run_(config) {
    tol_ = {config.real("cvode.rtol"), config.real("cvode.atol")};
    kc_ = config.real("cvode.k_stab");
  }

  // One case: a body (disc: uniform pressure, j = 1/2, Rbar = R; ball: Hertz, j = 2/5, Rbar = lambda R),
  // a friction model and a force.
  struct Case {
    std::string body;
    Pressure p;
    double rho, j, Rbar;
    std::unique_ptr<fr::FrictionModel> model;
    fr::TestProblem prob;
  };
  Case make_case(const std::string& body, const std::string& model, double f) {
    Case c;
    c.body = body;
    const std::string pre = fr::join("problem.", body, "_");
    c.p = fr::pressure_from_name(config_.text(fr::join(pre, "pressure")));
    const double kappa = fr::kappa_closed_form(c.p);
    c.rho = config_.real("problem.rho_over_kappa") * kappa;
    c.j = config_.real(fr::join(pre, "j"));
    c.Rbar = (body == "disc") ? 1.0 : config_.real("problem.ball_lambda");
    const std::string key = fr::join(fr::pressure_name(c.p), "_", fmt(c.rho));
    if (!coefficients_.count(key)) coefficients_[key] = fr::harmonic_coefficients(c.p, c.rho, 4, 1e-13);
    c.model = fr::make_model("model list", model, c.p, c.rho, coefficients_[key]);
    c.prob = (body == "disc") ? fr::disc_problem(c.j, kappa, c.rho, c.Rbar, f)
                              : fr::ball_problem(c.j, kappa, c.rho, c.Rbar, f);
    return c;
  }
  std::vector<std::string> list(const std::string& key, std::size_t n) const {
    const std::vector<std::string> v = fr::split_list(config_.text(key));
    if (v.size() != n) config_.fail(key, fr::join("needs ", std::to_string(n), " comma separated entries"));
    for (const std::string& b : v)
      if (key.find("body") != std::string::npos && b != "disc" && b != "ball") config_.fail(key, "disc or ball");
    return v;
  }

  void portraits() {
    const std::vector<double> forces = config_.reals("portrait.f");
    const std::vector<std::string> models = list("portrait.model", forces.size());
    const std::vector<std::string> bodies = list("portrait.body", forces.size());
    const auto seeds = fr::fibonacci_sphere(static_cast<int>(config_.integer("portrait.seeds")));
    const double tau_end = config_.real("portrait.tau_end"), dtau = config_.real("portrait.dtau");
    auto lds = run_.table("limit_directions.tsv", "limit directions per force (block per force)",
                          {{"case", "index"},
                           {"f", "1"},
                           {"w1", "1"},
                           {"w2", "1"},
                           {"w3", "1"},
                           {"rdot", "mu g"},
                           {"colour", "code"},
                           {"circle", "1 = member of a circle of LDs"}});
    for (std::size_t c = 0; c < forces.size(); ++c) {
      const Case k = make_case(bodies[c], models[c], forces[c]);
      fr::LimitDirectionAnalysis A(*k.model, k.prob);
      for (const fr::LimitDirection& ld : A.limit_directions()) {
        if (ld.circle) {  // f = 0: draw the whole circle of LDs (rotational symmetry)
          for (int k = 0; k <= 120; ++k) {
            const double phi = 2 * pi * k / 120.0;
            lds.row({double(c), forces[c], ld.w(0) * std::cos(phi), ld.w(0) * std::sin(phi), ld.w(2), ld.rdot,
                     double(ld.colour), 1.0});
          }
          lds.gap();
        } else {
          lds.row({double(c), forces[c], ld.w(0), 0.0, ld.w(2), ld.rdot, double(ld.colour), 0.0});
          lds.gap();
        }
      }
      lds.gap();
      auto t = run_.table(fr::join("portrait_", std::to_string(c), ".tsv"),
                          fr::join("trajectories of (115) on the sphere, f = ", fmt(forces[c]), ", one block per seed"),
                          {{"seed", "index"}, {"tau", "1"}, {"w1", "1"}, {"w2", "1"}, {"w3", "1"}});
      long steps = 0;
      for (std::size_t s = 0; s < seeds.size(); ++s) {
        auto ode = cm::make_integrator(
            config_.text("cvode.method"),
            [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
              const Eigen::Vector3d w = y.head<3>();
              const Eigen::Vector3d wn = w.normalized();
              yd.head<3>() = A.Vstar(wn) - kc_ * (w.squaredNorm() - 1.0) * wn;  // (115), stabilised
            },
            Eigen::VectorXd(seeds[s]), 0.0, tol_);
        for (double tau = 0.0; tau <= tau_end + 1e-12; tau += dtau) {
          const cm::Step st = (tau == 0.0) ? cm::Step{0.0, Eigen::VectorXd(seeds[s]), false, {}} : ode->advance(tau);
          t.row({double(s), st.t, st.y(0), st.y(1), st.y(2)});
        }
        t.gap();  // two blank lines: separate data sets (splot would draw a mesh across single ones)
        t.gap();
        steps += ode->statistics().steps;
      }
      run_.statistics(fr::join("portrait_", std::to_string(c)), {{"steps", double(steps)}});
      run_.scalar(fr::join("portrait_seeds_", std::to_string(c)), double(seeds.size()));
    }
    run_.commit();
  }

  void stopping() {
    const std::vector<double> forces = config_.reals("sim.f");
    const std::vector<double> x0 = config_.reals("sim.x0");
    const std::vector<std::string> models = list("sim.model", forces.size());
    const std::vector<std::string> bodies = list("sim.body", forces.size());
    if (x0.size() != 3 * forces.size()) config_.fail("sim.x0", "needs three values (u_x, u_y, rho omega_z) per force");
    const double r_stop = config_.real("sim.r_stop"), tau_end = config_.real("sim.tau_end");
    const double dtau = config_.real("sim.dtau");
    auto summary = run_.table("summary.tsv", "one row per simulation",
                              {{"case", "index"},
                               {"f", "1"},
                               {"t_stop", "V/(mu g)"},
                               {"r_final", "V"},
                               {"w1", "1"},
                               {"w2", "1"},
                               {"w3", "1"},
                               {"dist_to_LD", "1"},
                               {"energy_rise", "m V^2"}});
    for (std::size_t c = 0; c < forces.size(); ++c) {
      const Case k = make_case(bodies[c], models[c], forces[c]);
      fr::LimitDirectionAnalysis A(*k.model, k.prob);
      const Eigen::Vector3d xo(x0[3 * c], x0[3 * c + 1], x0[3 * c + 2]);
      if (!(xo.norm() > 0.0)) config_.fail("sim.x0", "the initial slip must be nonzero");
      Eigen::VectorXd y0(5);
      y0 << xo.normalized(), std::log(xo.norm()), 0.0;  // (w, ln r, t)
      auto ode = cm::make_integrator(
          config_.text("cvode.method"),
          [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
            const Eigen::Vector3d w = y.head<3>();
            const Eigen::Vector3d wn = w.normalized();
            const Eigen::Vector3d F = A.Fo(wn);
            const double R = wn.dot(F);
            yd.head<3>() = F - R * wn - kc_ * (w.squaredNorm() - 1.0) * wn;  // (114)
            yd(3) = R;                                                       // (ln r)' = R*
            yd(4) = std::exp(y(3));                                          // t' = r
          },
          y0, 0.0, tol_);
      ode->set_roots(1, [&](double, cm::ConstVectorRef y, cm::VectorRef g) { g(0) = y(3) - std::log(r_stop); }, {-1});
      ode->set_max_steps(static_cast<long>(config_.integer("sim.max_steps")));
      auto traj =
          run_.table(fr::join("trajectory_", std::to_string(c), ".tsv"),
                     fr::join("f = ", fmt(forces[c]), ", x0 = (", fmt(xo(0)), ", ", fmt(xo(1)), ", ", fmt(xo(2)), ")"),
                     {{"tau", "1"},
                      {"t", "V/(mu g)"},
                      {"ux", "V"},
                      {"uy", "V"},
                      {"rho_omega", "V"},
                      {"r", "V"},
                      {"w1", "1"},
                      {"w2", "1"},
                      {"w3", "1"}});
      // kinetic energy 1/2 x_o^T M x_o / m (11)/(16): M/m = diag(m1, m1, j Rbar^2/rho^2)
      const double m1 = (k.body == "disc") ? 1.0 : k.j / (1.0 + k.j);
      const double m3 = k.j * k.Rbar * k.Rbar / (k.rho * k.rho);
      auto energy = [&](const Eigen::Vector3d& x) {
        return 0.5 * (m1 * (x(0) * x(0) + x(1) * x(1)) + m3 * x(2) * x(2));
      };
      double e_prev = energy(xo), rise = 0.0;
      cm::Step st{0.0, y0, false, {}};
      auto write = [&](const cm::Step& s) {
        const Eigen::Vector3d w = s.y.head<3>().normalized();
        const double r = std::exp(s.y(3));
        traj.row({s.t, s.y(4), r * w(0), r * w(1), r * w(2), r, w(0), w(1), w(2)});
        const double e = energy(r * w);
        rise = std::max(rise, e - e_prev);
        e_prev = e;
      };
      write(st);
      for (double tau = dtau; tau <= tau_end + 1e-12; tau += dtau) {
        st = ode->advance(tau);
        write(st);
        if (st.root) break;
      }
      const Eigen::Vector3d wf = st.y.head<3>().normalized();
      // the predicted final direction: the nearest attracting limit direction (R* < 0; the blue ones
      // attract almost every trajectory, the others only their stable manifolds, e.g. straight rays);
      // after a repelling w1 (Case 1) the slip grows along it. At f = 0 (rotational symmetry) w is
      // first rotated into the plane w2 = 0.
      Eigen::Vector3d wc = wf;
      if (forces[c] == 0.0) wc = Eigen::Vector3d(std::hypot(wf(0), wf(1)), 0.0, wf(2));
      double dist = INFINITY, colour = NAN;
      for (const fr::LimitDirection& ld : A.limit_directions()) {
        if ((st.root && ld.rdot < 0.0) || (!st.root && ld.rdot > 0.0)) {
          if ((ld.w - wc).norm() < dist) {
            dist = (ld.w - wc).norm();
            colour = double(ld.colour);
          }
        }
      }
      const double t_stop = st.root ? st.y(4) : std::numeric_limits<double>::infinity();
      summary.row({double(c), forces[c], st.root ? t_stop : NAN, std::exp(st.y(3)), wf(0), wf(1), wf(2), dist,
                   forces[c] == 0.0 ? rise : NAN});
      const std::string tag = std::to_string(c);
      run_.scalar(fr::join("t_stop_", tag), st.root ? t_stop : NAN, "V/(mu g)");
      run_.scalar(fr::join("stopped_", tag), st.root ? 1.0 : 0.0);
      run_.scalar(fr::join("w1_final_", tag), wf(0));
      run_.scalar(fr::join("w3_final_", tag), wf(2));
      run_.scalar(fr::join("dist_to_predicted_LD_", tag), dist);
      run_.scalar(fr::join("predicted_LD_colour_", tag), colour);
      run_.scalar(fr::join("norm_drift_", tag), std::abs(st.y.head<3>().norm() - 1.0));
      if (forces[c] == 0.0) run_.scalar(fr::join("energy_rise_max_", tag), rise);
      run_.statistics(fr::join("cvode_", tag), ode->statistics().as_map());
    }
    run_.commit();
  }

 private:
  static std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }

  const cm::Config& config_;
  cm::Run run_;
  std::map<std::string, fr::HarmonicCoefficients> coefficients_;
  cm::Tolerances tol_;
  double kc_;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    const std::string study = FR_STUDY;
    cm::Config config("fr_" + study, "friction", study,
                      study == "portraits" ? "Phase portraits on the sphere of slip directions (Figs. 12, 15, 16)"
                                           : "Direct simulation of the stopping disc and ball (Sect. 7)");
    config.add_choice("problem.disc_pressure", "uniform", {"uniform", "hertz"}, "disc: pressure (Sect. 4.1)");
    config.add_real("problem.disc_j", 0.5, "1", "disc: J/(m Rbar^2) (solid disc 1/2)", cm::Range::positive());
    config.add_choice("problem.ball_pressure", "hertz", {"uniform", "hertz"}, "ball: pressure (Sect. 4.2)");
    config.add_real("problem.ball_j", 0.4, "1", "ball: J/(m Rbar^2) (2/5)", cm::Range::positive());
    config.add_real("problem.ball_lambda", 5.0, "1", "ball: lambda = Rbar/R", cm::Range::positive());
    config.add_real("problem.rho_over_kappa", 1.0, "1", "scaling rho/kappa (Sect. 7: 1)", cm::Range::positive());
    config.add_choice("cvode.method", "cvode_adams", cm::ode_methods(), "integrator");
    config.add_real("cvode.rtol", 1e-10, "1", "relative tolerance", cm::Range::positive());
    config.add_real("cvode.atol", 1e-12, "1", "absolute tolerance", cm::Range::positive());
    config.add_real("cvode.k_stab", 1.0, "1", "constraint stabilisation gain k_c", cm::Range::nonnegative());
    if (study == "portraits") {
      config.add_reals("portrait.f", {1.2, 0.7, 0.2, 0.02, 0.0, 0.0}, "mu m g", "forces, one portrait each",
                       cm::Range::nonnegative());
      config.add_text("portrait.model", "N2,N2,N2,N2,fitted,N2", "friction model of each portrait");
      config.add_text("portrait.body", "disc,disc,disc,disc,disc,disc", "body of each portrait (disc, ball)");
      config.add_integer("portrait.seeds", 120, "Fibonacci seeds on the sphere", 1, 100000);
      config.add_real("portrait.tau_end", 20.0, "1", "end of the rescaled time", cm::Range::positive());
      config.add_real("portrait.dtau", 0.1, "1", "output step in tau", cm::Range::positive());
      config.assumption("portrait.seeds", "ASSUMED: the paper draws schematic portraits (spec 000 §6.1)");
    } else {
      config.add_reals("sim.f", {0.0}, "mu m g", "force of each simulation", cm::Range::nonnegative());
      config.add_reals("sim.x0", {1.0, 0.0, 1.0}, "V", "initial (u_x, u_y, rho omega_z), three per simulation");
      config.add_text("sim.model", "exact", "friction model of each simulation");
      config.add_text("sim.body", "disc", "body of each simulation (disc, ball)");
      config.add_real("sim.r_stop", 1e-20, "V", "stop when |x_o| falls below this", cm::Range::positive());
      config.add_real("sim.tau_end", 200.0, "1", "end of the rescaled time", cm::Range::positive());
      config.add_real("sim.dtau", 0.25, "1", "output step in tau", cm::Range::positive());
      config.add_integer("sim.max_steps", 100000, "CVODE step limit per output interval", 10, 100000000);
      config.assumption("sim.x0", "ASSUMED: the paper runs no simulation (spec 000 V-SIM)");
      config.assumption("sim.r_stop", "ASSUMED: the paper runs no simulation (spec 000 V-SIM)");
    }
    config.assumption("cvode.rtol", "ASSUMED: the paper gives no tolerances");
    if (!config.parse(argc, argv)) return 0;
    SphereStudy s(config);
    if (study == "portraits")
      s.portraits();
    else
      s.stopping();
    return 0;
  });
}

// fr_stopping, study `stopping`: direct simulations of the stopping disc and ball (Sect. 7).
//
// Problem. With x_o = r w the disc (13) and the ball (18) become r' = r R*(w), w' = V*(w) (114) in
// the rescaled time d/dt = r d/dtau; F_o depends on w alone, so r and t are quadratures along
// w(tau): (ln r)' = R*(w), t' = r. From given initial slip velocities integrate (w, ln r, t) until
// r < r_stop; report the stop time and the final direction, compared with the attracting, stable
// limit direction predicted by the analysis of Sect. 7. |w| is kept at 1 by the stabilising term
// -k_c (|w|^2 - 1) w.
//
// Sample runs:
//   fr_stopping --config configs/friction/stopping.ini --output try/stopping
//   fr_stopping --config configs/friction/stopping.ini --solver.rtol=1e-12 --output try/stopping
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/grid.hpp"
#include "core/study.hpp"
#include "friction/dynamics.hpp"
#include "friction/models.hpp"
#include "friction/sphere.hpp"
#include "numerics/sundials.hpp"

namespace {

using fr::format_g;
using fr::join;
using fr::LimitDirection;
using fr::LimitDirectionAnalysis;

class StoppingStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_stopping", "friction", "stopping",
                                      "Direct simulation of the stopping disc and ball (Sect. 7)"};

  StoppingStudy() { o_.solver.max_steps = 100000; }

  void declare(cm::Config& c) {
    fr::declare_sphere_keys(c, o_);
    c.add("sim.f", &f_, "force of each simulation").unit("mu m g").range(cm::Range::closed(0.0, 1e6));
    c.add("sim.x0", &x0_, "initial (u_x, u_y, rho omega_z), three per simulation")
        .unit("V")
        .range(cm::Range::closed(-1e100, 1e100))
        .assumption("ASSUMED: the paper runs no simulation (spec 000 V-SIM)");
    c.add("sim.model", &model_, "friction model of each simulation");
    c.add("sim.body", &body_, "body of each simulation (disc, ball)");
    c.add("sim.r_stop", &r_stop_, "stop when |x_o| falls below this")
        .unit("V")
        .range(cm::Range::closed(1e-300, 1e100))
        .assumption("ASSUMED: the paper runs no simulation (spec 000 V-SIM)");
    c.add("sim.tau_end", &tau_end_, "end of the rescaled time").unit("1").range(cm::Range::open_closed(0.0, 1e9));
    c.add("sim.dtau", &dtau_, "output step in tau").unit("1").range(cm::Range::open_closed(0.0, 1e9));
    c.check([&c, this] {
      fr::check_sphere_cases(c, o_, f_, "sim.f", model_, "sim.model", body_, "sim.body");
      if (x0_.size() != 3 * f_.size())
        c.fail("sim.x0", "needs three values (u_x, u_y, rho omega_z) per force of sim.f");
      for (std::size_t i = 0; i < f_.size(); ++i)
        if (!(Eigen::Vector3d(x0_[3 * i], x0_[3 * i + 1], x0_[3 * i + 2]).norm() > 0.0))
          c.fail("sim.x0", "the initial slip of simulation " + std::to_string(i) + " must be nonzero");
    });
  }

  void run(cm::Run& run) {
    // the output grid in tau, counted against the budget before anything is written
    const long max_points =
        std::max(1L, static_cast<long>(static_cast<double>(run.budget().max_rows) / static_cast<double>(f_.size())));
    tau_ = cm::step_grid("sim.dtau", 0.0, tau_end_, dtau_, max_points);
    auto summary = run.table("summary.tsv", "one row per simulation",
                             {{"case", "index"},
                              {"f", "1"},
                              {"t_stop", "V/(mu g)"},
                              {"r_final", "V"},
                              {"w1", "1"},
                              {"w2", "1"},
                              {"w3", "1"},
                              {"dist_to_LD", "1"},
                              {"energy_rise", "m V^2"}},
                             cm::Planned{static_cast<double>(f_.size()), "sim.f"});
    for (std::size_t c = 0; c < f_.size(); ++c) simulate(run, c, summary);
  }

 private:
  // One simulation: (w, ln r, t) from x_o(0) until r < sim.r_stop or the end of tau.
  void simulate(cm::Run& run, std::size_t c, cm::Table& summary) {
    const fr::SphereCase k = cases_.make(body_[c], model_[c], f_[c]);
    const LimitDirectionAnalysis A(*k.model, k.prob);
    const Eigen::Vector3d xo(x0_[3 * c], x0_[3 * c + 1], x0_[3 * c + 2]);
    Eigen::VectorXd y0(5);
    y0 << xo.normalized(), std::log(xo.norm()), 0.0;  // (w, ln r, t)
    auto ode = integrator(A, y0);
    auto traj = run.table(
        join("trajectory_", std::to_string(c), ".tsv"),
        join("f = ", format_g(f_[c]), ", x0 = (", format_g(xo(0)), ", ", format_g(xo(1)), ", ", format_g(xo(2)), ")"),
        {{"tau", "1"},
         {"t", "V/(mu g)"},
         {"ux", "V"},
         {"uy", "V"},
         {"rho_omega", "V"},
         {"r", "V"},
         {"w1", "1"},
         {"w2", "1"},
         {"w3", "1"}},
        cm::Planned{static_cast<double>(tau_.size()), "sim.dtau"});
    // kinetic energy 1/2 x_o^T M x_o / m (11)/(16): M/m = diag(m1, m1, j Rbar^2/rho^2)
    const double m1 = (k.body == "disc") ? 1.0 : k.j / (1.0 + k.j);
    const double m3 = k.j * k.Rbar * k.Rbar / (k.rho * k.rho);
    auto energy = [&](const Eigen::Vector3d& x) { return 0.5 * (m1 * (x(0) * x(0) + x(1) * x(1)) + m3 * x(2) * x(2)); };
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
    for (std::size_t i = 1; i < tau_.size(); ++i) {
      st = ode->advance(tau_[i]);
      write(st);
      if (st.root) break;
    }
    const Eigen::Vector3d wf = st.y.head<3>().normalized();
    const Predicted predicted = predicted_direction(A, wf, f_[c] == 0.0, st.root);
    const double t_stop = st.root ? st.y(4) : std::numeric_limits<double>::infinity();
    summary.row({double(c), f_[c], st.root ? t_stop : NAN, std::exp(st.y(3)), wf(0), wf(1), wf(2), predicted.dist,
                 f_[c] == 0.0 ? rise : NAN});
    const std::string tag = std::to_string(c);
    run.scalar(join("t_stop_", tag), st.root ? t_stop : NAN, "V/(mu g)");
    run.scalar(join("stopped_", tag), st.root ? 1.0 : 0.0);
    run.scalar(join("w1_final_", tag), wf(0));
    run.scalar(join("w3_final_", tag), wf(2));
    run.scalar(join("dist_to_predicted_LD_", tag), predicted.dist);
    run.scalar(join("predicted_LD_colour_", tag), predicted.colour);
    run.scalar(join("norm_drift_", tag), std::abs(st.y.head<3>().norm() - 1.0));
    if (f_[c] == 0.0) run.scalar(join("energy_rise_max_", tag), rise);
    run.statistics(join("cvode_", tag), ode->statistics().as_map());
  }

  // (114) in (w, ln r, t), from y0 at tau = 0, stopping where r falls to sim.r_stop.
  std::unique_ptr<cm::Integrator> integrator(const LimitDirectionAnalysis& A, const Eigen::VectorXd& y0) const {
    auto ode = cm::make_integrator(
        o_.solver.method,
        [&A, this](double, cm::ConstVectorRef y, cm::VectorRef yd) {
          const Eigen::Vector3d w = y.head<3>();
          const Eigen::Vector3d wn = w.normalized();
          const Eigen::Vector3d F = A.Fo(wn);
          const double R = wn.dot(F);
          yd.head<3>() = F - R * wn - o_.k_stab * (w.squaredNorm() - 1.0) * wn;  // (114)
          yd(3) = R;                                                             // (ln r)' = R*
          yd(4) = std::exp(y(3));                                                // t' = r
        },
        y0, 0.0, o_.solver.tolerances());
    const double log_r_stop = std::log(r_stop_);
    ode->set_roots(1, [log_r_stop](double, cm::ConstVectorRef y, cm::VectorRef g) { g(0) = y(3) - log_r_stop; }, {-1});
    ode->set_max_steps(o_.solver.max_steps);
    return ode;
  }

  struct Predicted {
    double dist = INFINITY;  ///< |w_LD - w(end)|
    double colour = NAN;     ///< the colour code of Fig. 11
  };

  // The predicted final direction: the nearest attracting limit direction (R* < 0; the blue ones
  // attract almost every trajectory, the others only their stable manifolds, e.g. straight rays);
  // after a repelling w1 (Case 1) the slip grows along it. At f = 0 (rotational symmetry) w is
  // first rotated into the plane w2 = 0.
  static Predicted predicted_direction(const LimitDirectionAnalysis& A, const Eigen::Vector3d& wf, bool force_free,
                                       bool stopped) {
    Eigen::Vector3d wc = wf;
    if (force_free) wc = Eigen::Vector3d(std::hypot(wf(0), wf(1)), 0.0, wf(2));
    Predicted p;
    for (const LimitDirection& ld : A.limit_directions()) {
      if ((stopped && ld.rdot < 0.0) || (!stopped && ld.rdot > 0.0)) {
        if ((ld.w - wc).norm() < p.dist) {
          p.dist = (ld.w - wc).norm();
          p.colour = double(ld.colour);
        }
      }
    }
    return p;
  }

  fr::SphereOptions o_;
  fr::SphereCases cases_{o_};
  std::vector<double> f_{0.0};
  std::vector<double> x0_{1.0, 0.0, 1.0};
  std::vector<std::string> model_{"exact"};
  std::vector<std::string> body_{"disc"};
  double r_stop_ = 1e-20, tau_end_ = 200.0, dtau_ = 0.25;
  std::vector<double> tau_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<StoppingStudy>(argc, argv); }

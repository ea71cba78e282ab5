// fr_portraits, study `portraits`: phase portraits on the unit sphere of slip directions
// (Figs. 12, 15, 16).
//
// Problem. Near the stop x_o = 0 the slip direction w = x_o/|x_o| of the disc (13) or the ball (18)
// obeys w' = V*(w) (115) in the rescaled time tau. From a Fibonacci set of seeds on the sphere,
// integrate (115) for each force of the list (Fig. 12: Cases 1-4 of the disc with N = 2; Fig. 15:
// F = 0, fitted linear model; Fig. 16: F = 0, N = 2) and list the limit directions with their types.
// |w| is kept at 1 by the stabilising term -k_c (|w|^2 - 1) w.
//
// Sample runs:
//   fr_portraits --config configs/friction/portraits.ini --output try/portraits
//   fr_portraits --config configs/friction/portraits.ini --portrait.seeds=40 --output try/portraits
#include <cmath>
#include <string>
#include <vector>

#include "core/grid.hpp"
#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/dynamics.hpp"
#include "friction/models.hpp"
#include "friction/sphere.hpp"
#include "numerics/sundials.hpp"

namespace {

using cm::pi;
using fr::join;
using fr::LimitDirection;
using fr::LimitDirectionAnalysis;

class PortraitsStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_portraits", "friction", "portraits",
                                      "Phase portraits on the sphere of slip directions (Figs. 12, 15, 16)"};

  PortraitsStudy() { o_.solver.max_steps = 500; }  // CVODE's own default, as before the keys

  void declare(cm::Config& c) {
    fr::declare_sphere_keys(c, o_);
    c.add("portrait.f", &f_, "forces, one portrait each")
        .unit("mu m g")
        .range(cm::Range::closed(0.0, 1e6))
        .assumption("ASSUMED: representative forces (spec 000 F11)");
    c.add("portrait.model", &model_, "friction model of each portrait");
    c.add("portrait.body", &body_, "body of each portrait (disc, ball)");
    c.add("portrait.seeds", &seeds_, "Fibonacci seeds on the sphere")
        .range(cm::Range::closed(1, 100000))
        .assumption("ASSUMED: the paper draws schematic portraits (spec 000 §6.1)");
    c.add("portrait.tau_end", &tau_end_, "end of the rescaled time").unit("1").range(cm::Range::open_closed(0.0, 1e9));
    c.add("portrait.dtau", &dtau_, "output step in tau").unit("1").range(cm::Range::open_closed(0.0, 1e9));
    c.add("portrait.circle_points", &circle_points_, "points drawn on each circle of limit directions at f = 0")
        .range(cm::Range::closed(3, 1e6));
    c.check([&c, this] {
      fr::check_sphere_cases(c, o_, f_, "portrait.f", model_, "portrait.model", body_, "portrait.body");
    });
  }

  void run(cm::Run& run) {
    setup(run);
    auto lds = run.table("limit_directions.tsv", "limit directions per force (block per force)",
                         {{"case", "index"},
                          {"f", "1"},
                          {"w1", "1"},
                          {"w2", "1"},
                          {"w3", "1"},
                          {"rdot", "mu g"},
                          {"colour", "code"},
                          {"circle", "1 = member of a circle of LDs"}});
    for (std::size_t c = 0; c < f_.size(); ++c) {
      const fr::SphereCase k = cases_.make(body_[c], model_[c], f_[c]);
      const LimitDirectionAnalysis A(*k.model, k.prob);
      limit_directions(lds, c, A);
      trajectories(run, c, A);
    }
  }

 private:
  // The output grid in tau and the seeds, counted against the budget before anything is written.
  void setup(const cm::Run& run) {
    const double per_point = static_cast<double>(f_.size()) * static_cast<double>(seeds_);
    const long max_points = std::max(1L, static_cast<long>(static_cast<double>(run.budget().max_rows) / per_point));
    tau_ = cm::step_grid("portrait.dtau", 0.0, tau_end_, dtau_, max_points);
    seed_points_ = fr::fibonacci_sphere(static_cast<int>(seeds_));
  }

  void limit_directions(cm::Table& lds, std::size_t c, const LimitDirectionAnalysis& A) {
    for (const LimitDirection& ld : A.limit_directions()) {
      if (ld.circle) {  // f = 0: draw the whole circle of LDs (rotational symmetry)
        for (long k = 0; k <= circle_points_; ++k) {
          const double phi = 2 * pi * static_cast<double>(k) / static_cast<double>(circle_points_);
          lds.row({double(c), f_[c], ld.w(0) * std::cos(phi), ld.w(0) * std::sin(phi), ld.w(2), ld.rdot,
                   double(ld.colour), 1.0});
        }
      } else {
        lds.row({double(c), f_[c], ld.w(0), 0.0, ld.w(2), ld.rdot, double(ld.colour), 0.0});
      }
      lds.gap();
    }
    lds.gap();
  }

  // w' = V*(w) (115) from every seed, written at the tau grid.
  void trajectories(cm::Run& run, std::size_t c, const LimitDirectionAnalysis& A) {
    auto t = run.table(join("portrait_", std::to_string(c), ".tsv"),
                       join("trajectories of (115) on the sphere, f = ", fr::format_g(f_[c]), ", one block per seed"),
                       {{"seed", "index"}, {"tau", "1"}, {"w1", "1"}, {"w2", "1"}, {"w3", "1"}},
                       cm::Planned{static_cast<double>(seed_points_.size() * tau_.size()), "portrait.dtau"});
    long steps = 0;
    for (std::size_t s = 0; s < seed_points_.size(); ++s) {
      auto ode = cm::make_integrator(
          o_.solver.method,
          [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
            const Eigen::Vector3d w = y.head<3>();
            const Eigen::Vector3d wn = w.normalized();
            yd.head<3>() = A.Vstar(wn) - o_.k_stab * (w.squaredNorm() - 1.0) * wn;  // (115), stabilised
          },
          Eigen::VectorXd(seed_points_[s]), 0.0, o_.solver.tolerances());
      ode->set_max_steps(o_.solver.max_steps);
      for (double tau : tau_) {
        const cm::Step st =
            (tau == 0.0) ? cm::Step{0.0, Eigen::VectorXd(seed_points_[s]), false, {}} : ode->advance(tau);
        t.row({double(s), st.t, st.y(0), st.y(1), st.y(2)});
      }
      t.gap();  // two blank lines: separate data sets (splot would draw a mesh across single ones)
      t.gap();
      steps += ode->statistics().steps;
    }
    run.statistics(join("portrait_", std::to_string(c)), {{"steps", double(steps)}});
    run.scalar(join("portrait_seeds_", std::to_string(c)), double(seed_points_.size()));
  }

  fr::SphereOptions o_;
  fr::SphereCases cases_{o_};
  std::vector<double> f_{1.2, 0.7, 0.2, 0.02, 0.0, 0.0};
  std::vector<std::string> model_{"N2", "N2", "N2", "N2", "fitted", "N2"};
  std::vector<std::string> body_{"disc", "disc", "disc", "disc", "disc", "disc"};
  long seeds_ = 120;
  double tau_end_ = 20.0, dtau_ = 0.1;
  long circle_points_ = 120;
  std::vector<double> tau_;
  std::vector<Eigen::Vector3d> seed_points_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<PortraitsStudy>(argc, argv); }

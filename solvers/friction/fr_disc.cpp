// fr_disc, study `disc`: limit directions of the disc and their bifurcations (Sects. 7.3-7.4;
// Figs. 11, 13, 17; Table 2).
//
// Problem. A thin disc of radius Rbar slides and spins on a plane with a uniform contact pressure
// over a circle of radius R and is pushed by a force F; its relative velocity x_o = (u_x, u_y,
// rho omega_z) obeys (13). Near the stop x_o = 0 the slip direction w = x_o/|x_o| obeys
// w' = V*(w) (115); the fixed points (limit directions) tell in which way the disc stops. For each
// friction model (fitted linear, harmonic N, exact) find the branches of limit directions against
// f = F/(mu m g), the tangency, pitchfork and fold forces (130), (133), (138), the force-free stop
// directions (solvers/friction/limitdirs.cpp, shared with the ball) and Table 2, with the Galin
// pressure of [24] through the ring integral.
//
// Sample runs:
//   fr_disc --config configs/friction/disc.ini --output try/disc
//   fr_disc --config configs/friction/disc.ini --models.list=fitted,N2,exact --output try/disc
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/limitdirs.hpp"
#include "friction/models.hpp"

namespace {

using cm::pi;
using fr::format_g;
using fr::LimitDirectionAnalysis;
using fr::Pressure;
using fr::TestProblem;

class DiscStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_disc", "friction", "disc",
                                      "Limit directions of the disc (13) and their bifurcations (Sect. 7.4)"};

  void declare(cm::Config& c) {
    fr::declare_contact_keys(c, o_, "J/(m Rbar^2): 1/2 solid disc");
    c.add("problem.Rbar_over_R", &Rbar_over_R_, "body radius over contact radius (R = Rbar: the whole face)")
        .unit("1")
        .range(cm::Range::closed(1.0, 1e6));
    fr::declare_analysis_keys(c, o_);
    c.add("table2.galin", &galin_, "add the Galin-pressure row of Table 2");
    c.add("table2.galin_rho_over_R", &galin_rho_over_R_, "rho/R used inside the Galin computation (eps is independent)")
        .unit("1")
        .range(cm::Range::open_closed(0.0, 1e6));
    c.add("table2.galin_scan_points", &galin_scan_points_, "grid of the root scan of the Galin row in psi")
        .range(cm::Range::closed(10, 1e7));
    c.check([&c, this] {
      fr::check_models(c, o_);
      // the coefficients of (126) must be finite and resolvable, else every quantity of Sect. 7 is NaN
      const double kappa = fr::kappa_closed_form(o_.pressure), rho = o_.rho_over_kappa * kappa;
      fr::check_coefficients(c, fr::disc_problem(o_.j, kappa, rho, Rbar_over_R_, 0.0),
                             "problem.j, problem.rho_over_kappa, problem.Rbar_over_R");
    });
  }

  void run(cm::Run& run) {
    survey_.emplace(o_);
    const TestProblem prob = problem();
    run.scalar("b_coefficient", prob.b);  // 1, (126)
    run.scalar("a_coefficient", prob.a);  // 8/9, (126)
    survey_->analyse_models(run, prob);   // Figs. 11, 13
    survey_->g_curves(run, prob);         // Fig. 17
    if (galin_) table2_galin_row(run);
  }

 private:
  // The disc (13) at F = 0: b and a of (126).
  TestProblem problem() const {
    TestProblem p = fr::disc_problem(o_.j, survey_->kappa(), survey_->rho(), Rbar_over_R_, 0.0);
    p.zero_tol = o_.zero_tol;
    return p;
  }

  // Table 2, the row of [24]: the Galin pressure with the disc's inertia, through the ring integral.
  void table2_galin_row(cm::Run& run) const {
    const double kg = fr::kappa_closed_form(Pressure::galin);
    const double rho_g = galin_rho_over_R_;
    const double rho = survey_->rho();
    const fr::ExactModel galin(Pressure::galin, rho_g);
    TestProblem prob = fr::disc_problem(o_.j, kg, rho_g, Rbar_over_R_, 0.0);
    prob.zero_tol = o_.zero_tol;
    const LimitDirectionAnalysis A(galin, prob);
    const auto roots = A.force_free_roots(static_cast<int>(galin_scan_points_));
    const double psi0 = roots.empty() ? std::numeric_limits<double>::quiet_NaN() : roots.front();
    const double eps0 = rho_g / std::tan(psi0);
    run.scalar("F0_eps_galin", eps0);
    // w3 and theta of this eps in the disc's own scaling rho (36)
    const double w3 = 1.0 / std::sqrt(1.0 + eps0 * eps0 / (rho * rho));
    run.scalar("F0_w3_galin", w3);
    run.scalar("F0_theta_deg_galin", std::asin(w3) * 180.0 / pi);
    auto t = run.table("table2.tsv",
                       "Table 2: force-free stop direction; rows = models.list then Galin; w3, theta with rho = " +
                           format_g(rho) + " R",
                       {{"row", "index"}, {"eps", "1"}, {"w3", "1"}, {"theta", "deg"}},
                       cm::Planned{static_cast<double>(o_.models.size() + 1), "models.list"});
    for (std::size_t i = 0; i < o_.models.size(); ++i) {
      const LimitDirectionAnalysis a(survey_->model(i), problem());
      const auto r = a.force_free_roots(static_cast<int>(o_.scan_points));
      const double p0 = r.empty() ? 0.5 * pi : r.front();  // no interior root: the stop is at the pole
      t.row({double(i), rho / std::tan(p0), std::sin(p0), p0 * 180.0 / pi});
    }
    t.row({double(o_.models.size()), eps0, w3, std::asin(w3) * 180.0 / pi});
  }

  fr::LimitDirectionOptions o_;
  double Rbar_over_R_ = 1.0;
  bool galin_ = true;
  double galin_rho_over_R_ = 1.0;
  long galin_scan_points_ = 400;
  std::optional<fr::LimitDirectionSurvey> survey_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<DiscStudy>(argc, argv); }

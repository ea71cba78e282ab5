// fr_ball, study `ball`: limit directions of the ball and their bifurcations (Sect. 7.5;
// Figs. 14, 18).
//
// Problem. A homogeneous ball of radius Rbar = lambda R rolls, slides and spins on a plane with a
// Hertz contact of radius R and is pushed by a force F; its relative velocity x_o obeys (18). Near
// the stop x_o = 0 the slip direction w obeys w' = V*(w) (115). For each friction model find the
// branches of limit directions against f = F/(mu m g), the bifurcation forces and the curves g(psi)
// of Fig. 18 (solvers/friction/limitdirs.cpp, shared with the disc), and how the models' errors
// change with lambda.
//
// Sample runs:
//   fr_ball --config configs/friction/ball.ini --output try/ball
//   fr_ball --config configs/friction/ball.ini --problem.lambda=10 --output try/ball
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/study.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/limitdirs.hpp"
#include "friction/models.hpp"

namespace {

using fr::format_g;
using fr::join;
using fr::LimitDirectionAnalysis;
using fr::Pressure;
using fr::TestProblem;

class BallStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_ball", "friction", "ball",
                                      "Limit directions of the ball (18) and their bifurcations (Sect. 7.5)"};

  BallStudy() {  // Sect. 4.2: the homogeneous ball in Hertz contact; Fig. 18
    o_.pressure = Pressure::hertz;
    o_.j = 0.4;
    o_.f_max = 4.0;
    o_.samples_f = {4.0, 3.49, 1.0, 0.02, 0.0};
  }

  void declare(cm::Config& c) {
    fr::declare_contact_keys(c, o_, "J/(m Rbar^2): 2/5 homogeneous ball");
    c.add("problem.lambda", &lambda_, "lambda = Rbar/R (Fig. 18: 5)").unit("1").range(cm::Range::closed(1.0, 1e6));
    fr::declare_analysis_keys(c, o_);
    c.add("ball.lambda_sweep", &lambda_sweep_, "lambda values of the accuracy sweep")
        .unit("1")
        .range(cm::Range::closed(1.0, 1e6))
        .nonempty()
        .assumption("ASSUMED: the paper only says 'increasing lambda' (spec 000 C-LAMBDA)");
    c.check([&c, this] {
      fr::check_models(c, o_);
      // the coefficients of (139) must be finite and resolvable, else every quantity of Sect. 7 is NaN
      const double kappa = fr::kappa_closed_form(o_.pressure), rho = o_.rho_over_kappa * kappa;
      std::vector<double> lambdas = lambda_sweep_;
      lambdas.push_back(lambda_);
      for (double lambda : lambdas)
        fr::check_coefficients(c, fr::ball_problem(o_.j, kappa, rho, lambda, 0.0),
                               "problem.j, problem.rho_over_kappa, problem.lambda, ball.lambda_sweep");
    });
  }

  void run(cm::Run& run) {
    survey_.emplace(o_);
    const TestProblem prob = problem(lambda_);
    run.scalar("b_coefficient", prob.b);  // 7/2, (139)
    run.scalar("a_coefficient", prob.a);  // 45 pi^2/(512 lambda^2), (139)
    // The relative size of the ball the g-curves of Fig. 18 are drawn for: an input (problem.lambda),
    // restated so that the caption's value is compared with the run's.
    run.scalar("lambda_fig18", lambda_);
    survey_->analyse_models(run, prob);  // Fig. 14
    survey_->g_curves(run, prob);        // Fig. 18
    lambda_sweep(run);
  }

 private:
  // The ball (18) of Rbar = lambda R at F = 0: b and a of (139).
  TestProblem problem(double lambda) const {
    TestProblem p = fr::ball_problem(o_.j, survey_->kappa(), survey_->rho(), lambda, 0.0);
    p.zero_tol = o_.zero_tol;
    return p;
  }

  // Sect. 7.5: "By increasing the value of lambda ... the linear and nonlinear model gets even
  // closer to the exact solution": errors of g and of F_P for every lambda of the sweep.
  void lambda_sweep(cm::Run& run) {
    const std::vector<double>& lams = lambda_sweep_;
    const std::vector<std::string>& models = o_.models;
    for (double lam : lams) {
      const TestProblem prob = problem(lam);
      survey_->curve_errors(run, prob, join("_lambda", format_g(lam)));
      for (std::size_t i = 0; i < models.size(); ++i) {
        const LimitDirectionAnalysis a(survey_->model(i), prob);
        run.scalar(join("F_P_", models[i], "_lambda", format_g(lam)), a.g_at_zero());
        run.scalar(join("fold_count_", models[i], "_lambda", format_g(lam)),
                   double(a.folds(static_cast<int>(o_.scan_points)).size()));
      }
    }
    // the ratio of each error at the largest to that at the smallest lambda (< 1: closer to exact)
    if (lams.size() >= 2) {
      const std::string lo = format_g(*std::min_element(lams.begin(), lams.end()));
      const std::string hi = format_g(*std::max_element(lams.begin(), lams.end()));
      for (const std::string& m : models) {
        if (m == "exact") continue;
        const std::string a = join(m, "_lambda", lo), b = join(m, "_lambda", hi);
        run.scalar(join("gerr_max_", m, "_lambda", hi, "_over_", lo), survey_->g_error(b) / survey_->g_error(a));
        run.scalar(join("abs_F_P_error_", m, "_lambda", hi, "_over_", lo),
                   survey_->F_P_error(b) / survey_->F_P_error(a));
      }
    }
  }

  fr::LimitDirectionOptions o_;
  double lambda_ = 5.0;  ///< Rbar/R (Fig. 18)
  std::vector<double> lambda_sweep_{2.0, 5.0, 10.0};
  std::optional<fr::LimitDirectionSurvey> survey_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<BallStudy>(argc, argv); }

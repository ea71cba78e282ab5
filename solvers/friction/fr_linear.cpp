// Study `linear`: the fitted linear-ellipsoidal model against the exact solution (Sect. 5, Figs. 5-6).
//
// Problem. The fitted model Q = Pi-hat w (64)-(66) is exact at the three elementary motions (65)
// and gives Q(theta) = cos(theta), T(theta) = sin(theta) (71) whatever the pressure; the exact
// curves in theta depend on rho/R (54). The paper compares the two for the uniform (Fig. 5) and
// the parabolic (Fig. 6) pressure, each with rho = kappa (thick dotted) and rho = R (thin dotted),
// and concludes that the model is (i) slightly better for the uniform than for the parabolic
// pressure and (ii) significantly better with rho = kappa than with rho = R. This study writes the
// curves and the error norms (max and RMS over theta) that turn both claims into numbers, and checks
// that Pi-hat of (66) built from the exact law at w_i, w_ii, w_iii is diag(-1, -1, -kappa/rho) (67).
//
// Sample runs:
//   fr_linear --config configs/friction/linear.ini --output try/linear
//   fr_linear --config configs/friction/linear.ini --errors.points=10001 --output try/linear
#include <cmath>
#include <map>

#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

using cm::pi;
using fr::Pressure;

class LinearStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_linear", "friction", "linear",
                                      "Fitted linear-ellipsoidal model vs exact (Sect. 5)"};

  void declare(cm::Config& c) {
    c.add("errors.points", &error_points_, "points of the theta grid of the error norms on [0, pi/2]")
        .range(cm::Range::closed(2, 1e7))
        .assumption(
            "ASSUMED: the paper gives no error norm; max and RMS over an equispaced theta grid (spec 000 D-ERR)");
    c.add("curves.points", &curve_points_, "points of the theta grid of the curves").range(cm::Range::closed(2, 1e7));
  }

  void run(cm::Run& run) {
    fitted_matrix(run);
    curves(run);
    errors(run);
  }

 private:
  // (66): the columns of Pi-hat are the exact resultants of the elementary motions (65).
  void fitted_matrix(cm::Run& run) {
    double worst = 0.0;
    for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
      for (double rho : {1.0, fr::kappa_closed_form(p)}) {
        Eigen::Matrix3d Pi;
        for (int k = 0; k < 3; ++k) Pi.col(k) = fr::exact_resultant(p, rho, Eigen::Vector3d::Unit(k));
        Eigen::Matrix3d expected = Eigen::Vector3d(-1.0, -1.0, -fr::kappa_closed_form(p) / rho).asDiagonal();  // (67)
        worst = std::max(worst, (Pi - expected).cwiseAbs().maxCoeff());
      }
    }
    run.scalar("Pi_hat_minus_diag67_max", worst);
  }

  // Figs. 5-6: the curves of the fitted model and of the exact law.
  void curves(cm::Run& run) {
    const int nc = static_cast<int>(curve_points_);
    const fr::FittedLinearModel fitted;
    auto t = run.table("linear_theta.tsv", "Figs. 5-6: fitted model (71) and exact curves with rho = kappa and rho = R",
                       {{"theta", "rad"},
                        {"Q_fit", "1"},
                        {"T_fit", "1"},
                        {"Q_unif_kappa", "1"},
                        {"T_unif_kappa", "1"},
                        {"Q_unif_R", "1"},
                        {"T_unif_R", "1"},
                        {"Q_hertz_kappa", "1"},
                        {"T_hertz_kappa", "1"},
                        {"Q_hertz_R", "1"},
                        {"T_hertz_R", "1"}},
                       cm::Planned{static_cast<double>(nc), "curves.points"});
    const double ku = fr::kappa_closed_form(Pressure::uniform), kh = fr::kappa_closed_form(Pressure::hertz);
    for (int i = 0; i < nc; ++i) {
      const double th = 0.5 * pi * i / (nc - 1.0);
      const fr::QT f = fitted.theta_form(th);
      const fr::QT a = fr::exact_theta(Pressure::uniform, ku, th), b = fr::exact_theta(Pressure::uniform, 1.0, th);
      const fr::QT c = fr::exact_theta(Pressure::hertz, kh, th), d = fr::exact_theta(Pressure::hertz, 1.0, th);
      t.row({th, f.Q, f.T, a.Q, a.T, b.Q, b.T, c.Q, c.T, d.Q, d.T});
    }
  }

  // The error norms and the two claims of Sect. 5.3.
  void errors(cm::Run& run) {
    const int n = static_cast<int>(error_points_);
    const fr::FittedLinearModel fitted;
    const double ku = fr::kappa_closed_form(Pressure::uniform), kh = fr::kappa_closed_form(Pressure::hertz);
    // error norms on the theta grid of [0, pi/2]
    struct Case {
      Pressure p;
      double rho;
      std::string tag;
    };
    for (const Case& c : {Case{Pressure::uniform, ku, "uniform_kappa"}, Case{Pressure::uniform, 1.0, "uniform_R"},
                          Case{Pressure::hertz, kh, "hertz_kappa"}, Case{Pressure::hertz, 1.0, "hertz_R"}}) {
      const fr::ErrorNorms e = fr::error_norms(fitted, c.p, c.rho, n);
      run.scalar("maxQ_" + c.tag, e.max_Q);
      run.scalar("rmsQ_" + c.tag, e.rms_Q);
      run.scalar("maxT_" + c.tag, e.max_T);
      run.scalar("rmsT_" + c.tag, e.rms_T);
      errors_[c.tag] = e;
    }
    // Claim (i), Sect. 5.3: "slightly better ... for the constant pressure ... compared to the parabolic
    // one": the difference uniform - parabolic of each norm (negative when the claim holds).
    for (const std::string rho : {"kappa", "R"}) {
      const fr::ErrorNorms& u = errors_["uniform_" + rho];
      const fr::ErrorNorms& h = errors_["hertz_" + rho];
      run.scalar("maxQ_uniform_minus_hertz_" + rho, u.max_Q - h.max_Q);
      run.scalar("rmsQ_uniform_minus_hertz_" + rho, u.rms_Q - h.rms_Q);
      run.scalar("maxT_uniform_minus_hertz_" + rho, u.max_T - h.max_T);
      run.scalar("rmsT_uniform_minus_hertz_" + rho, u.rms_T - h.rms_T);
    }
    // Claim (ii): "significantly better ... with rho = kappa compared to rho = R": ratios R / kappa.
    for (const std::string p : {"uniform", "hertz"}) {
      const fr::ErrorNorms& k = errors_[p + "_kappa"];
      const fr::ErrorNorms& r = errors_[p + "_R"];
      run.scalar("maxT_R_over_kappa_" + p, r.max_T / k.max_T);
      run.scalar("rmsT_R_over_kappa_" + p, r.rms_T / k.rms_T);
      run.scalar("maxQ_R_over_kappa_" + p, r.max_Q / k.max_Q);
    }
  }

  long error_points_ = 1001;
  long curve_points_ = 501;
  std::map<std::string, fr::ErrorNorms> errors_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<LinearStudy>(argc, argv); }

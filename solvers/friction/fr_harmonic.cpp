// Study `harmonic`: the nonlinear harmonic models of degree N (Sect. 6, Figs. 7-10).
//
// Problem. The exact Q(theta), T(theta) of (49), extended by the symmetries (80)-(81), are
// expanded in the odd harmonics (82) with the Fourier coefficients (83); the expansion is turned into
// the polynomial w form (84)-(88), whose coefficients C_k, S_k depend on N ((90) for N = 1, (94)
// for N = 2, the Chebyshev conversion for any N). For the uniform and the parabolic pressure and
// for rho = kappa and rho = R this study
//   1. computes c_i, s_i by adaptive quadrature split at theta* = atan(rho/R) (eps = 1);
//   2. converts them to C_k, S_k for N = 1..N_max and checks the polynomial form against the Fourier
//      form pointwise (O10) and against (94) for N = 2;
//   3. writes the curves of Figs. 7-9 and the error norms of every model (max, RMS over theta, and
//      the endpoint errors Q(0) - 1, T(pi/2) - 1 that Fig. 10 is about);
//   4. checks the paper's statements: N = 1 differs from the fitted model, the error falls with N,
//      the nonlinear models make the choice of rho irrelevant, and C(w3) > 0 on [0, 1].
// Fig. 10 needs the Pade model of the paper's reference [50], which the text does not give; only the
// harmonic side of that comparison (its endpoint errors) is computed here.
//
// Sample runs:
//   fr_harmonic --config configs/friction/harmonic.ini --output try/harmonic
//   fr_harmonic --config configs/friction/harmonic.ini --harmonic.N_max=8 --output try/harmonic
#include <cmath>
#include <map>

#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

using cm::pi;
using fr::Pressure;

struct Case {
  Pressure p;
  double rho;
  std::string tag;  // uniform_kappa, uniform_R, hertz_kappa, hertz_R
};

class HarmonicStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_harmonic", "friction", "harmonic",
                                      "Nonlinear harmonic friction models (Sect. 6)"};

  void declare(cm::Config& c) {
    c.add("harmonic.N_max", &n_max_, "highest degree N of the harmonic models").range(cm::Range::closed(2, 12));
    c.add("quad.tol", &tol_, "relative tolerance of the quadrature (83)")
        .unit("1")
        .range(cm::Range::closed(1e-15, 1e-3));
    c.add("errors.points", &error_points_, "points of the theta grid of the error norms on [0, pi/2]")
        .range(cm::Range::closed(2, 1e7))
        .assumption(
            "ASSUMED: the paper gives no error norm; max and RMS over an equispaced theta grid (spec 000 D-ERR)");
    c.add("curves.points", &curve_points_, "points of the theta grid of the curves").range(cm::Range::closed(2, 1e7));
    c.add("check.points", &check_points_,
          "intervals of the w grid on [0, 1] on which the polynomial form is checked against the Fourier form (O10)")
        .range(cm::Range::closed(1, 1e7));
  }

  void run(cm::Run& run) {
    const double ku = fr::kappa_closed_form(Pressure::uniform), kh = fr::kappa_closed_form(Pressure::hertz);
    const std::vector<Case> cases{{Pressure::uniform, ku, "uniform_kappa"},
                                  {Pressure::uniform, 1.0, "uniform_R"},
                                  {Pressure::hertz, kh, "hertz_kappa"},
                                  {Pressure::hertz, 1.0, "hertz_R"}};
    auto coef = run.table(
        "coefficients.tsv", "harmonic coefficients (83), one block per case (" + case_list(cases) + ")",
        {{"i", "1"}, {"c_i", "1"}, {"s_i", "1"}}, cm::Planned{4.0 * static_cast<double>(n_max_), "harmonic.N_max"});
    auto poly = run.table("polynomials.tsv", "C_k, S_k of (85) per degree N, one block per case",
                          {{"N", "1"}, {"k", "1"}, {"C_k", "1"}, {"S_k", "1"}},
                          cm::Planned{2.0 * static_cast<double>(n_max_ * (n_max_ + 1)), "harmonic.N_max"});
    auto errs =
        run.table("errors.tsv", "error norms on theta in [0, pi/2]; model 0 = fitted, N = 1..N_max; one block per case",
                  {{"model", "N (0 = fitted)"},
                   {"maxQ", "1"},
                   {"rmsQ", "1"},
                   {"maxT", "1"},
                   {"rmsT", "1"},
                   {"Q0_err", "1"},
                   {"Tpi2_err", "1"}},
                  cm::Planned{4.0 * static_cast<double>(n_max_ + 1), "harmonic.N_max"});
    for (const Case& c : cases) {
      const fr::HarmonicCoefficients h = fr::harmonic_coefficients(c.p, c.rho, static_cast<int>(n_max_), tol_);  // (83)
      for (int i = 1; i <= n_max_; ++i) {
        coef.row({double(i), h.c[i - 1], h.s[i - 1]});
        run.scalar(fr::join("c", std::to_string(i), "_", c.tag), h.c[i - 1]);
        run.scalar(fr::join("s", std::to_string(i), "_", c.tag), h.s[i - 1]);
      }
      coef.gap();
      coef.gap();
      conversions(run, c, h, poly);
      errors(run, c, h, errs);
      curves(run, c, h);
    }
    claims(run);
  }

 private:
  static std::string case_list(const std::vector<Case>& cases) {
    std::string s;
    for (const Case& c : cases) s += (s.empty() ? "" : ", ") + c.tag;
    return s;
  }

  void conversions(cm::Run& run, const Case& c, const fr::HarmonicCoefficients& h, cm::Table& poly) {
    double fourier_vs_poly = 0.0;
    double cmin = INFINITY, smin = INFINITY;
    for (int N = 1; N <= n_max_; ++N) {
      const fr::PolynomialModel m = fr::harmonic_model(h, N);
      for (int k = 1; k <= N; ++k)
        poly.row({double(N), double(k), m.C_coefficients()[k - 1], m.S_coefficients()[k - 1]});
      run.scalar("C1_N" + std::to_string(N) + "_" + c.tag, m.C_coefficients()[0]);
      run.scalar("S1_N" + std::to_string(N) + "_" + c.tag, m.S_coefficients()[0]);
      // O10: sqrt(1 - w^2) C(w) = sum c_i cos((2i-1) asin w), w S(w) = sum s_i sin((2i-1) asin w)
      for (long i = 0; i <= check_points_; ++i) {
        const double w = static_cast<double>(i) / static_cast<double>(check_points_), th = std::asin(w);
        const fr::QT f = fr::harmonic_theta(h, N, th);
        fourier_vs_poly =
            std::max({fourier_vs_poly, std::abs(std::sqrt(1 - w * w) * m.C(w) - f.Q), std::abs(w * m.S(w) - f.T)});
        if (N <= 4) {  // C-CNZ: C(w3) and S(w3) stay positive on the sphere (N = 1..4)
          cmin = std::min(cmin, m.C(w));
          smin = std::min(smin, m.S(w));
        }
      }
      if (N == 2) {  // (94)
        const double r = std::max(
            {std::abs(m.C_coefficients()[0] - (h.c[0] + h.c[1])), std::abs(m.C_coefficients()[1] - (-4 * h.c[1])),
             std::abs(m.S_coefficients()[0] - (h.s[0] + 3 * h.s[1])), std::abs(m.S_coefficients()[1] - (-4 * h.s[1]))});
        run.scalar("conversion94_residual_" + c.tag, r);
      }
    }
    poly.gap();
    poly.gap();
    run.scalar("fourier_vs_polynomial_max_" + c.tag, fourier_vs_poly);
    run.scalar("C_min_N1to4_" + c.tag, cmin);
    run.scalar("S_min_N1to4_" + c.tag, smin);
  }

  void errors(cm::Run& run, const Case& c, const fr::HarmonicCoefficients& h, cm::Table& errs) {
    const int n = static_cast<int>(error_points_);
    const fr::ErrorNorms fit = fr::error_norms(fr::FittedLinearModel(), c.p, c.rho, n);
    errs.row({0.0, fit.max_Q, fit.rms_Q, fit.max_T, fit.rms_T, fit.Q0_err, fit.Tpi2_err});
    for (int N = 1; N <= n_max_; ++N) {
      const fr::ErrorNorms e = fr::error_norms(fr::harmonic_model(h, N), c.p, c.rho, n);
      errs.row({double(N), e.max_Q, e.rms_Q, e.max_T, e.rms_T, e.Q0_err, e.Tpi2_err});
      const std::string s = "_N" + std::to_string(N) + "_" + c.tag;
      run.scalar("maxQ" + s, e.max_Q);
      run.scalar("rmsQ" + s, e.rms_Q);
      run.scalar("maxT" + s, e.max_T);
      run.scalar("rmsT" + s, e.rms_T);
      run.scalar("Q0_err" + s, e.Q0_err);  // Fig. 10: the harmonic models' endpoint errors
      run.scalar("Tpi2_err" + s, e.Tpi2_err);
      norms_[c.tag].push_back(e);
    }
    run.scalar("maxQ_fitted_" + c.tag, fit.max_Q);
    run.scalar("maxT_fitted_" + c.tag, fit.max_T);
    run.scalar("rmsQ_fitted_" + c.tag, fit.rms_Q);
    run.scalar("rmsT_fitted_" + c.tag, fit.rms_T);
  }

  void curves(cm::Run& run, const Case& c, const fr::HarmonicCoefficients& h) {
    const int n = static_cast<int>(curve_points_);
    std::vector<cm::Column> cols{{"theta", "rad"}, {"Q_exact", "1"}, {"T_exact", "1"}, {"Q_fit", "1"}, {"T_fit", "1"}};
    for (int N = 1; N <= n_max_; ++N) {
      cols.push_back({"Q_N" + std::to_string(N), "1"});
      cols.push_back({"T_N" + std::to_string(N), "1"});
    }
    auto t = run.table("curves_" + c.tag + ".tsv", "Figs. 7-9: exact, fitted and harmonic Q(theta), T(theta)", cols,
                       cm::Planned{static_cast<double>(n), "curves.points"});
    for (int i = 0; i < n; ++i) {
      const double th = 0.5 * pi * i / (n - 1.0);
      const fr::QT ex = fr::exact_theta(c.p, c.rho, th);
      std::vector<double> row{th, ex.Q, ex.T, std::cos(th), std::sin(th)};  // (71)
      for (int N = 1; N <= n_max_; ++N) {
        const fr::QT a = fr::harmonic_theta(h, N, th);  // (82)
        row.push_back(a.Q);
        row.push_back(a.T);
      }
      t.row(row);
    }
  }

  // The paper's qualitative statements of Sect. 6.4 as numbers.
  void claims(cm::Run& run) {
    const int top = static_cast<int>(std::min(4L, n_max_));
    for (const auto& [tag, e] : norms_) {
      // "we can observe the convergence": the largest increase of maxQ from N to N+1 (N < 4)
      double rise = -INFINITY;
      for (int N = 1; N < top; ++N) rise = std::max(rise, e[N].max_Q - e[N - 1].max_Q);
      run.scalar("maxQ_largest_increase_N1to4_" + tag, rise);
      run.scalar("maxQ_N4_over_N1_" + tag, e[top - 1].max_Q / e[0].max_Q);
    }
    // Fig. 8: "the nonlinear model seems to eliminate the accurate choice of rho": maxQ(rho=R)/maxQ(rho=kappa)
    for (const std::string p : {"uniform", "hertz"}) {
      run.scalar(fr::join("maxQ_R_over_kappa_N", std::to_string(top), "_", p),
                 norms_[p + "_R"][top - 1].max_Q / norms_[p + "_kappa"][top - 1].max_Q);
      run.scalar(fr::join("maxT_R_over_kappa_N", std::to_string(top), "_", p),
                 norms_[p + "_R"][top - 1].max_T / norms_[p + "_kappa"][top - 1].max_T);
    }
  }

  long n_max_ = 4;
  double tol_ = 1e-13;
  long error_points_ = 1001;
  long curve_points_ = 501;
  long check_points_ = 400;
  std::map<std::string, std::vector<fr::ErrorNorms>> norms_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<HarmonicStudy>(argc, argv); }

// Studies `disc` and `ball`: limit directions of the test problems and their bifurcations
// (Sects. 7.3-7.5; Figs. 11, 13, 14, 17, 18; Table 2).
//
// Problem. Near the codimension-3 discontinuity x_o = 0 the slip direction w of the disc (13) and of
// the ball (18) loaded by a force F obeys w' = V*(w) (115); its fixed points are the limit
// directions (Def. 1), attracting when R* < 0 (Def. 2), classified on the sphere by the eigenvalues
// of (119). They lie on the invariant circle w2 = 0; the non-trivial ones solve (131)/(141),
// g(psi) = f with w = (cos psi, 0, sin psi). For each friction model (fitted linear, harmonic N,
// exact) this study
//   1. samples the branches of limit directions against f with their type (Figs. 13, 14);
//   2. locates the tangency F_T (root of R*(w1)), the pitchfork F_P (root of lambda_in(w1)) and the
//      folds F_F (roots of g') by root finding, and compares them with (130), (133), (138);
//   3. finds the force-free stop directions (roots of g at f = 0; circles w3 = sqrt(-k1/k2) for N = 2)
//      and writes Table 2 (with the Galin pressure of [24] through the ring integral) for the disc;
//   4. writes the curves g(psi) of Figs. 17/18 and their errors against the exact model; for the ball
//      also for several lambda (the paper's claim about increasing lambda).
//
// This source is built twice, as fr_disc (study `disc`) and fr_ball (study `ball`), FR_STUDY naming
// the study and the default body.
//
// Sample runs:
//   fr_disc --config configs/friction/disc.ini
//   fr_ball --config configs/friction/ball.ini --problem.lambda=10
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>

#include "common/options.hpp"
#include "common/run.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

using fr::Pressure;
constexpr double pi = std::numbers::pi;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

class LimitDirectionStudy {
 public:
  explicit LimitDirectionStudy(const cm::Config& config) : config_(config), run_(config) {
    body_ = config.text("problem.body");
    p_ = fr::pressure_from_name(config.text("problem.pressure"));
    kappa_ = fr::kappa_closed_form(p_);
    rho_ = config.real("problem.rho_over_kappa") * kappa_;
    models_ = fr::split_list(config.text("models.list"));
    if (models_.empty()) config.fail("models.list", "no model given");
    h_ = fr::harmonic_coefficients(p_, rho_, static_cast<int>(config.integer("models.N_max")), config.real("quad.tol"));
  }

  void run() {
    const fr::TestProblem prob = problem(config_.real("problem.lambda"), 0.0);
    run_.scalar("b_coefficient", prob.b);  // 1 (disc), 7/2 (ball, (139))
    run_.scalar("a_coefficient", prob.a);  // 8/9 (disc, (126)), 45 pi^2/(512 lambda^2) (ball, (139))
    for (std::size_t i = 0; i < models_.size(); ++i) {
      owned_.push_back(fr::make_model("models.list", models_[i], p_, rho_, h_));
    }
    auto special = run_.table("special.tsv", "bifurcation points per model (order of models.list), units mu m g",
                              {{"model", "index"},
                               {"F_T", "1"},
                               {"F_P", "1"},
                               {"F_F", "1"},
                               {"psi_fold", "rad"},
                               {"psi_F0", "rad"},
                               {"w3_F0", "1"},
                               {"eps_F0", "1"}});
    for (std::size_t i = 0; i < models_.size(); ++i) analyse(i, prob, special);
    g_curves(prob);
    if (body_ == "ball") lambda_sweep();
    if (body_ == "disc" && config_.flag("table2.galin")) galin_row();
    run_.commit();
  }

 private:
  fr::TestProblem problem(double lambda, double f) const {
    const double j = config_.real("problem.j");
    if (body_ == "disc") return fr::disc_problem(j, kappa_, rho_, config_.real("problem.Rbar_over_R"), f);
    return fr::ball_problem(j, kappa_, rho_, lambda, f);
  }

  const fr::PolynomialModel* polynomial(std::size_t i) const {
    return dynamic_cast<const fr::PolynomialModel*>(owned_[i].get());
  }

  void analyse(std::size_t i, const fr::TestProblem& prob, cm::Table& special) {
    const std::string& m = models_[i];
    fr::LimitDirectionAnalysis A(*owned_[i], prob);
    const double fmax = config_.real("branches.f_max");
    // --- 2. bifurcation points by root finding ---------------------------------------------
    const double FT = A.tangency_force(0.0, 10.0 * prob.b);              // (130)
    const double FP = A.pitchfork_force(-10.0 * prob.b, 10.0 * prob.b);  // (133)
    const auto folds = A.folds(scan_);
    const auto roots = A.force_free_roots(scan_);
    run_.scalar("F_T_" + m, FT);
    run_.scalar("F_P_" + m, FP);
    run_.scalar("fold_count_" + m, double(folds.size()));
    const double FF = folds.empty() ? nan : folds.front().f;
    const double psiF = folds.empty() ? nan : folds.front().psi;
    run_.scalar("F_F_" + m, FF);
    run_.scalar("fold_w3_" + m, std::sin(psiF));
    const double psi0 = roots.empty() ? nan : roots.front();
    const double eps0 = rho_ / std::tan(psi0);  // (35) on the circle w2 = 0, R = 1
    run_.scalar("F0_circle_count_" + m, double(roots.size()));
    run_.scalar("F0_w3_" + m, std::sin(psi0));
    run_.scalar("F0_eps_" + m, eps0);
    run_.scalar("F0_theta_deg_" + m, psi0 * 180.0 / pi);
    special.row({double(i), FT, FP, FF, psiF, psi0, std::sin(psi0), eps0});
    // closed forms of Sect. 7.4 with the model's own C_k, S_k
    if (const fr::PolynomialModel* pm = polynomial(i)) {
      const auto& C = pm->C_coefficients();
      const auto& S = pm->S_coefficients();
      run_.scalar("F_T_formula130_residual_" + m, FT - prob.b * C[0]);
      run_.scalar("F_P_formula133_residual_" + m, FP - (prob.b * C[0] - prob.a * S[0]));
      const double k1 = prob.b * C[0] - prob.a * S[0];  // (137)
      if (C.size() == 2) {
        const double k2 = prob.b * C[1] - prob.a * S[1];
        run_.scalar("k1_" + m, k1);
        run_.scalar("k2_" + m, k2);
        const double w3F = std::sqrt((2 * k2 - k1) / (3 * k2)), FF138 = std::sqrt(4 * std::pow(k1 + k2, 3) / (27 * k2));
        if (!folds.empty()) {  // (138)
          run_.scalar("fold_w3_formula138_residual_" + m, std::sin(psiF) - w3F);
          run_.scalar("F_F_formula138_residual_" + m, FF - FF138);
        }
        if (!roots.empty()) run_.scalar("F0_w3_formula_residual_" + m, std::sin(psi0) - std::sqrt(-k1 / k2));
        run_.scalar("minus_k1_over_k2_" + m, -k1 / k2);
      }
      // degree of (132) in s = w3^2: (b C - a S)^2 (1 - s) - f^2
      std::vector<double> d(C.size(), 0.0);
      for (std::size_t k = 0; k < C.size(); ++k) d[k] = prob.b * C[k] - prob.a * S[k];
      std::vector<double> sq(2 * d.size() - 1, 0.0);
      for (std::size_t a = 0; a < d.size(); ++a)
        for (std::size_t b = 0; b < d.size(); ++b) sq[a + b] += d[a] * d[b];
      std::vector<double> poly(sq.size() + 1, 0.0);
      for (std::size_t k = 0; k < sq.size(); ++k) {
        poly[k] += sq[k];
        poly[k + 1] -= sq[k];
      }
      int degree = 0;
      for (std::size_t k = 0; k < poly.size(); ++k)
        if (std::abs(poly[k]) > 1e-14) degree = static_cast<int>(k);
      run_.scalar("poly132_degree_" + m, degree);
    }
    // --- 1. branches ------------------------------------------------------------------------
    const int np = static_cast<int>(config_.integer("branches.psi_points"));
    auto bif = run_.table("bif_" + m + ".tsv", "non-trivial limit directions g(psi) = f, upper then mirrored half",
                          {{"f", "1"},
                           {"psi", "rad"},
                           {"w1", "1"},
                           {"w3", "1"},
                           {"rdot", "mu g"},
                           {"lambda_in", "mu g"},
                           {"lambda_out", "mu g"},
                           {"colour", "code"}});
    double nontrivial_rdot_max = -INFINITY;
    for (double sign : {1.0, -1.0}) {
      for (int k = 1; k < np; ++k) {
        const double psi = pi * k / np;
        const double f = A.g(psi);
        if (!(f >= 0.0 && f <= fmax)) {
          bif.gap();
          continue;
        }
        fr::LimitDirectionAnalysis B(*owned_[i], prob);
        B.set_f(f);
        const fr::LimitDirection ld = B.classify(sign * psi, false);
        nontrivial_rdot_max = std::max(nontrivial_rdot_max, ld.rdot);
        bif.row({f, sign * psi, ld.w(0), ld.w(2), ld.rdot, ld.lambda_in, ld.lambda_out, double(ld.colour)});
      }
      bif.gap();
      bif.gap();
    }
    run_.scalar("nontrivial_rdot_max_" + m, nontrivial_rdot_max);  // C-NTATT: < 0
    const int nf = static_cast<int>(config_.integer("branches.f_points"));
    auto triv = run_.table("trivial_" + m + ".tsv", "trivial limit directions (128): w1 (psi = 0), then w2 (psi = pi)",
                           {{"f", "1"},
                            {"psi", "rad"},
                            {"rdot", "mu g"},
                            {"lambda_in", "mu g"},
                            {"lambda_out", "mu g"},
                            {"colour", "code"}});
    double w2_rdot_max = -INFINITY;
    for (double psi : {0.0, pi}) {
      for (int k = 0; k < nf; ++k) {
        const double f = fmax * k / (nf - 1.0);
        fr::LimitDirectionAnalysis B(*owned_[i], prob);
        B.set_f(f);
        const fr::LimitDirection ld = B.classify(psi, true);
        if (psi > 0.0) w2_rdot_max = std::max(w2_rdot_max, ld.rdot);
        triv.row({f, psi, ld.rdot, ld.lambda_in, ld.lambda_out, double(ld.colour)});
      }
      triv.gap();
      triv.gap();
    }
    run_.scalar("w2hat_rdot_max_" + m, w2_rdot_max);  // P33: w2 always attracting
    // --- limit directions at the sample forces (Fig. 11) and the eigenvalue cross-check -----------
    auto samples = run_.table("ld_" + m + ".tsv", "limit directions at the sample forces (Fig. 11)",
                              {{"f", "1"},
                               {"psi", "rad"},
                               {"w1", "1"},
                               {"w3", "1"},
                               {"rdot", "mu g"},
                               {"lambda_in", "mu g"},
                               {"lambda_out", "mu g"},
                               {"colour", "code"}});
    double eig_err = 0.0;
    for (double f : config_.reals("samples.f")) {
      fr::LimitDirectionAnalysis B(*owned_[i], prob);
      B.set_f(f);
      std::map<int, int> count;
      for (const fr::LimitDirection& ld : B.limit_directions(scan_)) {
        samples.row({f, ld.psi, ld.w(0), ld.w(2), ld.rdot, ld.lambda_in, ld.lambda_out, double(ld.colour)});
        if (!ld.trivial) ++count[int(ld.colour)];
        // (119) by an Eigen eigen-decomposition of the full Jacobian: {0, lambda_in, lambda_out}
        const Eigen::Vector3cd ev = B.eigen_full(ld.w);
        std::vector<double> got{ev(0).real(), ev(1).real(), ev(2).real()}, want{0.0, ld.lambda_in, ld.lambda_out};
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        for (int k = 0; k < 3; ++k) eig_err = std::max({eig_err, std::abs(got[k] - want[k]), std::abs(ev(k).imag())});
      }
      samples.gap();
      samples.gap();
      const std::string tag = fr::join("_", m, "_f", fmt(f));
      for (int c = 0; c <= 5; ++c)
        run_.scalar(fr::join("nontrivial_", fr::colour_name(fr::Colour(c)), "_count", tag), count[c]);
      // colour of w1 = (1, 0, 0) at this force (Cases 1-3 of Sect. 7.4.3)
      run_.scalar(fr::join("w1hat_colour", tag), double(B.classify(0.0, true).colour));
    }
    run_.scalar("eigen_check_max_" + m, eig_err);
    // F = 0: the colour of the poles (pure spin stop, Fig. 15) and of the force-free circles (Fig. 16)
    fr::LimitDirectionAnalysis Z(*owned_[i], prob);
    Z.set_f(0.0);
    run_.scalar("pole_colour_f0_" + m, double(Z.classify(0.5 * pi, false).colour));
    run_.scalar("equator_colour_f0_" + m, double(Z.classify(0.0, true).colour));
    if (!roots.empty()) run_.scalar("F0_circle_colour_" + m, double(Z.classify(psi0, false).colour));
  }

  static std::string fmt(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", f);
    return buf;
  }

  // Figs. 17/18: g(psi) of every model; errors against the exact model on (0, pi/2) (midpoints).
  void g_curves(const fr::TestProblem& prob) {
    std::vector<cm::Column> cols{{"psi", "rad"}, {"w3", "1"}};
    for (const std::string& m : models_) cols.push_back({"g_" + m, "mu m g"});
    auto t = run_.table("gcurves.tsv", "curves (131)/(141): g(psi) = F/(mu m g) on the invariant circle", cols);
    const int n = static_cast<int>(config_.integer("gcurves.points"));
    std::vector<std::unique_ptr<fr::LimitDirectionAnalysis>> an;
    for (const auto& mp : owned_) an.push_back(std::make_unique<fr::LimitDirectionAnalysis>(*mp, prob));
    for (int k = 1; k < n; ++k) {
      const double psi = pi * k / n;
      std::vector<double> row{psi, std::sin(psi)};
      for (const auto& a : an) row.push_back(a->g(psi));
      t.row(row);
    }
    curve_errors(prob, "");
    // Figs. 17/18, "we can see the convergence to the exact solution": error of N = 4 relative to N = 1
    if (gerr_.count("N4") && gerr_.count("N1")) run_.scalar("gerr_max_N4_over_N1", gerr_["N4"] / gerr_["N1"]);
    if (gerr_.count("N4") && gerr_.count("fitted"))
      run_.scalar("gerr_max_N4_over_fitted", gerr_["N4"] / gerr_["fitted"]);
  }

  // max / RMS of g_model - g_exact over 400 midpoints of (0, pi/2), for every model but the exact one.
  void curve_errors(const fr::TestProblem& prob, const std::string& suffix) {
    const auto it = std::find(models_.begin(), models_.end(), "exact");
    if (it == models_.end()) return;
    const fr::LimitDirectionAnalysis ex(*owned_[it - models_.begin()], prob);
    const int n = static_cast<int>(config_.integer("gcurves.error_points"));
    for (std::size_t i = 0; i < models_.size(); ++i) {
      if (models_[i] == "exact") continue;
      const fr::LimitDirectionAnalysis a(*owned_[i], prob);
      double mx = 0.0, rms = 0.0;
      for (int k = 0; k < n; ++k) {
        const double psi = 0.5 * pi * (k + 0.5) / n;
        const double d = std::abs(a.g(psi) - ex.g(psi));
        mx = std::max(mx, d);
        rms += d * d;
      }
      run_.scalar(fr::join("gerr_max_", models_[i], suffix), mx);
      gerr_[fr::join(models_[i], suffix)] = mx;
      fperr_[fr::join(models_[i], suffix)] = std::abs(a.g_at_zero() - ex.g_at_zero());
      run_.scalar(fr::join("gerr_rms_", models_[i], suffix), std::sqrt(rms / n));
      run_.scalar(fr::join("F_P_error_", models_[i], suffix), a.g_at_zero() - ex.g_at_zero());
    }
  }

  // Sect. 7.5: "By increasing the value of lambda ... the linear and nonlinear model gets even
  // closer to the exact solution": errors of g and of F_P for every lambda of the sweep.
  void lambda_sweep() {
    const std::vector<double> lams = config_.reals("ball.lambda_sweep");
    for (double lam : lams) {
      const fr::TestProblem prob = problem(lam, 0.0);
      curve_errors(prob, fr::join("_lambda", fmt(lam)));
      for (std::size_t i = 0; i < models_.size(); ++i) {
        const fr::LimitDirectionAnalysis a(*owned_[i], prob);
        run_.scalar(fr::join("F_P_", models_[i], "_lambda", fmt(lam)), a.g_at_zero());
        run_.scalar(fr::join("fold_count_", models_[i], "_lambda", fmt(lam)), double(a.folds(scan_).size()));
      }
    }
    // the change of each error from the smallest to the largest lambda (negative: closer to exact)
    if (lams.size() >= 2) {
      const std::string lo = fmt(*std::min_element(lams.begin(), lams.end()));
      const std::string hi = fmt(*std::max_element(lams.begin(), lams.end()));
      // the ratio of each error at the largest to that at the smallest lambda (< 1: closer to exact)
      for (const std::string& m : models_) {
        if (m == "exact") continue;
        const std::string a = fr::join(m, "_lambda", lo), b = fr::join(m, "_lambda", hi);
        run_.scalar(fr::join("gerr_max_", m, "_lambda", hi, "_over_", lo), gerr_[b] / gerr_[a]);
        run_.scalar(fr::join("abs_F_P_error_", m, "_lambda", hi, "_over_", lo), fperr_[b] / fperr_[a]);
      }
    }
  }

  // Table 2, the row of [24]: the Galin pressure with the disc's inertia, through the ring integral.
  void galin_row() {
    const double kg = fr::kappa_closed_form(Pressure::galin);
    const double rho_g = config_.real("table2.galin_rho_over_R");
    fr::ExactModel galin(Pressure::galin, rho_g);
    const fr::TestProblem prob =
        fr::disc_problem(config_.real("problem.j"), kg, rho_g, config_.real("problem.Rbar_over_R"), 0.0);
    const fr::LimitDirectionAnalysis A(galin, prob);
    const auto roots = A.force_free_roots(400);
    const double psi0 = roots.empty() ? nan : roots.front();
    const double eps0 = rho_g / std::tan(psi0);
    run_.scalar("F0_eps_galin", eps0);
    // w3 and theta of this eps in the disc's own scaling rho (36)
    const double w3 = 1.0 / std::sqrt(1.0 + eps0 * eps0 / (rho_ * rho_));
    run_.scalar("F0_w3_galin", w3);
    run_.scalar("F0_theta_deg_galin", std::asin(w3) * 180.0 / pi);
    auto t = run_.table(
        "table2.tsv",
        "Table 2: force-free stop direction; rows = models.list then Galin; w3, theta with rho = " + fmt(rho_) + " R",
        {{"row", "index"}, {"eps", "1"}, {"w3", "1"}, {"theta", "deg"}});
    for (std::size_t i = 0; i < models_.size(); ++i) {
      const fr::LimitDirectionAnalysis a(*owned_[i], problem(1.0, 0.0));
      const auto r = a.force_free_roots(scan_);
      const double p0 = r.empty() ? 0.5 * pi : r.front();  // no interior root: the stop is at the pole
      t.row({double(i), rho_ / std::tan(p0), std::sin(p0), p0 * 180.0 / pi});
    }
    t.row({double(models_.size()), eps0, w3, std::asin(w3) * 180.0 / pi});
  }

  const cm::Config& config_;
  cm::Run run_;
  std::string body_;
  Pressure p_;
  double kappa_, rho_;
  std::vector<std::string> models_;
  fr::HarmonicCoefficients h_;
  std::vector<std::unique_ptr<fr::FrictionModel>> owned_;
  std::map<std::string, double> gerr_, fperr_;
  int scan_ = static_cast<int>(config_.integer("roots.scan_points"));
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    const std::string study = FR_STUDY;
    cm::Config config("fr_" + study, "friction", study, "Limit directions and their bifurcations (Sect. 7)");
    config.add_choice("problem.body", study, {"disc", "ball"}, "test problem: disc (13) or ball (18)");
    config.add_choice("problem.pressure", "uniform", {"uniform", "hertz", "galin"},
                      "pressure distribution (disc: uniform, ball: hertz)");
    config.add_real("problem.j", 0.5, "1", "J/(m Rbar^2): 1/2 solid disc, 2/5 ball", cm::Range::positive());
    config.add_real("problem.rho_over_kappa", 1.0, "1", "scaling rho/kappa (Sect. 7: rho = kappa)",
                    cm::Range::positive());
    config.add_real("problem.Rbar_over_R", 1.0, "1", "disc: body radius over contact radius (R = Rbar)",
                    cm::Range::positive());
    config.add_real("problem.lambda", 5.0, "1", "ball: lambda = Rbar/R (Fig. 18: 5)", cm::Range::positive());
    config.add_text("models.list", "fitted,N1,N2,N3,N4,exact", "friction models (fitted, exact, N<degree>)");
    config.add_integer("models.N_max", 4, "harmonic coefficients computed (>= the highest N in models.list)", 1, 12);
    config.add_real("quad.tol", 1e-13, "1", "relative tolerance of the harmonic coefficients", cm::Range::positive());
    config.add_real("branches.f_max", 1.2, "mu m g", "upper end of the force axis of the bifurcation diagrams",
                    cm::Range::positive());
    config.add_integer("branches.psi_points", 4000, "samples of psi in (0, pi) along the non-trivial branch", 10,
                       10000000);
    config.add_integer("branches.f_points", 241, "samples of f along the trivial branches", 2, 10000000);
    config.add_reals("samples.f", {1.2, 0.7, 0.2, 0.02, 0.0}, "mu m g", "forces of the LD lists (Fig. 11)",
                     cm::Range::nonnegative());
    config.add_integer("roots.scan_points", 4000, "grid of the root scans in psi", 10, 10000000);
    config.add_integer("gcurves.points", 1000, "samples of the g curves on (0, pi)", 10, 10000000);
    config.add_integer("gcurves.error_points", 400, "midpoints of (0, pi/2) for the g-curve errors", 10, 10000000);
    config.add_reals("ball.lambda_sweep", {2.0, 5.0, 10.0}, "1", "ball: lambda values of the accuracy sweep",
                     cm::Range::positive());
    config.add_flag("table2.galin", true, "disc: add the Galin-pressure row of Table 2");
    config.add_real("table2.galin_rho_over_R", 1.0, "1", "rho/R used inside the Galin computation (eps is independent)",
                    cm::Range::positive());
    config.assumption("branches.f_max", "ASSUMED: the force axes of Figs. 13, 14 are not given (spec 000 §3)");
    config.assumption("samples.f", "ASSUMED: representative forces of Cases 1-4 (spec 000 F11)");
    config.assumption("models.list",
                      "ASSUMED: Figs. 17/18 do not state their degrees; N = 1..4, the fitted and the exact model "
                      "(spec 000 F17; E22: 'first-degree' in Fig. 13 drawn both as N = 1 and fitted)");
    config.assumption("ball.lambda_sweep", "ASSUMED: the paper only says 'increasing lambda' (spec 000 C-LAMBDA)");
    if (!config.parse(argc, argv)) return 0;
    LimitDirectionStudy(config).run();
    return 0;
  });
}

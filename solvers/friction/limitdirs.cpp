// Limit directions of the test problems and their bifurcations (Sects. 7.3-7.5; Figs. 11, 13, 14,
// 17, 18; Table 2), for the disc (study `disc`, fr_disc) and the ball (study `ball`, fr_ball).
//
// Near the codimension-3 discontinuity x_o = 0 the slip direction w of the disc (13) and of the
// ball (18) loaded by a force F obeys w' = V*(w) (115); its fixed points are the limit directions
// (Def. 1), attracting when R* < 0 (Def. 2), classified on the sphere by the eigenvalues of (119).
// They lie on the invariant circle w2 = 0; the non-trivial ones solve (131)/(141), g(psi) = f with
// w = (cos psi, 0, sin psi). For each friction model (fitted linear, harmonic N, exact):
//   1. the branches of limit directions against f with their type (Figs. 13, 14);
//   2. the tangency F_T (root of R*(w1)), the pitchfork F_P (root of lambda_in(w1)) and the folds
//      F_F (roots of g'), compared with (130), (133), (138);
//   3. the force-free stop directions (roots of g at f = 0) and, for the disc, Table 2 (with the
//      Galin pressure of [24] through the ring integral);
//   4. the curves g(psi) of Figs. 17/18 and their errors against the exact model; for the ball also
//      for several lambda (the paper's claim about increasing lambda).
#include "friction/limitdirs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/math.hpp"
#include "common/text.hpp"

namespace fr {

namespace {

// The columns of a table of limit directions: the branches (bif_*.tsv) and the sample forces
// (ld_*.tsv) alike.
std::vector<cm::Column> limit_direction_columns() {
  return {{"f", "1"},
          {"psi", "rad"},
          {"w1", "1"},
          {"w3", "1"},
          {"rdot", "mu g"},
          {"lambda_in", "mu g"},
          {"lambda_out", "mu g"},
          {"colour", "code"}};
}

using cm::pi;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string fmt(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

}  // namespace

LimitDirectionStudy::LimitDirectionStudy(Body body) : body_(body) {
  if (body_ == Body::ball) {  // Sect. 4.2: the homogeneous ball in Hertz contact; Fig. 18
    o_.pressure = Pressure::hertz;
    o_.j = 0.4;
    o_.f_max = 4.0;
    o_.samples_f = {4.0, 3.49, 1.0, 0.02, 0.0};
    o_.galin = false;
  }
}

void LimitDirectionStudy::declare(cm::Config& c) {
  const bool disc = body_ == Body::disc;
  c.add_choice("problem.pressure", &o_.pressure,
               {{"uniform", Pressure::uniform}, {"hertz", Pressure::hertz}, {"galin", Pressure::galin}},
               "pressure distribution (disc: uniform, Sect. 4.1; ball: hertz, Sect. 4.2)");
  // j = J/(m Rbar^2) <= 1 for any body whose mass lies within the radius Rbar; j -> 0 makes the
  // spin coefficient a of (126)/(139) unbounded.
  c.add("problem.j", &o_.j, disc ? "J/(m Rbar^2): 1/2 solid disc" : "J/(m Rbar^2): 2/5 homogeneous ball")
      .unit("1")
      .range(cm::Range::open_closed(0.0, 1.0));
  declare_rho_over_kappa_key(c, o_.rho_over_kappa);
  if (disc)
    c.add("problem.Rbar_over_R", &o_.Rbar_over_R, "body radius over contact radius (R = Rbar: the whole face)")
        .unit("1")
        .range(cm::Range::closed(1.0, 1e6));
  else
    c.add("problem.lambda", &o_.lambda, "lambda = Rbar/R (Fig. 18: 5)").unit("1").range(cm::Range::closed(1.0, 1e6));
  c.add("models.list", &o_.models, "friction models (fitted, exact, series, series_printed, N<degree>)")
      .assumption(
          "ASSUMED: Figs. 17/18 do not state their degrees; N = 1..4, the fitted and the exact model "
          "(spec 000 F17; E22: 'first-degree' in Fig. 13 drawn both as N = 1 and fitted)");
  declare_harmonic_keys(c, o_.harmonic);
  c.add("branches.f_max", &o_.f_max, "upper end of the force axis of the bifurcation diagrams")
      .unit("mu m g")
      .range(cm::Range::open_closed(0.0, 1e6))
      .assumption("ASSUMED: the force axes of Figs. 13, 14 are not given (spec 000 §3)");
  c.add("branches.psi_points", &o_.psi_points, "samples of psi in (0, pi) along the non-trivial branch")
      .range(cm::Range::closed(10, 1e7));
  c.add("branches.f_points", &o_.f_points, "samples of f along the trivial branches").range(cm::Range::closed(2, 1e7));
  c.add("samples.f", &o_.samples_f, "forces of the LD lists (Fig. 11)")
      .unit("mu m g")
      .range(cm::Range::closed(0.0, 1e6))
      .nonempty()
      .assumption("ASSUMED: representative forces of Cases 1-4 (spec 000 F11)");
  c.add("roots.scan_points", &o_.scan_points, "grid of the root scans in psi").range(cm::Range::closed(10, 1e7));
  c.add("roots.bracket_factor", &o_.bracket_factor,
        "F_T and F_P are sought in [0, c b] and [-c b, c b] (b of (126)/(139)); c must exceed the largest "
        "|C_0| of the models (1 for every model of the paper)")
      .unit("1")
      .range(cm::Range::closed(1.0, 1e6));
  c.add("poly132.zero_tol", &o_.degree_zero,
        "coefficients of (132) in s = w3^2 below this count as zero when its degree is reported (they are "
        "O(1); rounding leaves ~1e-16)")
      .unit("1")
      .range(cm::Range::open_closed(0.0, 1e-3));
  declare_classification_key(c, o_.zero_tol);
  c.add("gcurves.points", &o_.gcurves_points, "samples of the g curves on (0, pi)").range(cm::Range::closed(10, 1e7));
  c.add("gcurves.error_points", &o_.error_points, "midpoints of (0, pi/2) for the g-curve errors")
      .range(cm::Range::closed(10, 1e7));
  if (!disc)
    c.add("ball.lambda_sweep", &o_.lambda_sweep, "lambda values of the accuracy sweep")
        .unit("1")
        .range(cm::Range::closed(1.0, 1e6))
        .nonempty()
        .assumption("ASSUMED: the paper only says 'increasing lambda' (spec 000 C-LAMBDA)");
  if (disc) {
    c.add("table2.galin", &o_.galin, "add the Galin-pressure row of Table 2");
    c.add("table2.galin_rho_over_R", &o_.galin_rho_over_R,
          "rho/R used inside the Galin computation (eps is independent)")
        .unit("1")
        .range(cm::Range::open_closed(0.0, 1e6));
    c.add("table2.galin_scan_points", &o_.galin_scan_points, "grid of the root scan of the Galin row in psi")
        .range(cm::Range::closed(10, 1e7));
  }
  c.check([&c, this] {
    if (o_.models.empty()) c.fail("models.list", "no model given");
    for (const std::string& m : o_.models) {
      if (m.size() >= 2 && m[0] == 'N' && m.find_first_not_of("0123456789", 1) == std::string::npos) {
        if (m.size() > 3 || std::stol(m.substr(1)) < 1 || std::stol(m.substr(1)) > o_.harmonic.N_max)
          c.fail("models.list", "harmonic degree " + m.substr(1) + " not available (1.." +
                                    std::to_string(o_.harmonic.N_max) + ", models.N_max)");
      } else if (m != "fitted" && m != "exact" && m != "series" && m != "series_printed") {
        c.fail("models.list", "unknown model '" + m + "' (fitted, exact, series, series_printed, N1, N2, ...)");
      } else if (m.rfind("series", 0) == 0 && o_.pressure != Pressure::uniform) {
        c.fail("models.list", "the series model (78)-(79) is for the uniform pressure (problem.pressure)");
      }
    }
    // the coefficients of (126)/(139) must be finite and resolvable, else every quantity of Sect. 7 is NaN
    const double kappa = kappa_closed_form(o_.pressure), rho = o_.rho_over_kappa * kappa;
    const std::vector<double> lambdas = body_ == Body::disc ? std::vector<double>{1.0} : [&] {
      std::vector<double> l = o_.lambda_sweep;
      l.push_back(o_.lambda);
      return l;
    }();
    for (double lambda : lambdas) {
      const TestProblem p = body_ == Body::disc ? disc_problem(o_.j, kappa, rho, o_.Rbar_over_R, 0.0)
                                                : ball_problem(o_.j, kappa, rho, lambda, 0.0);
      // b and a (units mu g) beyond 1e12 or a below 1e-12 leave the root scans of Sect. 7 nothing
      // to resolve against the forces (at most 1e6) and rounding: every result would be NaN or noise.
      if (!(p.b <= 1e12 && p.a >= 1e-12 && p.a <= 1e12))
        c.fail(body_ == Body::disc ? "problem.j, problem.rho_over_kappa, problem.Rbar_over_R"
                                   : "problem.j, problem.rho_over_kappa, problem.lambda, ball.lambda_sweep",
               "the coefficients of (126)/(139), b = " + cm::format_real(p.b) +
                   " and a = kappa rho/(j Rbar^2) = " + cm::format_real(p.a) + ", must lie in [1e-12, 1e12]");
    }
  });
}

TestProblem LimitDirectionStudy::problem(double lambda, double f) const {
  TestProblem p = body_ == Body::disc ? disc_problem(o_.j, kappa_, rho_, o_.Rbar_over_R, f)
                                      : ball_problem(o_.j, kappa_, rho_, lambda, f);
  p.zero_tol = o_.zero_tol;
  return p;
}

const PolynomialModel* LimitDirectionStudy::polynomial(std::size_t i) const {
  return dynamic_cast<const PolynomialModel*>(owned_[i].get());
}

void LimitDirectionStudy::setup() {
  kappa_ = kappa_closed_form(o_.pressure);
  rho_ = o_.rho_over_kappa * kappa_;
  h_ = harmonic_coefficients(o_.pressure, rho_, static_cast<int>(o_.harmonic.N_max), o_.harmonic.quad_tol);
  for (const std::string& m : o_.models) owned_.push_back(make_model("models.list", m, o_.pressure, rho_, h_));
}

void LimitDirectionStudy::run(cm::Run& run) {
  setup();
  const TestProblem prob = problem(o_.lambda, 0.0);
  run.scalar("b_coefficient", prob.b);  // 1 (disc), 7/2 (ball, (139))
  run.scalar("a_coefficient", prob.a);  // 8/9 (disc, (126)), 45 pi^2/(512 lambda^2) (ball, (139))
  // The relative size of the ball the g-curves of Fig. 18 are drawn for: an input (problem.lambda),
  // restated so that the caption's value is compared with the run's.
  if (body_ == Body::ball) run.scalar("lambda_fig18", o_.lambda);
  auto special = run.table("special.tsv", "bifurcation points per model (order of models.list), units mu m g",
                           {{"model", "index"},
                            {"F_T", "1"},
                            {"F_P", "1"},
                            {"F_F", "1"},
                            {"psi_fold", "rad"},
                            {"psi_F0", "rad"},
                            {"w3_F0", "1"},
                            {"eps_F0", "1"}},
                           cm::Planned{static_cast<double>(o_.models.size()), "models.list"});
  for (std::size_t i = 0; i < o_.models.size(); ++i) analyse(run, i, prob, special);
  g_curves(run, prob);
  if (body_ == Body::ball) lambda_sweep(run);
  if (body_ == Body::disc && o_.galin) galin_row(run);
}

void LimitDirectionStudy::analyse(cm::Run& run, std::size_t i, const TestProblem& prob, cm::Table& special) {
  bifurcation_points(run, i, prob, special);
  branches(run, i, prob);
  sample_forces(run, i, prob);
}

// 2. the bifurcation points by root finding, and the closed forms of Sect. 7.4.
void LimitDirectionStudy::bifurcation_points(cm::Run& run, std::size_t i, const TestProblem& prob, cm::Table& special) {
  const std::string& m = o_.models[i];
  const LimitDirectionAnalysis A(*owned_[i], prob);
  const int scan = static_cast<int>(o_.scan_points);
  const double FT = A.tangency_force(0.0, o_.bracket_factor * prob.b);                           // (130)
  const double FP = A.pitchfork_force(-o_.bracket_factor * prob.b, o_.bracket_factor * prob.b);  // (133)
  const auto folds = A.folds(scan);
  const auto roots = A.force_free_roots(scan);
  run.scalar("F_T_" + m, FT);
  run.scalar("F_P_" + m, FP);
  run.scalar("fold_count_" + m, double(folds.size()));
  const double FF = folds.empty() ? nan : folds.front().f;
  const double psiF = folds.empty() ? nan : folds.front().psi;
  run.scalar("F_F_" + m, FF);
  run.scalar("fold_w3_" + m, std::sin(psiF));
  const double psi0 = roots.empty() ? nan : roots.front();
  const double eps0 = rho_ / std::tan(psi0);  // (35) on the circle w2 = 0, R = 1
  run.scalar("F0_circle_count_" + m, double(roots.size()));
  run.scalar("F0_w3_" + m, std::sin(psi0));
  run.scalar("F0_eps_" + m, eps0);
  run.scalar("F0_theta_deg_" + m, psi0 * 180.0 / pi);
  special.row({double(i), FT, FP, FF, psiF, psi0, std::sin(psi0), eps0});
  closed_forms(run, i, prob, FT, FP, folds, roots);
  // F = 0: the colour of the poles (pure spin stop, Fig. 15) and of the force-free circles (Fig. 16)
  LimitDirectionAnalysis Z(*owned_[i], prob);
  Z.set_f(0.0);
  run.scalar("pole_colour_f0_" + m, double(Z.classify(0.5 * pi, false).colour));
  run.scalar("equator_colour_f0_" + m, double(Z.classify(0.0, true).colour));
  if (!roots.empty()) run.scalar("F0_circle_colour_" + m, double(Z.classify(psi0, false).colour));
}

// The closed forms of Sect. 7.4 with the model's own C_k, S_k.
void LimitDirectionStudy::closed_forms(cm::Run& run, std::size_t i, const TestProblem& prob, double FT, double FP,
                                       const std::vector<LimitDirectionAnalysis::Fold>& folds,
                                       const std::vector<double>& roots) {
  const PolynomialModel* pm = polynomial(i);
  if (!pm) return;
  const std::string& m = o_.models[i];
  const auto& C = pm->C_coefficients();
  const auto& S = pm->S_coefficients();
  run.scalar("F_T_formula130_residual_" + m, FT - prob.b * C[0]);
  run.scalar("F_P_formula133_residual_" + m, FP - (prob.b * C[0] - prob.a * S[0]));
  const double k1 = prob.b * C[0] - prob.a * S[0];  // (137)
  if (C.size() == 2) {
    const double k2 = prob.b * C[1] - prob.a * S[1];
    run.scalar("k1_" + m, k1);
    run.scalar("k2_" + m, k2);
    const double w3F = std::sqrt((2 * k2 - k1) / (3 * k2)), FF138 = std::sqrt(4 * std::pow(k1 + k2, 3) / (27 * k2));
    if (!folds.empty()) {  // (138)
      run.scalar("fold_w3_formula138_residual_" + m, std::sin(folds.front().psi) - w3F);
      run.scalar("F_F_formula138_residual_" + m, folds.front().f - FF138);
    }
    if (!roots.empty()) run.scalar("F0_w3_formula_residual_" + m, std::sin(roots.front()) - std::sqrt(-k1 / k2));
    run.scalar("minus_k1_over_k2_" + m, -k1 / k2);
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
    if (std::abs(poly[k]) > o_.degree_zero) degree = static_cast<int>(k);
  run.scalar("poly132_degree_" + m, degree);
}

// 1. the branches: non-trivial (g(psi) = f) and trivial (128).
void LimitDirectionStudy::branches(cm::Run& run, std::size_t i, const TestProblem& prob) {
  const std::string& m = o_.models[i];
  const LimitDirectionAnalysis A(*owned_[i], prob);
  const long np = o_.psi_points;
  auto bif =
      run.table("bif_" + m + ".tsv", "non-trivial limit directions g(psi) = f, upper then mirrored half",
                limit_direction_columns(), cm::Planned{2.0 * static_cast<double>(np - 1), "branches.psi_points"});
  double nontrivial_rdot_max = -INFINITY;
  for (double sign : {1.0, -1.0}) {
    for (long k = 1; k < np; ++k) {
      const double psi = pi * static_cast<double>(k) / static_cast<double>(np);
      const double f = A.g(psi);
      if (!(f >= 0.0 && f <= o_.f_max)) {
        bif.gap();
        continue;
      }
      LimitDirectionAnalysis B(*owned_[i], prob);
      B.set_f(f);
      const LimitDirection ld = B.classify(sign * psi, false);
      nontrivial_rdot_max = std::max(nontrivial_rdot_max, ld.rdot);
      bif.row({f, sign * psi, ld.w(0), ld.w(2), ld.rdot, ld.lambda_in, ld.lambda_out, double(ld.colour)});
    }
    bif.gap();
    bif.gap();
  }
  run.scalar("nontrivial_rdot_max_" + m, nontrivial_rdot_max);  // C-NTATT: < 0
  const long nf = o_.f_points;
  auto triv = run.table(
      "trivial_" + m + ".tsv", "trivial limit directions (128): w1 (psi = 0), then w2 (psi = pi)",
      {{"f", "1"}, {"psi", "rad"}, {"rdot", "mu g"}, {"lambda_in", "mu g"}, {"lambda_out", "mu g"}, {"colour", "code"}},
      cm::Planned{2.0 * static_cast<double>(nf), "branches.f_points"});
  double w2_rdot_max = -INFINITY;
  for (double psi : {0.0, pi}) {
    for (long k = 0; k < nf; ++k) {
      const double f = o_.f_max * static_cast<double>(k) / (static_cast<double>(nf) - 1.0);
      LimitDirectionAnalysis B(*owned_[i], prob);
      B.set_f(f);
      const LimitDirection ld = B.classify(psi, true);
      if (psi > 0.0) w2_rdot_max = std::max(w2_rdot_max, ld.rdot);
      triv.row({f, psi, ld.rdot, ld.lambda_in, ld.lambda_out, double(ld.colour)});
    }
    triv.gap();
    triv.gap();
  }
  run.scalar("w2hat_rdot_max_" + m, w2_rdot_max);  // P33: w2 always attracting
}

// The limit directions at the sample forces (Fig. 11) and the eigenvalue cross-check.
void LimitDirectionStudy::sample_forces(cm::Run& run, std::size_t i, const TestProblem& prob) {
  const std::string& m = o_.models[i];
  auto samples =
      run.table("ld_" + m + ".tsv", "limit directions at the sample forces (Fig. 11)", limit_direction_columns());
  double eig_err = 0.0;
  for (double f : o_.samples_f) {
    LimitDirectionAnalysis B(*owned_[i], prob);
    B.set_f(f);
    std::map<int, int> count;
    for (const LimitDirection& ld : B.limit_directions(static_cast<int>(o_.scan_points))) {
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
    const std::string tag = join("_", m, "_f", fmt(f));
    for (int c = 0; c <= 5; ++c) run.scalar(join("nontrivial_", colour_name(Colour(c)), "_count", tag), count[c]);
    // colour of w1 = (1, 0, 0) at this force (Cases 1-3 of Sect. 7.4.3)
    run.scalar(join("w1hat_colour", tag), double(B.classify(0.0, true).colour));
  }
  run.scalar("eigen_check_max_" + m, eig_err);
}

// Figs. 17/18: g(psi) of every model; errors against the exact model on (0, pi/2) (midpoints).
void LimitDirectionStudy::g_curves(cm::Run& run, const TestProblem& prob) {
  std::vector<cm::Column> cols{{"psi", "rad"}, {"w3", "1"}};
  for (const std::string& m : o_.models) cols.push_back({"g_" + m, "mu m g"});
  const long n = o_.gcurves_points;
  auto t = run.table("gcurves.tsv", "curves (131)/(141): g(psi) = F/(mu m g) on the invariant circle", cols,
                     cm::Planned{static_cast<double>(n - 1), "gcurves.points"});
  std::vector<LimitDirectionAnalysis> an;
  for (const auto& mp : owned_) an.emplace_back(*mp, prob);
  for (long k = 1; k < n; ++k) {
    const double psi = pi * static_cast<double>(k) / static_cast<double>(n);
    std::vector<double> row{psi, std::sin(psi)};
    for (const auto& a : an) row.push_back(a.g(psi));
    t.row(row);
  }
  curve_errors(run, prob, "");
  // Figs. 17/18, "we can see the convergence to the exact solution": error of N = 4 relative to N = 1
  if (gerr_.count("N4") && gerr_.count("N1")) run.scalar("gerr_max_N4_over_N1", gerr_["N4"] / gerr_["N1"]);
  if (gerr_.count("N4") && gerr_.count("fitted")) run.scalar("gerr_max_N4_over_fitted", gerr_["N4"] / gerr_["fitted"]);
}

// max / RMS of g_model - g_exact over midpoints of (0, pi/2), for every model but the exact one.
void LimitDirectionStudy::curve_errors(cm::Run& run, const TestProblem& prob, const std::string& suffix) {
  const auto it = std::find(o_.models.begin(), o_.models.end(), "exact");
  if (it == o_.models.end()) return;
  const LimitDirectionAnalysis ex(*owned_[static_cast<std::size_t>(it - o_.models.begin())], prob);
  const long n = o_.error_points;
  for (std::size_t i = 0; i < o_.models.size(); ++i) {
    if (o_.models[i] == "exact") continue;
    const LimitDirectionAnalysis a(*owned_[i], prob);
    double mx = 0.0, rms = 0.0;
    for (long k = 0; k < n; ++k) {
      const double psi = 0.5 * pi * (static_cast<double>(k) + 0.5) / static_cast<double>(n);
      const double d = std::abs(a.g(psi) - ex.g(psi));
      mx = std::max(mx, d);
      rms += d * d;
    }
    run.scalar(join("gerr_max_", o_.models[i], suffix), mx);
    gerr_[join(o_.models[i], suffix)] = mx;
    fperr_[join(o_.models[i], suffix)] = std::abs(a.g_at_zero() - ex.g_at_zero());
    run.scalar(join("gerr_rms_", o_.models[i], suffix), std::sqrt(rms / static_cast<double>(n)));
    run.scalar(join("F_P_error_", o_.models[i], suffix), a.g_at_zero() - ex.g_at_zero());
  }
}

// Sect. 7.5: "By increasing the value of lambda ... the linear and nonlinear model gets even
// closer to the exact solution": errors of g and of F_P for every lambda of the sweep.
void LimitDirectionStudy::lambda_sweep(cm::Run& run) {
  const std::vector<double>& lams = o_.lambda_sweep;
  for (double lam : lams) {
    const TestProblem prob = problem(lam, 0.0);
    curve_errors(run, prob, join("_lambda", fmt(lam)));
    for (std::size_t i = 0; i < o_.models.size(); ++i) {
      const LimitDirectionAnalysis a(*owned_[i], prob);
      run.scalar(join("F_P_", o_.models[i], "_lambda", fmt(lam)), a.g_at_zero());
      run.scalar(join("fold_count_", o_.models[i], "_lambda", fmt(lam)),
                 double(a.folds(static_cast<int>(o_.scan_points)).size()));
    }
  }
  // the ratio of each error at the largest to that at the smallest lambda (< 1: closer to exact)
  if (lams.size() >= 2) {
    const std::string lo = fmt(*std::min_element(lams.begin(), lams.end()));
    const std::string hi = fmt(*std::max_element(lams.begin(), lams.end()));
    for (const std::string& m : o_.models) {
      if (m == "exact") continue;
      const std::string a = join(m, "_lambda", lo), b = join(m, "_lambda", hi);
      run.scalar(join("gerr_max_", m, "_lambda", hi, "_over_", lo), gerr_[b] / gerr_[a]);
      run.scalar(join("abs_F_P_error_", m, "_lambda", hi, "_over_", lo), fperr_[b] / fperr_[a]);
    }
  }
}

// Table 2, the row of [24]: the Galin pressure with the disc's inertia, through the ring integral.
void LimitDirectionStudy::galin_row(cm::Run& run) {
  const double kg = kappa_closed_form(Pressure::galin);
  const double rho_g = o_.galin_rho_over_R;
  const ExactModel galin(Pressure::galin, rho_g);
  TestProblem prob = disc_problem(o_.j, kg, rho_g, o_.Rbar_over_R, 0.0);
  prob.zero_tol = o_.zero_tol;
  const LimitDirectionAnalysis A(galin, prob);
  const auto roots = A.force_free_roots(static_cast<int>(o_.galin_scan_points));
  const double psi0 = roots.empty() ? nan : roots.front();
  const double eps0 = rho_g / std::tan(psi0);
  run.scalar("F0_eps_galin", eps0);
  // w3 and theta of this eps in the disc's own scaling rho (36)
  const double w3 = 1.0 / std::sqrt(1.0 + eps0 * eps0 / (rho_ * rho_));
  run.scalar("F0_w3_galin", w3);
  run.scalar("F0_theta_deg_galin", std::asin(w3) * 180.0 / pi);
  auto t = run.table(
      "table2.tsv",
      "Table 2: force-free stop direction; rows = models.list then Galin; w3, theta with rho = " + fmt(rho_) + " R",
      {{"row", "index"}, {"eps", "1"}, {"w3", "1"}, {"theta", "deg"}},
      cm::Planned{static_cast<double>(o_.models.size() + 1), "models.list"});
  for (std::size_t i = 0; i < o_.models.size(); ++i) {
    const LimitDirectionAnalysis a(*owned_[i], problem(1.0, 0.0));
    const auto r = a.force_free_roots(static_cast<int>(o_.scan_points));
    const double p0 = r.empty() ? 0.5 * pi : r.front();  // no interior root: the stop is at the pole
    t.row({double(i), rho_ / std::tan(p0), std::sin(p0), p0 * 180.0 / pi});
  }
  t.row({double(o_.models.size()), eps0, w3, std::asin(w3) * 180.0 / pi});
}

}  // namespace fr

// Limit directions of the test problems and their bifurcations (Sects. 7.3-7.5; Figs. 11, 13, 14,
// 17, 18), the part the disc (fr_disc) and the ball (fr_ball) share.
//
// Near the codimension-3 discontinuity x_o = 0 the slip direction w of the disc (13) and of the
// ball (18) loaded by a force F obeys w' = V*(w) (115); its fixed points are the limit directions
// (Def. 1), attracting when R* < 0 (Def. 2), classified on the sphere by the eigenvalues of (119).
// They lie on the invariant circle w2 = 0; the non-trivial ones solve (131)/(141), g(psi) = f with
// w = (cos psi, 0, sin psi).
#include "friction/limitdirs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/math.hpp"
#include "core/text.hpp"

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
constexpr double absent = std::numeric_limits<double>::quiet_NaN();  // no fold, no root

}  // namespace

void declare_contact_keys(cm::Config& c, LimitDirectionOptions& o, const std::string& j_help) {
  c.add_choice("problem.pressure", &o.pressure,
               {{"uniform", Pressure::uniform}, {"hertz", Pressure::hertz}, {"galin", Pressure::galin}},
               "pressure distribution (disc: uniform, Sect. 4.1; ball: hertz, Sect. 4.2)");
  // j = J/(m Rbar^2) <= 1 for any body whose mass lies within the radius Rbar; j -> 0 makes the
  // spin coefficient a of (126)/(139) unbounded.
  c.add("problem.j", &o.j, j_help).unit("1").range(cm::Range::open_closed(0.0, 1.0));
  declare_rho_over_kappa_key(c, o.rho_over_kappa);
}

void declare_analysis_keys(cm::Config& c, LimitDirectionOptions& o) {
  c.add("models.list", &o.models, "friction models (fitted, exact, series, series_printed, N<degree>)")
      .assumption(
          "ASSUMED: Figs. 17/18 do not state their degrees; N = 1..4, the fitted and the exact model "
          "(spec 000 F17; E22: 'first-degree' in Fig. 13 drawn both as N = 1 and fitted)");
  declare_harmonic_keys(c, o.harmonic);
  c.add("branches.f_max", &o.f_max, "upper end of the force axis of the bifurcation diagrams")
      .unit("mu m g")
      .range(cm::Range::open_closed(0.0, 1e6))
      .assumption("ASSUMED: the force axes of Figs. 13, 14 are not given (spec 000 §3)");
  c.add("branches.psi_points", &o.psi_points, "samples of psi in (0, pi) along the non-trivial branch")
      .range(cm::Range::closed(10, 1e7));
  c.add("branches.f_points", &o.f_points, "samples of f along the trivial branches").range(cm::Range::closed(2, 1e7));
  c.add("samples.f", &o.samples_f, "forces of the LD lists (Fig. 11)")
      .unit("mu m g")
      .range(cm::Range::closed(0.0, 1e6))
      .nonempty()
      .assumption("ASSUMED: representative forces of Cases 1-4 (spec 000 F11)");
  c.add("roots.scan_points", &o.scan_points, "grid of the root scans in psi").range(cm::Range::closed(10, 1e7));
  c.add("roots.bracket_factor", &o.bracket_factor,
        "F_T and F_P are sought in [0, c b] and [-c b, c b] (b of (126)/(139)); c must exceed the largest "
        "|C_0| of the models (1 for every model of the paper)")
      .unit("1")
      .range(cm::Range::closed(1.0, 1e6));
  c.add("poly132.zero_tol", &o.degree_zero,
        "coefficients of (132) in s = w3^2 below this count as zero when its degree is reported (they are "
        "O(1); rounding leaves ~1e-16)")
      .unit("1")
      .range(cm::Range::open_closed(0.0, 1e-3));
  declare_classification_key(c, o.zero_tol);
  c.add("gcurves.points", &o.gcurves_points, "samples of the g curves on (0, pi)").range(cm::Range::closed(10, 1e7));
  c.add("gcurves.error_points", &o.error_points, "midpoints of (0, pi/2) for the g-curve errors")
      .range(cm::Range::closed(10, 1e7));
}

void check_models(cm::Config& c, const LimitDirectionOptions& o) {
  if (o.models.empty()) c.fail("models.list", "no model given");
  for (const std::string& m : o.models) {
    if (m.size() >= 2 && m[0] == 'N' && m.find_first_not_of("0123456789", 1) == std::string::npos) {
      if (m.size() > 3 || std::stol(m.substr(1)) < 1 || std::stol(m.substr(1)) > o.harmonic.N_max)
        c.fail("models.list", "harmonic degree " + m.substr(1) + " not available (1.." +
                                  std::to_string(o.harmonic.N_max) + ", models.N_max)");
    } else if (m != "fitted" && m != "exact" && m != "series" && m != "series_printed") {
      c.fail("models.list", "unknown model '" + m + "' (fitted, exact, series, series_printed, N1, N2, ...)");
    } else if (m.rfind("series", 0) == 0 && o.pressure != Pressure::uniform) {
      c.fail("models.list", "the series model (78)-(79) is for the uniform pressure (problem.pressure)");
    }
  }
}

void check_coefficients(cm::Config& c, const TestProblem& p, const std::string& keys) {
  // b and a (units mu g) beyond 1e12 or a below 1e-12 leave the root scans of Sect. 7 nothing
  // to resolve against the forces (at most 1e6) and rounding: every result would be NaN or noise.
  if (!(p.b <= 1e12 && p.a >= 1e-12 && p.a <= 1e12))
    c.fail(keys, "the coefficients of (126)/(139), b = " + cm::format_real(p.b) +
                     " and a = kappa rho/(j Rbar^2) = " + cm::format_real(p.a) + ", must lie in [1e-12, 1e12]");
}

LimitDirectionSurvey::LimitDirectionSurvey(const LimitDirectionOptions& o)
    : o_(o), kappa_(kappa_closed_form(o.pressure)), rho_(o.rho_over_kappa * kappa_) {
  h_ = harmonic_coefficients(o_.pressure, rho_, static_cast<int>(o_.harmonic.N_max), o_.harmonic.quad_tol);
  for (const std::string& m : o_.models) models_.push_back(make_model("models.list", m, o_.pressure, rho_, h_));
}

const PolynomialModel* LimitDirectionSurvey::polynomial(std::size_t i) const {
  return dynamic_cast<const PolynomialModel*>(models_[i].get());
}

double LimitDirectionSurvey::g_error(const std::string& model_suffix) const {
  const auto it = gerr_.find(model_suffix);
  return it == gerr_.end() ? 0.0 : it->second;
}

double LimitDirectionSurvey::F_P_error(const std::string& model_suffix) const {
  const auto it = fperr_.find(model_suffix);
  return it == fperr_.end() ? 0.0 : it->second;
}

void LimitDirectionSurvey::analyse_models(cm::Run& run, const TestProblem& prob) {
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
  for (std::size_t i = 0; i < o_.models.size(); ++i) {
    bifurcation_points(run, i, prob, special);
    branches(run, i, prob);
    sample_forces(run, i, prob);
  }
}

// 2. the bifurcation points by root finding, and the closed forms of Sect. 7.4.
void LimitDirectionSurvey::bifurcation_points(cm::Run& run, std::size_t i, const TestProblem& prob,
                                              cm::Table& special) {
  const std::string& m = o_.models[i];
  const LimitDirectionAnalysis A(*models_[i], prob);
  const int scan = static_cast<int>(o_.scan_points);
  const double FT = A.tangency_force(0.0, o_.bracket_factor * prob.b);                           // (130)
  const double FP = A.pitchfork_force(-o_.bracket_factor * prob.b, o_.bracket_factor * prob.b);  // (133)
  const auto folds = A.folds(scan);
  const auto roots = A.force_free_roots(scan);
  run.scalar("F_T_" + m, FT);
  run.scalar("F_P_" + m, FP);
  run.scalar("fold_count_" + m, double(folds.size()));
  const double FF = folds.empty() ? absent : folds.front().f;
  const double psiF = folds.empty() ? absent : folds.front().psi;
  run.scalar("F_F_" + m, FF);
  run.scalar("fold_w3_" + m, std::sin(psiF));
  const double psi0 = roots.empty() ? absent : roots.front();
  const double eps0 = rho_ / std::tan(psi0);  // (35) on the circle w2 = 0, R = 1
  run.scalar("F0_circle_count_" + m, double(roots.size()));
  run.scalar("F0_w3_" + m, std::sin(psi0));
  run.scalar("F0_eps_" + m, eps0);
  run.scalar("F0_theta_deg_" + m, psi0 * 180.0 / pi);
  special.row({double(i), FT, FP, FF, psiF, psi0, std::sin(psi0), eps0});
  closed_forms(run, i, prob, FT, FP, folds, roots);
  // F = 0: the colour of the poles (pure spin stop, Fig. 15) and of the force-free circles (Fig. 16)
  LimitDirectionAnalysis Z(*models_[i], prob);
  Z.set_f(0.0);
  run.scalar("pole_colour_f0_" + m, double(Z.classify(0.5 * pi, false).colour));
  run.scalar("equator_colour_f0_" + m, double(Z.classify(0.0, true).colour));
  if (!roots.empty()) run.scalar("F0_circle_colour_" + m, double(Z.classify(psi0, false).colour));
}

// The closed forms of Sect. 7.4 with the model's own C_k, S_k.
void LimitDirectionSurvey::closed_forms(cm::Run& run, std::size_t i, const TestProblem& prob, double FT, double FP,
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
void LimitDirectionSurvey::branches(cm::Run& run, std::size_t i, const TestProblem& prob) {
  const std::string& m = o_.models[i];
  const LimitDirectionAnalysis A(*models_[i], prob);
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
      LimitDirectionAnalysis B(*models_[i], prob);
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
      LimitDirectionAnalysis B(*models_[i], prob);
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
void LimitDirectionSurvey::sample_forces(cm::Run& run, std::size_t i, const TestProblem& prob) {
  const std::string& m = o_.models[i];
  auto samples =
      run.table("ld_" + m + ".tsv", "limit directions at the sample forces (Fig. 11)", limit_direction_columns());
  double eig_err = 0.0;
  for (double f : o_.samples_f) {
    LimitDirectionAnalysis B(*models_[i], prob);
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
    const std::string tag = join("_", m, "_f", format_g(f));
    for (int c = 0; c <= 5; ++c) run.scalar(join("nontrivial_", colour_name(Colour(c)), "_count", tag), count[c]);
    // colour of w1 = (1, 0, 0) at this force (Cases 1-3 of Sect. 7.4.3)
    run.scalar(join("w1hat_colour", tag), double(B.classify(0.0, true).colour));
  }
  run.scalar("eigen_check_max_" + m, eig_err);
}

// Figs. 17/18: g(psi) of every model; errors against the exact model on (0, pi/2) (midpoints).
void LimitDirectionSurvey::g_curves(cm::Run& run, const TestProblem& prob) {
  std::vector<cm::Column> cols{{"psi", "rad"}, {"w3", "1"}};
  for (const std::string& m : o_.models) cols.push_back({"g_" + m, "mu m g"});
  const long n = o_.gcurves_points;
  auto t = run.table("gcurves.tsv", "curves (131)/(141): g(psi) = F/(mu m g) on the invariant circle", cols,
                     cm::Planned{static_cast<double>(n - 1), "gcurves.points"});
  std::vector<LimitDirectionAnalysis> an;
  for (const auto& mp : models_) an.emplace_back(*mp, prob);
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
void LimitDirectionSurvey::curve_errors(cm::Run& run, const TestProblem& prob, const std::string& suffix) {
  const auto it = std::find(o_.models.begin(), o_.models.end(), "exact");
  if (it == o_.models.end()) return;
  const LimitDirectionAnalysis ex(*models_[static_cast<std::size_t>(it - o_.models.begin())], prob);
  const long n = o_.error_points;
  for (std::size_t i = 0; i < o_.models.size(); ++i) {
    if (o_.models[i] == "exact") continue;
    const LimitDirectionAnalysis a(*models_[i], prob);
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

}  // namespace fr

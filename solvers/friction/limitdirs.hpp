// The limit directions of Sects. 7.3-7.5 as the disc (fr_disc) and the ball (fr_ball) share them:
// the keys of the contact and of the analysis, and the analysis of every friction model of a test
// problem (LimitDirectionSurvey), written into the study's run.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/run.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace fr {

/// The keys both studies have; the values here are the disc's defaults.
struct LimitDirectionOptions {
  Pressure pressure = Pressure::uniform;
  double j = 0.5;               ///< J/(m Rbar^2)
  double rho_over_kappa = 1.0;  ///< Sect. 7: rho = kappa
  std::vector<std::string> models{"fitted", "N1", "N2", "N3", "N4", "exact"};
  HarmonicKeys harmonic;
  double f_max = 1.2;
  long psi_points = 4000;
  long f_points = 241;
  std::vector<double> samples_f{1.2, 0.7, 0.2, 0.02, 0.0};
  long scan_points = 4000;
  double bracket_factor = 10.0;
  double degree_zero = 1e-14;
  double zero_tol = TestProblem{}.zero_tol;
  long gcurves_points = 1000;
  long error_points = 400;
};

/// problem.pressure, problem.j (described by `j_help`) and problem.rho_over_kappa.
void declare_contact_keys(cm::Config& c, LimitDirectionOptions& o, const std::string& j_help);
/// The friction models (models.list and the harmonic keys) and the grids, roots and tolerances of
/// the analysis.
void declare_analysis_keys(cm::Config& c, LimitDirectionOptions& o);
/// models.list: every model known, each fit for the pressure.
void check_models(cm::Config& c, const LimitDirectionOptions& o);
/// The coefficients b and a of (126)/(139) of `p` within [1e-12, 1e12], where the root scans of
/// Sect. 7 have something to resolve; else a failure naming `keys`.
void check_coefficients(cm::Config& c, const TestProblem& p, const std::string& keys);

/// For every friction model of models.list on one test problem:
///   1. the branches of limit directions against f with their type (Figs. 13, 14);
///   2. the tangency F_T (root of R*(w1)), the pitchfork F_P (root of lambda_in(w1)) and the folds
///      F_F (roots of g'), compared with (130), (133), (138);
///   3. the force-free stop directions (roots of g at f = 0) and the colours at F = 0;
///   4. the curves g(psi) of Figs. 17/18 and their errors against the exact model.
class LimitDirectionSurvey {
 public:
  /// The contact of `o`: kappa in closed form, rho = problem.rho_over_kappa kappa, and the models.
  explicit LimitDirectionSurvey(const LimitDirectionOptions& o);

  double kappa() const { return kappa_; }
  double rho() const { return rho_; }
  const FrictionModel& model(std::size_t i) const { return *models_[i]; }

  /// 1.-3. for every model: special.tsv (the bifurcation points), bif_, trivial_ and ld_<model>.tsv.
  void analyse_models(cm::Run& run, const TestProblem& prob);
  /// 4. gcurves.tsv and the errors against the exact model.
  void g_curves(cm::Run& run, const TestProblem& prob);
  /// max / RMS of g_model - g_exact over midpoints of (0, pi/2) and the error of F_P, for every
  /// model but the exact one, as scalars named with `suffix` (none without the exact model).
  void curve_errors(cm::Run& run, const TestProblem& prob, const std::string& suffix);
  /// The largest error of g and |the error of F_P| of curve_errors, by model name and suffix (0 when
  /// not computed).
  double g_error(const std::string& model_suffix) const;
  double F_P_error(const std::string& model_suffix) const;

 private:
  const PolynomialModel* polynomial(std::size_t i) const;
  void bifurcation_points(cm::Run& run, std::size_t i, const TestProblem& prob, cm::Table& special);
  void closed_forms(cm::Run& run, std::size_t i, const TestProblem& prob, double FT, double FP,
                    const std::vector<LimitDirectionAnalysis::Fold>& folds, const std::vector<double>& roots);
  void branches(cm::Run& run, std::size_t i, const TestProblem& prob);
  void sample_forces(cm::Run& run, std::size_t i, const TestProblem& prob);

  const LimitDirectionOptions& o_;
  double kappa_ = 0.0, rho_ = 0.0;
  HarmonicCoefficients h_;
  std::vector<std::unique_ptr<FrictionModel>> models_;
  std::map<std::string, double> gerr_, fperr_;
};

}  // namespace fr

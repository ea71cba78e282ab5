// The study of Sects. 7.3-7.5 shared by fr_disc (study `disc`) and fr_ball (study `ball`): one
// class, the body chosen by the executable (DiscStudy, BallStudy below), no preprocessor switch.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/study.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace fr {

/// The keys of the limit-direction study; the values here are the defaults.
struct LimitDirectionOptions {
  Pressure pressure = Pressure::uniform;
  double j = 0.5;               ///< J/(m Rbar^2)
  double rho_over_kappa = 1.0;  ///< Sect. 7: rho = kappa
  double Rbar_over_R = 1.0;     ///< disc
  double lambda = 5.0;          ///< ball: Rbar/R (Fig. 18)
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
  std::vector<double> lambda_sweep{2.0, 5.0, 10.0};
  bool galin = true;
  double galin_rho_over_R = 1.0;
  long galin_scan_points = 400;
};

class LimitDirectionStudy {
 public:
  void declare(cm::Config& config);
  void run(cm::Run& run);

 protected:
  enum class Body { disc, ball };
  explicit LimitDirectionStudy(Body body);

 private:
  TestProblem problem(double lambda, double f) const;
  const PolynomialModel* polynomial(std::size_t i) const;
  void setup();
  void analyse(cm::Run& run, std::size_t i, const TestProblem& prob, cm::Table& special);
  void bifurcation_points(cm::Run& run, std::size_t i, const TestProblem& prob, cm::Table& special);
  void closed_forms(cm::Run& run, std::size_t i, const TestProblem& prob, double FT, double FP,
                    const std::vector<LimitDirectionAnalysis::Fold>& folds, const std::vector<double>& roots);
  void branches(cm::Run& run, std::size_t i, const TestProblem& prob);
  void sample_forces(cm::Run& run, std::size_t i, const TestProblem& prob);
  void g_curves(cm::Run& run, const TestProblem& prob);
  void curve_errors(cm::Run& run, const TestProblem& prob, const std::string& suffix);
  void lambda_sweep(cm::Run& run);
  void galin_row(cm::Run& run);

  Body body_;
  LimitDirectionOptions o_;
  double kappa_ = 0.0, rho_ = 0.0;
  HarmonicCoefficients h_;
  std::vector<std::unique_ptr<FrictionModel>> owned_;
  std::map<std::string, double> gerr_, fperr_;
};

class DiscStudy : public LimitDirectionStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_disc", "friction", "disc",
                                      "Limit directions of the disc (13) and their bifurcations (Sect. 7.4)"};
  DiscStudy() : LimitDirectionStudy(Body::disc) {}
};

class BallStudy : public LimitDirectionStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_ball", "friction", "ball",
                                      "Limit directions of the ball (18) and their bifurcations (Sect. 7.5)"};
  BallStudy() : LimitDirectionStudy(Body::ball) {}
};

}  // namespace fr

// The studies of Sect. 7 in rescaled time shared by fr_portraits (study `portraits`) and
// fr_stopping (study `stopping`): the bodies, their friction models and the integrator keys.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/study.hpp"
#include "common/sundials.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace fr {

/// The keys both studies have; the values here are the defaults.
struct SphereOptions {
  Pressure disc_pressure = Pressure::uniform;
  double disc_j = 0.5;
  Pressure ball_pressure = Pressure::hertz;
  double ball_j = 0.4;
  double ball_lambda = 5.0;
  double rho_over_kappa = 1.0;
  HarmonicKeys harmonic;
  double k_stab = 1.0;
  double zero_tol = TestProblem{}.zero_tol;
  cm::IntegratorOptions solver;
};

/// One case: a body (disc: j = 1/2, Rbar = R; ball: j = 2/5, Rbar = lambda R), a friction model
/// and a force.
struct SphereCase {
  std::string body;
  Pressure p;
  double rho, j, Rbar;
  std::unique_ptr<FrictionModel> model;
  TestProblem prob;
};

class SphereStudy {
 protected:
  /// The keys of the bodies, the models and the integrator; `models`/`bodies` (keys
  /// `models_key`/`bodies_key`) are checked against the `forces` list.
  void declare_common(cm::Config& c);
  void check_cases(cm::Config& c, const std::vector<double>& forces, const std::string& forces_key,
                   const std::vector<std::string>& models, const std::string& models_key,
                   const std::vector<std::string>& bodies, const std::string& bodies_key) const;
  SphereCase make_case(const std::string& body, const std::string& model, double f);

  SphereOptions o_;

 private:
  std::map<std::string, HarmonicCoefficients> coefficients_;
};

/// Phase portraits on the unit sphere of slip directions (Figs. 12, 15, 16).
class PortraitsStudy : public SphereStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_portraits", "friction", "portraits",
                                      "Phase portraits on the sphere of slip directions (Figs. 12, 15, 16)"};
  PortraitsStudy();
  void declare(cm::Config& c);
  void run(cm::Run& run);

 private:
  void setup(const cm::Run& run);
  void limit_directions(cm::Table& lds, std::size_t c, const LimitDirectionAnalysis& A);
  void trajectories(cm::Run& run, std::size_t c, const LimitDirectionAnalysis& A);

  std::vector<double> f_{1.2, 0.7, 0.2, 0.02, 0.0, 0.0};
  std::vector<std::string> model_{"N2", "N2", "N2", "N2", "fitted", "N2"};
  std::vector<std::string> body_{"disc", "disc", "disc", "disc", "disc", "disc"};
  long seeds_ = 120;
  double tau_end_ = 20.0, dtau_ = 0.1;
  long circle_points_ = 120;
  std::vector<double> tau_;
  std::vector<Eigen::Vector3d> seed_points_;
};

/// Direct simulations of the stopping disc and ball.
class StoppingStudy : public SphereStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_stopping", "friction", "stopping",
                                      "Direct simulation of the stopping disc and ball (Sect. 7)"};
  StoppingStudy();
  void declare(cm::Config& c);
  void run(cm::Run& run);

 private:
  void simulate(cm::Run& run, std::size_t c, cm::Table& summary);

  std::vector<double> f_{0.0};
  std::vector<double> x0_{1.0, 0.0, 1.0};
  std::vector<std::string> model_{"exact"};
  std::vector<std::string> body_{"disc"};
  double r_stop_ = 1e-20, tau_end_ = 200.0, dtau_ = 0.25;
  std::vector<double> tau_;
};

}  // namespace fr

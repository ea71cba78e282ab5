// Dynamics of the test problems near the codimension-3 discontinuity (Sect. 7).
//
// Both test problems, the disc (13) and the ball (18), reduce with a friction model n(w) (see
// models.hpp) to the closed ODE for x_o = (u_x, u_y, rho omega_z), in units mu g = 1:
//   x_o' = F_o(w) = (b n1(w) + f, b n2(w), a n3(w)),   w = x_o / |x_o|,
//   b = 1 (disc) or (1 + j)/j (ball),  a = kappa rho / (j Rbar^2),  f = F / (mu m g),
// which is (126) (disc: b = 1, a = 8/9) and (139) (ball: b = 7/2, a = 45 pi^2 / (512 lambda^2)).
// F_o depends on w alone, so the asymptotic dynamics (113) is exact here and the direction
// dynamics w' = V*(w) (115) decouples from r.
//
// Limit directions (Def. 1) lie on the invariant great circle w2 = 0 (Sect. 7.4), parametrised by
// psi: w = (cos psi, 0, sin psi). The flow on the circle is psi' = G(psi) = sin(psi) (g(psi) - f),
// g(psi) = -b n1 + a n3 cot(psi) (the left-hand side of (131), (141)), so the non-trivial limit
// directions solve g(psi) = f, and the trivial ones are psi = 0, pi (128).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "friction/models.hpp"

namespace fr {

struct TestProblem {
  double b;  ///< translational coefficient of F_o
  double a;  ///< spin coefficient kappa rho / (j Rbar^2)
  double f;  ///< F / (mu m g)
  /// An eigenvalue or radial rate below this (units mu g) counts as zero when classifying: the
  /// difference formulas reach about 1e-11, the structural zeros (f = 0 circles) are exact.
  double zero_tol = 1e-8;
};

/// Disc on a plane (13): b = 1, a = kappa rho / (j Rbar^2) (all lengths in units of R).
TestProblem disc_problem(double j, double kappa, double rho, double Rbar, double f);
/// Ball on a plane (18): b = (1 + j)/j, a = kappa rho / (j Rbar^2), Rbar = lambda R.
TestProblem ball_problem(double j, double kappa, double rho, double lambda, double f);

/// The colour code of Fig. 11: purple (repelling, stable node on the sphere), red (attracting,
/// unstable node), green (attracting saddle, stable eigenvector in the invariant circle), brown
/// (attracting saddle, unstable eigenvector in the circle), blue (attracting, stable node);
/// `other` for anything else (repelling saddles, tangency points).
enum class Colour { purple = 0, red = 1, green = 2, brown = 3, blue = 4, other = 5 };
std::string colour_name(Colour c);

struct LimitDirection {
  double psi;         ///< position on the invariant circle
  Eigen::Vector3d w;  ///< (cos psi, 0, sin psi)
  double rdot;        ///< R*(w) (121), radial: < 0 attracting (Def. 2)
  double lambda_in;   ///< eigenvalue of (119) along the invariant circle
  double lambda_out;  ///< eigenvalue of (119) across it (the w2 direction)
  Colour colour;
  bool trivial;  ///< psi = 0 or pi (128)
  bool circle;   ///< a member of a circle of LDs (f = 0: lambda_out = 0 by rotational symmetry)
};

class LimitDirectionAnalysis {
 public:
  LimitDirectionAnalysis(const FrictionModel& model, TestProblem problem);

  const TestProblem& problem() const { return prob_; }
  void set_f(double f) { prob_.f = f; }

  Eigen::Vector3d Fo(const Eigen::Vector3d& w) const;     ///< (126), (139) in units mu g
  double Rstar(const Eigen::Vector3d& w) const;           ///< (121)
  Eigen::Vector3d Vstar(const Eigen::Vector3d& w) const;  ///< (122), w normalised first

  /// g(psi) of (131)/(141) on psi in (0, pi) (not at 0, pi: a limit there).
  double g(double psi) const;
  /// g at psi -> 0+ (the pitchfork value, (133)), by Richardson extrapolation of g(h), g(2h).
  double g_at_zero() const;
  /// dg/dpsi by a fourth-order central difference.
  double dg(double psi) const;

  /// Eigenvalues of (119) at a limit direction on the circle, in the tangent basis
  /// (along the circle, across it), by fourth-order central differences along geodesics.
  void eigen_on_circle(double psi, double& lambda_in, double& lambda_out) const;
  /// The three eigenvalues of (119) from a central-difference Jacobian of V*(w/|w|) (Eigen).
  Eigen::Vector3cd eigen_full(const Eigen::Vector3d& w) const;

  LimitDirection classify(double psi, bool trivial) const;

  /// Every limit direction on the circle at the current f: the trivial pair and the roots of
  /// g(psi) = f on (0, pi) (upper half) and their mirror images psi -> -psi.
  std::vector<LimitDirection> limit_directions(int scan_points = 4000) const;

  /// Tangency (130): the root in f of R*(w1) = 0 (toms748 on [lo, hi]); NaN if not bracketed.
  double tangency_force(double lo, double hi) const;
  /// Pitchfork (133): the root in f of lambda_in(w1) = 0; NaN if not bracketed.
  double pitchfork_force(double lo, double hi) const;
  /// Folds: interior extrema of g on (0, pi) with g > 0 (roots of g', refined by toms748).
  struct Fold {
    double psi, f;
  };
  std::vector<Fold> folds(int scan_points = 4000) const;
  /// Roots of g = 0 on (0, pi/2) away from the pole (the force-free circles of Sect. 7.4.4).
  std::vector<double> force_free_roots(int scan_points = 4000) const;

 private:
  const FrictionModel& model_;
  TestProblem prob_;
};

/// Fibonacci-sphere seeds (deterministic, nearly uniform).
std::vector<Eigen::Vector3d> fibonacci_sphere(int n);

}  // namespace fr

// Study `formulas`: the inputs the paper states and the closed forms of Sect. 7.4 checked against
// the dynamics of the disc.
//
// Problem. For the disc on a plane (13) with a friction model n(w), the paper derives in closed
// form the radial rates at the trivial limit directions (129), the limit directions of the linear
// model (135) and the limit-direction condition of the second-degree model (136)-(137). It states
// that every limit direction lies on the invariant circle w2 = 0 (Sect. 7.4), and that the
// force-free stop direction of the second-degree model is close to the uniform-pressure value of
// [38] (Sect. 7.4.4, Table 2). It states j = 1/2 for a solid disc (after (11)). This study
//   1. computes j of a homogeneous disc by quadrature of its moment of inertia;
//   2. evaluates R*(w) (121) at (+-1, 0, 0) for every model against (129);
//   3. finds the non-trivial limit directions of the linear models at a set of forces (the
//      circle analysis of dynamics.hpp) and compares them with (135);
//   4. compares g(psi) of (131) along the circle and at the limit directions with (136)-(137), N = 2;
//   5. searches the whole sphere for zeros of V*(w) (122) by Newton's method from a set of seeds
//      and counts those off the circle w2 = 0;
//   6. compares the force-free stop direction eps_0 of N = 2 with that of the exact law of the
//      same pressure, the value [38] computes (its number is missing from the text).
//
// Sample runs:
//   fr_formulas --config configs/friction/formulas.ini --output try/formulas
//   fr_formulas --config configs/friction/formulas.ini --problem.j=0.3 --output try/formulas
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"
#include "friction/quadrature.hpp"

namespace {

using cm::pi;
using fr::Pressure;

class FormulasStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_formulas", "friction", "formulas",
                                      "Stated inputs and closed forms of Sect. 7.4 against the dynamics of the disc"};

  void declare(cm::Config& c) {
    c.add_choice("problem.pressure", &pressure_, {{"uniform", Pressure::uniform}, {"hertz", Pressure::hertz}},
                 "pressure distribution (Sect. 7.4: uniform)");
    c.add("problem.j", &j_, "J/(m Rbar^2) of the disc (after (11): 1/2 for a solid disc)")
        .unit("1")
        .range(cm::Range::closed(1e-3, 1.0));
    fr::declare_rho_over_kappa_key(c, rho_over_kappa_);
    c.add("problem.Rbar_over_R", &Rbar_over_R_, "Rbar/R (disc: 1)").unit("1").range(cm::Range::closed(1.0, 1e3));
    fr::declare_harmonic_keys(c, harmonic_);
    c.add("samples.f", &samples_f_, "forces F/(mu m g) at which the limit directions are compared")
        .unit("1")
        .range(cm::Range::open_closed(0.0, 10.0))
        .nonempty();
    c.add("circle.points", &circle_points_, "points of the psi grid on (0, pi) of the check of (136)")
        .range(cm::Range::closed(2, 1e6));
    c.add("circle.scan_points", &scan_points_, "points of the root scan of g(psi) = f on the circle")
        .range(cm::Range::closed(10, 1e6));
    c.add("search.seeds", &seeds_, "Fibonacci-sphere seeds of the Newton search for zeros of V*(w) (122)")
        .range(cm::Range::closed(1, 1e4));
    c.add("search.tol", &search_tol_, "|V*(w)| at which a Newton iterate counts as a limit direction")
        .unit("mu g")
        .range(cm::Range::closed(1e-15, 1e-6));
    c.add("search.distinct", &distinct_, "distance below which two limit directions found are the same")
        .unit("1")
        .range(cm::Range::closed(1e-12, 1e-2));
    c.add("search.off_circle", &off_circle_, "|w2| above which a limit direction is off the circle w2 = 0")
        .unit("1")
        .range(cm::Range::closed(1e-12, 1e-2));
    c.add_choice("ref38.pressure", &ref38_pressure_, {{"uniform", Pressure::uniform}, {"hertz", Pressure::hertz}},
                 "pressure of the exact law whose force-free stop direction stands for the value of [38]")
        .assumption(
            "ASSUMED: the numbers of Table 2 are missing from the text; the value of [38] (constant pressure, "
            "numerical) is taken as the force-free stop direction of the exact law for this pressure (spec 000 T2)");
  }

  void run(cm::Run& run) {
    if (harmonic_.N_max < 2) throw cm::InputError("models.N_max: (136)-(137) need the N = 2 model (at least 2)");
    const double kappa = fr::kappa_closed_form(pressure_);
    rho_ = rho_over_kappa_ * kappa;
    h_ = fr::harmonic_coefficients(pressure_, rho_, int(harmonic_.N_max), harmonic_.quad_tol);
    names_ = {"fitted", "exact"};
    for (long N = 1; N <= harmonic_.N_max; ++N) names_.push_back("N" + std::to_string(N));
    for (const std::string& n : names_) models_.push_back(fr::make_model("models.N_max", n, pressure_, rho_, h_));
    prob_ = fr::disc_problem(j_, kappa, rho_, Rbar_over_R_, 0.0);
    inertia(run);
    formula129(run);
    formula135(run);
    formula137(run);
    off_circle(run);
    force_free(run);
  }

 private:
  // C_1 = C(0) and S_1 = S(0) of a model: the polynomial coefficients, 1 for the fitted and the
  // exact model (Q_w(0) = 1 (47); (70)).
  double C1(std::size_t i) const {
    const auto* p = dynamic_cast<const fr::PolynomialModel*>(models_[i].get());
    return p ? p->C_coefficients()[0] : 1.0;
  }
  double S1(std::size_t i) const {
    const auto* p = dynamic_cast<const fr::PolynomialModel*>(models_[i].get());
    return p ? p->S_coefficients()[0] : 1.0;
  }
  std::size_t index(const std::string& name) const {
    return std::size_t(std::find(names_.begin(), names_.end(), name) - names_.begin());
  }

  // 1. after (11): j = J/(m Rbar^2) of a homogeneous disc, J = int r^2 dm, m = int dm (dm = 2 pi r dr)
  void inertia(cm::Run& run) {
    const double J = fr::integrate_gk([](double s) { return s * s * 2.0 * pi * s; }, 0.0, 1.0, {}, harmonic_.quad_tol,
                                      "moment of inertia of the disc");
    const double m =
        fr::integrate_gk([](double s) { return 2.0 * pi * s; }, 0.0, 1.0, {}, harmonic_.quad_tol, "mass of the disc");
    run.scalar("j_solid_disc", J / m);
  }

  // 2. (129): R*(w) at w = (+-1, 0, 0) is -mu g b C_1 +- F/m (b = 1 for the disc)
  void formula129(cm::Run& run) {
    double e = 0.0;
    for (std::size_t i = 0; i < models_.size(); ++i) {
      fr::LimitDirectionAnalysis A(*models_[i], prob_);
      for (double f : samples_f_) {
        A.set_f(f);
        for (double s : {1.0, -1.0}) {
          e = std::max(e, std::abs(A.Rstar(Eigen::Vector3d(s, 0.0, 0.0)) - (-prob_.b * C1(i) + s * f)));
        }
      }
    }
    run.scalar("formula129_residual_max", e, "mu g");
  }

  // 3. (135): the non-trivial limit directions of the linear models (fitted, N = 1):
  // w1 = f/(C_1 - a S_1), w3 = +-sqrt(1 - w1^2) (a = 8/9 for the disc of Sect. 7.4); one pair for
  // every f below F_P (133), none above.
  void formula135(cm::Run& run) {
    double e = 0.0;
    for (const std::string name : {"fitted", "N1"}) {
      const std::size_t i = index(name);
      fr::LimitDirectionAnalysis A(*models_[i], prob_);
      const double k = prob_.b * C1(i) - prob_.a * S1(i);
      for (double f : samples_f_) {
        A.set_f(f);
        std::vector<fr::LimitDirection> nontrivial;
        for (const fr::LimitDirection& ld : A.limit_directions(int(scan_points_))) {
          if (!ld.trivial) nontrivial.push_back(ld);
        }
        const double w1 = f / k;
        if (nontrivial.size() != (std::abs(w1) < 1.0 ? 2u : 0u)) e = std::numeric_limits<double>::infinity();
        for (const fr::LimitDirection& ld : nontrivial) {
          e = std::max({e, std::abs(ld.w(0) - w1), std::abs(std::abs(ld.w(2)) - std::sqrt(1.0 - w1 * w1))});
        }
      }
    }
    run.scalar("formula135_residual_max", e);
  }

  // 4. (136)-(137), N = 2: g(psi) of (131) is (k1 + k2 w3^2) w1 on the circle, k1 = C_1 - a S_1,
  // k2 = C_2 - a S_2; at every non-trivial limit direction it equals f.
  void formula137(cm::Run& run) {
    const std::size_t i = index("N2");
    const auto& pm = dynamic_cast<const fr::PolynomialModel&>(*models_[i]);
    const double k1 = prob_.b * pm.C_coefficients()[0] - prob_.a * pm.S_coefficients()[0];
    const double k2 = prob_.b * pm.C_coefficients()[1] - prob_.a * pm.S_coefficients()[1];
    fr::LimitDirectionAnalysis A(pm, prob_);
    double e = 0.0;
    for (long k = 1; k < circle_points_; ++k) {
      const double psi = pi * double(k) / double(circle_points_);
      const double w1 = std::cos(psi), w3 = std::sin(psi);
      e = std::max(e, std::abs(A.g(psi) - (k1 + k2 * w3 * w3) * w1));  // eq. (136)
    }
    for (double f : samples_f_) {
      A.set_f(f);
      for (const fr::LimitDirection& ld : A.limit_directions(int(scan_points_))) {
        if (ld.trivial) continue;
        e = std::max(e, std::abs((k1 + k2 * ld.w(2) * ld.w(2)) * ld.w(0) - f));
      }
    }
    run.scalar("formula137_residual_max", e, "mu g");
    run.scalar("k1_N2", k1);
    run.scalar("k2_N2", k2);
  }

  // Newton's method for V*(w) = 0 on the sphere, in the coordinates of the tangent plane at the
  // iterate (V* is tangent: its two components there are the unknowns' residuals).
  std::optional<Eigen::Vector3d> newton(const fr::LimitDirectionAnalysis& A, Eigen::Vector3d w) const {
    const double h = 1e-7;  // central differences: truncation O(h^2) against rounding O(1e-16/h)
    for (int it = 0; it < 60; ++it) {
      w.normalize();
      const Eigen::Vector3d V = A.Vstar(w);
      if (V.norm() <= search_tol_) return w;
      Eigen::Index axis = 0;
      w.cwiseAbs().minCoeff(&axis);
      const Eigen::Vector3d t1 = w.cross(Eigen::Vector3d::Unit(axis)).normalized(), t2 = w.cross(t1);
      Eigen::Matrix2d J;
      for (int k = 0; k < 2; ++k) {
        const Eigen::Vector3d t = k == 0 ? t1 : t2;
        const Eigen::Vector3d dV = (A.Vstar(w + h * t) - A.Vstar(w - h * t)) / (2.0 * h);
        J(0, k) = t1.dot(dV);
        J(1, k) = t2.dot(dV);
      }
      Eigen::Vector2d step = J.fullPivLu().solve(-Eigen::Vector2d(t1.dot(V), t2.dot(V)));
      if (!step.allFinite()) return std::nullopt;
      if (step.norm() > 0.5) step *= 0.5 / step.norm();
      w += step(0) * t1 + step(1) * t2;
    }
    return std::nullopt;
  }

  // 5. Sect. 7.4: every limit direction lies on w2 = 0. Zeros of V* from every seed, every model,
  // every force; the distinct ones off the circle are counted (and those on it, for comparison
  // with the circle analysis).
  void off_circle(cm::Run& run) {
    double off = 0.0, on = 0.0, circle = 0.0;
    const std::vector<Eigen::Vector3d> seeds = fr::fibonacci_sphere(int(seeds_));
    for (std::size_t i = 0; i < models_.size(); ++i) {
      fr::LimitDirectionAnalysis A(*models_[i], prob_);
      for (double f : samples_f_) {
        A.set_f(f);
        std::vector<Eigen::Vector3d> found;
        for (const Eigen::Vector3d& s : seeds) {
          const std::optional<Eigen::Vector3d> w = newton(A, s);
          if (!w) continue;
          const bool known = std::any_of(found.begin(), found.end(),
                                         [&](const Eigen::Vector3d& o) { return (o - *w).norm() < distinct_; });
          if (!known) found.push_back(*w);
        }
        for (const Eigen::Vector3d& w : found) (std::abs(w(1)) > off_circle_ ? off : on) += 1.0;
        circle += double(A.limit_directions(int(scan_points_)).size());
      }
    }
    run.scalar("limit_directions_off_w2_zero", off);
    run.scalar("limit_directions_found_on_w2_zero", on);
    run.scalar("limit_directions_of_circle_analysis", circle);
  }

  // 6. Sect. 7.4.4, Table 2: eps_0 = (rho/R) cot(psi_0) (35) at the root of g(psi) = 0 on (0, pi/2),
  // for N = 2 and for the exact law of the pressure of ref38.pressure (with its own kappa). Where
  // a model has no single force-free circle (other parameters than the paper's), eps_0 is NaN
  // (null in run.json) and the count says why.
  void force_free(cm::Run& run) {
    auto eps0 = [&](const std::string& tag, const fr::FrictionModel& model, const fr::TestProblem& prob, double rho) {
      fr::LimitDirectionAnalysis A(model, prob);
      const std::vector<double> roots = A.force_free_roots(int(scan_points_));
      run.scalar("F0_circle_count_" + tag, double(roots.size()));
      return roots.size() == 1 ? rho / std::tan(roots.front()) : std::numeric_limits<double>::quiet_NaN();
    };
    const double kappa38 = fr::kappa_closed_form(ref38_pressure_), rho38 = rho_over_kappa_ * kappa38;
    const fr::ExactModel exact38(ref38_pressure_, rho38);
    const double eN2 = eps0("N2", *models_[index("N2")], prob_, rho_);
    const double e38 = eps0("ref38", exact38, fr::disc_problem(j_, kappa38, rho38, Rbar_over_R_, 0.0), rho38);
    run.scalar("F0_eps_N2", eN2);
    run.scalar("F0_eps_ref38", e38);
    run.scalar("F0_eps_N2_rel_diff_ref38", std::abs(eN2 - e38) / e38);
  }

  Pressure pressure_ = Pressure::uniform;
  double j_ = 0.5;
  double rho_over_kappa_ = 1.0;
  double Rbar_over_R_ = 1.0;
  fr::HarmonicKeys harmonic_;
  std::vector<double> samples_f_{1.2, 0.7, 0.2, 0.02};
  long circle_points_ = 2000;
  long scan_points_ = 4000;
  long seeds_ = 200;
  double search_tol_ = 1e-12;
  double distinct_ = 1e-6;
  double off_circle_ = 1e-6;
  Pressure ref38_pressure_ = Pressure::uniform;

  double rho_ = 0.0;
  fr::HarmonicCoefficients h_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<fr::FrictionModel>> models_;
  fr::TestProblem prob_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<FormulasStudy>(argc, argv); }

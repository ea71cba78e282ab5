// Study `legendre`: the Legendre expansion of the w3 form (46) against the harmonic expansion of the
// latitude form (49) (Sect. 6.1).
//
// Problem. Sect. 6.1 names two single-variable expansions of the axisymmetric law: Legendre
// polynomials in w3 for (46), whose linear model (70), (74) is linear in w3 and w12, and the odd
// harmonics (82) in theta for (49), whose linear model (71) is cos, sin. The paper presents the
// second and says of the first only that "the final results from the harmonic and Legendre
// expansions are very close to each other". The harmonic coefficients (83) are the L2 projections of
// Q(theta), T(theta) on cos((2i-1) theta), sin((2i-1) theta); in w12 = cos theta and w3 = sin theta
// they are the projections of Qbar_w(w12) (74) and T_w(w3) (46) on the Chebyshev polynomials
// T_(2i-1) in the weight 1/sqrt(1 - x^2). The Legendre expansion of degree N (models.hpp) is the
// same projection in the Legendre weight 1: both are odd polynomials of degree 2N-1, i.e. the form
// (84)-(88) with C, S of degree 2N-2. For the uniform and the parabolic pressure, rho = kappa and
// rho = R (the cases of Figs. 7-9) and each degree compared, this study
//   1. computes both sets of coefficients by adaptive quadrature split at eps = 1 (54);
//   2. evaluates exact law, harmonic and Legendre expansion on an equispaced theta grid of
//      [0, pi/2], which covers the sphere: both expansions have the symmetries (80)-(81) of the law;
//   3. writes the largest difference of the force Q = |Q_xy| / (mu P) and of the torque
//      T = T_z / (mu P kappa) between the two expansions, and each expansion's largest error
//      against the exact law, so that "very close" is set beside how close either is to the law;
//   4. checks the Legendre expansion's polynomial form (84)-(88) against its series form.
//
// Sample runs:
//   fr_legendre --config configs/friction/legendre.ini --output try/legendre
//   fr_legendre --config configs/friction/legendre.ini --legendre.force=w3 --output try/legendre
#include <algorithm>
#include <cmath>

#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

using cm::pi;
using fr::Pressure;

// The keys whose names the study also gives elsewhere (in a planned table's size).
constexpr const char* degrees_key = "compare.degrees";
constexpr const char* points_key = "compare.points";

struct Contact {
  Pressure p;
  double rho;       // rho / R
  std::string tag;  // uniform_kappa, uniform_R, hertz_kappa, hertz_R
};

// The largest differences over the grid of one contact and one degree N.
struct Differences {
  double Q = 0.0, T = 0.0;                    // Legendre against harmonic
  double Q_harmonic = 0.0, T_harmonic = 0.0;  // harmonic against the exact law
  double Q_legendre = 0.0, T_legendre = 0.0;  // Legendre against the exact law
  double polynomial = 0.0;                    // Legendre: polynomial form (84) against the series
};

class LegendreStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_legendre", "friction", "legendre",
                                      "Legendre expansion of (46) against the harmonic expansion (82) (Sect. 6.1)"};

  void declare(cm::Config& c) {
    c.add(degrees_key, &degrees_,
          "degrees N compared: the harmonic model (82) and the Legendre expansion with C, S of degree 2N-2 (85)")
        .range(cm::Range::closed(1, 12))
        .nonempty()
        .increasing()
        .assumption(
            "ASSUMED: the paper does not say at which degree it compared the expansions; every degree of its "
            "harmonic models (Figs. 7-9: N = 1..4), each expansion of degree N having the polynomial form (84)-(88) "
            "with C, S of degree 2N-2");
    c.add_choice("legendre.force", &force_, {{"w12", fr::LegendreForce::w12}, {"w3", fr::LegendreForce::w3}},
                 "the force function expanded: Qbar_w(w12) of (74) in odd Legendre polynomials of w12 (w12), or "
                 "C(w3) = Q_w / w12 of (86) in even ones of w3 (w3)")
        .assumption(
            "ASSUMED: the paper does not write the Legendre expansion out; the L2 projection on [-1, 1] in the "
            "Legendre weight, the analogue of (83) (a Chebyshev projection in w12 and w3), of T_w(w3) and of the "
            "force function chosen here (w12: Qbar_w(w12), which (74) makes linear as (70) makes T_w)");
    c.add("quad.tol", &tol_, "relative tolerance of the quadratures of both expansions' coefficients")
        .unit("1")
        .range(cm::Range::closed(1e-15, 1e-3))
        .assumption(
            "ASSUMED: the Legendre coefficients by the adaptive Gauss-Kronrod quadrature of the harmonic "
            "coefficients (83), split at eps = 1 where the exact law is only C^1");
    c.add(points_key, &points_, "points of the equispaced theta grid on [0, pi/2] of the comparison")
        .range(cm::Range::closed(2, 1e7))
        .assumption(
            "ASSUMED: the paper gives no measure of 'very close'; the largest difference over an equispaced theta "
            "grid, normalised by mu P (force) and mu P kappa (torque)");
  }

  void run(cm::Run& run) {
    const std::vector<Contact> contacts{{Pressure::uniform, fr::kappa_closed_form(Pressure::uniform), "uniform_kappa"},
                                        {Pressure::uniform, 1.0, "uniform_R"},
                                        {Pressure::hertz, fr::kappa_closed_form(Pressure::hertz), "hertz_kappa"},
                                        {Pressure::hertz, 1.0, "hertz_R"}};
    const int n_max = static_cast<int>(degrees_.back());
    const double per_contact = static_cast<double>(degrees_.size());
    auto coef = run.table("coefficients.tsv",
                          "Legendre (a_i force, b_i torque) and harmonic (83) coefficients, one block per contact "
                          "(uniform_kappa, uniform_R, hertz_kappa, hertz_R)",
                          {{"i", "1"}, {"a_i", "1"}, {"b_i", "1"}, {"c_i", "1"}, {"s_i", "1"}},
                          cm::Planned{4.0 * n_max, degrees_key});
    auto diffs = run.table("differences.tsv",
                           "largest differences over theta in [0, pi/2] per degree N, one block per contact: "
                           "Legendre - harmonic, each against the exact law, and the Legendre polynomial form "
                           "against its series",
                           {{"N", "1"},
                            {"dQ_max", "mu P"},
                            {"dT_max", "mu P kappa"},
                            {"harmonic_errQ_max", "mu P"},
                            {"harmonic_errT_max", "mu P kappa"},
                            {"legendre_errQ_max", "mu P"},
                            {"legendre_errT_max", "mu P kappa"},
                            {"polynomial_vs_series_max", "1"}},
                           cm::Planned{4.0 * per_contact, degrees_key});
    double dQ = 0.0, dT = 0.0, polynomial = 0.0;
    for (const Contact& c : contacts) {
      const fr::HarmonicCoefficients h = fr::harmonic_coefficients(c.p, c.rho, n_max, tol_);  // (83)
      const fr::LegendreCoefficients l = fr::legendre_coefficients(c.p, c.rho, n_max, force_, tol_);
      for (int i = 1; i <= n_max; ++i) {
        coef.row({double(i), l.a[i - 1], l.b[i - 1], h.c[i - 1], h.s[i - 1]});
        run.scalar(fr::join("a", std::to_string(i), "_", c.tag), l.a[i - 1]);
        run.scalar(fr::join("b", std::to_string(i), "_", c.tag), l.b[i - 1]);
      }
      coef.gap();
      coef.gap();
      const std::vector<std::vector<double>> grid = curves(run, c, h, l);
      for (std::size_t k = 0; k < degrees_.size(); ++k) {
        const int N = static_cast<int>(degrees_[k]);
        const Differences d = differences(grid, k, fr::legendre_model(l, N));
        diffs.row({double(N), d.Q, d.T, d.Q_harmonic, d.T_harmonic, d.Q_legendre, d.T_legendre, d.polynomial});
        const std::string s = fr::join("_N", std::to_string(N), "_", c.tag);
        run.scalar("dQ_max" + s, d.Q);
        run.scalar("dT_max" + s, d.T);
        run.scalar("harmonic_errQ_max" + s, d.Q_harmonic);
        run.scalar("harmonic_errT_max" + s, d.T_harmonic);
        run.scalar("legendre_errQ_max" + s, d.Q_legendre);
        run.scalar("legendre_errT_max" + s, d.T_legendre);
        dQ = std::max(dQ, d.Q);
        dT = std::max(dT, d.T);
        polynomial = std::max(polynomial, d.polynomial);
      }
      diffs.gap();
      diffs.gap();
    }
    // Sect. 6.1: "the final results from the harmonic and Legendre expansions are very close"
    run.scalar("legendre_vs_harmonic_Q_max", dQ);
    run.scalar("legendre_vs_harmonic_T_max", dT);
    run.scalar("legendre_vs_harmonic_max", std::max(dQ, dT));
    run.scalar("polynomial_vs_series_max", polynomial);
  }

 private:
  // The exact law and both expansions of every degree on the theta grid, written as
  // curves_<contact>.tsv and returned row by row: theta, Q, T exact, then per degree
  // Q, T harmonic and Q, T Legendre.
  std::vector<std::vector<double>> curves(cm::Run& run, const Contact& c, const fr::HarmonicCoefficients& h,
                                          const fr::LegendreCoefficients& l) {
    std::vector<cm::Column> cols{{"theta", "rad"}, {"Q_exact", "1"}, {"T_exact", "1"}};
    for (long N : degrees_) {
      for (const char* q : {"Q_harmonic_N", "T_harmonic_N", "Q_legendre_N", "T_legendre_N"})
        cols.push_back({fr::join(q, std::to_string(N)), "1"});
    }
    const int n = static_cast<int>(points_);
    auto t = run.table(fr::join("curves_", c.tag, ".tsv"),
                       "Q(theta), T(theta) of (49): exact, harmonic (82) and Legendre expansion of each degree", cols,
                       cm::Planned{static_cast<double>(n), points_key});
    std::vector<std::vector<double>> grid;
    for (int j = 0; j < n; ++j) {
      const double th = 0.5 * pi * j / (n - 1.0);
      const fr::QT ex = fr::exact_theta(c.p, c.rho, th);
      std::vector<double> row{th, ex.Q, ex.T};
      for (long N : degrees_) {
        const fr::QT hq = fr::harmonic_theta(h, static_cast<int>(N), th),
                     lq = fr::legendre_theta(l, static_cast<int>(N), th);
        row.insert(row.end(), {hq.Q, hq.T, lq.Q, lq.T});
      }
      t.row(row);
      grid.push_back(std::move(row));
    }
    return grid;
  }

  // The largest differences of the k-th degree's columns of the grid; `m` is its Legendre
  // expansion in the polynomial form (84)-(88).
  static Differences differences(const std::vector<std::vector<double>>& grid, std::size_t k,
                                 const fr::PolynomialModel& m) {
    Differences d;
    for (const std::vector<double>& row : grid) {
      const double Q = row[1], T = row[2];
      const double* e = &row[3 + 4 * k];  // Q, T harmonic, Q, T Legendre
      d.Q = std::max(d.Q, std::abs(e[2] - e[0]));
      d.T = std::max(d.T, std::abs(e[3] - e[1]));
      d.Q_harmonic = std::max(d.Q_harmonic, std::abs(e[0] - Q));
      d.T_harmonic = std::max(d.T_harmonic, std::abs(e[1] - T));
      d.Q_legendre = std::max(d.Q_legendre, std::abs(e[2] - Q));
      d.T_legendre = std::max(d.T_legendre, std::abs(e[3] - T));
      const fr::QT p = m.theta_form(row[0]);
      d.polynomial = std::max({d.polynomial, std::abs(p.Q - e[2]), std::abs(p.T - e[3])});
    }
    return d;
  }

  std::vector<long> degrees_{1, 2, 3, 4};
  fr::LegendreForce force_ = fr::LegendreForce::w12;
  double tol_ = 1e-13;
  long points_ = 1001;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<LegendreStudy>(argc, argv); }

// md_rod: the paradox single-contact problem of Sect. 4.2 (Painleve's grazing rod).
//
// Problem: a slender rod (mass m_a, length l) touches the half-space y <= 0 with its lower tip at
// angle theta0 and slides with v0 along -e_x without rotation, under gravity g0. The contact frame
// is n = e_y, t = e_x, o = e_z and b = -dv^- = (0, v0, 0): b_n = 0, the degenerate branch of Fig. 5.
//
// Computed, with A from Eq. (2):
//   - mu_*(theta0) = (cos + 1/(3 cos)) / sin, from the root of the coefficient n^T A (mu, 1, 0)^T,
//     and its minimum over theta0 (golden section), compared with 4/3 at 1/2 acos(-3/5);
//   - Lambda_0 = A^{-1} v0 e_x against the printed closed form, ||Lambda_0,to|| = mu_* Lambda_0,n,
//     A_nn = mu_* sqrt(A_nt^2 + A_no^2) (P16-P23) over a theta0 grid;
//   - the (3,3) entry of A(t0): Eq. (2) gives 4/m_a, the paper prints 1 + 3 (cos^2 - sin^2)^2;
//   - the solution map over (theta0, mu): the maximally dissipative impulse (Fig. 5) and the
//     solutions of the Coulomb-like law (0, Lambda_0, sliding, the continuum at mu = mu_*).
//
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_rod --config configs/maxdiss/rod.ini --output try/rod
//   md_rod --config configs/maxdiss/quick/rod.ini --map.mu_max=3 --output try/rod
#include <cmath>
#include <cstdio>

#include "core/grid.hpp"
#include "core/study.hpp"
#include "maxdiss/bodies.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/single_contact.hpp"
#include "numerics/optimize.hpp"

namespace {

using namespace md;

constexpr double deg = cm::pi / 180.0;

/// The open angle grid step, 2 step, ... below 90 deg (the end 90 deg is excluded: cos = 0).
std::vector<double> angle_grid(const std::string& key, double step, long max_points) {
  const long n = cm::grid_points(key, 0.0, 90.0, step, max_points);
  std::vector<double> out;
  for (long i = 1; i < n + 1; ++i) {
    const double d = static_cast<double>(i) * step;
    if (!(d < 90.0 - 1e-9)) break;
    out.push_back(d);
  }
  return out;
}

class RodStudy {
 public:
  static constexpr cm::StudyInfo info{"md_rod", "maxdiss", "rod",
                                      "Paradox single-contact problem of Sect. 4.2 (grazing rod)"};

  void declare(cm::Config& c) {
    c.add("rod.m_a", &m_, "rod mass m_a")
        .unit("kg")
        .range(cm::Range::positive())
        .assumption("ASSUMED: Sect. 4.2 is symbolic; m_a = 1 (spec 001, 3.3)");
    c.add("rod.l", &l_, "rod length l")
        .unit("m")
        .range(cm::Range::positive())
        .assumption("ASSUMED: Sect. 4.2 is symbolic; l = 1 (spec 001, 3.3)");
    c.add("rod.v0", &v0_, "sliding speed v0")
        .unit("m/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: Sect. 4.2 is symbolic; v0 = 1 (spec 001, 3.3)");
    c.add("rod.g0", &g0_, "gravity g0 (time-step limit check)")
        .unit("m/s^2")
        .range(cm::Range::positive())
        .assumption("ASSUMED: g0 = 9.81 (spec 001, 3.3)");
    c.add("curve.step_deg", &curve_step_, "theta0 step of the mu_* curve and the closed-form checks")
        .unit("deg")
        .range(cm::Range::open_closed(0, 90));
    c.add("minimum.bracket", &min_bracket_,
          "theta0 bracket of the golden-section search for the minimum of mu_* (mu_* is unimodal on (0, pi/2))")
        .unit("rad")
        .size(2)
        .increasing()
        .range(cm::Range{0.0, cm::pi / 2, true, true});
    c.add("minimum.iterations", &min_iterations_, "golden-section steps (each shrinks the bracket by 0.618)")
        .range(cm::Range::closed(1, 10000));
    c.add("map.theta_step_deg", &map_theta_step_, "theta0 step of the solution map")
        .unit("deg")
        .range(cm::Range::open_closed(0, 90));
    c.add("map.mu_max", &mu_max_, "largest mu of the solution map").range(cm::Range::positive());
    c.add("map.mu_step", &mu_step_, "mu step of the solution map").range(cm::Range::positive());
    c.add("map.residual_tol", &residual_tol_,
          "Coulomb-law residual below which 0 or Lambda_0 counts as a solution (rounding of O(1) impulses)")
        .range(cm::Range::positive());
    c.add("edge.theta_step_deg", &edge_theta_step_, "theta0 step of the check at mu = mu_* (P25)")
        .unit("deg")
        .range(cm::Range::open_closed(0, 90));
    c.add("edge.s_step", &edge_s_step_, "step of s in s Lambda_0, s in [0, 1], of the check at mu = mu_*")
        .range(cm::Range::open_closed(0, 1));
    c.add("report.theta_deg", &report_theta_, "theta0 at which the A(t0) entries are reported")
        .unit("deg")
        .range(cm::Range{0.0, 90.0, true, true});
    c.add("limit.theta_deg", &limit_theta_, "theta0 of the time-step limit check (spec O13)")
        .unit("deg")
        .range(cm::Range{0.0, 90.0, true, true});
    c.add("limit.dt", &limit_dt_, "time step of the time-step limit check").unit("s").range(cm::Range::positive());
  }

  void run(cm::Run& run) {
    setup(run);
    closed_forms(run);
    solution_map(run);
    edge(run);
    time_step_limit(run);
  }

 private:
  // The grids, counted (and refused naming their key) before anything is written.
  void setup(const cm::Run& run) {
    const long max = run.budget().max_rows;
    curve_ = angle_grid("curve.step_deg", curve_step_, max);
    map_theta_ = angle_grid("map.theta_step_deg", map_theta_step_, max);
    edge_theta_ = angle_grid("edge.theta_step_deg", edge_theta_step_, max);
    const long n_mu = cm::grid_points("map.mu_step", 0.0, mu_max_, mu_step_, max, 1e-12 / mu_step_);
    if (static_cast<double>(n_mu) * static_cast<double>(map_theta_.size()) > static_cast<double>(max))
      throw cm::InputError("map.mu_step: the solution map of " + std::to_string(map_theta_.size()) + " x " +
                           std::to_string(n_mu) + " points exceeds output.max_rows");
    n_mu_ = n_mu;
    n_s_ = cm::grid_points("edge.s_step", 0.0, 1.0, edge_s_step_, max, 1e-12 / edge_s_step_);
  }

  // The mu_* curve and the closed forms P16-P23 on a theta0 grid.
  void closed_forms(cm::Run& run) {
    auto curve = run.table("mustar.tsv", "mu_*(theta0) and the contact data of the rod",
                           {{"theta0", "rad"},
                            {"theta0_deg", "deg"},
                            {"mu_star", "1"},
                            {"A_nn", "1/kg"},
                            {"k", "1/kg"},
                            {"Lambda0_n", "N s"},
                            {"Lambda0_t", "N s"},
                            {"A33_eq2", "1/kg"},
                            {"A33_printed", "1/kg"}},
                           cm::Planned{static_cast<double>(curve_.size()), "curve.step_deg"});
    double e16 = 0, e17 = 0, e18 = 0, e21 = 0, e22 = 0, e23 = 0;
    for (const double d : curve_) {
      const double th = d * cm::pi / 180.0, c = std::cos(th), s = std::sin(th);
      const auto rod = rod_problem(th, m_, l_, v0_);
      const Matrix3d P = rod_A_printed(th, m_);
      const double ms = rod_mu_star(th);
      e16 = std::max(e16, (rod.A_world.block<2, 2>(0, 0) - P.block<2, 2>(0, 0)).norm() / P.norm());  // P16
      const double mu = 0.5 * ms;
      const double coeff = Vector3d::UnitY().dot(rod.A_world * Vector3d(mu, 1, 0));
      e17 = std::max(e17, std::fabs(coeff - (1 + 3 * c * (c - mu * s)) / m_) * m_);  // P17
      e18 = std::max(e18, std::fabs(1 + 3 * c * (c - ms * s)) / (1 + 3 * c * c));    // P18: root of P17
      const Vector3d L0 = rod.A_world.ldlt().solve(Vector3d(v0_, 0, 0));             // A Lambda_0 = -v_a^-
      e21 = std::max(e21, (L0 - rod_Lambda0_printed(th, m_, v0_)).norm() / L0.norm());
      e22 = std::max(e22, std::fabs(std::hypot(L0(0), L0(2)) - ms * L0(1)) / L0.norm());
      e23 = std::max(e23, std::fabs(rod.A(0, 0) - ms * std::hypot(rod.A(0, 1), rod.A(0, 2))) / rod.A(0, 0));
      curve.row(
          {th, d, ms, rod.A(0, 0), std::hypot(rod.A(0, 1), rod.A(0, 2)), L0(1), L0(0), rod.A_world(2, 2), P(2, 2)});
    }
    run.scalar("p16_inplane_block_rel_err", e16);
    run.scalar("p17_coefficient_err", e17);
    run.scalar("p18_mustar_root_err", e18);
    run.scalar("p21_lambda0_rel_err", e21);
    run.scalar("p22_cone_identity_err", e22);
    run.scalar("p23_Ann_identity_err", e23);

    // P19, P20: the minimum of mu_* (golden section).
    const double argmin = cm::golden_section_minimum([](double t) { return rod_mu_star(t); }, min_bracket_[0],
                                                     min_bracket_[1], 0.0, min_iterations_)
                              .x;
    run.scalar("mustar_min", rod_mu_star(argmin));
    run.scalar("mustar_argmin", argmin, "rad");
    run.scalar("mustar_argmin_closed_form", 0.5 * std::acos(-3.0 / 5.0), "rad");
    std::printf("min mu_* = %.15f at theta0 = %.12f rad (1/2 acos(-3/5) = %.12f)\n", rod_mu_star(argmin), argmin,
                0.5 * std::acos(-3.0 / 5.0));

    // The (3,3) entry of A(t0) (P16): Eq. (2) against the print.
    const double th = report_theta_ * deg;
    const auto rod = rod_problem(th, m_, l_, v0_);
    run.scalar("A33_eq2", rod.A_world(2, 2), "1/kg");
    run.scalar("A33_printed", rod_A_printed(th, m_)(2, 2), "1/kg");
    std::printf("A(t0)_33 at theta0 = %g deg: Eq. (2) %.12f, printed %.12f\n", report_theta_, rod.A_world(2, 2),
                rod_A_printed(th, m_)(2, 2));
  }

  // P24, P25: the solution map of both impact laws over (theta0, mu).
  void solution_map(cm::Run& run) {
    auto map =
        run.table("impact_map.tsv", "impact laws over (theta0, mu): max.-diss. branch and impulse, Coulomb solutions",
                  {{"theta0_deg", "deg"},
                   {"mu", "1"},
                   {"mu_star", "1"},
                   {"mdp_branch", "1"},
                   {"Lambda_n", "N s"},
                   {"Lambda_t", "N s"},
                   {"zero_is_coulomb", "1"},
                   {"Lambda0_is_coulomb", "1"},
                   {"n_coulomb", "1"},
                   {"coulomb_continuum", "1"}},
                  cm::Planned{static_cast<double>(map_theta_.size()) * static_cast<double>(n_mu_), "map.mu_step"});
    long points = 0, agree = 0, coulomb_agree = 0, multi = 0;
    for (const double d : map_theta_) {
      const double th = d * cm::pi / 180.0;
      const auto rod = rod_problem(th, m_, l_, v0_);
      const double ms = rod_mu_star(th);
      const Vector3d L0 = rod.Q.transpose() * rod.A_world.ldlt().solve(Vector3d(v0_, 0, 0));
      for (long i = 0; i < n_mu_; ++i) {
        const double mu = static_cast<double>(i) * mu_step_;
        const auto sol = md::solve(rod.A, rod.b, mu);
        const auto set = coulomb_solutions(rod.A, rod.b, mu);
        const bool zero_ok = coulomb_residual(rod.A, rod.b, mu, Vector3d::Zero()) <= residual_tol_;
        const bool l0_ok = coulomb_residual(rod.A, rod.b, mu, L0) <= residual_tol_;
        map.row({d, mu, ms, double(static_cast<int>(sol.branch)), sol.x(0), sol.x(1), double(zero_ok), double(l0_ok),
                 double(set.solutions.size()), double(set.continuum)});
        if (std::fabs(mu - ms) <= 1e-9 * ms) continue;  // the edge case is checked separately
        ++points;
        // P24: Lambda_0 iff mu >= mu_*, else 0 (to rounding of the impulse)
        const bool expect_l0 = mu > ms;
        const bool got = expect_l0 ? (sol.x - L0).norm() <= 1e-12 * L0.norm() : sol.x.norm() == 0.0;
        agree += got;
        // P25: 0 always, Lambda_0 iff mu > mu_*
        coulomb_agree += zero_ok && (l0_ok == expect_l0);
        multi += set.solutions.size() > 1;
      }
      map.gap();
    }
    run.scalar("map_points", static_cast<double>(points));
    run.scalar("map_mdp_agreement", double(agree) / points);
    run.scalar("map_coulomb_agreement", double(coulomb_agree) / points);
    run.scalar("map_coulomb_multiple_fraction", double(multi) / points);
    std::printf(
        "solution map: %ld points, max.-diss. law as predicted at %ld, Coulomb law as predicted at %ld, "
        "several Coulomb solutions at %ld\n",
        points, agree, coulomb_agree, multi);
  }

  // P25 at mu = mu_*: s Lambda_0 for s in [0, 1] are all Coulomb solutions.
  void edge(cm::Run& run) {
    double worst = 0.0;
    for (const double d : edge_theta_) {
      const double th = d * cm::pi / 180.0;
      const auto rod = rod_problem(th, m_, l_, v0_);
      const double ms = rod_mu_star(th);
      const Vector3d L0 = rod.Q.transpose() * rod.A_world.ldlt().solve(Vector3d(v0_, 0, 0));
      for (long i = 0; i < n_s_; ++i)
        worst = std::max(worst, coulomb_residual(rod.A, rod.b, ms, static_cast<double>(i) * edge_s_step_ * L0));
    }
    run.scalar("p25_edge_convex_combination_residual", worst);
  }

  // Spec O13: the time-stepping form with b_n = g0 dt; mu < mu_*: sliding with the
  // acceleration-level normal force.
  void time_step_limit(cm::Run& run) {
    const double th = limit_theta_ * deg, dt = limit_dt_;
    const auto rod = rod_problem(th, m_, l_, v0_);
    const double ms = rod_mu_star(th), mu = 0.5 * ms, c = std::cos(th), s = std::sin(th);
    const auto sol = md::solve(rod.A, rod.b + Vector3d(g0_ * dt, 0, 0), mu);
    run.scalar("limit_lambda_n_over_dt", sol.x(0) / dt, "N");
    run.scalar("limit_lambda_n_closed_form", m_ * g0_ / (1 + 3 * c * (c - mu * s)), "N");
  }

  double m_ = 1, l_ = 1, v0_ = 1, g0_ = 9.81;
  double curve_step_ = 0.1;
  std::vector<double> min_bracket_{0.1, 1.5};
  long min_iterations_ = 200;
  double map_theta_step_ = 0.5, mu_max_ = 6.0, mu_step_ = 0.02, residual_tol_ = 1e-12;
  double edge_theta_step_ = 5, edge_s_step_ = 0.125;
  double report_theta_ = 30.0, limit_theta_ = 60.0, limit_dt_ = 1e-3;
  std::vector<double> curve_, map_theta_, edge_theta_;
  long n_mu_ = 0, n_s_ = 0;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<RodStudy>(argc, argv); }

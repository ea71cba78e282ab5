// md_rod: the paradox single-contact problem of Sect. 4.2 (Painleve's grazing rod).
//
// A slender rod (mass m_a, length l) touches the half-space y <= 0 with its lower tip at angle
// theta0, slides with v0 along -e_x without rotation, under gravity g0. The contact frame is
// n = e_y, t = e_x, o = e_z and b = -dv^- = (0, v0, 0): b_n = 0, the degenerate branch of Fig. 5.
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
// Sample run:
//   md_rod --config configs/maxdiss/rod.ini
#include <cmath>
#include <cstdio>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"
#include "maxdiss/bodies.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/single_contact.hpp"

namespace {

using namespace md;

class RodStudy {
 public:
  explicit RodStudy(cm::Config& config) : config_(config) {}

  void declare() {
    auto& c = config_;
    c.add_real("rod.m_a", 1.0, "kg", "rod mass m_a", cm::Range::positive());
    c.add_real("rod.l", 1.0, "m", "rod length l", cm::Range::positive());
    c.add_real("rod.v0", 1.0, "m/s", "sliding speed v0", cm::Range::positive());
    c.add_real("rod.g0", 9.81, "m/s^2", "gravity g0 (time-step limit check)", cm::Range::positive());
    c.add_real("curve.step_deg", 0.1, "deg", "theta0 step of the mu_* curve and the closed-form checks",
               cm::Range::positive());
    c.add_real("map.theta_step_deg", 0.5, "deg", "theta0 step of the solution map", cm::Range::positive());
    c.add_real("map.mu_max", 6.0, "1", "largest mu of the solution map", cm::Range::positive());
    c.add_real("map.mu_step", 0.02, "1", "mu step of the solution map", cm::Range::positive());
    c.add_real("report.theta_deg", 30.0, "deg", "theta0 at which the A(t0) entries are reported",
               cm::Range{0.0, 90.0, true, true});
    c.add_real("limit.theta_deg", 60.0, "deg", "theta0 of the time-step limit check (spec O13)",
               cm::Range{0.0, 90.0, true, true});
    c.add_real("limit.dt", 1e-3, "s", "time step of the time-step limit check", cm::Range::positive());
    c.assumption("rod.m_a", "ASSUMED: Sect. 4.2 is symbolic; m_a = 1 (spec 001, 3.3)");
    c.assumption("rod.l", "ASSUMED: Sect. 4.2 is symbolic; l = 1 (spec 001, 3.3)");
    c.assumption("rod.v0", "ASSUMED: Sect. 4.2 is symbolic; v0 = 1 (spec 001, 3.3)");
    c.assumption("rod.g0", "ASSUMED: g0 = 9.81 (spec 001, 3.3)");
  }

  void setup() {
    m_ = config_.real("rod.m_a");
    l_ = config_.real("rod.l");
    v0_ = config_.real("rod.v0");
    g0_ = config_.real("rod.g0");
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
                            {"A33_printed", "1/kg"}});
    const double step = config_.real("curve.step_deg");
    double e16 = 0, e17 = 0, e18 = 0, e21 = 0, e22 = 0, e23 = 0;
    for (double deg = step; deg < 90.0 - 1e-9; deg += step) {
      const double th = deg * cm::pi / 180.0, c = std::cos(th), s = std::sin(th);
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
          {th, deg, ms, rod.A(0, 0), std::hypot(rod.A(0, 1), rod.A(0, 2)), L0(1), L0(0), rod.A_world(2, 2), P(2, 2)});
    }
    run.scalar("p16_inplane_block_rel_err", e16);
    run.scalar("p17_coefficient_err", e17);
    run.scalar("p18_mustar_root_err", e18);
    run.scalar("p21_lambda0_rel_err", e21);
    run.scalar("p22_cone_identity_err", e22);
    run.scalar("p23_Ann_identity_err", e23);

    // P19, P20: the minimum of mu_* (golden section on (0, pi/2)).
    const double argmin = cm::golden_section_minimum([](double t) { return rod_mu_star(t); }, 0.1, 1.5, 0.0, 200).x;
    run.scalar("mustar_min", rod_mu_star(argmin));
    run.scalar("mustar_argmin", argmin, "rad");
    run.scalar("mustar_argmin_closed_form", 0.5 * std::acos(-3.0 / 5.0), "rad");
    std::printf("min mu_* = %.15f at theta0 = %.12f rad (1/2 acos(-3/5) = %.12f)\n", rod_mu_star(argmin), argmin,
                0.5 * std::acos(-3.0 / 5.0));

    // The (3,3) entry of A(t0) (P16): Eq. (2) against the print.
    const double th = config_.real("report.theta_deg") * cm::pi / 180.0;
    const auto rod = rod_problem(th, m_, l_, v0_);
    run.scalar("A33_eq2", rod.A_world(2, 2), "1/kg");
    run.scalar("A33_printed", rod_A_printed(th, m_)(2, 2), "1/kg");
    std::printf("A(t0)_33 at theta0 = %g deg: Eq. (2) %.12f, printed %.12f\n", config_.real("report.theta_deg"),
                rod.A_world(2, 2), rod_A_printed(th, m_)(2, 2));
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
                   {"coulomb_continuum", "1"}});
    const double tstep = config_.real("map.theta_step_deg"), mu_max = config_.real("map.mu_max"),
                 mstep = config_.real("map.mu_step");
    long points = 0, agree = 0, coulomb_agree = 0, multi = 0;
    for (double deg = tstep; deg < 90.0 - 1e-9; deg += tstep) {
      const double th = deg * cm::pi / 180.0;
      const auto rod = rod_problem(th, m_, l_, v0_);
      const double ms = rod_mu_star(th);
      const Vector3d L0 = rod.Q.transpose() * rod.A_world.ldlt().solve(Vector3d(v0_, 0, 0));
      for (long i = 0; i * mstep <= mu_max + 1e-12; ++i) {
        const double mu = i * mstep;
        const auto sol = md::solve(rod.A, rod.b, mu);
        const auto set = coulomb_solutions(rod.A, rod.b, mu);
        const bool zero_ok = coulomb_residual(rod.A, rod.b, mu, Vector3d::Zero()) <= 1e-12;
        const bool l0_ok = coulomb_residual(rod.A, rod.b, mu, L0) <= 1e-12;
        map.row({deg, mu, ms, double(static_cast<int>(sol.branch)), sol.x(0), sol.x(1), double(zero_ok), double(l0_ok),
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

    // P25 at mu = mu_*: s Lambda_0 for s in [0, 1] are all Coulomb solutions.
    double worst = 0.0;
    for (double deg = 5; deg < 90; deg += 5) {
      const double th = deg * cm::pi / 180.0;
      const auto rod = rod_problem(th, m_, l_, v0_);
      const double ms = rod_mu_star(th);
      const Vector3d L0 = rod.Q.transpose() * rod.A_world.ldlt().solve(Vector3d(v0_, 0, 0));
      for (double s = 0.0; s <= 1.0 + 1e-12; s += 0.125)
        worst = std::max(worst, coulomb_residual(rod.A, rod.b, ms, s * L0));
    }
    run.scalar("p25_edge_convex_combination_residual", worst);
  }

  // Spec O13: the time-stepping form with b_n = g0 dt; mu < mu_*: sliding with the
  // acceleration-level normal force.
  void time_step_limit(cm::Run& run) {
    const double th = config_.real("limit.theta_deg") * cm::pi / 180.0, dt = config_.real("limit.dt");
    const auto rod = rod_problem(th, m_, l_, v0_);
    const double ms = rod_mu_star(th), mu = 0.5 * ms, c = std::cos(th), s = std::sin(th);
    const auto sol = md::solve(rod.A, rod.b + Vector3d(g0_ * dt, 0, 0), mu);
    run.scalar("limit_lambda_n_over_dt", sol.x(0) / dt, "N");
    run.scalar("limit_lambda_n_closed_form", m_ * g0_ / (1 + 3 * c * (c - mu * s)), "N");
  }

  void run() {
    cm::Run run(config_);
    closed_forms(run);
    solution_map(run);
    time_step_limit(run);
    run.commit();
  }

 private:
  cm::Config& config_;
  double m_ = 1, l_ = 1, v0_ = 1, g0_ = 9.81;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("md_rod", "maxdiss", "rod", "Paradox single-contact problem of Sect. 4.2 (grazing rod)");
    RodStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.setup();
    study.run();
    return 0;
  });
}

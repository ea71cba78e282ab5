// md_contact: the single-contact impact problem of Sect. 3.2 for any user-given data.
//
// Given the symmetric positive definite Delassus block A (contact frame, normal first), the
// vector b (minus the impulse-free relative contact velocity) and the friction coefficient mu,
// it computes
//   - the maximally dissipative impulse x_* (structogram of Fig. 5, quartic of Eq. (8) with the
//     Appendix-A constants), its branch, the post-impact relative velocity A x_* - b and the
//     objective 1/2 x^T A x - x^T b (the change of kinetic energy);
//   - every solution of the Coulomb-like impact law (Fig. 1, rows 4-5) for the same data;
// and verifies x_*: feasible (cone, no penetration, pressure) and not beaten by any point of a
// dense brute-force search of the feasible set, to verify.rtol relative (else exit 3).
//
// Sample runs:
//   md_contact --config configs/maxdiss/contact.ini
//   md_contact --config configs/maxdiss/contact.ini --mu=0.3 --b.n=0
#include <cmath>
#include <cstdio>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/reference.hpp"
#include "maxdiss/single_contact.hpp"

namespace {

using namespace md;

class ContactStudy {
 public:
  explicit ContactStudy(cm::Config& config) : config_(config) {}

  void declare() {
    auto& c = config_;
    c.add_real("A.nn", 1.0, "1/kg", "Delassus block entry A_nn (contact frame, normal first)");
    c.add_real("A.nt", -0.3, "1/kg", "Delassus block entry A_nt");
    c.add_real("A.no", 1.0, "1/kg", "Delassus block entry A_no");
    c.add_real("A.tt", 0.6, "1/kg", "Delassus block entry A_tt");
    c.add_real("A.to", -0.5, "1/kg", "Delassus block entry A_to");
    c.add_real("A.oo", 2.9, "1/kg", "Delassus block entry A_oo");
    c.add_real("b.n", 1.0, "m/s", "b_n, minus the impulse-free normal relative velocity");
    c.add_real("b.t", -1.0, "m/s", "b_t");
    c.add_real("b.o", -3.0, "m/s", "b_o");
    c.add_real("mu", 1.2, "1", "friction coefficient", cm::Range::nonnegative());
    c.add_real("solver.bn_zero_eps", 1e-14, "1", "|b_n| <= eps ||b|| is treated as b_n = 0", cm::Range::nonnegative());
    c.add_real("solver.sphere_eps", 1e-14, "1", "relative coupling below which the sphere closed form is used",
               cm::Range::nonnegative());
    c.add_choice("solver.ray_rule", "best_of_two", {"best_of_two", "paper"},
                 "ray of the degenerate hyperbola (b_n = 0): best of both rays, or the side test of Eq. (9)");
    c.add_integer("solver.fallback_samples", 720, "samples of the fallback's dense angle scan", 16, 10000000);
    c.add_integer("solver.check_angles", 8, "probe angles of the analytic path's self-check", 0, 100000);
    c.add_integer("verify.angles", 20000, "angles of the brute-force verification", 16, 100000000);
    c.add_real("verify.rtol", 1e-9, "1", "relative objective tolerance of the verification", cm::Range::positive());
    c.add_choice("coulomb.method", "both", {"quartic", "scan", "both"},
                 "Coulomb solutions: quartic, dense sign-change scan, or both (cross-checked)");
    c.add_integer("coulomb.scan_samples", 100000, "samples of the Coulomb scan", 16, 100000000);
    c.assumption("solver.bn_zero_eps", "ASSUMED: relative tolerance for b_n = 0 (spec 001, 6.2 item 2)");
    c.assumption("solver.ray_rule",
                 "ASSUMED: Eq. (9)'s side test is not always optimal (spec 001, 2.9); default best of both rays");
  }

  void setup() {
    const auto& c = config_;
    A_ << c.real("A.nn"), c.real("A.nt"), c.real("A.no"), c.real("A.nt"), c.real("A.tt"), c.real("A.to"),
        c.real("A.no"), c.real("A.to"), c.real("A.oo");
    b_ = Vector3d(c.real("b.n"), c.real("b.t"), c.real("b.o"));
    mu_ = c.real("mu");
    if (!is_spd(A_))
      c.fail("A", "the Delassus block must be symmetric positive definite (it is singular or indefinite)");
    opt_.bn_zero_eps = c.real("solver.bn_zero_eps");
    opt_.sphere_eps = c.real("solver.sphere_eps");
    opt_.ray_rule = c.text("solver.ray_rule") == "paper" ? RayRule::paper : RayRule::best_of_two;
    opt_.fallback_samples = static_cast<int>(c.integer("solver.fallback_samples"));
    opt_.check_angles = static_cast<int>(c.integer("solver.check_angles"));
  }

  void solve_and_verify() {
    sol_ = md::solve(A_, b_, mu_, opt_);
    // Verification: feasibility and global optimality against brute force.
    Vector3d b = b_;
    if (std::fabs(b(0)) <= opt_.bn_zero_eps * b.norm()) b(0) = 0.0;  // the problem actually solved
    violation_ = feasibility_violation(A_, b, mu_, sol_.x);
    ref_ = brute_force(A_, b, mu_, static_cast<int>(config_.integer("verify.angles")));
    const double f = objective(A_, b_, sol_.x);
    const double scale = std::max(std::fabs(f), std::fabs(ref_.objective)) + 1e-300;
    gap_ = (objective(A_, b, sol_.x) - ref_.objective) / scale;  // > 0: brute force did better
    const double rtol = config_.real("verify.rtol");
    if (violation_ > rtol)
      throw cm::NumericalError("verification: the impulse violates the constraints by " + std::to_string(violation_));
    if (gap_ > rtol)
      throw cm::NumericalError("verification: a feasible impulse dissipates more (relative gap " +
                               std::to_string(gap_) + ")");

    const std::string method = config_.text("coulomb.method");
    const int samples = static_cast<int>(config_.integer("coulomb.scan_samples"));
    coulomb_ =
        coulomb_solutions(A_, b_, mu_, method == "scan" ? CoulombMethod::scan : CoulombMethod::quartic, samples, opt_);
    if (method == "both") {
      const auto scan = coulomb_solutions(A_, b_, mu_, CoulombMethod::scan, samples, opt_);
      bool agree = scan.solutions.size() == coulomb_.solutions.size();
      for (const auto& a : coulomb_.solutions) {
        double d = 1e300;
        for (const auto& s : scan.solutions) d = std::min(d, (a.x - s.x).norm());
        agree = agree && d <= 1e-8 * (1 + a.x.norm());
      }
      if (!agree) throw cm::NumericalError("Coulomb solutions: quartic and scan disagree");
    }
  }

  void write() {
    cm::Run run(config_);
    const Vector3d dv = A_ * sol_.x - b_;
    const double f = objective(A_, b_, sol_.x);
    auto t = run.table("solution.tsv", "maximally dissipative impulse (branch: Fig. 5 index, see run.json notes)",
                       {{"branch", "1"},
                        {"x_n", "N s"},
                        {"x_t", "N s"},
                        {"x_o", "N s"},
                        {"dv_n", "m/s"},
                        {"dv_t", "m/s"},
                        {"dv_o", "m/s"},
                        {"objective", "J"},
                        {"alpha", "rad"},
                        {"fallback", "1"}});
    t.row({double(static_cast<int>(sol_.branch)), sol_.x(0), sol_.x(1), sol_.x(2), dv(0), dv(1), dv(2), f, sol_.alpha,
           double(sol_.fallback)});
    auto c = run.table("coulomb.tsv",
                       "solutions of the Coulomb-like impact law (kind 0 zero, 1 frictionless, 2 sticking, 3 sliding)",
                       {{"kind", "1"},
                        {"x_n", "N s"},
                        {"x_t", "N s"},
                        {"x_o", "N s"},
                        {"dv_n", "m/s"},
                        {"dv_t", "m/s"},
                        {"dv_o", "m/s"},
                        {"objective", "J"},
                        {"alpha", "rad"}});
    std::printf("maximally dissipative impulse (branch %s%s)\n", branch_name(sol_.branch),
                sol_.fallback ? ", fallback used" : "");
    std::printf("  x_*   = (%.12g, %.12g, %.12g)\n  A x-b = (%.12g, %.12g, %.12g)\n  objective = %.12g\n", sol_.x(0),
                sol_.x(1), sol_.x(2), dv(0), dv(1), dv(2), f);
    std::printf("  verification: constraint violation %.3g, brute-force gap %.3g\n", violation_, gap_);
    std::printf("Coulomb-like impact law: %zu isolated solution(s)%s\n", coulomb_.solutions.size(),
                coulomb_.continuum ? " and a continuum" : "");
    for (const auto& s : coulomb_.solutions) {
      const Vector3d v = A_ * s.x - b_;
      c.row({double(static_cast<int>(s.kind)), s.x(0), s.x(1), s.x(2), v(0), v(1), v(2), objective(A_, b_, s.x),
             s.alpha});
      std::printf("  %-12s x = (%.12g, %.12g, %.12g)  A x-b = (%.6g, %.6g, %.6g)  objective %.12g\n",
                  coulomb_kind_name(s.kind), s.x(0), s.x(1), s.x(2), v(0), v(1), v(2), objective(A_, b_, s.x));
    }
    if (coulomb_.continuum)
      std::printf("  continuum from (%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g)\n", coulomb_.segment_from(0),
                  coulomb_.segment_from(1), coulomb_.segment_from(2), coulomb_.segment_to(0), coulomb_.segment_to(1),
                  coulomb_.segment_to(2));
    run.scalar("x_n", sol_.x(0), "N s");
    run.scalar("x_t", sol_.x(1), "N s");
    run.scalar("x_o", sol_.x(2), "N s");
    run.scalar("dv_n", dv(0), "m/s");
    run.scalar("dv_t", dv(1), "m/s");
    run.scalar("dv_o", dv(2), "m/s");
    run.scalar("objective", f, "J");
    run.scalar("branch", static_cast<int>(sol_.branch));
    run.scalar("fallback", sol_.fallback);
    run.scalar("verify_gap", gap_);
    run.scalar("verify_violation", violation_);
    run.scalar("n_coulomb", static_cast<double>(coulomb_.solutions.size()));
    run.scalar("coulomb_continuum", coulomb_.continuum);
    run.note(
        std::string("branch ") + branch_name(sol_.branch) +
        "; branch index: 0 separating, 1 frictionless, 2 sticking, 3 degenerate point, 4 degenerate ray, 5 sliding");
    run.commit();
  }

 private:
  cm::Config& config_;
  Matrix3d A_;
  Vector3d b_;
  double mu_ = 0.0;
  SolverOptions opt_;
  Solution sol_;
  Reference ref_;
  CoulombSet coulomb_;
  double violation_ = 0.0, gap_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("md_contact", "maxdiss", "contact", "Single-contact impact problem of Sect. 3.2 (any data)");
    ContactStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.setup();
    study.solve_and_verify();
    study.write();
    return 0;
  });
}

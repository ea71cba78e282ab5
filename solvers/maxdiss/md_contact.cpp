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
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_contact --config configs/maxdiss/contact.ini --output try/contact
//   md_contact --config configs/maxdiss/contact.ini --mu=0.3 --b.n=0 --output try/contact
#include <cmath>
#include <cstdio>

#include "core/study.hpp"
#include "core/text.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/reference.hpp"
#include "maxdiss/single_contact.hpp"

namespace {

using namespace md;

class ContactStudy {
 public:
  static constexpr cm::StudyInfo info{"md_contact", "maxdiss", "contact",
                                      "Single-contact impact problem of Sect. 3.2 (any data)"};

  void declare(cm::Config& c) {
    c.add("A.nn", &A_nn_, "Delassus block entry A_nn (contact frame, normal first)").unit("1/kg");
    c.add("A.nt", &A_nt_, "Delassus block entry A_nt").unit("1/kg");
    c.add("A.no", &A_no_, "Delassus block entry A_no").unit("1/kg");
    c.add("A.tt", &A_tt_, "Delassus block entry A_tt").unit("1/kg");
    c.add("A.to", &A_to_, "Delassus block entry A_to").unit("1/kg");
    c.add("A.oo", &A_oo_, "Delassus block entry A_oo").unit("1/kg");
    c.add("b.n", &b_(0), "b_n, minus the impulse-free normal relative velocity").unit("m/s");
    c.add("b.t", &b_(1), "b_t").unit("m/s");
    c.add("b.o", &b_(2), "b_o").unit("m/s");
    c.add("mu", &mu_, "friction coefficient").range(cm::Range::nonnegative());
    c.add("solver.bn_zero_eps", &opt_.bn_zero_eps, "|b_n| <= eps ||b|| is treated as b_n = 0")
        .range(cm::Range::nonnegative())
        .assumption("ASSUMED: relative tolerance for b_n = 0 (spec 001, 6.2 item 2)");
    c.add("solver.sphere_eps", &opt_.sphere_eps, "relative coupling below which the sphere closed form is used")
        .range(cm::Range::nonnegative());
    c.add_choice("solver.ray_rule", &opt_.ray_rule, {{"best_of_two", RayRule::best_of_two}, {"paper", RayRule::paper}},
                 "ray of the degenerate hyperbola (b_n = 0): best of both rays, or the side test of Eq. (9)")
        .assumption("ASSUMED: Eq. (9)'s side test is not always optimal (spec 001, 2.9); default best of both rays");
    c.add("solver.fallback_samples", &opt_.fallback_samples, "samples of the fallback's dense angle scan")
        .range(cm::Range::closed(16, 1e7));
    c.add("solver.check_angles", &opt_.check_angles, "probe angles of the analytic path's self-check")
        .range(cm::Range::closed(0, 1e5));
    c.add("verify.angles", &verify_angles_, "angles of the brute-force verification").range(cm::Range::closed(16, 1e8));
    c.add("verify.rtol", &verify_rtol_, "relative objective tolerance of the verification")
        .range(cm::Range::positive());
    c.add_choice("coulomb.method", &coulomb_method_, {{"quartic", 0}, {"scan", 1}, {"both", 2}},
                 "Coulomb solutions: quartic, dense sign-change scan, or both (cross-checked)");
    c.add("coulomb.agreement", &coulomb_agreement_,
          "largest distance (relative to 1 + |x|) at which quartic and scan solutions agree (method both)")
        .range(cm::Range::positive());
    c.add("coulomb.scan_samples", &coulomb_samples_, "samples of the Coulomb scan").range(cm::Range::closed(16, 1e8));
    c.add("A.max_condition", &max_condition_,
          "largest condition number of A accepted: beyond it, rounding (about 1e-16 relative) can no longer "
          "tell a positive definite block from a singular one")
        .range(cm::Range::closed(1, 1e15));
    c.check([&c, this] {
      A_ << A_nn_, A_nt_, A_no_, A_nt_, A_tt_, A_to_, A_no_, A_to_, A_oo_;
      const double cond = condition_number(A_);
      if (!(cond > 0.0))
        c.fail("A", "the Delassus block must be symmetric positive definite (it is singular or indefinite)");
      if (cond > max_condition_)
        c.fail("A", "the Delassus block is refused for its conditioning: condition number " + cm::format_real(cond) +
                        " exceeds A.max_condition = " + cm::format_real(max_condition_));
    });
  }

  void run(cm::Run& run) {
    solve_and_verify();
    write(run);
  }

 private:
  void solve_and_verify() {
    sol_ = md::solve(A_, b_, mu_, opt_);
    if (!sol_.x.allFinite() || !std::isfinite(objective(A_, b_, sol_.x)))
      throw cm::InputError(
          "A, b, mu: the data give a non-finite impulse or objective (over- or underflow of "
          "doubles); rescale A.*, b.* or mu");
    // With the printed ray rule of Eq. (9) the answer may be the worse ray: the better ray is
    // computed too, the verification's optimality check applies to it, and the loss is recorded.
    best_ = sol_;
    if (opt_.ray_rule == RayRule::paper) {
      SolverOptions best_of_two = opt_;
      best_of_two.ray_rule = RayRule::best_of_two;
      best_ = md::solve(A_, b_, mu_, best_of_two);
    }
    // Verification: feasibility and global optimality against brute force.
    Vector3d b = b_;
    if (std::fabs(b(0)) <= opt_.bn_zero_eps * b.norm()) b(0) = 0.0;  // the problem actually solved
    violation_ = feasibility_violation(A_, b, mu_, sol_.x);
    ref_ = brute_force(A_, b, mu_, static_cast<int>(verify_angles_));
    const double f = objective(A_, b_, sol_.x);
    const double scale = std::max(std::fabs(f), std::fabs(ref_.objective)) + 1e-300;
    gap_ = (objective(A_, b, best_.x) - ref_.objective) / scale;  // > 0: brute force did better
    ray_loss_ = objective(A_, b, sol_.x) - objective(A_, b, best_.x);
    if (violation_ > verify_rtol_)
      throw cm::NumericalError("verification: the impulse violates the constraints by " + std::to_string(violation_));
    if (gap_ > verify_rtol_)
      throw cm::NumericalError("verification: a feasible impulse dissipates more (relative gap " +
                               std::to_string(gap_) + ")");

    const int samples = static_cast<int>(coulomb_samples_);
    coulomb_ = coulomb_solutions(A_, b_, mu_, coulomb_method_ == 1 ? CoulombMethod::scan : CoulombMethod::quartic,
                                 samples, opt_);
    if (coulomb_method_ == 2) {
      const auto scan = coulomb_solutions(A_, b_, mu_, CoulombMethod::scan, samples, opt_);
      bool agree = scan.solutions.size() == coulomb_.solutions.size();
      for (const auto& a : coulomb_.solutions) {
        double d = 1e300;
        for (const auto& s : scan.solutions) d = std::min(d, (a.x - s.x).norm());
        agree = agree && d <= coulomb_agreement_ * (1 + a.x.norm());
      }
      if (!agree) throw cm::NumericalError("Coulomb solutions: quartic and scan disagree");
    }
  }

  void write(cm::Run& run) {
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
    if (opt_.ray_rule == RayRule::paper) {
      const double fb = objective(A_, b_, best_.x);
      run.scalar("best_ray_objective", fb, "J");
      run.scalar("paper_ray_loss", ray_loss_, "J");
      run.scalar("paper_ray_loss_relative", ray_loss_ / (std::fabs(fb) + 1e-300));
      run.note("solver.ray_rule = paper: the side test of Eq. (9) gives objective " + cm::format_real(f) +
               ", the better ray " + cm::format_real(fb) + " (loss " + cm::format_real(ray_loss_) + " J)" +
               (ray_loss_ > 0.0 ? "; the printed rule picks the worse ray here" : ""));
      std::printf("  ray rule of Eq. (9): loses %.6g J against the better ray\n", ray_loss_);
    }
    run.note(
        std::string("branch ") + branch_name(sol_.branch) +
        "; branch index: 0 separating, 1 frictionless, 2 sticking, 3 degenerate point, 4 degenerate ray, 5 sliding");
  }

 private:
  double A_nn_ = 1.0, A_nt_ = -0.3, A_no_ = 1.0, A_tt_ = 0.6, A_to_ = -0.5, A_oo_ = 2.9;
  Matrix3d A_;
  Vector3d b_{1.0, -1.0, -3.0};
  double mu_ = 1.2;
  SolverOptions opt_;
  long verify_angles_ = 20000;
  double verify_rtol_ = 1e-9;
  int coulomb_method_ = 2;
  long coulomb_samples_ = 100000;
  double max_condition_ = 1e14, coulomb_agreement_ = 1e-8;
  Solution sol_, best_;
  Reference ref_;
  CoulombSet coulomb_;
  double violation_ = 0.0, gap_ = 0.0, ray_loss_ = 0.0;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ContactStudy>(argc, argv); }

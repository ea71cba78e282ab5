// md_academic: the academic single-contact problem of Sect. 4.1 (Table 1, Fig. 7).
//
// A rigid body of six point masses at +-d_x e_x, +-d_y e_y, +-d_z e_z (masses m_x, m_y, m_z per
// pair) hits a fixed plane with normal n = n_hat / ||n_hat|| at the mass point d_x e_x. The
// contact frame is Q = [n t o] with t = n x e_x, o = n x t, the Delassus block
//   A = Q^T ((2 (m_x + m_y + m_z))^{-1} E - d_x^2 e_x^x I^{-1} e_x^x) Q,   b = Q^T b_w.
// Note: t = n x e_x has length sqrt(1 - n_x^2) != 1; Table 1 is reproduced with t as printed
// (not normalised, spec 001 Sect. 2.11). The run also reports the normalised-frame solution.
//
// Computed: the maximally dissipative impulse (Fig. 5) and every Coulomb solution (quartic and
// scan, cross-checked), their post-impact velocities and objectives (Table 1), the objective on
// the plane of maximum compression, the ellipse and the solutions (Fig. 7).
//
// Sample run:
//   md_academic --config configs/maxdiss/academic.ini
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"
#include "maxdiss/bodies.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/reference.hpp"
#include "maxdiss/single_contact.hpp"

namespace {

using namespace md;

class AcademicStudy {
 public:
  explicit AcademicStudy(cm::Config& config) : config_(config) {}

  void declare() {
    auto& c = config_;
    c.add_real("body.dx", 10, "1", "distance d_x of the x mass points", cm::Range::positive());
    c.add_real("body.dy", 1, "1", "distance d_y of the y mass points", cm::Range::positive());
    c.add_real("body.dz", 1, "1", "distance d_z of the z mass points", cm::Range::positive());
    c.add_real("body.mx", 0.03, "1", "mass m_x of each x mass point", cm::Range::positive());
    c.add_real("body.my", 65, "1", "mass m_y of each y mass point", cm::Range::positive());
    c.add_real("body.mz", 50, "1", "mass m_z of each z mass point", cm::Range::positive());
    c.add_real("contact.mu", 3.7, "1", "friction coefficient", cm::Range::nonnegative());
    c.add_reals("contact.n_hat", {0.25, 0.36, -0.9}, "1", "plane normal before normalisation", cm::Range::any(), 3);
    c.add_reals("contact.b_world", {0.06, 0.7, 0.23}, "1", "b in inertial components (b = Q^T b_world)",
                cm::Range::any(), 3);
    c.add_flag("frame.normalize_t", false, "normalise t = n x e_x (Table 1 needs false)");
    c.add_choice("coulomb.method", "both", {"quartic", "scan", "both"}, "Coulomb roots: quartic, scan, or both");
    c.add_integer("coulomb.scan_samples", 100000, "samples of the Coulomb sign-change scan", 16, 100000000);
    c.add_integer("verify.angles", 20000, "angles of the brute-force check of x_*", 16, 100000000);
    c.add_integer("fig7.nx", 200, "grid points in x_t of the contour data", 2, 100000);
    c.add_integer("fig7.ny", 200, "grid points in x_o of the contour data", 2, 100000);
    c.add_reals("fig7.xt_range", {-3.0, 1.0}, "1", "x_t range of the contour data", cm::Range::any(), 2);
    c.add_reals("fig7.xo_range", {-7.5, 1.0}, "1", "x_o range of the contour data", cm::Range::any(), 2);
    c.add_integer("fig7.boundary_samples", 720, "points on the ellipse", 8, 10000000);
    c.assumption("frame.normalize_t",
                 "RECONSTRUCTED: t = n x e_x as printed, not normalised; only this reproduces "
                 "Table 1 (spec 001, 2.11)");
    c.assumption("fig7.xt_range", "ASSUMED: plot range of Fig. 7 (figure missing in the source text)");
    c.assumption("fig7.xo_range", "ASSUMED: plot range of Fig. 7 (figure missing in the source text)");
  }

  // The problem of Sect. 4.1: body, contact frame, Delassus block.
  void setup() {
    const auto& c = config_;
    const auto n = c.reals("contact.n_hat"), bw = c.reals("contact.b_world");
    body_ = AcademicBody{
        c.real("body.dx"),          c.real("body.dy"), c.real("body.dz"),          c.real("body.mx"),
        c.real("body.my"),          c.real("body.mz"), Vector3d(n[0], n[1], n[2]), Vector3d(bw[0], bw[1], bw[2]),
        c.flag("frame.normalize_t")};
    if (body_.n_hat.norm() == 0.0) c.fail("contact.n_hat", "the normal must not be zero");
    if (std::fabs(body_.n_hat.normalized().x()) > 1 - 1e-12)
      c.fail("contact.n_hat", "the normal must not be parallel to e_x (t = n x e_x vanishes)");
    mu_ = c.real("contact.mu");
    problem_ = academic_problem(body_);
  }

  // Table 1: the maximally dissipative solution and all Coulomb solutions.
  void solve() {
    const Matrix3d& A = problem_.A;
    const Vector3d& b = problem_.b;
    mdp_ = md::solve(A, b, mu_);
    const auto ref = brute_force(A, b, mu_, static_cast<int>(config_.integer("verify.angles")));
    const double f = objective(A, b, mdp_.x);
    if (f > ref.objective + 1e-9 * std::fabs(f))
      throw cm::NumericalError("x_* is beaten by the brute-force search (relative gap " +
                               std::to_string((f - ref.objective) / std::fabs(f)) + ")");
    const std::string method = config_.text("coulomb.method");
    const int samples = static_cast<int>(config_.integer("coulomb.scan_samples"));
    coulomb_ = coulomb_solutions(A, b, mu_, method == "scan" ? CoulombMethod::scan : CoulombMethod::quartic, samples);
    if (method == "both") {
      const auto scan = coulomb_solutions(A, b, mu_, CoulombMethod::scan, samples);
      bool agree = scan.solutions.size() == coulomb_.solutions.size();
      for (const auto& q : coulomb_.solutions) {
        double d = 1e300;
        for (const auto& s : scan.solutions) d = std::min(d, (q.x - s.x).norm());
        agree = agree && d <= 1e-8 * (1 + q.x.norm());
      }
      if (!agree) throw cm::NumericalError("Coulomb solutions: quartic and scan disagree");
    }
    // Table 1 lists the Coulomb solutions by increasing x_n.
    std::sort(coulomb_.solutions.begin(), coulomb_.solutions.end(),
              [](const CoulombSolution& p, const CoulombSolution& q) { return p.x(0) < q.x(0); });
    // Uniqueness of the maximally dissipative solution: the distinct stationary points of f_obj in I
    // that attain the minimum.
    const Reduced red(A, b, mu_, b(0));
    const auto cand = trig2_candidates(appendix_a(A, b, mu_).trig());
    const double fmin = red.fobj(mdp_.alpha);
    std::vector<double> minimisers;
    for (int i = 0; i < cand.count; ++i) {
      const double a = cand.alpha[i];
      if (red.fr(std::cos(a), std::sin(a)) <= 0 || red.fobj(a) > fmin + 1e-9 * std::fabs(fmin)) continue;
      bool dup = false;
      for (double m : minimisers) dup = dup || std::fabs(std::remainder(a - m, two_pi)) < 1e-9;
      if (!dup) minimisers.push_back(a);
    }
    n_mdp_ = static_cast<int>(minimisers.size());
    // Sensitivity: the same problem in a normalised (orthonormal) contact frame.
    AcademicBody normalised = body_;
    normalised.normalize_t = !body_.normalize_t;
    const auto other = academic_problem(normalised);
    other_ = md::solve(other.A, other.b, mu_);
    other_objective_ = objective(other.A, other.b, other_.x);
  }

  void write() {
    const Matrix3d& A = problem_.A;
    const Vector3d& b = problem_.b;
    cm::Run run(config_);
    auto frame = run.table(
        "frame.tsv", "contact frame Q = [n t o] (rows x, y, z), Delassus block A and b (contact frame)",
        {{"row", "1"}, {"Q_n", "1"}, {"Q_t", "1"}, {"Q_o", "1"}, {"A_n", "1"}, {"A_t", "1"}, {"A_o", "1"}, {"b", "1"}});
    for (int i = 0; i < 3; ++i)
      frame.row({double(i), problem_.Q(i, 0), problem_.Q(i, 1), problem_.Q(i, 2), A(i, 0), A(i, 1), A(i, 2), b(i)});

    auto table =
        run.table("table1.tsv", "Table 1: rows 1-3 Coulomb solutions (by increasing x_n), row 4 max. dissipation",
                  {{"row", "1"},
                   {"x_n", "1"},
                   {"x_t", "1"},
                   {"x_o", "1"},
                   {"dv_n", "1"},
                   {"dv_t", "1"},
                   {"dv_o", "1"},
                   {"objective", "1"},
                   {"alpha", "rad"}});
    auto put = [&](const std::string& name, int row, const Vector3d& x, double alpha) {
      const Vector3d dv = A * x - b;
      const double f = objective(A, b, x);
      table.row({double(row), x(0), x(1), x(2), dv(0), dv(1), dv(2), f, alpha});
      const char* comp[3] = {"n", "t", "o"};
      for (int k = 0; k < 3; ++k) {
        run.scalar(name + "_x_" + comp[k], x(k));
        run.scalar(name + "_dv_" + comp[k], dv(k));
      }
      run.scalar(name + "_objective", f);
      std::printf("%-9s x = (%9.6f, %9.6f, %10.6f)  A x - b = (%.1e, %9.6f, %9.6f)  objective %9.6f\n", name.c_str(),
                  x(0), x(1), x(2), dv(0), dv(1), dv(2), f);
    };
    int row = 0;
    for (const auto& s : coulomb_.solutions) {
      ++row;
      put("coulomb" + std::to_string(row), row, s.x, s.alpha);
    }
    put("mdp", 4, mdp_.x, mdp_.alpha);

    auto roots = run.table("coulomb_roots.tsv", "roots of the Coulomb sliding condition G_C and their fate",
                           {{"alpha", "rad"}, {"G_C", "1"}, {"accepted", "1"}});
    int rejected = 0;
    for (const auto& r : coulomb_.roots) {
      roots.row({r.alpha, r.G, double(r.accepted)});
      rejected += !r.accepted;
      std::printf("G_C root alpha = %.6f: %s\n", r.alpha, r.reason.c_str());
    }

    // Fig. 7: the full objective on the plane of maximum compression, the ellipse, the solutions.
    const Reduced red(A, b, mu_, b(0));
    const auto xt = config_.reals("fig7.xt_range"), xo = config_.reals("fig7.xo_range");
    const long nx = config_.integer("fig7.nx"), ny = config_.integer("fig7.ny");
    auto contour = run.table("fig7_contour.tsv", "objective 1/2 x^T A x - x^T b on the plane a_n^T x = b_n",
                             {{"x_t", "1"}, {"x_o", "1"}, {"objective", "1"}});
    for (long i = 0; i < nx; ++i) {
      for (long j = 0; j < ny; ++j) {
        const double t = xt[0] + (xt[1] - xt[0]) * i / (nx - 1), o = xo[0] + (xo[1] - xo[0]) * j / (ny - 1);
        contour.row({t, o, objective(A, b, red.lift(t, o))});
      }
      contour.gap();
    }
    auto boundary = run.table("fig7_boundary.tsv", "boundary gamma(alpha) of the constraint set (ellipse)",
                              {{"alpha", "rad"}, {"x_t", "1"}, {"x_o", "1"}});
    const long nb = config_.integer("fig7.boundary_samples");
    for (long i = 0; i <= nb; ++i) {
      const double a = two_pi * i / nb;
      if (red.fr(std::cos(a), std::sin(a)) <= 0) continue;
      const double r = red.rbar(a);
      boundary.row({a, r * std::cos(a), r * std::sin(a)});
    }
    auto points = run.table("fig7_points.tsv", "kind 0: max. dissipation x_*, 1: Coulomb x_i, 2: unconstrained x_0",
                            {{"kind", "1"}, {"x_t", "1"}, {"x_o", "1"}, {"objective", "1"}});
    points.row({0, mdp_.x(1), mdp_.x(2), objective(A, b, mdp_.x)});
    for (const auto& s : coulomb_.solutions) points.row({1, s.x(1), s.x(2), objective(A, b, s.x)});
    const Vector3d x0 = A.ldlt().solve(b);
    points.row({2, x0(1), x0(2), objective(A, b, x0)});

    run.scalar("n_coulomb", static_cast<double>(coulomb_.solutions.size()));
    run.scalar("n_coulomb_rejected_roots", rejected);
    run.scalar("n_mdp", n_mdp_);
    run.scalar("conic_is_ellipse", red.ellipse() ? 1.0 : 0.0);
    run.scalar("A_nn_minus_mu_k", red.Ann - mu_ * red.k.norm());
    run.scalar("mdp_alpha", mdp_.alpha, "rad");
    run.scalar("mdp_fallback", mdp_.fallback);
    run.scalar("other_frame_x_n", other_.x(0));
    run.scalar("other_frame_x_t", other_.x(1));
    run.scalar("other_frame_x_o", other_.x(2));
    run.scalar("other_frame_objective", other_objective_);
    std::printf(
        "conic: %s (A_nn - mu |k| = %.5f); %zu Coulomb solutions, %d rejected root(s); %d max.-diss. solution\n",
        red.ellipse() ? "ellipse" : "hyperbola/parabola", red.Ann - mu_ * red.k.norm(), coulomb_.solutions.size(),
        rejected, n_mdp_);
    std::printf("with t %snormalised: x_* = (%.6f, %.6f, %.6f), objective %.6f\n", body_.normalize_t ? "not " : "",
                other_.x(0), other_.x(1), other_.x(2), other_objective_);
    run.note(std::string("sensitivity: with the contact frame ") + (body_.normalize_t ? "not " : "") +
             "normalised, x_* = (" + std::to_string(other_.x(0)) + ", " + std::to_string(other_.x(1)) + ", " +
             std::to_string(other_.x(2)) + "), objective " + std::to_string(other_objective_));
    run.commit();
  }

 private:
  cm::Config& config_;
  AcademicBody body_{};
  double mu_ = 0.0;
  ContactProblem problem_;
  Solution mdp_, other_;
  double other_objective_ = 0.0;
  CoulombSet coulomb_;
  int n_mdp_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("md_academic", "maxdiss", "academic",
                      "Academic single-contact problem of Sect. 4.1 (Table 1, Fig. 7)");
    AcademicStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.setup();
    study.solve();
    study.write();
    return 0;
  });
}

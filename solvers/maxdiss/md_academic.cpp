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
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_academic --config configs/maxdiss/academic.ini --output try/academic
//   md_academic --config configs/maxdiss/academic.ini --frame.normalize_t --output try/academic
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/study.hpp"
#include "maxdiss/bodies.hpp"
#include "maxdiss/coulomb.hpp"
#include "maxdiss/reference.hpp"
#include "maxdiss/single_contact.hpp"

namespace {

using namespace md;

class AcademicStudy {
 public:
  static constexpr cm::StudyInfo info{"md_academic", "maxdiss", "academic",
                                      "Academic single-contact problem of Sect. 4.1 (Table 1, Fig. 7)"};

  void declare(cm::Config& c) {
    c.add("body.dx", &body_.dx, "distance d_x of the x mass points").unit("1").range(cm::Range::positive());
    c.add("body.dy", &body_.dy, "distance d_y of the y mass points").unit("1").range(cm::Range::positive());
    c.add("body.dz", &body_.dz, "distance d_z of the z mass points").unit("1").range(cm::Range::positive());
    c.add("body.mx", &body_.mx, "mass m_x of each x mass point").unit("1").range(cm::Range::positive());
    c.add("body.my", &body_.my, "mass m_y of each y mass point").unit("1").range(cm::Range::positive());
    c.add("body.mz", &body_.mz, "mass m_z of each z mass point").unit("1").range(cm::Range::positive());
    c.add("contact.mu", &mu_, "friction coefficient").range(cm::Range::nonnegative());
    c.add("contact.n_hat", &n_hat_, "plane normal before normalisation").unit("1").size(3);
    c.add("contact.b_world", &b_world_, "b in inertial components (b = Q^T b_world)").unit("1").size(3);
    c.add("frame.normalize_t", &body_.normalize_t, "normalise t = n x e_x (Table 1 needs false)")
        .assumption(
            "RECONSTRUCTED: t = n x e_x as printed, not normalised; only this reproduces "
            "Table 1 (spec 001, 2.11)");
    c.add("frame.parallel_eps", &parallel_eps_,
          "|n_x| > 1 - eps is refused: t = n x e_x would vanish (or be dominated by rounding)")
        .range(cm::Range::open_closed(0, 1));
    c.add_choice("coulomb.method", &coulomb_method_, {{"quartic", 0}, {"scan", 1}, {"both", 2}},
                 "Coulomb roots: quartic, scan, or both (cross-checked)");
    c.add("coulomb.scan_samples", &coulomb_samples_, "samples of the Coulomb sign-change scan")
        .range(cm::Range::closed(16, 1e8));
    c.add("coulomb.agreement", &coulomb_agreement_,
          "largest distance (relative to 1 + |x|) at which quartic and scan solutions agree (method both)")
        .range(cm::Range::positive());
    c.add("verify.angles", &verify_angles_, "angles of the brute-force check of x_*").range(cm::Range::closed(16, 1e8));
    c.add("verify.rtol", &verify_rtol_, "relative objective by which the brute force may beat x_* (exit 3 beyond)")
        .range(cm::Range::positive());
    c.add("fig7.nx", &nx_, "grid points in x_t of the contour data").range(cm::Range::closed(2, 1e5));
    c.add("fig7.ny", &ny_, "grid points in x_o of the contour data").range(cm::Range::closed(2, 1e5));
    c.add("fig7.xt_range", &xt_, "x_t range of the contour data")
        .unit("1")
        .size(2)
        .increasing()
        .assumption("ASSUMED: plot range of Fig. 7 (figure missing in the source text)");
    c.add("fig7.xo_range", &xo_, "x_o range of the contour data")
        .unit("1")
        .size(2)
        .increasing()
        .assumption("ASSUMED: plot range of Fig. 7 (figure missing in the source text)");
    c.add("fig7.boundary_samples", &nb_, "points on the ellipse").range(cm::Range::closed(8, 1e7));
    c.check([&c, this] {
      const Vector3d n(n_hat_[0], n_hat_[1], n_hat_[2]);
      if (n.norm() == 0.0) c.fail("contact.n_hat", "the normal must not be zero");
      if (std::fabs(n.normalized().x()) > 1 - parallel_eps_)
        c.fail("contact.n_hat", "the normal must not be parallel to e_x (t = n x e_x vanishes)");
      body_.n_hat = n;
      body_.b_inertial = Vector3d(b_world_[0], b_world_[1], b_world_[2]);
      const ContactProblem p = academic_problem(body_);
      if (!p.A.allFinite() || !p.b.allFinite() || !(condition_number(0.5 * (p.A + p.A.transpose())) > 0.0))
        c.fail("body.mx",
               "the body (body.dx, body.dy, body.dz, body.mx, body.my, body.mz) and contact.n_hat give a "
               "Delassus block that is not finite and positive definite (over- or underflow of doubles)");
    });
  }

  void run(cm::Run& run) {
    setup();
    solve();
    write(run);
  }

 private:
  // The problem of Sect. 4.1: body, contact frame, Delassus block.
  void setup() {
    body_.n_hat = Vector3d(n_hat_[0], n_hat_[1], n_hat_[2]);
    body_.b_inertial = Vector3d(b_world_[0], b_world_[1], b_world_[2]);
    problem_ = academic_problem(body_);
  }

  // Table 1: the maximally dissipative solution and all Coulomb solutions.
  void solve() {
    const Matrix3d& A = problem_.A;
    const Vector3d& b = problem_.b;
    mdp_ = md::solve(A, b, mu_);
    const auto ref = brute_force(A, b, mu_, static_cast<int>(verify_angles_));
    const double f = objective(A, b, mdp_.x);
    if (f > ref.objective + verify_rtol_ * std::fabs(f))
      throw cm::NumericalError("x_* is beaten by the brute-force search (relative gap " +
                               std::to_string((f - ref.objective) / std::fabs(f)) + ")");
    const int samples = static_cast<int>(coulomb_samples_);
    coulomb_ =
        coulomb_solutions(A, b, mu_, coulomb_method_ == 1 ? CoulombMethod::scan : CoulombMethod::quartic, samples);
    if (coulomb_method_ == 2) {
      const auto scan = coulomb_solutions(A, b, mu_, CoulombMethod::scan, samples);
      bool agree = scan.solutions.size() == coulomb_.solutions.size();
      for (const auto& q : coulomb_.solutions) {
        double d = 1e300;
        for (const auto& s : scan.solutions) d = std::min(d, (q.x - s.x).norm());
        agree = agree && d <= coulomb_agreement_ * (1 + q.x.norm());
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

  void write(cm::Run& run) {
    const Matrix3d& A = problem_.A;
    const Vector3d& b = problem_.b;
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
    const auto &xt = xt_, &xo = xo_;
    const long nx = nx_, ny = ny_;
    auto contour = run.table("fig7_contour.tsv", "objective 1/2 x^T A x - x^T b on the plane a_n^T x = b_n",
                             {{"x_t", "1"}, {"x_o", "1"}, {"objective", "1"}},
                             cm::Planned{static_cast<double>(nx) * static_cast<double>(ny), "fig7.nx"});
    for (long i = 0; i < nx; ++i) {
      for (long j = 0; j < ny; ++j) {
        const double t = xt[0] + (xt[1] - xt[0]) * i / (nx - 1), o = xo[0] + (xo[1] - xo[0]) * j / (ny - 1);
        contour.row({t, o, objective(A, b, red.lift(t, o))});
      }
      contour.gap();
    }
    auto boundary = run.table("fig7_boundary.tsv", "boundary gamma(alpha) of the constraint set (ellipse)",
                              {{"alpha", "rad"}, {"x_t", "1"}, {"x_o", "1"}},
                              cm::Planned{static_cast<double>(nb_ + 1), "fig7.boundary_samples"});
    const long nb = nb_;
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
  }

 private:
  AcademicBody body_{10, 1, 1, 0.03, 65, 50, Vector3d::Zero(), Vector3d::Zero(), false};
  std::vector<double> n_hat_{0.25, 0.36, -0.9}, b_world_{0.06, 0.7, 0.23};
  double mu_ = 3.7, parallel_eps_ = 1e-12;
  int coulomb_method_ = 2;
  long coulomb_samples_ = 100000, verify_angles_ = 20000, nx_ = 200, ny_ = 200, nb_ = 720;
  double coulomb_agreement_ = 1e-8, verify_rtol_ = 1e-9;
  std::vector<double> xt_{-3.0, 1.0}, xo_{-7.5, 1.0};
  ContactProblem problem_;
  Solution mdp_, other_;
  double other_objective_ = 0.0;
  CoulombSet coulomb_;
  int n_mdp_ = 0;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<AcademicStudy>(argc, argv); }

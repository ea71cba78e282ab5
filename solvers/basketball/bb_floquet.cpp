// bb_floquet: the Floquet problem (62) of the non-periodic rolling solutions (Sect. 4.3, Fig. 9).
//
// Problem: along a solution with omega1 > 0 (Prop. 5), (omega2, omega3) obey the linear system
// (62) in beta, 2 pi-periodic, which depends on q = rho/R and j only. Its monodromy matrix M
// (classical RK4 over beta in [0, 2 pi]) has det M = 1 (Liouville), so the system is stable iff
// |tr M| <= 2 (Prop. 7). The map covers q in [q_min, 1 - a/R], j in [j_min, j_max]; the standard
// ball (rho/R, j of Table 1) is marked, and the first unstable q at the paper's j is found by a
// scan of (0, 1 - a/R].
//
// Sample runs (into a scratch folder, never over the pipeline's results/):
//   bb_floquet --config configs/basketball/floquet.ini --output try/floquet
//   bb_floquet --config configs/basketball/quick/floquet.ini --grid.n_q=40 --output try/floquet
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "core/math.hpp"
#include "core/study.hpp"
#include "core/text.hpp"
#include "numerics/eigenvalues.hpp"

namespace {

class FloquetStudy {
 public:
  static constexpr cm::StudyInfo info{"bb_floquet", "basketball", "floquet", "Floquet map of (62), Fig. 9"};

  void declare(cm::Config& c) {
    bb::declare_model_keys(c, p_);
    c.add("grid.q_min", &q_min_, "smallest rho/R of the map").unit("1").range(cm::Range::positive());
    c.add("grid.n_q", &n_q_, "grid points in rho/R up to 1 - a/R").range(cm::Range::closed(2, 100000));
    c.add("grid.j_min", &j_min_, "smallest j of the map").unit("1").range(cm::Range::positive());
    c.add("grid.j_max", &j_max_, "largest j of the map").unit("1").range(cm::Range::positive());
    c.add("grid.n_j", &n_j_, "grid points in j").range(cm::Range::closed(2, 100000));
    c.add("solver.steps", &steps_, "RK4 steps over beta in [0, 2 pi] of the map and the standard ball")
        .range(cm::Range::closed(100, 10000000));
    c.add("floquet.eps", &eps_, "stable iff |tr M| <= 2 + eps (room for the RK4 error of tr M)")
        .unit("1")
        .range(cm::Range::positive());
    c.add("scan.n_q", &scan_n_,
          "points q = k (1 - a/R)/n of the scan for the first unstable q at the paper's j "
          "(its resolution is (1 - a/R)/n)")
        .range(cm::Range::closed(1, 10000000));
    c.add("scan.steps", &scan_steps_,
          "RK4 steps over beta in [0, 2 pi] of each scan point (fewer than "
          "solver.steps: only the sign of |tr M| - 2 - eps is wanted)")
        .range(cm::Range::closed(100, 10000000));
    c.check([&c, this] {
      if (!(1 - p_.a / p_.R > q_min_))
        c.fail("grid.q_min", "must be below 1 - model.a/model.R = " + cm::format_real(1 - p_.a / p_.R));
      if (!(j_max_ > j_min_)) c.fail("grid.j_max", "must exceed grid.j_min");
    });
  }

  void run(cm::Run& run) {
    solve_map(run);
    standard_ball(run);
    first_instability(run);
  }

 private:
  // The map of tr M over (q, j) (Fig. 9).
  void solve_map(cm::Run& run) {
    const double q1 = 1 - p_.a / p_.R;
    auto map = run.table("floquet_map.tsv", "trace of the monodromy matrix of (62); stable iff |tr M| <= 2",
                         {{"q", "1"}, {"j", "1"}, {"trM", "1"}, {"detM", "1"}, {"stable", "1"}},
                         cm::Planned{double(n_q_) * double(n_j_), "grid.n_q"});
    double det_err = 0;
    int stable_small_j = 0, n_small_j = 0;
    const int nq = int(n_q_), nj = int(n_j_);
    for (int k = 0; k < nj; ++k) {
      const double j = j_min_ + (j_max_ - j_min_) * k / (nj - 1);
      for (int i = 0; i < nq; ++i) {
        const double q = q_min_ + (q1 - q_min_) * i / (nq - 1);
        const Eigen::Matrix2d M = bb::monodromy(q, j, int(steps_));
        det_err = std::max(det_err, std::abs(M.determinant() - 1));
        const bool stable = std::abs(M.trace()) <= 2 + eps_;
        if (k == 0) ++n_small_j, stable_small_j += stable;
        map.row({q, j, M.trace(), M.determinant(), stable ? 1.0 : 0.0});
      }
      map.gap();
    }
    run.scalar("detM_error_max", det_err);
    run.scalar("stable_frac_smallest_j", double(stable_small_j) / n_small_j);
  }

  // The standard ball of Table 1 (Fig. 9's circle) and the limit q -> 0.
  void standard_ball(cm::Run& run) {
    const double q_std = p_.rho() / p_.R;
    const Eigen::Matrix2d M = bb::monodromy(q_std, p_.j, int(steps_));
    const Eigen::Vector2cd mu = cm::eigenvalues(M);
    auto standard = run.table("standard.tsv", "the standard ball of Table 1 (Fig. 9's circle)",
                              {{"q", "1"}, {"j", "1"}, {"trM", "1"}}, cm::Planned{1, "model.R"});
    standard.row({q_std, p_.j, M.trace()});
    run.scalar("q_std", q_std);
    run.scalar("trM_std", M.trace());
    run.scalar("detM_std", M.determinant());
    run.scalar("multiplier_max_std", std::max(std::abs(mu(0)), std::abs(mu(1))));
    run.scalar("multiplier_min_std", std::min(std::abs(mu(0)), std::abs(mu(1))));
    run.scalar("trM_q0", bb::monodromy(0.0, p_.j, int(steps_)).trace());
    run.scalar("trM_q0_closed_form", 2 * std::cos(2 * cm::pi * std::sqrt(p_.j / (1 + p_.j))));
  }

  // First instability along q at the paper's j (the boundary of the stable strip at small q).
  void first_instability(cm::Run& run) {
    const double q1 = 1 - p_.a / p_.R;
    double q_first = std::nan("");
    for (long i = 1; i <= scan_n_; ++i) {
      const double q = q1 * double(i) / double(scan_n_);
      if (std::abs(bb::monodromy(q, p_.j, int(scan_steps_)).trace()) > 2 + eps_) {
        q_first = q;
        break;
      }
    }
    run.scalar("q_first_unstable", q_first);
  }

  bb::Parameters p_;
  double q_min_ = 0.005, j_min_ = 0.005, j_max_ = 2.0 / 3.0, eps_ = 1e-8;
  long n_q_ = 200, n_j_ = 134, steps_ = 4000, scan_n_ = 4000, scan_steps_ = 1000;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<FloquetStudy>(argc, argv); }

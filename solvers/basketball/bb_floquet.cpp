// bb_floquet: the Floquet problem (62) of the non-periodic rolling solutions (Sect. 4.3, Fig. 9).
//
// Along a solution with omega1 > 0 (Prop. 5), (omega2, omega3) obey the linear 2-pi-periodic system
// (62) in beta, which depends on q = rho/R and j only. Its monodromy matrix M (classical RK4 over
// beta in [0, 2 pi]) has det M = 1 (Liouville), so the system is stable iff |tr M| <= 2 (Prop. 7).
// The map covers q in (0, 1 - a/R), j in (0, 2/3]; the standard ball (rho/R, j of Table 1) is marked.
//
//   build/bin/bb_floquet --config configs/basketball/floquet.ini --output results/basketball/floquet
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"

namespace {

class FloquetStudy {
 public:
  explicit FloquetStudy(cm::Config& config) : config_(config) {}

  void declare() {
    bb::declare_model_keys(config_);
    config_.add_real("grid.q_min", 0.005, "1", "smallest rho/R", cm::Range::positive());
    config_.add_integer("grid.n_q", 200, "grid points in rho/R up to 1 - a/R", 2, 100000);
    config_.add_real("grid.j_min", 0.005, "1", "smallest j", cm::Range::positive());
    config_.add_real("grid.j_max", 2.0 / 3.0, "1", "largest j", cm::Range::positive());
    config_.add_integer("grid.n_j", 134, "grid points in j", 2, 100000);
    config_.add_integer("solver.steps", 4000, "RK4 steps over beta in [0, 2 pi]", 100, 10000000);
    config_.add_real("floquet.eps", 1e-8, "1", "stable iff |tr M| <= 2 + eps", cm::Range::positive());
  }

  void run() {
    const bb::Parameters p = bb::parameters_from(config_);
    const int nq = int(config_.integer("grid.n_q")), nj = int(config_.integer("grid.n_j"));
    const int steps = int(config_.integer("solver.steps"));
    const double q0 = config_.real("grid.q_min"), q1 = 1 - p.a / p.R;
    const double j0 = config_.real("grid.j_min"), j1 = config_.real("grid.j_max"), eps = config_.real("floquet.eps");
    if (!(q1 > q0)) config_.fail("grid.q_min", "must be below 1 - a/R");
    if (!(j1 > j0)) config_.fail("grid.j_max", "must exceed grid.j_min");

    cm::Run out(config_);
    auto map = out.table("floquet_map.tsv", "trace of the monodromy matrix of (62); stable iff |tr M| <= 2",
                         {{"q", "1"}, {"j", "1"}, {"trM", "1"}, {"detM", "1"}, {"stable", "1"}});
    double det_err = 0;
    int stable_small_j = 0, n_small_j = 0;
    for (int k = 0; k < nj; ++k) {
      const double j = j0 + (j1 - j0) * k / (nj - 1);
      for (int i = 0; i < nq; ++i) {
        const double q = q0 + (q1 - q0) * i / (nq - 1);
        const Eigen::Matrix2d M = bb::monodromy(q, j, steps);
        det_err = std::max(det_err, std::abs(M.determinant() - 1));
        const bool stable = std::abs(M.trace()) <= 2 + eps;
        if (k == 0) ++n_small_j, stable_small_j += stable;
        map.row({q, j, M.trace(), M.determinant(), stable ? 1.0 : 0.0});
      }
      map.gap();
    }
    // The standard ball of Table 1 (Fig. 9's circle) and the limit q -> 0.
    const double q_std = p.rho() / p.R;
    const Eigen::Matrix2d M = bb::monodromy(q_std, p.j, steps);
    const Eigen::Vector2cd mu = Eigen::EigenSolver<Eigen::Matrix2d>(M).eigenvalues();
    auto standard = out.table("standard.tsv", "the standard ball of Table 1 (Fig. 9's circle)",
                              {{"q", "1"}, {"j", "1"}, {"trM", "1"}});
    standard.row({q_std, p.j, M.trace()});
    out.scalar("q_std", q_std);
    out.scalar("trM_std", M.trace());
    out.scalar("detM_std", M.determinant());
    out.scalar("multiplier_max_std", std::max(std::abs(mu(0)), std::abs(mu(1))));
    out.scalar("multiplier_min_std", std::min(std::abs(mu(0)), std::abs(mu(1))));
    out.scalar("detM_error_max", det_err);
    out.scalar("trM_q0", bb::monodromy(0.0, p.j, steps).trace());
    out.scalar("trM_q0_closed_form", 2 * std::cos(2 * cm::pi * std::sqrt(p.j / (1 + p.j))));
    out.scalar("stable_frac_smallest_j", double(stable_small_j) / n_small_j);
    // First instability along q at the paper's j (the boundary of the stable strip at small q).
    double q_first = std::nan("");
    for (int i = 1; i <= 4000; ++i) {
      const double q = q1 * i / 4000;
      if (std::abs(bb::monodromy(q, p.j, 1000).trace()) > 2 + eps) {
        q_first = q;
        break;
      }
    }
    out.scalar("q_first_unstable", q_first);
    out.commit();
  }

 private:
  cm::Config& config_;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("bb_floquet", "basketball", "floquet", "Floquet map of (62), Fig. 9");
    FloquetStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.run();
    return 0;
  });
}

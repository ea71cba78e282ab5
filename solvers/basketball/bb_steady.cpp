// bb_steady: the steady motions of Sect. 3 and their limitations (Figs. 3, 5, 6, 7, 8).
//
// The non-trivial steady motions (47) are x0 = (beta0, 0, omega20(beta0, omega30), omega30) with
// omega20 from (48). On a grid of (beta0, omega30) this study evaluates their linear stability
// h (54) (Fig. 5), the no-slip condition (56) and the falling condition (57) (Fig. 6), the throw
// speed (59) (Fig. 7), and the realisable set (stable, no slip, v <= v_throw) with its regions A, B, C
// (Fig. 8). The printed values are computed: beta* and beta-hat (Sect. 3.2), beta-tilde (Fig. 6,
// from the no-slip boundary at small and large omega30), the eigenvalue of the trivial steady motion
// x0+ (from a finite-difference Jacobian of (33)-(36)) and the lowest throw speed of each region
// (Sect. 3.5, a grid search refined locally).
//
//   build/bin/bb_steady --config configs/basketball/steady.ini --output results/basketball/steady
//   build/bin/bb_steady --config configs/basketball/steady.ini --model.mu=0.5 --limits.v_throw=7
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "common/errors.hpp"
#include "common/optimize.hpp"
#include "common/options.hpp"
#include "common/run.hpp"

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// Region of a steady motion by its contact angle (Fig. 4): A in I, B in IV, C in II; 0 otherwise.
int region(double beta0) {
  if (beta0 > 0 && beta0 < cm::pi / 2) return 1;
  if (beta0 < 0 && beta0 > -cm::pi / 2) return 2;
  if (beta0 > cm::pi / 2 && beta0 < cm::pi) return 3;
  return 0;
}

class SteadyStudy {
 public:
  explicit SteadyStudy(cm::Config& config) : config_(config) {}

  void declare() {
    bb::declare_model_keys(config_);
    config_.add_integer("grid.n_beta", 721, "grid points in beta0 over [-pi, pi]", 3, 100000);
    config_.add_real("grid.omega30_max", 70, "1/s", "the maps cover omega30 in [-max, max]", cm::Range::positive());
    config_.add_integer("grid.n_omega30", 280, "cells in omega30 (cell centres, so omega30 = 0 is avoided)", 2, 100000);
    config_.add_real("limits.v_throw", 10, "m/s", "throw speed of the kinetic-energy limit (58)",
                     cm::Range::positive());
    config_.add_real("limits.v_small", 0.5, "m/s", "a small throw speed: its curves shrink to (+-pi/2, 0)",
                     cm::Range::positive());
    config_.add_integer("search.n", 1500, "grid points per axis of the lowest-speed search of each region", 10, 100000);
    config_.add_real("search.omega30_max", 70, "1/s", "omega30 range (0, max] of the lowest-speed search",
                     cm::Range::positive());
    config_.add_real("limits.omega30_small", 1e-3, "1/s", "omega30 of the small-omega30 limits (beta-tilde)",
                     cm::Range::positive());
    config_.add_real("limits.omega30_large", 1e4, "1/s", "omega30 of the large-omega30 limits (beta*, beta-tilde)",
                     cm::Range::positive());
    config_.assumption("grid.omega30_max", "ASSUMED: the plotted omega30 range is not given (spec T-25)");
  }

  void run() {
    // --- set up -------------------------------------------------------------------------------
    const bb::Parameters p = bb::parameters_from(config_);
    const bb::Model m(p);
    const double v_throw = config_.real("limits.v_throw"), v_small = config_.real("limits.v_small");
    const int nb = int(config_.integer("grid.n_beta")), nw = int(config_.integer("grid.n_omega30"));
    const double wmax = config_.real("grid.omega30_max");
    const auto beta_at = [&](int i) { return -cm::pi + 2 * cm::pi * i / (nb - 1); };
    const auto omega_at = [&](int k) { return -wmax + 2 * wmax * (k + 0.5) / nw; };

    cm::Run out(config_);
    // --- the maps of Figs. 3, 5-8 -----------------------------------------------------------------
    auto map = out.table("steady_map.tsv",
                         "steady motions (48) on the (beta0, omega30) plane: stability h (54), no-slip margin "
                         "(56)/m, normal force (57)/m, throw speed (59), realisable region (1 A, 2 B, 3 C, 0 none)",
                         {{"beta0", "rad"},
                          {"omega30", "1/s"},
                          {"omega20", "1/s"},
                          {"h", "1/s^2"},
                          {"stable", "1"},
                          {"slip_margin", "m/s^2"},
                          {"F2", "m/s^2"},
                          {"v_throw", "m/s"},
                          {"region", "1"}});
    std::array<double, 4> area{};
    std::array<double, 4> w20_min{inf, inf, inf, inf}, w20_max{-inf, -inf, -inf, -inf};
    double slip_without_contact = 0, ke_small_extent = 0;
    const double cell = (2 * cm::pi / (nb - 1)) * (2 * wmax / nw);
    for (int k = 0; k < nw; ++k) {
      const double w3 = omega_at(k);
      for (int i = 0; i < nb; ++i) {
        const double b = beta_at(i), w2 = m.omega20(b, w3), h = m.h(b, w3);
        const double F2 = m.steady_F2(b, w3), F3 = m.steady_F3(b, w3);
        const double margin = p.mu * F2 - std::abs(F3);  // (56); F1 = 0 at a steady motion
        const double v = m.throw_speed(b, w3);
        const bool ok = h < 0 && margin >= 0 && v <= v_throw;
        const int reg = ok ? region(b) : 0;
        if (margin >= 0 && F2 < 0) ++slip_without_contact;  // finite mu: slipping stricter than falling
        if (v <= v_small) ke_small_extent = std::max(ke_small_extent, std::hypot(std::abs(b) - cm::pi / 2, w3 / wmax));
        if (reg > 0 && w3 > 0) {
          area[std::size_t(reg)] += cell;
          w20_min[std::size_t(reg)] = std::min(w20_min[std::size_t(reg)], w2);
          w20_max[std::size_t(reg)] = std::max(w20_max[std::size_t(reg)], w2);
        }
        map.row({b, w3, w2, h, h < 0 ? 1.0 : 0.0, margin, F2, v, double(reg)});
      }
      map.gap();
    }

    // --- the four branches of the family (47)-(48) (Sect. 3.1, Fig. 3) ------------------------------
    out.scalar("branches", double(count_branches(m, nb, nw, beta_at, omega_at)));
    out.scalar("singular_lines_min_abs_omega20", singular_lines_min_abs_omega20(m, wmax), "1/s");

    // --- the printed values (Sect. 3) -------------------------------------------------------------
    const double beta_star = m.beta_star();
    int nroots = 0;
    const auto roots = m.cubic55_roots(nroots);
    const double beta_hat = nroots > 0 ? std::acos(roots[std::size_t(nroots - 1)]) : inf;
    out.scalar("beta_star", beta_star, "rad");
    out.scalar("beta_star_deg", beta_star * 180 / cm::pi, "deg");
    out.scalar("beta_hat", beta_hat, "rad");
    out.scalar("beta_hat_deg", beta_hat * 180 / cm::pi, "deg");
    out.scalar("cubic55_roots_in_interval", nroots);
    out.scalar("beta_star_minus_beta_hat", beta_star - beta_hat, "rad");
    out.scalar("R_minus_rho_1pj", p.R - p.rho() * (1 + p.j), "m");

    // beta* as the limit of the unstable set for large omega30 (QC-3): the zero of h in (0, pi/2).
    const double w_large = config_.real("limits.omega30_large"), w_small = config_.real("limits.omega30_small");
    out.scalar("unstable_limit_large_omega30",
               cm::bisect([&](double b) { return m.h(b, w_large); }, 1e-6, cm::pi / 2 - 1e-6), "rad");
    // For small omega30 the whole inner side |beta0| < pi/2 is unstable (QC-3).
    int inner = 0, inner_unstable = 0;
    for (int i = 1; i < 1000; ++i) {
      const double b = -cm::pi / 2 + cm::pi * i / 1000;
      ++inner, inner_unstable += m.h(b, w_small) > 0;
    }
    out.scalar("inner_unstable_frac_small_omega30", double(inner_unstable) / inner);

    // beta-tilde (Fig. 6): half-width of the no-slip set about pi/2 for small omega30, about 0 for large.
    const auto margin = [&](double b, double w3) { return p.mu * m.steady_F2(b, w3) - std::abs(m.steady_F3(b, w3)); };
    const double up = cm::bisect([&](double b) { return margin(b, w_small); }, cm::pi / 2, cm::pi - 1e-9);
    const double lo = cm::bisect([&](double b) { return margin(b, w_small); }, 1e-9, cm::pi / 2);
    const double in_hi = cm::bisect([&](double b) { return margin(b, w_large); }, 0, cm::pi / 2 - 1e-9);
    const double in_lo = cm::bisect([&](double b) { return margin(b, w_large); }, -cm::pi / 2 + 1e-9, 0);
    out.scalar("beta_tilde", 0.5 * (up - lo), "rad");
    out.scalar("beta_tilde_deg", 0.5 * (up - lo) * 180 / cm::pi, "deg");
    out.scalar("beta_tilde_large_omega30", 0.5 * (in_hi - in_lo), "rad");
    out.scalar("slip_without_contact_cells", slip_without_contact);

    // The trivial steady motion x0+ = (pi/2, 0, omega20, 0) (Prop. 1): its positive eigenvalue.
    double lambda_max = -inf, lambda_min = inf;
    for (double w2 : {0.0, 10.0, 50.0, -30.0}) {
      const double lam = jacobian_eigen_max(m, bb::Rolling(cm::pi / 2, 0, w2, 0));
      lambda_max = std::max(lambda_max, lam), lambda_min = std::min(lambda_min, lam);
    }
    out.scalar("lambda_trivial", lambda_max, "1/s");
    out.scalar("lambda_trivial_spread", lambda_max - lambda_min, "1/s");
    out.scalar("F2_trivial_bottom", m.normal_force(bb::Slipping(-cm::pi / 2, 0, 0, 0, 0, 0)), "m/s^2");

    // Lowest throw speed at which each region exists (Sect. 3.5), omega30 > 0.
    const int n = int(config_.integer("search.n"));
    const double smax = config_.real("search.omega30_max");
    const std::array<std::array<double, 2>, 3> ranges{{{0, cm::pi / 2}, {-cm::pi / 2, 0}, {cm::pi / 2, cm::pi}}};
    const char* names[3] = {"A", "B", "C"};
    for (int r = 0; r < 3; ++r) {
      auto [b0, b1] = ranges[std::size_t(r)];
      double best = inf, bb_ = 0, bw = 0;
      double w0 = 0, w1 = smax;
      for (int pass = 0; pass < 4; ++pass) {  // a grid search, then three refinements around the best
        for (int i = 1; i < n; ++i)
          for (int k = 1; k <= n; ++k) {
            const double b = b0 + (b1 - b0) * i / n, w3 = w0 + (w1 - w0) * k / n;
            if (w3 <= 0 || m.h(b, w3) >= 0 || margin(b, w3) < 0) continue;
            const double v = m.throw_speed(b, w3);
            if (v < best) best = v, bb_ = b, bw = w3;
          }
        const double db = 4 * (b1 - b0) / n, dw = 4 * (w1 - w0) / n;
        b0 = std::max(ranges[std::size_t(r)][0], bb_ - db), b1 = std::min(ranges[std::size_t(r)][1], bb_ + db);
        w0 = std::max(0.0, bw - dw), w1 = bw + dw;
      }
      out.scalar(std::string("v_min_") + names[r], best, "m/s");
      out.scalar(std::string("v_min_") + names[r] + "_beta0", bb_, "rad");
      out.scalar(std::string("v_min_") + names[r] + "_omega30", bw, "1/s");
      out.scalar(std::string("area_") + names[r], area[std::size_t(r + 1)], "rad/s");
      out.scalar(std::string("omega20_min_") + names[r], w20_min[std::size_t(r + 1)], "1/s");
      out.scalar(std::string("omega20_max_") + names[r], w20_max[std::size_t(r + 1)], "1/s");
    }
    out.scalar("area_A_minus_max_BC", area[1] - std::max(area[2], area[3]), "rad/s");
    out.scalar("ke_small_extent", ke_small_extent);
    out.commit();
  }

 private:
  // The branches of the steady motions: grid points of the (beta0, omega30) map (beta periodic)
  // joined to their neighbours whenever omega20 (48) stays bounded on the segment between them
  // (65 samples, the midpoint among them; "bounded" = within 10 times the larger end value).
  // The singular lines are not assumed: a segment across one meets the divergence of (48).
  template <class B, class W>
  static int count_branches(const bb::Model& m, int nb, int nw, B&& beta_at, W&& omega_at) {
    std::vector<int> parent(std::size_t(nb * nw));
    for (std::size_t c = 0; c < parent.size(); ++c) parent[c] = int(c);
    const auto find = [&](int c) {
      while (parent[std::size_t(c)] != c) c = parent[std::size_t(c)] = parent[std::size_t(parent[std::size_t(c)])];
      return c;
    };
    const auto valid = [&](int i, int k) { return std::isfinite(m.omega20(beta_at(i), omega_at(k))); };
    const auto bounded = [&](double b0, double w0, double b1, double w1) {
      const double bound = 10 * std::max(std::abs(m.omega20(b0, w0)), std::abs(m.omega20(b1, w1))) + 1;
      for (int s = 0; s <= 64; ++s) {
        const double t = s / 64.0, v = m.omega20(b0 + t * (b1 - b0), w0 + t * (w1 - w0));
        if (!(std::abs(v) <= bound)) return false;
      }
      return true;
    };
    // |cos(beta0)| ~ 1e-16 on the grid points beta0 = +-pi/2 themselves: no steady motion there.
    const auto on_line = [&](int i) { return std::abs(std::cos(beta_at(i))) < 1e-12; };
    for (int k = 0; k < nw; ++k)
      for (int i = 0; i + 1 < nb; ++i) {
        if (on_line(i) || !valid(i, k)) continue;
        int n = i + 1;
        while (n < nb && on_line(n)) ++n;  // the next point off the line
        if (n < nb && bounded(beta_at(i), omega_at(k), beta_at(n), omega_at(k)))
          parent[std::size_t(find(k * nb + i))] = find(k * nb + n);
        if (k + 1 < nw && bounded(beta_at(i), omega_at(k), beta_at(i), omega_at(k + 1)))
          parent[std::size_t(find(k * nb + i))] = find((k + 1) * nb + i);
      }
    for (int k = 0; k < nw; ++k)  // beta0 = -pi and pi are the same state
      parent[std::size_t(find(k * nb))] = find(k * nb + nb - 1);
    int branches = 0;
    for (int k = 0; k < nw; ++k)
      for (int i = 0; i < nb; ++i)
        if (!on_line(i) && find(k * nb + i) == k * nb + i) ++branches;
    return branches;
  }

  // (48) diverges along beta0 = +-pi/2 and omega30 = 0: the smallest |omega20| at 1e-6 off the
  // lines, at least 0.1 away from their crossings (where the limit depends on the path, spec T-24).
  static double singular_lines_min_abs_omega20(const bb::Model& m, double wmax) {
    double least = inf;
    for (int s = 0; s <= 200; ++s) {
      const double w3 = 0.1 + (wmax - 0.1) * s / 200, b = -cm::pi + 0.1 + (2 * cm::pi - 0.2) * s / 200;
      for (double line : {-cm::pi / 2, cm::pi / 2})
        for (double side : {-1e-6, 1e-6})
          for (double sign : {-1.0, 1.0}) least = std::min(least, std::abs(m.omega20(line + side, sign * w3)));
      if (std::abs(std::abs(b) - cm::pi / 2) < 0.1) continue;
      for (double side : {-1e-6, 1e-6}) least = std::min(least, std::abs(m.omega20(b, side)));
    }
    return least;
  }

  // Largest real part among the eigenvalues of the central-difference Jacobian of (33)-(36).
  static double jacobian_eigen_max(const bb::Model& m, const bb::Rolling& x) {
    return Eigen::EigenSolver<Eigen::Matrix4d>(m.rolling_jacobian(x)).eigenvalues().real().maxCoeff();
  }

  cm::Config& config_;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("bb_steady", "basketball", "steady", "Steady motions and their limitations, Sect. 3");
    SteadyStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.run();
    return 0;
  });
}

// bb_steady: the steady motions of Sect. 3 and their limitations (Figs. 3, 5, 6, 7, 8).
//
// Problem: the non-trivial steady motions (47) are x0 = (beta0, 0, omega20(beta0, omega30), omega30)
// with omega20 from (48). On a grid of (beta0, omega30) this study evaluates their linear stability
// h (54) (Fig. 5), the no-slip condition (56) and the falling condition (57) (Fig. 6), the throw
// speed (59) (Fig. 7), and the realisable set (stable, no slip, v <= v_throw) with its regions A, B, C
// (Fig. 8). The printed values are computed: beta* and beta-hat (Sect. 3.2), and beta-tilde (Fig. 6,
// from the no-slip boundary at small and large omega30). So are the eigenvalue of the trivial
// steady motion x0+ and the double zero eigenvalue (52) of every steady motion of the grid, both
// from a finite-difference Jacobian of (33)-(36). So is the lowest throw speed of each region
// (Sect. 3.5), inside the region or on its boundary h = 0 or (56): the minimum over each omega30
// slice, then over omega30, each by golden section after a grid search, so to rounding.
//
// Sample runs (into a scratch folder, never over the pipeline's results/):
//   bb_steady --config configs/basketball/steady.ini --output try/steady
//   bb_steady --config configs/basketball/steady.ini --model.mu=0.5 --limits.v_throw=7 --output try/steady
#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "core/math.hpp"
#include "core/study.hpp"
#include "numerics/eigenvalues.hpp"
#include "numerics/optimize.hpp"

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// Region of a steady motion by its contact angle (Fig. 4): A in I, B in IV, C in II; 0 otherwise.
int region(double beta0) {
  if (beta0 > 0 && beta0 < cm::pi / 2) return 1;
  if (beta0 < 0 && beta0 > -cm::pi / 2) return 2;
  if (beta0 > cm::pi / 2 && beta0 < cm::pi) return 3;
  return 0;
}

// The lowest throw speed of a region and where it is.
struct Lowest {
  double v = inf, beta0 = 0, omega30 = 0;
  bool on_boundary = false;  // on the boundary h = 0 or (56) of the region (within 1e-6 rad)
};

class SteadyStudy {
 public:
  static constexpr cm::StudyInfo info{"bb_steady", "basketball", "steady",
                                      "Steady motions and their limitations, Sect. 3"};

  void declare(cm::Config& c) {
    bb::declare_model_keys(c, p_);
    c.add("grid.n_beta", &n_beta_, "grid points in beta0 over [-pi, pi]").range(cm::Range::closed(3, 100000));
    c.add("grid.omega30_max", &omega30_max_, "the maps cover omega30 in [-max, max]")
        .unit("1/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the plotted omega30 range is not given (spec T-25)");
    c.add("grid.n_omega30", &n_omega30_, "cells in omega30 (cell centres, so omega30 = 0 is avoided)")
        .range(cm::Range::closed(2, 100000));
    c.add("limits.v_throw", &v_throw_, "throw speed of the kinetic-energy limit (58)")
        .unit("m/s")
        .range(cm::Range::positive());
    c.add("limits.v_small", &v_small_, "a small throw speed (below limits.v_throw): its curves shrink to (+-pi/2, 0)")
        .unit("m/s")
        .range(cm::Range::positive());
    c.add("search.n", &search_n_, "grid points per axis of the lowest-speed search of each region")
        .range(cm::Range::closed(10, 100000));
    c.add("search.omega30_max", &search_omega30_max_, "omega30 range (0, max] of the lowest-speed search")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("limits.omega30_small", &omega30_small_, "omega30 of the small-omega30 limits (beta-tilde)")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("limits.omega30_large", &omega30_large_, "omega30 of the large-omega30 limits (beta*, beta-tilde)")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("limits.n_inner", &n_inner_,
          "sample angles over (-pi/2, pi/2) of the check that the inner side is unstable at small omega30 (QC-3)")
        .range(cm::Range::closed(2, 10000000));
    c.add("trivial.omega20", &trivial_omega20_,
          "omega20 of the trivial steady motions x0+ whose eigenvalue is computed (it must not depend on it)")
        .unit("1/s");
    c.check([&c, this] {
      if (!(omega30_small_ < omega30_large_))
        c.fail("limits.omega30_small", "must be below limits.omega30_large (the small- and large-omega30 limits)");
      if (!(v_small_ < v_throw_)) c.fail("limits.v_small", "must be below limits.v_throw");
      if (trivial_omega20_.empty()) c.fail("trivial.omega20", "needs at least one value");
    });
  }

  void run(cm::Run& run) {
    setup();
    maps(run);                 // Figs. 3, 5-8
    branches(run);             // Sect. 3.1, Fig. 3
    printed_values(run);       // Sects. 3.1-3.3
    lowest_throw_speeds(run);  // Sect. 3.5
  }

 private:
  void setup() {
    m_.emplace(p_);
    nb_ = int(n_beta_), nw_ = int(n_omega30_);
  }
  double beta_at(int i) const { return -cm::pi + 2 * cm::pi * i / (nb_ - 1); }
  double omega_at(int k) const { return -omega30_max_ + 2 * omega30_max_ * (k + 0.5) / nw_; }
  // The no-slip margin (56) per unit mass; F1 = 0 at a steady motion.
  double margin(double b, double w3) const { return p_.mu * m_->steady_F2(b, w3) - std::abs(m_->steady_F3(b, w3)); }

  // --- the maps of Figs. 3, 5-8 -----------------------------------------------------------------
  void maps(cm::Run& run) {
    const bb::Model& m = *m_;
    auto map = run.table("steady_map.tsv",
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
                          {"region", "1"}},
                         cm::Planned{double(nb_) * double(nw_), "grid.n_beta"});
    double slip_without_contact = 0, ke_small_extent = 0, zero_max = 0;
    const double cell = (2 * cm::pi / (nb_ - 1)) * (2 * omega30_max_ / nw_);
    for (int k = 0; k < nw_; ++k) {
      const double w3 = omega_at(k);
      for (int i = 0; i < nb_; ++i) {
        const double b = beta_at(i), w2 = m.omega20(b, w3), h = m.h(b, w3);
        const double F2 = m.steady_F2(b, w3), F3 = m.steady_F3(b, w3);
        const double margin = p_.mu * F2 - std::abs(F3);  // (56); F1 = 0 at a steady motion
        const double v = m.throw_speed(b, w3);
        const bool ok = h < 0 && margin >= 0 && v <= v_throw_;
        const int reg = ok ? region(b) : 0;
        if (margin >= 0 && F2 < 0) ++slip_without_contact;  // finite mu: slipping stricter than falling
        if (v <= v_small_)
          ke_small_extent = std::max(ke_small_extent, std::hypot(std::abs(b) - cm::pi / 2, w3 / omega30_max_));
        if (reg > 0 && w3 > 0) {
          area_[std::size_t(reg)] += cell;
          w20_min_[std::size_t(reg)] = std::min(w20_min_[std::size_t(reg)], w2);
          w20_max_[std::size_t(reg)] = std::max(w20_max_[std::size_t(reg)], w2);
        }
        map.row({b, w3, w2, h, h < 0 ? 1.0 : 0.0, margin, F2, v, double(reg)});
        // (52): the two eigenvalues of least modulus of the linearisation (51) of (33)-(36), taken
        // as the central-difference Jacobian of the vector field itself, relative to its norm (no
        // steady motion on the line cos(beta0) = 0, which the grid points +-pi/2 reach to rounding)
        if (std::abs(std::cos(b)) >= 1e-12) zero_max = std::max(zero_max, zero_eigenvalues_rel(m, {b, 0.0, w2, w3}));
      }
      map.gap();
    }
    run.scalar("slip_without_contact_cells", slip_without_contact);
    run.scalar("zero_eigenvalues_max_rel", zero_max);
    run.scalar("ke_small_extent", ke_small_extent);
  }

  // --- the four branches of the family (47)-(48) (Sect. 3.1, Fig. 3) ------------------------------
  void branches(cm::Run& run) {
    run.scalar("branches", double(count_branches()));
    run.scalar("singular_lines_min_abs_omega20", singular_lines_min_abs_omega20(*m_, omega30_max_), "1/s");
  }

  // --- the printed values (Sect. 3) -------------------------------------------------------------
  void printed_values(cm::Run& run) {
    const bb::Model& m = *m_;
    const double beta_star = m.beta_star();
    int nroots = 0;
    const auto roots = m.cubic55_roots(nroots);
    const double beta_hat = nroots > 0 ? std::acos(roots[std::size_t(nroots - 1)]) : inf;
    run.scalar("beta_star", beta_star, "rad");
    run.scalar("beta_star_deg", beta_star * 180 / cm::pi, "deg");
    run.scalar("beta_hat", beta_hat, "rad");
    run.scalar("beta_hat_deg", beta_hat * 180 / cm::pi, "deg");
    run.scalar("cubic55_roots_in_interval", nroots);
    run.scalar("beta_star_minus_beta_hat", beta_star - beta_hat, "rad");
    run.scalar("R_minus_rho_1pj", p_.R - p_.rho() * (1 + p_.j), "m");

    // beta* as the limit of the unstable set for large omega30 (QC-3): the zero of h in (0, pi/2).
    const double w_large = omega30_large_, w_small = omega30_small_;
    run.scalar("unstable_limit_large_omega30",
               cm::bisect([&](double b) { return m.h(b, w_large); }, 1e-6, cm::pi / 2 - 1e-6), "rad");
    // For small omega30 the whole inner side |beta0| < pi/2 is unstable (QC-3).
    long inner = 0, inner_unstable = 0;
    for (long i = 1; i < n_inner_; ++i) {
      const double b = -cm::pi / 2 + cm::pi * double(i) / double(n_inner_);
      ++inner, inner_unstable += m.h(b, w_small) > 0;
    }
    run.scalar("inner_unstable_frac_small_omega30", double(inner_unstable) / double(inner));

    // beta-tilde (Fig. 6): half-width of the no-slip set about pi/2 for small omega30, about 0 for large.
    const auto margin_at = [&](double w3) { return [this, w3](double b) { return margin(b, w3); }; };
    const double up = cm::bisect(margin_at(w_small), cm::pi / 2, cm::pi - 1e-9);
    const double lo = cm::bisect(margin_at(w_small), 1e-9, cm::pi / 2);
    const double in_hi = cm::bisect(margin_at(w_large), 0, cm::pi / 2 - 1e-9);
    const double in_lo = cm::bisect(margin_at(w_large), -cm::pi / 2 + 1e-9, 0);
    if (!std::isfinite(up - lo) || !std::isfinite(in_hi - in_lo))
      throw cm::InputError(
          "limits.omega30_small, limits.omega30_large, model.mu (with model.r, a, R, j, g): the no-slip condition "
          "(56) has no boundary to bracket at these omega30 (beta-tilde undefined)");
    run.scalar("beta_tilde", 0.5 * (up - lo), "rad");
    run.scalar("beta_tilde_deg", 0.5 * (up - lo) * 180 / cm::pi, "deg");
    run.scalar("beta_tilde_large_omega30", 0.5 * (in_hi - in_lo), "rad");

    // The trivial steady motion x0+ = (pi/2, 0, omega20, 0) (Prop. 1): its positive eigenvalue.
    double lambda_max = -inf, lambda_min = inf;
    for (double w2 : trivial_omega20_) {
      const double lam = jacobian_eigen_max(m, bb::Rolling(cm::pi / 2, 0, w2, 0));
      lambda_max = std::max(lambda_max, lam), lambda_min = std::min(lambda_min, lam);
    }
    run.scalar("lambda_trivial", lambda_max, "1/s");
    run.scalar("lambda_trivial_spread", lambda_max - lambda_min, "1/s");
    run.scalar("F2_trivial_bottom", m.normal_force(bb::Slipping(-cm::pi / 2, 0, 0, 0, 0, 0)), "m/s^2");
  }

  // --- lowest throw speed at which each region exists (Sect. 3.5), omega30 > 0 ---------------------
  void lowest_throw_speeds(cm::Run& run) {
    const std::array<std::array<double, 2>, 3> ranges{{{0, cm::pi / 2}, {-cm::pi / 2, 0}, {cm::pi / 2, cm::pi}}};
    const char* names[3] = {"A", "B", "C"};
    for (int r = 0; r < 3; ++r) {
      const Lowest low = lowest(ranges[std::size_t(r)]);
      const std::string name = names[r];
      run.scalar("v_min_" + name, low.v, "m/s");
      run.scalar("v_min_" + name + "_beta0", low.beta0, "rad");
      run.scalar("v_min_" + name + "_omega30", low.omega30, "1/s");
      run.scalar("v_min_" + name + "_on_boundary", low.on_boundary ? 1.0 : 0.0);
      run.scalar("area_" + name, area_[std::size_t(r + 1)], "rad/s");
      run.scalar("omega20_min_" + name, w20_min_[std::size_t(r + 1)], "1/s");
      run.scalar("omega20_max_" + name, w20_max_[std::size_t(r + 1)], "1/s");
    }
    run.scalar("area_A_minus_max_BC", area_[1] - std::max(area_[2], area_[3]), "rad/s");
  }

  // Realisable without the speed limit: stable (h < 0, (54)) and no slip ((56)).
  bool feasible(double b, double w3) const { return w3 > 0 && m_->h(b, w3) < 0 && margin(b, w3) >= 0; }
  // The throw speed (59) where realisable, +inf elsewhere: its minimum over a bracket lies inside
  // the set or on its boundary (h = 0 or (56)), where the golden section closes in from inside.
  double speed(double b, double w3) const { return feasible(b, w3) ? m_->throw_speed(b, w3) : inf; }

  // The lowest speed S(omega30) over the region's slice at omega30: the best of search.n angles,
  // then a golden section within one grid cell of it, closing to the last bit on the slice's
  // minimum (inside the set, or on its boundary). NaN angle when the slice is not realisable.
  cm::Extremum slice_minimum(const std::array<double, 2>& range, double w3) const {
    const long n = search_n_;
    const double cell = (range[1] - range[0]) / double(n);
    cm::Extremum best{std::nan(""), inf};
    for (long i = 1; i < n; ++i) {
      const double b = range[0] + (range[1] - range[0]) * double(i) / double(n), v = speed(b, w3);
      if (v < best.f) best = {b, v};
    }
    if (!std::isfinite(best.f)) return best;
    const cm::Extremum refined =
        cm::golden_section_minimum([&](double b) { return speed(b, w3); }, std::max(range[0], best.x - cell),
                                   std::min(range[1], best.x + cell), 0.0, golden_iterations);
    return refined.f <= best.f ? refined : best;
  }

  // The lowest throw speed of a region (Sect. 3.5): S(omega30) on search.n values of omega30 in
  // (0, search.omega30_max], then a golden section of S within one cell of the best. S is exact
  // at each omega30 (to rounding), so the result is the region's minimum to rounding as soon as
  // the grid resolves the basin it lies in: it does not move with search.n (a grid value would,
  // at about 1e-3 relative at the default search.n).
  Lowest lowest(const std::array<double, 2>& range) const {
    const long n = search_n_;
    const double wmax = search_omega30_max_, cell = wmax / double(n);
    Lowest low;
    for (long k = 1; k <= n; ++k) {
      const double w3 = wmax * double(k) / double(n);
      const cm::Extremum s = slice_minimum(range, w3);
      if (s.f < low.v) low.v = s.f, low.beta0 = s.x, low.omega30 = w3;
    }
    if (!std::isfinite(low.v)) return low;
    const auto S = [&](double w3) { return slice_minimum(range, w3).f; };
    const cm::Extremum w = cm::golden_section_minimum(S, std::max(0.0, low.omega30 - cell),
                                                      std::min(wmax, low.omega30 + cell), 0.0, golden_iterations);
    if (w.f <= low.v) {
      low.v = w.f, low.omega30 = w.x, low.beta0 = slice_minimum(range, w.x).x;
      low.on_boundary = !feasible(low.beta0 + 1e-6, w.x) || !feasible(low.beta0 - 1e-6, w.x);
    }
    return low;
  }

  // Golden-section steps: 0.618^120 ~ 1e-25 of the bracket, past the last bit of any bracket here.
  static constexpr long golden_iterations = 120;

  // The branches of the steady motions: grid points of the (beta0, omega30) map (beta periodic)
  // joined to their neighbours whenever omega20 (48) stays bounded on the segment between them
  // (65 samples, the midpoint among them; "bounded" = within 10 times the larger end value).
  // The singular lines are not assumed: a segment across one meets the divergence of (48).
  int count_branches() const {
    const bb::Model& m = *m_;
    const int nb = nb_, nw = nw_;
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

  // The larger modulus of the two eigenvalues of least modulus of the central-difference Jacobian
  // of (33)-(36) at x, over the Jacobian's (Frobenius) norm: zero for the double zero of (52).
  static double zero_eigenvalues_rel(const bb::Model& m, const bb::Rolling& x) {
    const Eigen::Matrix4d J = m.rolling_jacobian(x);
    Eigen::Vector4d modulus = cm::eigenvalues(J).cwiseAbs();
    std::sort(modulus.begin(), modulus.end());
    return modulus(1) / J.norm();
  }

  // Largest real part among the eigenvalues of the central-difference Jacobian of (33)-(36).
  static double jacobian_eigen_max(const bb::Model& m, const bb::Rolling& x) {
    return cm::eigenvalues(m.rolling_jacobian(x)).real().maxCoeff();
  }

  bb::Parameters p_;
  long n_beta_ = 721, n_omega30_ = 280, search_n_ = 1500, n_inner_ = 1000;
  double omega30_max_ = 70, v_throw_ = 10, v_small_ = 0.5, search_omega30_max_ = 70;
  double omega30_small_ = 1e-3, omega30_large_ = 1e4;
  std::vector<double> trivial_omega20_{0.0, 10.0, 50.0, -30.0};
  std::optional<bb::Model> m_;
  int nb_ = 0, nw_ = 0;
  std::array<double, 4> area_{};
  std::array<double, 4> w20_min_{inf, inf, inf, inf}, w20_max_{-inf, -inf, -inf, -inf};
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<SteadyStudy>(argc, argv); }

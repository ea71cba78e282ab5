// bb_global: the global dynamics of the rolling ball (Sect. 4) and the claims about the dissipative
// system (83) and the roll-slip switch (Sect. 5.2.1) that the paper states from its simulations.
//
// Sect. 4 is about the rolling equations (33)-(36) as an ODE on R^4 (the contact condition F2 >= 0
// plays no part there), and so is this study. It checks, by sampling:
//   QC-7   generic solutions are periodic (two transversal zeros of omega1, Prop. 4), and a solution
//          with omega2 = omega3 = 0 and E > g rho (per unit mass) rotates for ever (Prop. 6);
//   QC-9   the coefficient system (66) of the conserved quantity (65) has exponentially growing
//          oscillating solutions (its monodromy matrix over beta in [0, 2 pi]);
//   QC-21  the connections of the saddles are homoclinic: each branch of the unstable manifold of a
//          saddle (a non-trivial steady motion with h > 0, eq. (54), or a trivial one x0+, Prop. 1)
//          is followed until omega1 has a transversal zero; by the time-reverse symmetry (61) the
//          branch then returns to the saddle it left (homoclinic). A branch that instead settles on
//          another equilibrium with omega1 of one sign is heteroclinic; one that does neither by
//          the time limit is unresolved;
//   QC-19  (83) has no equilibria: Newton's method from random starts on the dissipative vector
//          field, and the residual of (83) on the steady motions that drilling or rolling
//          resistance alone leaves untouched;
//   QC-20  the limit directions of the slip (Sect. 5.2.1) found from the slipping equations (42)
//          themselves (the rays u -> 0 along which the slip direction is stationary): the one along
//          which the slip decays fastest (phi2) always attracts, the other (phi1) attracts exactly
//          when the no-slip condition (39) holds.
//
// Sample runs (into a scratch folder, never over the pipeline's results/):
//   bb_global --config configs/basketball/quick/global.ini --output try/global
//   bb_global --config configs/basketball/global.ini --model.R=0.5 --sampling.n_states=200 --output try/global
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "core/math.hpp"
#include "core/study.hpp"
#include "numerics/eigenvalues.hpp"
#include "numerics/optimize.hpp"
#include "numerics/sundials.hpp"

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// A rolling trajectory of (33)-(36) followed up to the zeros of omega1 (a root of the integrator).
struct Zeros {
  std::vector<double> t;     ///< times of the zeros of omega1
  std::vector<double> rate;  ///< d omega1/dt there (transversal iff not ~0)
  bb::Rolling end;           ///< state at the last zero or at t_max
  double t_end = 0;          ///< time of `end`
  double beta_travel = 0;    ///< largest |beta(t) - beta(0)| seen at the stops
};

Zeros follow_zeros(const bb::Model& m, const bb::Rolling& x0, double t_max, int wanted,
                   const cm::IntegratorOptions& integrator) {
  auto ode = cm::make_integrator(
      integrator.method, [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = m.rolling_rhs(x); },
      Eigen::VectorXd(x0), 0.0, integrator.tolerances());
  ode->set_roots(1, [](double, cm::ConstVectorRef x, cm::VectorRef g) { g(0) = x(1); });
  ode->set_stop_time(t_max);
  ode->set_max_steps(integrator.max_steps);
  Zeros z;
  z.end = x0;
  while (int(z.t.size()) < wanted) {
    const cm::Step s = ode->advance(t_max);
    z.end = s.y;
    z.t_end = s.t;
    z.beta_travel = std::max(z.beta_travel, std::abs(s.y(0) - x0(0)));
    if (!s.root) break;  // t_max
    z.t.push_back(s.t);
    z.rate.push_back(m.rolling_rhs(z.end)(1));
  }
  return z;
}

class GlobalStudy {
 public:
  static constexpr cm::StudyInfo info{"bb_global", "basketball", "global",
                                      "Global dynamics of rolling (Sect. 4), claims checked by sampling"};

  void declare(cm::Config& c) {
    bb::declare_model_keys(c, p_);
    cm::declare_integrator_keys(c, integrator_, "solver");
    c.add("sampling.seed", &sampling_seed_, "seed of the random samples").range(cm::Range::closed(0, 4294967295));
    c.add("sampling.n_states", &sampling_n_states_, "random rolling states of the periodicity check (QC-7)")
        .range(cm::Range::closed(1, 10000000));
    c.add("sampling.omega1_max", &sampling_omega1_max_, "the states have |omega1| <= this")
        .unit("1/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper does not say which states its simulations used");
    c.add("sampling.omega2_max", &sampling_omega2_max_, "the states have |omega2| <= this")
        .unit("1/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper does not say which states its simulations used");
    c.add("sampling.omega3_max", &sampling_omega3_max_, "the states have |omega3| <= this")
        .unit("1/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper does not say which states its simulations used");
    c.add("periodic.t_max", &periodic_t_max_, "a state without two zeros of omega1 by then is not periodic")
        .unit("s")
        .range(cm::Range::positive());
    c.add("periodic.transversal", &periodic_transversal_, "|d omega1/dt| above which a zero is transversal")
        .unit("1/s^2")
        .range(cm::Range::positive());
    c.add("pendulum.n_states", &pendulum_n_states_, "states with omega2 = omega3 = 0 and E > g rho (Prop. 6)")
        .range(cm::Range::closed(1, 1000000));
    c.add("pendulum.revolutions", &pendulum_revolutions_, "revolutions in beta followed without a zero of omega1")
        .range(cm::Range::closed(1, 1000000));
    c.add("saddles.n_beta", &saddles_n_beta_, "beta0 samples of the non-trivial saddles over (-pi, pi)")
        .range(cm::Range::closed(2, 100000));
    c.add("saddles.n_omega30", &saddles_n_omega30_, "omega30 samples of the non-trivial saddles, each sign")
        .range(cm::Range::closed(1, 100000));
    c.add("saddles.omega30_max", &saddles_omega30_max_, "largest |omega30| of the saddles")
        .unit("1/s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: the paper does not say which saddles it followed");
    c.add("saddles.omega20_max", &saddles_omega20_max_, "saddles with a larger |omega20| (48) are skipped")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("saddles.rate_min", &saddles_rate_min_, "saddles with sqrt(h) below this are skipped (slow escape)")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("saddles.n_trivial", &saddles_n_trivial_, "trivial saddles x0+ with omega20 in [-max, max]")
        .range(cm::Range::closed(1, 100000));
    c.add("saddles.epsilon", &saddles_epsilon_, "start offset along the unstable eigenvector (relative)")
        .unit("1")
        .range(cm::Range::positive());
    c.add("saddles.t_max", &saddles_t_max_, "a branch without a zero of omega1 by then is not homoclinic")
        .unit("s")
        .range(cm::Range::positive());
    c.add("saddles.equilibrium_rate", &saddles_equilibrium_rate_,
          "a branch's end is at an equilibrium if |f| is below this times the state's scale")
        .unit("1")
        .range(cm::Range::positive());
    c.add("floquet.steps", &floquet_steps_, "RK4 steps of (66) over beta in [0, 2 pi]")
        .range(cm::Range::closed(100, 100000000));
    // Both groups at once, each strictly positive: (83) as a whole.
    auto [drilling, rolling] = bb::declare_dissipation_keys(c, dissipation_k_d_, dissipation_k_r_);
    drilling.range(cm::Range::positive())
        .assumption("STATED for Figs. 11-13 (k_d = 0.02); used here for (83) as a whole");
    rolling.range(cm::Range::positive())
        .assumption("STATED for Figs. 11-13 (k_r = 0.02); used here for (83) as a whole");
    c.add("newton.n_starts", &newton_n_starts_, "random starts of the equilibrium search of (83)")
        .range(cm::Range::closed(1, 10000000));
    c.add("switch.n_states", &switch_n_states_, "random rolling states with F2 > 0 for the limit directions (QC-20)")
        .range(cm::Range::closed(1, 10000000));
    c.add("switch.n_phi", &switch_n_phi_, "slip directions scanned for the stationary rays of (42)")
        .range(cm::Range::closed(8, 10000000));
    c.add("switch.u", &switch_u_, "slip speed at which (42) is evaluated for the rays")
        .unit("m/s")
        .range(cm::Range::positive());
    c.add("dissipation.omega30", &dissipation_omega30_,
          "omega30 of the steady motion with omega20 = 0 checked to stay an equilibrium under drilling alone")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("newton.iterations", &newton_iterations_, "Newton steps of the equilibrium search of (83) from each start")
        .range(cm::Range::closed(1, 100000));
    c.add("newton.ftol", &newton_ftol_,
          "|f| below this times max(1, |x|) is an equilibrium of (83) (rounding of f is ~1e-14 here)")
        .unit("1")
        .range(cm::Range::positive());
    c.add("newton.spin", &newton_spin_,
          "an equilibrium of (83) with |(omega1, omega2, omega3)| above this spins, else it is at rest")
        .unit("1/s")
        .range(cm::Range::positive());
    c.add("saddles.elsewhere", &saddles_elsewhere_,
          "a branch ending at an equilibrium farther than this (relative) from its saddle is heteroclinic")
        .unit("1")
        .range(cm::Range::positive());
    c.add("switch.borderline", &switch_borderline_,
          "|slip margin (39)| below this times (|F2| + 1) is on the friction cone's edge, where its sign is "
          "round-off, and is not counted")
        .unit("1")
        .range(cm::Range::positive());
    c.add("pendulum.excess", &pendulum_excess_,
          "range of (E - g rho)/(g rho) of the states of Prop. 6 (above the top of the rim)")
        .unit("1")
        .size(2)
        .increasing()
        .range(cm::Range::positive());
  }

  void run(cm::Run& out) {
    const bb::Model m(p_);
    rng_.seed(std::uint32_t(sampling_seed_));
    quiet_ = out.quiet();

    periodic_solutions(m, out);       // QC-7
    pendulum_rotations(m, out);       // QC-7, Prop. 6
    saddle_connections(m, out);       // QC-21
    coefficient_system(p_, out);      // QC-9
    dissipative_equilibria(p_, out);  // QC-19
    limit_directions(m, out);         // QC-20
  }

 private:
  // --- QC-7: generic solutions are periodic (Props. 3, 4) -----------------------------------------
  void periodic_solutions(const bb::Model& m, cm::Run& out) {
    const long n = sampling_n_states_;
    const double t_max = periodic_t_max_, transversal = periodic_transversal_;
    auto table = out.table("periodic.tsv",
                           "random rolling states: periodic (1) when omega1 has two transversal zeros by t_max "
                           "(Prop. 4); the period 2 (t2 - t1) and the error of x(t1 + period) against x(t1)",
                           {{"beta", "rad"},
                            {"omega1", "1/s"},
                            {"omega2", "1/s"},
                            {"omega3", "1/s"},
                            {"periodic", "1"},
                            {"period", "s"},
                            {"return_error", "1"}},
                           cm::Planned{double(n), "sampling.n_states"});
    long periodic = 0;
    double worst_return = 0, longest = 0;
    cm::Progress progress("periodicity sample", 0, double(n), quiet_);
    for (long k = 0; k < n; ++k) {
      const bb::Rolling x0 = random_state();
      const Zeros z = follow_zeros(m, x0, t_max, 2, integrator_);
      bool ok = z.t.size() == 2 && std::abs(z.rate[0]) > transversal && std::abs(z.rate[1]) > transversal;
      double period = nan, err = nan;
      if (ok) {
        // Prop. 4: x(t1 + 2 (t2 - t1)) = x(t1). Integrate one period on from the first zero.
        period = 2 * (z.t[1] - z.t[0]);
        const Zeros first = follow_zeros(m, x0, z.t[0], 1, integrator_);
        const bb::Rolling x1 = integrate(m, first.end, period);
        err = (x1 - first.end).norm() / first.end.norm();
        worst_return = std::max(worst_return, err);
        longest = std::max(longest, period);
        ++periodic;
      }
      table.row({x0(0), x0(1), x0(2), x0(3), ok ? 1.0 : 0.0, period, err});
      progress.update(double(k + 1));
    }
    out.scalar("periodic_frac", double(periodic) / double(n));
    out.scalar("periodic_count", double(periodic));
    out.scalar("periodic_return_error_max", worst_return);
    out.scalar("periodic_period_max", longest, "s");
  }

  // --- QC-7 (second part), Prop. 6: omega2 = omega3 = 0 above the top rotates for ever --------------
  void pendulum_rotations(const bb::Model& m, cm::Run& out) {
    const long n = pendulum_n_states_;
    const double revolutions = double(pendulum_revolutions_);
    const bb::Parameters& p = m.parameters();
    std::uniform_real_distribution<double> beta(-cm::pi, cm::pi), excess(pendulum_excess_[0], pendulum_excess_[1]);
    long rotating = 0;
    double invariant_error = 0;
    for (long k = 0; k < n; ++k) {
      // E = (1+j) r^2 omega1^2/2 + g rho sin(beta) = g rho (1 + excess): above the top of the rim.
      const double b = beta(rng_), E = p.g * p.rho() * (1 + excess(rng_));
      const double w1 = std::sqrt(2 * (E - p.g * p.rho() * std::sin(b)) / ((1 + p.j) * p.r * p.r));
      const bb::Rolling x0(b, w1, 0, 0);
      // Time for `revolutions` turns at the slowest omega1 (at the top, where E - g rho is left).
      const double w1_min = std::sqrt(2 * (E - p.g * p.rho()) / ((1 + p.j) * p.r * p.r));
      const double t = revolutions * 2 * cm::pi * p.rho() / (p.r * w1_min);
      const Zeros z = follow_zeros(m, x0, t, 1, integrator_);
      rotating += z.t.empty();
      invariant_error = std::max(invariant_error, std::hypot(z.end(2), z.end(3)));
    }
    out.scalar("pendulum_rotating_frac", double(rotating) / double(n));
    out.scalar("pendulum_omega23_max", invariant_error, "1/s");
  }

  // --- QC-21: the saddle connections are homoclinic ----------------------------------------------
  enum Connection { homoclinic = 0, heteroclinic = 1, unresolved = 2 };

  Connection follow_branch(const bb::Model& m, const bb::Rolling& saddle, const bb::Rolling& x0, double& t1) {
    const double t_max = saddles_t_max_;
    const Zeros z = follow_zeros(m, x0, t_max, 1, integrator_);
    if (!z.t.empty() && std::abs(z.rate[0]) > periodic_transversal_) {
      t1 = z.t[0];  // (61): the branch is mirrored about t1 back onto the saddle it left
      return homoclinic;
    }
    t1 = nan;
    // No transversal zero of omega1: does the branch end on another equilibrium?
    const double scale = std::max(1.0, z.end.tail<3>().norm());
    const bool at_rest = m.rolling_rhs(z.end).norm() < saddles_equilibrium_rate_ * scale;
    const bool elsewhere = (z.end - saddle).norm() > saddles_elsewhere_ * std::max(1.0, saddle.norm());
    return at_rest && elsewhere ? heteroclinic : unresolved;
  }

  void saddle_connections(const bb::Model& m, cm::Run& out) {
    const int nb = int(saddles_n_beta_), nw = int(saddles_n_omega30_);
    const double wmax = saddles_omega30_max_, w20max = saddles_omega20_max_;
    const double rate_min = saddles_rate_min_, eps = saddles_epsilon_;
    auto table =
        out.table("saddles.tsv",
                  "both branches of the unstable manifold of each saddle: 0 homoclinic (omega1 has a "
                  "transversal zero at t1, then (61) mirrors the branch back), 1 heteroclinic, "
                  "2 unresolved; trivial = 1 for the trivial saddles x0+ (Prop. 1)",
                  {{"beta0", "rad"},
                   {"omega20", "1/s"},
                   {"omega30", "1/s"},
                   {"lambda", "1/s"},
                   {"trivial", "1"},
                   {"branch", "1"},
                   {"connection", "1"},
                   {"t1", "s"}},
                  // at most: both branches of every non-trivial and every trivial saddle
                  cm::Planned{2.0 * (double(nb) * 2.0 * double(nw) + double(saddles_n_trivial_)), "saddles.n_beta"});
    std::vector<bb::Rolling> saddles;
    for (int i = 0; i < nb; ++i) {
      const double b = -cm::pi + 2 * cm::pi * (i + 0.5) / nb;  // cell centres: never +-pi/2 exactly
      for (int k = 0; k < 2 * nw; ++k) {
        const double w3 = (k < nw ? -1 : 1) * wmax * ((k % nw) + 1) / nw;
        if (m.h(b, w3) <= rate_min * rate_min || std::abs(m.omega20(b, w3)) > w20max) continue;
        saddles.emplace_back(b, 0.0, m.omega20(b, w3), w3);
      }
    }
    const std::size_t n_nontrivial = saddles.size();
    const int nt = int(saddles_n_trivial_);
    for (int k = 0; k < nt; ++k) {
      const double w2 = nt > 1 ? -w20max / 4 + (w20max / 2) * k / (nt - 1) : 0.0;
      saddles.emplace_back(cm::pi / 2, 0.0, w2, 0.0);
    }
    std::array<long, 3> count{};
    double t1_max = 0;
    cm::Progress progress("saddle connections", 0, double(saddles.size()), quiet_);
    for (std::size_t s = 0; s < saddles.size(); ++s) {
      const bb::Rolling& xs = saddles[s];
      // The unstable eigenvector of the (finite-difference) Jacobian of (33)-(36) at the saddle.
      const Eigen::Matrix4d J = m.rolling_jacobian(xs);
      const cm::EigenDecomposition4 eig = cm::eigen_decomposition(J);
      int top = 0;
      for (int c = 1; c < 4; ++c)
        if (eig.values(c).real() > eig.values(top).real()) top = c;
      const double lambda = eig.values(top).real();
      const bb::Rolling v = eig.vectors.col(top).real().normalized();
      for (int branch : {-1, 1}) {
        double t1 = nan;
        const bb::Rolling x0 = xs + branch * eps * std::max(1.0, xs.norm()) * v;
        const Connection c = follow_branch(m, xs, x0, t1);
        ++count[std::size_t(c)];
        if (c == homoclinic) t1_max = std::max(t1_max, t1);
        table.row({xs(0), xs(2), xs(3), lambda, s >= n_nontrivial ? 1.0 : 0.0, double(branch), double(c), t1});
      }
      progress.update(double(s + 1));
    }
    const double branches = double(count[0] + count[1] + count[2]);
    out.scalar("saddles_followed", double(saddles.size()));
    out.scalar("connections_homoclinic_frac", double(count[homoclinic]) / branches);
    out.scalar("connections_heteroclinic", double(count[heteroclinic]));
    out.scalar("connections_unresolved", double(count[unresolved]));
    out.scalar("connections_t1_max", t1_max, "s");
  }

  // --- QC-9: the coefficient system (66) grows exponentially while oscillating -----------------------
  void coefficient_system(const bb::Parameters& p, cm::Run& out) {
    const int steps = int(floquet_steps_);
    const auto K = [&](double beta) { return bb::conserved_coefficient_matrix(p, beta); };  // eq. (66)
    Eigen::Matrix2d Z = Eigen::Matrix2d::Identity();
    const double h = 2 * cm::pi / steps;
    for (int i = 0; i < steps; ++i) {  // classical RK4 over one period of beta
      const double b = i * h;
      const Eigen::Matrix2d k1 = K(b) * Z, k2 = K(b + h / 2) * (Z + h / 2 * k1);
      const Eigen::Matrix2d k3 = K(b + h / 2) * (Z + h / 2 * k2), k4 = K(b + h) * (Z + h * k3);
      Z += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    const Eigen::Vector2cd mu = cm::eigenvalues(Z);
    const int top = std::abs(mu(0)) >= std::abs(mu(1)) ? 0 : 1;
    out.scalar("c66_trM", Z.trace());
    out.scalar("c66_detM", Z.determinant());
    out.scalar("c66_multiplier_max", std::abs(mu(top)));
    // A real negative multiplier: the growing solution changes sign every period (an oscillation).
    out.scalar("c66_multiplier_max_real", mu(top).real());
    out.scalar("c66_multiplier_max_imag", mu(top).imag());
  }

  // --- QC-19: (83) has no equilibria ----------------------------------------------------------------
  void dissipative_equilibria(const bb::Parameters& p0, cm::Run& out) {
    bb::Parameters p = p0;
    p.k_d = dissipation_k_d_;
    p.k_r = dissipation_k_r_;
    const bb::Model both(p);
    const auto f = [&](const bb::Rolling& x) { return both.rolling_rhs(x); };
    const long n = newton_n_starts_;
    long converged = 0, spinning = 0, rest = 0;
    for (long k = 0; k < n; ++k) {
      bb::Rolling x = random_state();
      bool done = false;
      for (long it = 0; it < newton_iterations_ && !done; ++it) {  // Newton with step halving on |f|
        const bb::Rolling fx = f(x);
        const Eigen::Matrix4d J = both.rolling_jacobian(x);
        const Eigen::FullPivLU<Eigen::Matrix4d> lu(J);
        if (!lu.isInvertible()) break;
        const bb::Rolling dx = lu.solve(-fx);
        double s = 1;
        while (s > 1e-6 && f(x + s * dx).norm() >= fx.norm()) s /= 2;
        x += s * dx;
        done = f(x).norm() < newton_ftol_ * std::max(1.0, x.norm());
      }
      if (!done) continue;
      ++converged;
      if (x.tail<3>().norm() > newton_spin_)
        ++spinning;
      else
        ++rest;
    }
    out.scalar("newton_converged", double(converged));
    out.scalar("equilibria_spinning_both", double(spinning));
    out.scalar("equilibria_rest_both", double(rest));

    // One dissipation at a time (the bottom panels of Figs. 11-13): the steady motions that the
    // dissipation does not act on stay equilibria. Drilling alone damps omega2 only, so the
    // steady motion with omega20 = 0 (a root of (48) in beta0 for omega30) keeps f = 0; rolling
    // resistance alone damps omega1, omega3 only, so the trivial x0+ (omega20 != 0) keeps f = 0.
    bb::Parameters pd = p0, pr = p0;
    pd.k_d = p.k_d;
    pr.k_r = p.k_r;
    const bb::Model drilling(pd), rolling(pr), plain(p0);
    const double w3 = dissipation_omega30_;
    const std::vector<double> zero_spin = plain.steady_angles(0.0, w3, 1e-6, cm::pi / 2 - 1e-6);  // region A
    const double b = zero_spin.empty() ? nan : zero_spin.front();
    const bb::Rolling xd(b, 0.0, plain.omega20(b, w3), w3), xr(cm::pi / 2, 0.0, 30.0, 0.0);
    out.scalar("drilling_only_equilibrium_beta0", b, "rad");
    out.scalar("drilling_only_equilibrium_residual", drilling.rolling_rhs(xd).norm(), "1/s^2");
    out.scalar("rolling_only_equilibrium_residual", rolling.rolling_rhs(xr).norm(), "1/s^2");
  }

  // --- QC-20: the limit directions of the slip, from (42) -------------------------------------------
  void limit_directions(const bb::Model& m, cm::Run& out) {
    const long n = switch_n_states_;
    const int nphi = int(switch_n_phi_);
    const double u = switch_u_;
    long states = 0, not_two = 0, phi2_repelling = 0, phi1_mismatch = 0, borderline = 0;
    for (long k = 0; k < n; ++k) {
      const bb::Rolling x = random_state();
      bb::Slipping y = bb::Slipping::Zero();
      y.head<4>() = x;
      if (m.normal_force(y) <= 0) continue;  // no contact: no friction cone
      ++states;
      // The slip's rate along direction phi at speed u: radial (du/dt) and angular (dphi/dt).
      const auto rates = [&](double phi) {
        bb::Slipping ys = y;
        ys(4) = u * std::cos(phi), ys(5) = u * std::sin(phi);
        const bb::Slipping yd = m.slipping_rhs(ys);
        return std::pair{std::cos(phi) * yd(4) + std::sin(phi) * yd(5),
                         (std::cos(phi) * yd(5) - std::sin(phi) * yd(4)) / u};
      };
      std::vector<double> rays;  // directions where dphi/dt changes sign: the invariant rays
      double prev = rates(0).second;
      for (int i = 1; i <= nphi; ++i) {
        const double a = 2 * cm::pi * (i - 1) / nphi, c = 2 * cm::pi * i / nphi;
        const double cur = rates(c).second;
        if ((prev < 0) != (cur < 0)) rays.push_back(cm::bisect([&](double phi) { return rates(phi).second; }, a, c));
        prev = cur;
      }
      if (rays.size() != 2) {
        ++not_two;
        continue;
      }
      double ud0 = rates(rays[0]).first, ud1 = rates(rays[1]).first;
      if (ud0 > ud1) std::swap(ud0, ud1);  // ud0 along phi2 (fastest decay), ud1 along phi1
      phi2_repelling += ud0 >= 0;
      const double margin = m.slip_margin(x), scale = std::abs(m.normal_force(y)) + 1;
      if (std::abs(margin) < switch_borderline_ * scale) {  // on the cone's edge: the sign is round-off
        ++borderline;
        continue;
      }
      phi1_mismatch += (ud1 < 0) != (margin > 0);  // phi1 attracts iff (39) holds
    }
    out.scalar("switch_states", double(states));
    out.scalar("switch_rays_not_two", double(not_two));
    out.scalar("switch_phi2_repelling", double(phi2_repelling));
    out.scalar("switch_phi1_mismatch_39", double(phi1_mismatch));
    out.scalar("switch_borderline", double(borderline));
  }

  // A rolling state drawn uniformly from the sampling box: beta in (-pi, pi), |omega_i| <= omega_i_max.
  // One draw per statement, so the order of the draws (and the sample for a seed) is fixed.
  bb::Rolling random_state() {
    std::uniform_real_distribution<double> beta(-cm::pi, cm::pi), unit(-1, 1);
    bb::Rolling x;
    x(0) = beta(rng_);
    x(1) = sampling_omega1_max_ * unit(rng_);
    x(2) = sampling_omega2_max_ * unit(rng_);
    x(3) = sampling_omega3_max_ * unit(rng_);
    return x;
  }

  bb::Rolling integrate(const bb::Model& m, const bb::Rolling& x0, double t) const {
    auto ode = cm::make_integrator(
        integrator_.method, [&](double, cm::ConstVectorRef x, cm::VectorRef xd) { xd = m.rolling_rhs(x); },
        Eigen::VectorXd(x0), 0.0, integrator_.tolerances());
    ode->set_stop_time(t);
    ode->set_max_steps(integrator_.max_steps);
    return ode->advance(t).y;
  }

  bb::Parameters p_;
  cm::IntegratorOptions integrator_{"cvode_adams", 1e-10, 1e-12, 10'000'000};
  long sampling_seed_ = 4004;
  long sampling_n_states_ = 1000;
  double sampling_omega1_max_ = 10;
  double sampling_omega2_max_ = 60;
  double sampling_omega3_max_ = 20;
  double periodic_t_max_ = 60;
  double periodic_transversal_ = 1e-6;
  long pendulum_n_states_ = 50;
  long pendulum_revolutions_ = 10;
  long saddles_n_beta_ = 90;
  long saddles_n_omega30_ = 24;
  double saddles_omega30_max_ = 40;
  double saddles_omega20_max_ = 200;
  double saddles_rate_min_ = 0.5;
  long saddles_n_trivial_ = 21;
  double saddles_epsilon_ = 1e-7;
  double saddles_t_max_ = 100;
  double saddles_equilibrium_rate_ = 1e-6;
  long floquet_steps_ = 4000;
  double dissipation_k_d_ = 0.02;
  double dissipation_k_r_ = 0.02;
  long newton_n_starts_ = 2000;
  long switch_n_states_ = 2000;
  long switch_n_phi_ = 3600;
  double switch_u_ = 1e-9;
  double dissipation_omega30_ = 10, newton_ftol_ = 1e-11, newton_spin_ = 1e-6;
  double saddles_elsewhere_ = 1e-3, switch_borderline_ = 1e-6;
  long newton_iterations_ = 100;
  std::vector<double> pendulum_excess_{0.05, 2.0};
  bool quiet_ = false;
  std::mt19937 rng_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<GlobalStudy>(argc, argv); }

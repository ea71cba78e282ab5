// bb_traj: one trajectory of the ball on the rim, the diagnostic behind the outcome maps of Sect. 5
// (Figs. 10-14; spec 004 §7.4).
//
// The ball starts rolling (u1 = u3 = 0) at x(0) = (beta, omega1, omega2, omega3). It rolls by
// (33)-(36), starts slipping where the no-slip condition (39) fails (Coulomb friction (29), the
// slipping equations (42), the limit-direction switches of Sect. 5.2.1), sticks again when the slip
// speed vanishes, and separates where the normal force F2 reaches zero (40); the free flight then
// decides whether it falls in or out (spec §2.18). Without dissipation a rolling phase with two
// transversal zeros of omega1 is periodic (Prop. 4); with the dissipation (83) (groups k_d, k_r)
// no periodic orbit exists and the ball falls sooner or later.
//
// With ic.steady the initial angle is the steady motion (47)-(48) itself: beta0 solves
// omega20(beta0, ic.omega3) = ic.omega2 near ic.beta (the root of (48) nearest to ic.beta within
// ic.steady_window, away from the poles beta0 = +-pi/2), and ic.omega1 perturbs it. The linear
// period 2 pi / sqrt(-h) (54) of the steady motion at (beta(0), ic.omega3) is reported when that
// steady motion is stable (h < 0), for comparison with the periods of small orbits (Prop. 13).
// At the steady motion itself omega1 and dF2/dt stay zero up to rounding: the zeros and minima in
// events.tsv are then rounding noise, and the periodicity test is refused.
//
// Sample runs (into a scratch folder, never over the pipeline's results/):
//   bb_traj --config configs/basketball/traj/steady.ini --output try/traj
//   bb_traj --config configs/basketball/traj/periodic.ini --ic.omega1=2 --output try/traj
//   bb_traj --config configs/basketball/traj/drilling.ini --simulation.slipping=false --output try/traj
//   bb_traj --config configs/basketball/fig10_deadlock_1.ini --output try/fig10_deadlock_1
//
// Writes traj.tsv (the state, the contact force, the slip margin, the energy and the phase on a
// uniform time grid, read from the integrators' dense output), events.tsv (the switches, zeros,
// minima and the separation as the simulation located them), outcome.tsv (the decision, one row)
// and the same decision as scalars.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "core/grid.hpp"
#include "core/math.hpp"
#include "core/study.hpp"

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The type code of an event of the simulation's trace in events.tsv: its position in this list.
int event_code(const std::string& name) {
  static const std::vector<std::string> names{"start", "zero",    "minimum",    "slip",
                                              "stick", "transit", "separation", "end"};
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw cm::NumericalError("bb_traj: unknown simulation event '" + name + "'");
  return int(it - names.begin());
}

class TrajectoryStudy {
 public:
  static constexpr cm::StudyInfo info{"bb_traj", "basketball", "traj",
                                      "One trajectory on the rim: rolling, slipping, falling"};

  void declare(cm::Config& c) {
    bb::declare_model_keys(c, p_);
    c.add("ic.beta", &beta_, "beta(0); with ic.steady, the guess for the steady angle beta0")
        .unit("rad")
        .range(cm::Range::closed(-2 * cm::pi, 2 * cm::pi))
        .assumption("ASSUMED: a diagnostic trajectory of spec 004 §7.4, not a case printed in the paper");
    c.add("ic.omega1", &w1_, "omega1(0), the transversal angular velocity")
        .unit("1/s")
        .assumption("ASSUMED: a diagnostic trajectory of spec 004 §7.4, not a case printed in the paper");
    c.add("ic.omega2", &w2_, "omega2(0), the spin about the contact normal").unit("1/s");
    c.add("ic.omega3", &w3_, "omega3(0), the circular angular velocity").unit("1/s");
    c.add("ic.steady", &steady_,
          "beta(0) is the steady angle beta0 solving (48) for omega20 = ic.omega2, omega30 = ic.omega3 nearest to "
          "ic.beta");
    c.add("ic.steady_window", &steady_window_, "ic.steady searches beta0 within ic.beta +- this")
        .unit("rad")
        .range(cm::Range::positive());
    bb::declare_dissipation_keys(c, p_.k_d, p_.k_r);
    c.add("simulation.slipping", &o_.slipping,
          "Coulomb friction with model.mu and roll <-> slip switches (false: falling only, mu -> infinity)");
    c.add("simulation.stop_at_periodic", &o_.detect_periodic,
          "stop at the second transversal zero of omega1 in a rolling phase (Prop. 4; only without dissipation)");
    bb::declare_simulation_keys(c, o_);
    c.add("output.dt", &dt_, "time step of the uniform output grid of traj.tsv").unit("s").range(cm::Range::positive());
    c.check([&c, this] { check_initial_state(c); });
  }

  void run(cm::Run& run) {
    setup(run);
    solve();
    write(run);
  }

 private:
  // Cross-key checks, before any run directory exists: the periodicity test of Prop. 4 needs the
  // reversible system, and ic.steady needs a steady motion (48) near ic.beta.
  void check_initial_state(const cm::Config& c) {
    if (o_.detect_periodic && (p_.k_d > 0 || p_.k_r > 0))
      c.fail("simulation.stop_at_periodic",
             "must be false with dissipation (Prop. 4 needs the reversible system; (83) has no periodic orbits)");
    beta0_ = beta_;
    // Valid-looking keys may still give an infinite or NaN start (omega ~ 1e200 squares past the
    // largest double): refused here, naming the keys, rather than reported as an internal quantity.
    const bb::Model model(p_);
    bb::Slipping y0 = bb::Slipping::Zero();
    y0.head<4>() = bb::Rolling(beta_, w1_, w2_, w3_);
    if (!std::isfinite(model.normal_force(y0)) || !std::isfinite(model.energy(y0.head<4>())))
      c.fail("ic.omega1",
             "ic.beta, ic.omega1, ic.omega2, ic.omega3 (with model.*) give a non-finite normal force (41) or energy "
             "(60) at t = 0");
    if (!steady_) return;
    if (w3_ == 0) c.fail("ic.omega3", "must be non-zero for ic.steady (steady motions need omega30 != 0, (48))");
    beta0_ = steady_angle(model, w2_, w3_, beta_, steady_window_);
    if (!std::isfinite(beta0_))
      c.fail("ic.beta",
             "no steady motion (48) with omega20 = ic.omega2, omega30 = ic.omega3 within ic.steady_window of it");
    // At the steady motion itself omega1 = 0 up to rounding all along: its sign changes are not the
    // transversal zeros of Prop. 4 and would close a spurious "period".
    if (w1_ == 0 && o_.detect_periodic)
      c.fail("simulation.stop_at_periodic",
             "must be false at the steady motion itself (ic.steady with ic.omega1 = 0: omega1 stays 0 up to "
             "rounding, no transversal zeros, Prop. 4)");
  }

  // --- set up: the model, the output grid, the initial state ---------------------------------------
  void setup(const cm::Run& run) {
    model_.emplace(p_);
    // The output grid 0, dt, ... up to t_max, counted against the run's budget before anything runs.
    n_samples_ = cm::grid_points("output.dt", 0.0, o_.t_max, dt_, run.budget().max_rows);
    x0_ = bb::Rolling(beta0_, w1_, w2_, w3_);
    // The steady motion at (beta(0), omega3(0)): its spin (48) and, when stable, its linear period (54).
    const bool off_singular = w3_ != 0 && std::abs(std::cos(beta0_)) > 1e-12;
    omega20_ = off_singular ? model_->omega20(beta0_, w3_) : nan;
    h_ = off_singular ? model_->h(beta0_, w3_) : nan;
    T_lin_ = h_ < 0 ? 2 * cm::pi / std::sqrt(-h_) : nan;  // eqs. (53)-(54)
  }

  // --- solve: one trajectory, recording the events and the uniform samples -------------------------
  void solve() {
    const bb::Model& model = *model_;
    bb::SimulationOptions options = o_;
    options.sample_dt = dt_;
    options.sample = [&](double t, const bb::Slipping& y, double alpha, bool slipping) {
      samples_.push_back(sample_row(model, t, y, alpha, slipping));
    };
    options.trace = [&](const char* name, double t, const bb::Slipping& y) {
      if (std::string(name) == "redo") {
        // A slipping phase integrated again by the fallback method: its first attempt is superseded.
        const auto later = [t](const std::vector<double>& row) { return row[0] > t; };
        samples_.erase(std::remove_if(samples_.begin(), samples_.end(), later), samples_.end());
        events_.erase(std::remove_if(events_.begin(), events_.end(), later), events_.end());
        return;
      }
      events_.push_back({t, double(event_code(name)), y(0), y(1), y(2), y(3), y(4), y(5)});
    };
    outcome_ = bb::simulate(model, x0_, options);

    // Diagnostics over the output grid: the largest departure from the initial state (a steady motion
    // stays put) and the largest change of the energy (60) (conserved without dissipation).
    for (const auto& row : samples_) {
      for (int i = 0; i < 4; ++i) deviation_ = std::max(deviation_, std::abs(row[1 + i] - x0_(i)));
      deviation_ = std::max({deviation_, std::abs(row[5]), std::abs(row[6])});
      energy_change_ = std::max(energy_change_, std::abs(row[12] - samples_.front()[12]));
    }
  }

  // --- write ----------------------------------------------------------------------------------------
  void write(cm::Run& out) {
    const bb::Outcome& o = outcome_;
    const double beta = beta0_, w2 = w2_, w3 = w3_, h = h_, T_lin = T_lin_, omega20 = omega20_;
    const double deviation = deviation_, energy_change = energy_change_;
    const auto& samples = samples_;
    const auto& events = events_;
    auto traj = out.table("traj.tsv",
                          "trajectory on a uniform time grid (dense output); forces and energy per unit mass: F "
                          "(23) from (30)-(32) rolling or (29), (41) slipping; slip_margin = mu F2 - |(F1, F3)| "
                          "(39), 0 while slipping; energy = T (58) + g rho sin(beta), eq. (60) when rolling; "
                          "phase 0 rolling, 1 slipping",
                          {{"t", "s"},
                           {"beta", "rad"},
                           {"omega1", "1/s"},
                           {"omega2", "1/s"},
                           {"omega3", "1/s"},
                           {"u1", "m/s"},
                           {"u3", "m/s"},
                           {"alpha", "rad"},
                           {"F1", "m/s^2"},
                           {"F2", "m/s^2"},
                           {"F3", "m/s^2"},
                           {"slip_margin", "m/s^2"},
                           {"energy", "m^2/s^2"},
                           {"phase", "1"}},
                          cm::Planned{double(n_samples_), "output.dt"});
    for (const auto& row : samples) traj.row(row);
    auto ev = out.table("events.tsv",
                        "events as located by the simulation; type 0 start, 1 zero (sign change) of omega1 while "
                        "rolling (Prop. 4), 2 minimum of F2 (74), 3 roll -> slip (state after the switch, u = "
                        "slip.delta along phi1 (81)), 4 slip -> roll (state after the extrapolated sticking step), "
                        "5 slip through u = 0 (state after the switch), 6 separation (F2 = 0, (40)), 7 end",
                        {{"t", "s"},
                         {"type", "1"},
                         {"beta", "rad"},
                         {"omega1", "1/s"},
                         {"omega2", "1/s"},
                         {"omega3", "1/s"},
                         {"u1", "m/s"},
                         {"u3", "m/s"}});
    for (const auto& row : events) ev.row(row);
    const bb::Slipping& s = o.separation;
    auto decision = out.table("outcome.tsv",
                              "the decision: code 0 periodic, 1 in, 2 out, 3 undetermined; period 2 (t2 - t1) "
                              "(Prop. 4); F2min (74); the separation state and the rim-plane crossing distance "
                              "(spec §2.18); T_lin = 2 pi/sqrt(-h) (54) at (beta(0), omega3(0)) when stable",
                              {{"code", "1"},
                               {"period", "s"},
                               {"F2min", "m/s^2"},
                               {"t_end", "s"},
                               {"switches", "1"},
                               {"revolutions", "1"},
                               {"d_cross", "m"},
                               {"beta_sep", "rad"},
                               {"omega1_sep", "1/s"},
                               {"omega2_sep", "1/s"},
                               {"omega3_sep", "1/s"},
                               {"u1_sep", "m/s"},
                               {"u3_sep", "m/s"},
                               {"T_lin", "s"}},
                              cm::Planned{1, "solver.t_max"});
    decision.row({double(int(o.code)), o.period, o.F2min, o.t_end, double(o.switches), o.revolutions, o.d_cross, s(0),
                  s(1), s(2), s(3), s(4), s(5), T_lin});

    out.scalar("code", double(int(o.code)));
    out.scalar("period", o.period, "s");
    out.scalar("F2min", o.F2min, "m/s^2");
    out.scalar("t_end", o.t_end, "s");
    out.scalar("switches", double(o.switches));
    out.scalar("slipped", o.slipped ? 1.0 : 0.0);
    out.scalar("revolutions", o.revolutions);
    out.scalar("d_cross", o.d_cross, "m");
    out.scalar("beta_sep", s(0), "rad");
    out.scalar("omega1_sep", s(1), "1/s");
    out.scalar("omega2_sep", s(2), "1/s");
    out.scalar("omega3_sep", s(3), "1/s");
    out.scalar("u1_sep", s(4), "m/s");
    out.scalar("u3_sep", s(5), "m/s");
    out.scalar("beta_initial", beta, "rad");
    out.scalar("steady_omega20", omega20, "1/s");
    out.scalar("steady_h", h, "1/s^2");
    out.scalar("T_lin", T_lin, "s");
    out.scalar("period_over_T_lin", o.period / T_lin);
    out.scalar("max_state_deviation", deviation);
    out.scalar("max_energy_change", energy_change, "m^2/s^2");
    out.statistics("simulation", {{"steps", double(o.steps)},
                                  {"rhs_evaluations", double(o.rhs_evaluations)},
                                  {"fallbacks", double(o.fallbacks)},
                                  {"samples", double(samples.size())},
                                  {"events", double(events.size())}});
    if (steady_) {
      char text[160];
      std::snprintf(text, sizeof text, "beta(0) = %.12g rad: the steady motion (48) with omega20 = %g, omega30 = %g",
                    beta, w2, w3);
      out.note(text);
    }
  }

  // The root of omega20(beta0, omega30) = omega20 (48) nearest to `guess` within guess +- window; the
  // poles beta0 = +-pi/2 of (48) are not roots. NaN if there is none.
  static double steady_angle(const bb::Model& m, double omega20, double omega30, double guess, double window) {
    double best = nan;
    for (double root : m.steady_angles(omega20, omega30, guess - window, guess + window))
      if (std::isnan(best) || std::abs(root - guess) < std::abs(best - guess)) best = root;
    return best;
  }

  // One row of traj.tsv: state, alpha, contact force (23) per unit mass, slip margin (39), energy, phase.
  static std::vector<double> sample_row(const bb::Model& m, double t, const bb::Slipping& y, double alpha,
                                        bool slipping) {
    const bb::Parameters& p = m.parameters();
    const bb::Rolling x = y.head<4>();
    double F1, F2, F3;
    if (slipping) {
      F2 = m.normal_force(y);  // eq. (41)
      const double U = std::hypot(y(4), y(5));
      F1 = -p.mu * F2 * y(4) / U;  // eq. (29)
      F3 = -p.mu * F2 * y(5) / U;
    } else {
      const bb::Force F = m.rolling_force(x);  // eqs. (30)-(32)
      F1 = F.F1, F2 = F.F2, F3 = F.F3;
    }
    const double margin = p.mu * F2 - std::hypot(F1, F3);  // eq. (39)
    // Kinetic energy (58) with v_G = (u1 - r w3) n1 + (u3 + r w1) n3, plus g rho sin(beta): (60) when rolling.
    const double vt = y(4) - p.r * y(3), vs = y(5) + p.r * y(1);
    const double energy = 0.5 * (vt * vt + vs * vs) + 0.5 * p.j * p.r * p.r * y.segment<3>(1).squaredNorm() +
                          p.g * p.rho() * std::sin(y(0));
    return {t, y(0), y(1), y(2), y(3), y(4), y(5), alpha, F1, F2, F3, margin, energy, slipping ? 1.0 : 0.0};
  }

  bb::Parameters p_;
  bb::SimulationOptions o_;  // solver.t_max 100 s
  double beta_ = 1.1246, w1_ = 0, w2_ = 35, w3_ = 10, steady_window_ = 0.2, dt_ = 0.01;
  bool steady_ = false;
  double beta0_ = nan;  // beta(0): ic.beta, or the steady angle near it (ic.steady)
  std::optional<bb::Model> model_;
  long n_samples_ = 0;
  bb::Rolling x0_;
  double omega20_ = nan, h_ = nan, T_lin_ = nan;
  std::vector<std::vector<double>> samples_, events_;
  bb::Outcome outcome_;
  double deviation_ = 0, energy_change_ = 0;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<TrajectoryStudy>(argc, argv); }

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
//   build/bin/bb_traj --config configs/basketball/traj/steady.ini --output results/basketball/traj_steady
//   build/bin/bb_traj --config configs/basketball/traj/periodic.ini --ic.omega1=2
//   build/bin/bb_traj --config configs/basketball/traj/drilling.ini --simulation.slipping=false
//
// Writes traj.tsv (the state, the contact force, the slip margin, the energy and the phase on a
// uniform time grid, read from the integrators' dense output), events.tsv (the switches, zeros,
// minima and the separation as the simulation located them), outcome.tsv (the decision, one row)
// and the same decision as scalars.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "common/errors.hpp"
#include "common/options.hpp"
#include "common/run.hpp"

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
  explicit TrajectoryStudy(cm::Config& config) : config_(config) {}

  void declare() {
    bb::declare_model_keys(config_);
    config_.add_real("ic.beta", 1.1246, "rad", "beta(0); with ic.steady, the guess for the steady angle beta0");
    config_.add_real("ic.omega1", 0, "1/s", "omega1(0), the transversal angular velocity");
    config_.add_real("ic.omega2", 35, "1/s", "omega2(0), the spin about the contact normal");
    config_.add_real("ic.omega3", 10, "1/s", "omega3(0), the circular angular velocity");
    config_.add_flag("ic.steady", false,
                     "beta(0) is the steady angle beta0 solving (48) for omega20 = ic.omega2, omega30 = ic.omega3 "
                     "nearest to ic.beta");
    config_.add_real("ic.steady_window", 0.2, "rad", "ic.steady searches beta0 within ic.beta +- this",
                     cm::Range::positive());
    config_.add_real("dissipation.k_d", 0, "1/s", "drilling group C_d/(j m R^2) of (83)", cm::Range::nonnegative());
    config_.add_real("dissipation.k_r", 0, "1/s", "rolling-resistance group C_r/(j m R^2) of (83)",
                     cm::Range::nonnegative());
    config_.add_flag("simulation.slipping", true,
                     "Coulomb friction with model.mu and roll <-> slip switches (false: falling only, mu -> infinity)");
    config_.add_flag("simulation.stop_at_periodic", true,
                     "stop at the second transversal zero of omega1 in a rolling phase (Prop. 4; "
                     "only without dissipation)");
    bb::declare_simulation_keys(config_, 100);
    config_.add_real("output.dt", 0.01, "s", "time step of the uniform output grid of traj.tsv", cm::Range::positive());
    config_.assumption("ic.beta", "ASSUMED: a diagnostic trajectory of spec 004 §7.4, not a case printed in the paper");
    config_.assumption("ic.omega1",
                       "ASSUMED: a diagnostic trajectory of spec 004 §7.4, not a case printed in the paper");
  }

  void run() {
    // --- set up: the model, the options, the initial state ------------------------------------------
    bb::Parameters p = bb::parameters_from(config_);
    p.k_d = config_.real("dissipation.k_d");
    p.k_r = config_.real("dissipation.k_r");
    const bb::Model model(p);
    bb::SimulationOptions options = bb::simulation_options_from(config_);
    options.slipping = config_.flag("simulation.slipping");
    options.detect_periodic = config_.flag("simulation.stop_at_periodic");
    if (options.detect_periodic && (p.k_d > 0 || p.k_r > 0))
      config_.fail("simulation.stop_at_periodic",
                   "must be false with dissipation (Prop. 4 needs the reversible system; (83) has no periodic orbits)");
    const double dt = config_.real("output.dt");
    if (options.t_max / dt > 1e7) config_.fail("output.dt", "gives more than 1e7 rows up to solver.t_max");

    const double w1 = config_.real("ic.omega1"), w2 = config_.real("ic.omega2"), w3 = config_.real("ic.omega3");
    double beta = config_.real("ic.beta");
    if (config_.flag("ic.steady")) {
      if (w3 == 0) config_.fail("ic.omega3", "must be non-zero for ic.steady (steady motions need omega30 != 0, (48))");
      beta = steady_angle(model, w2, w3, beta, config_.real("ic.steady_window"));
      if (!std::isfinite(beta))
        config_.fail("ic.beta",
                     "no steady motion (48) with omega20 = ic.omega2, omega30 = ic.omega3 within "
                     "ic.steady_window of it");
    }
    // At the steady motion itself omega1 = 0 up to rounding all along: its sign changes are not the
    // transversal zeros of Prop. 4 and would close a spurious "period".
    if (config_.flag("ic.steady") && w1 == 0 && options.detect_periodic)
      config_.fail("simulation.stop_at_periodic",
                   "must be false at the steady motion itself (ic.steady with ic.omega1 = 0: omega1 stays 0 up to "
                   "rounding, no transversal zeros, Prop. 4)");
    const bb::Rolling x0(beta, w1, w2, w3);
    // The steady motion at (beta(0), omega3(0)): its spin (48) and, when stable, its linear period (54).
    const bool off_singular = w3 != 0 && std::abs(std::cos(beta)) > 1e-12;
    const double omega20 = off_singular ? model.omega20(beta, w3) : nan;
    const double h = off_singular ? model.h(beta, w3) : nan;
    const double T_lin = h < 0 ? 2 * cm::pi / std::sqrt(-h) : nan;  // eqs. (53)-(54)

    // --- solve: one trajectory, recording the events and the uniform samples -------------------------
    std::vector<std::vector<double>> samples, events;
    options.sample_dt = dt;
    options.sample = [&](double t, const bb::Slipping& y, double alpha, bool slipping) {
      samples.push_back(sample_row(model, t, y, alpha, slipping));
    };
    options.trace = [&](const char* name, double t, const bb::Slipping& y) {
      if (std::string(name) == "redo") {
        // A slipping phase integrated again by the fallback method: its first attempt is superseded.
        const auto later = [t](const std::vector<double>& row) { return row[0] > t; };
        samples.erase(std::remove_if(samples.begin(), samples.end(), later), samples.end());
        events.erase(std::remove_if(events.begin(), events.end(), later), events.end());
        return;
      }
      events.push_back({t, double(event_code(name)), y(0), y(1), y(2), y(3), y(4), y(5)});
    };
    const bb::Outcome o = bb::simulate(model, x0, options);

    // Diagnostics over the output grid: the largest departure from the initial state (a steady motion
    // stays put) and the largest change of the energy (60) (conserved without dissipation).
    double deviation = 0, energy_change = 0;
    for (const auto& row : samples) {
      for (int i = 0; i < 4; ++i) deviation = std::max(deviation, std::abs(row[1 + i] - x0(i)));
      deviation = std::max({deviation, std::abs(row[5]), std::abs(row[6])});
      energy_change = std::max(energy_change, std::abs(row[12] - samples.front()[12]));
    }

    // --- write ----------------------------------------------------------------------------------------
    cm::Run out(config_);
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
                           {"phase", "1"}});
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
                               {"T_lin", "s"}});
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
                                  {"samples", double(samples.size())},
                                  {"events", double(events.size())}});
    if (config_.flag("ic.steady")) {
      char text[160];
      std::snprintf(text, sizeof text, "beta(0) = %.12g rad: the steady motion (48) with omega20 = %g, omega30 = %g",
                    beta, w2, w3);
      out.note(text);
    }
    out.commit();
  }

 private:
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

  cm::Config& config_;
};

}  // namespace

int main(int argc, char** argv) {
  return cm::guarded_main(argv[0], [&] {
    cm::Config config("bb_traj", "basketball", "traj", "One trajectory on the rim: rolling, slipping, falling");
    TrajectoryStudy study(config);
    study.declare();
    if (!config.parse(argc, argv)) return 0;
    study.run();
    return 0;
  });
}

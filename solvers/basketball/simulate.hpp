// One trajectory of the ball on the rim from a rolling initial state, through roll <-> slip
// switches (Sect. 5.2.1), up to the separation (F2 = 0, Sect. 5.1.1) and the ballistic in/out
// decision, or up to periodic rolling (two transversal zeros of omega1, Prop. 4).
#pragma once

#include <functional>
#include <string>

#include "basketball/model.hpp"
#include "numerics/sundials.hpp"

namespace bb {

enum class Code { periodic = 0, in = 1, out = 2, undetermined = 3 };

struct SimulationOptions {
  bool slipping = true;         ///< Coulomb friction with mu (false: mu -> infinity, falling only)
  bool detect_periodic = true;  ///< stop at the second omega1 zero of a rolling phase (Prop. 4)
  double t_max = 100;           ///< undetermined beyond this time [s]
  /// Rolling phases: method, tolerances and step cap (keys solver.*, cm::declare_integrator_keys).
  cm::IntegratorOptions integrator{"cvode_adams", 1e-9, 1e-11, 1'000'000};
  std::string slip_method = "cvode_bdf";               ///< slipping phases (stiff near u = 0)
  std::string fallback_method = "cvode_bdf";           ///< a slipping phase on which slip_method failed
  double fallback_tolerance_factor = 0.01;             ///< the fallback's rtol and atol are the solver's times this
  std::string second_fallback_method = "cvode_adams";  ///< a slipping phase on which the fallback failed too
  double delta = 1e-7;                                 ///< slip speed at a roll -> slip start along phi1 [m/s]
  double u_tol = 1e-6;                                 ///< slip speed below which a slip phase may stick [m/s]
  long max_switches = 1000;                            ///< roll <-> slip switches before "undetermined"
  bool ballistic = true;  ///< in/out by the ballistic rim-plane rule (else cos(beta) > 0 means in)
  /// Called at every event with the state: "start" (t = 0, after a slipping start-up), "zero" (a
  /// sign change of omega1 while rolling, Prop. 4), "minimum" (a minimum of F2), "slip" (roll -> slip,
  /// the state after the switch), "stick" (slip -> roll, the state after the extrapolated sticking
  /// step), "transit" (slip through u = 0, the state after the switch), "separation" (F2 = 0), "end"
  /// (the decision). "redo" (t, state at the start of a slipping phase that is integrated again
  /// with solver.fallback_method or solver.second_fallback_method): the events and samples
  /// delivered after t are superseded.
  std::function<void(const char* event, double t, const Slipping& y)> trace;
  /// Uniform output: called at t = 0, sample_dt, 2 sample_dt, ... up to the decision with the
  /// integrator's dense output there, the cyclic angle alpha (19) and the phase. A sample time
  /// inside the extrapolated sticking step of a slip -> roll switch (Sect. 5.2.1) is interpolated
  /// linearly across it, as that step is. Off when sample_dt <= 0 or sample is empty. The first
  /// step of each phase is sized with the next output time in view, so a sampled trajectory agrees
  /// with an unsampled one to the integration tolerance, not bit for bit.
  std::function<void(double t, const Slipping& y, double alpha, bool slipping)> sample;
  double sample_dt = 0;
};

struct Outcome {
  Code code = Code::undetermined;
  double period = 0;                       ///< 2 (t2 - t1) when periodic, else NaN
  double F2min = 0;                        ///< minimum of F2/m along the trajectory [m/s^2]
  double t_end = 0;                        ///< time of the decision [s]
  long switches = 0;                       ///< roll <-> slip switches
  bool slipped = false;                    ///< any slip phase occurred
  Slipping separation = Slipping::Zero();  ///< state at separation (NaN otherwise)
  double d_cross = 0;                      ///< ballistic crossing distance from the hoop axis [m]
  double revolutions = 0;                  ///< alpha(t_end)/(2 pi)
  long steps = 0;                          ///< integrator steps
  long rhs_evaluations = 0;
  long fallbacks = 0;  ///< slipping phases done again by a fallback method (each level counted)
};

/// Simulates from the rolling state x0 (u1 = u3 = 0); a state that violates (39) starts slipping
/// along phi1, one with F2 <= 0 separates at t = 0.
Outcome simulate(const Model& model, const Rolling& x0, const SimulationOptions& options);

}  // namespace bb

// What one step of the hard-contact engine (engine.hpp) did, and the time its phases took: the
// statistics a step returns (StepStats), the phases of Engine::step() (Phase) and the clock that
// sums their wall time (PhaseClock).
//
// A step's phases, in order (engine.hpp tells what each computes):
//   ghosts     coupled: the neighbours' spheres join before the step and leave after it
//   detect     the cell grid and the contacts at t (detector.hpp)
//   order      gravity, and the contacts in the sweep's order, four at a time into blocks
//              (contact_order.hpp)
//   sweeps     the sweeps of non-linear block Gauss-Seidel on the velocities in place (sweep.hpp)
//   residual   the residual of the last sweep, max |change of impulse| / max |impulse|
//   integrate  x' = x + dt v'
// A clock is read once a phase: some 10 ns against milliseconds.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>

namespace md::granular {

/// What one step did.
struct StepStats {
  long contacts = 0;
  long sphere_contacts = 0;             ///< the contacts between two spheres (boundaries apart)
  long pe_contacts = 0;                 ///< the contacts as pe counts them (EngineOptions::pe_blocks; 0 without)
  double max_penetration = 0.0;         ///< max(-xi) over the contacts detected (0 if none penetrates)
  double max_sphere_penetration = 0.0;  ///< the same over the contacts between two spheres
  double residual = 0.0;                ///< last sweep: max |change of impulse| / max |impulse|
  int colours = 0;                      ///< colours of the greedy colouring (detection order: 1)
  double delta = 0.0, largest = 0.0;    ///< the residual's parts (reduced over subdomains, then divided)
};

/// The phases of a step (Engine::step), for the time each takes.
enum class Phase : std::uint8_t {
  ghosts,     ///< coupled: the neighbours' spheres joining before the step, leaving after it
  detect,     ///< the cell grid and the contacts at t
  order,      ///< gravity, and the contacts put in the sweep's order (colouring), into blocks
  sweeps,     ///< the NBGS sweeps (on the spheres' velocities in place, Spheres::vw)
  residual,   ///< the residual of the last sweep
  integrate,  ///< x' = x + dt v'
};
inline constexpr int phase_count = 6;
/// The phases' names, in the order of Phase.
inline constexpr const char* phase_names[phase_count] = {"ghosts", "detect",   "order",
                                                         "sweeps", "residual", "integrate"};

/// Sums the wall time of consecutive phases into `seconds` (indexed by Phase).
class PhaseClock {
 public:
  explicit PhaseClock(std::array<double, phase_count>& seconds)
      : seconds_(seconds), last_(std::chrono::steady_clock::now()) {}
  /// The time since the last lap (or the start) goes to `phase`.
  void lap(Phase phase) {
    const auto now = std::chrono::steady_clock::now();
    seconds_[static_cast<std::size_t>(phase)] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::array<double, phase_count>& seconds_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace md::granular

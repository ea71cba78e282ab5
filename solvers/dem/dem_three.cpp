// dem_three: Example 5.2 (Sect. 5.2, Figs. 6-7): three identical spheres rolling on a flat rigid
// surface towards the centre of their equilateral triangle collide, reverse, slide and roll back.
//
// Fig. 6 (the initial distances and speed) is missing: the approach speed V0 and the distance R0 of
// each centre from the triangle's centre are keys, inferred in spec 003 §3.2 (candidate A: V0 =
// 1.93 m/s, R0 = 1.1187 m; the collision time 0.46 s is then an input, not a result).
//
//   1. The run of Fig. 7 (dt = 1e-4 s, 2 s): velocity, spin and total rotation of particle 1 about its
//      fixed axis; the collision, the spin reversal, the return to rolling and to the initial position.
//   2. Symmetry: particles 2 and 3, rotated by -120 and +120 degrees, against particle 1.
//   3. O-9: the run again with another particle-particle friction coefficient (no tangential relative
//      motion at the contacts, so nothing may change) and O-10: the final rolling speed from the state
//      at the end of the collision.
//
//   dem_three --config configs/dem/three.ini --output try/three
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/study.hpp"
#include "dem/analysis.hpp"
#include "dem/model.hpp"

namespace {

using namespace dem;

/// Particle 1 in its own frame (u_hat towards the centre, axis e_z x u_hat), one entry per step.
struct Trace {
  std::vector<double> t, u, spin, theta, slip, R, overlap12, n_pp, ke_t, ke_r, iterations;
  double symmetry = 0.0;  ///< largest relative deviation of particles 2, 3 (rotated) from particle 1
  long nonconverged = 0, iterations_max = 0;
};

class ThreeStudy {
 public:
  static constexpr cm::StudyInfo info{
      "dem_three", "dem", "three", "Example 5.2: three spheres rolling into a symmetric collision and back (Fig. 7)"};

  void declare(cm::Config& c) {
    dem::declare_particle_keys(c, particle_);
    c.add("initial.V0", &V0_, "initial rolling speed towards the centre of the triangle")
        .unit("m/s")
        .range(cm::Range::positive())
        .assumption("INFERRED: Fig. 6 is missing; spec 003 §3.2 candidate A fits the printed times (B: 2.0)");
    c.add("initial.R0", &R0_, "initial distance of each centre from the centre of the triangle")
        .unit("m")
        .range(cm::Range::positive())
        .assumption("INFERRED: Fig. 6 is missing; R0 = 2r/sqrt(3) + 0.46 V0, spec 003 §3.2 candidate A (B: 1.1547)");
    c.add("initial.angles_deg", &angles_deg_, "polar angles of particles 1, 2, 3 about the centre")
        .unit("deg")
        .size(3)
        .assumption("ASSUMED: the numbering of Fig. 6 is unknown; irrelevant by symmetry (spec 003 §3.2)");
    c.add_choice("initial.overlap", &static_overlap_, {{"static", true}, {"zero", false}},
                 "initial height: resting at the static overlap, or just touching the plane")
        .assumption("ASSUMED: the initial height is not given (spec 003 §3.2)");
    c.add("time.t_end", &t_end_, "simulated time").unit("s").range(cm::Range::positive());
    c.add("output.every", &every_, "steps between rows of the time series").range(cm::Range::closed(1, 1e9));
    c.add("check.pp_mu_alternative", &mu_alt_,
          "particle-particle friction of the second run (O-9: the results must not depend on it)")
        .range(cm::Range::nonnegative());
    declare_model_keys(c, model_);
    cm::KeyBuilder(c, "contact.pp_mu_s")
        .assumption("ASSUMED: particle-particle friction is not given; irrelevant by symmetry (spec 003 §3.2, O-9)");
    c.check([&c, this] {
      if (!(model_.gravity[2] < 0.0) || model_.gravity[0] != 0.0 || model_.gravity[1] != 0.0)
        c.fail("model.gravity", "Example 5.2 needs gravity along -z, onto the plane z = 0");
      // the particles must start apart: the side of the triangle sqrt(3) R0 exceeds 2 r
      if (!(std::sqrt(3.0) * R0_ > 2.0 * particle_.r))
        c.fail("initial.R0", "the spheres overlap at the start (sqrt(3) R0 must exceed 2 r)");
      // The work, counted before any step: two simulations, each keeping a trace (Trace: 11 values) of every step.
      const double steps = static_cast<double>(cm::planned_steps(c, t_end_, model_.dt, "solver.dt", "time.t_end"));
      cm::planned_memory(c, 2.0 * (steps + 1.0) * 11.0 * sizeof(double), "solver.dt", "the traces of every step");
      cm::planned_bodies(c, 3.0, "run.max_bodies", "spheres of Example 5.2 (a triangle of three)");
    });
  }

  void run(cm::Run& run) {
    const Trace tr = simulate(model_, &run);
    write(run, tr);
    analyse(run, tr);
    Options alt = model_;
    alt.particle_particle.mu_s = alt.particle_particle.mu_d = mu_alt_;
    const Trace tr2 = simulate(alt, nullptr);
    double diff = 0.0;
    for (std::size_t k = 0; k < tr.t.size() && k < tr2.t.size(); ++k)
      diff = std::max({diff, std::fabs(tr.u[k] - tr2.u[k]) / V0_,
                       std::fabs(tr.spin[k] - tr2.spin[k]) * particle_.r / V0_, std::fabs(tr.R[k] - tr2.R[k]) / R0_});
    run.scalar("pp_mu_insensitivity", diff);
    run.note(
        "Fig. 6 is missing: the approach speed V0 and distance R0 are inferred (spec 003 §3.2), so the collision "
        "start (PV13) follows from them; the duration, the reversal, the spin zero, the return to rolling and "
        "to the initial position are results.");
  }

 private:
  Trace simulate(const Options& o, cm::Run* progress_run) const {
    const double delta0 = static_overlap_ ? static_overlap(particle_, -o.gravity[2], o.wall_material) : 0.0;
    std::vector<State> states(3);
    std::vector<Vector3d> u_hat(3);
    for (int i = 0; i < 3; ++i) {
      const double a = angles_deg_[static_cast<std::size_t>(i)] * cm::pi / 180.0;
      const Vector3d radial(std::cos(a), std::sin(a), 0.0);
      u_hat[static_cast<std::size_t>(i)] = -radial;
      State& s = states[static_cast<std::size_t>(i)];
      s.x = R0_ * radial + Vector3d(0.0, 0.0, particle_.r - delta0);
      s.v = V0_ * u_hat[static_cast<std::size_t>(i)];
      s.w = V0_ / particle_.r * Vector3d::UnitZ().cross(u_hat[static_cast<std::size_t>(i)]);  // pure rolling
    }
    System sys({particle_, particle_, particle_}, states, {Wall::plane(Vector3d::Zero(), Vector3d::UnitZ())}, o);
    const Vector3d u1 = u_hat[0], a1 = Vector3d::UnitZ().cross(u1);
    Trace tr;
    double theta = 0.0;
    auto rotate_to_1 = [&](std::size_t i, const Vector3d& v) {
      const double d = (angles_deg_[0] - angles_deg_[i]) * cm::pi / 180.0;
      return Vector3d(std::cos(d) * v(0) - std::sin(d) * v(1), std::sin(d) * v(0) + std::cos(d) * v(1), v(2));
    };
    auto record = [&](long iterations) {
      const State& s = sys.state(0);
      tr.t.push_back(sys.t());
      tr.u.push_back(s.v.dot(u1));
      tr.spin.push_back(s.w.dot(a1));
      tr.theta.push_back(theta);
      tr.slip.push_back((s.v + s.w.cross(Vector3d(0.0, 0.0, -particle_.r))).dot(u1));
      tr.R.push_back(Vector3d(s.x(0), s.x(1), 0.0).norm());
      tr.overlap12.push_back(2.0 * particle_.r - (sys.state(1).x - s.x).norm());
      double n = 0.0;
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = i + 1; j < 3; ++j) n += sys.particle_contact(i, j).active ? 1.0 : 0.0;
      tr.n_pp.push_back(n);
      tr.ke_t.push_back(sys.kinetic_translational());
      tr.ke_r.push_back(sys.kinetic_rotational());
      tr.iterations.push_back(static_cast<double>(iterations));
      for (std::size_t i = 1; i < 3; ++i) {
        const State& si = sys.state(i);
        tr.symmetry =
            std::max({tr.symmetry, (rotate_to_1(i, si.x) - s.x).norm() / R0_, (rotate_to_1(i, si.v) - s.v).norm() / V0_,
                      (rotate_to_1(i, si.w) - s.w).norm() * particle_.r / V0_});
      }
    };
    record(0);
    const long n = std::lround(t_end_ / o.dt);
    cm::Progress progress("Example 5.2", 0.0, t_end_, progress_run == nullptr || progress_run->quiet());
    for (long k = 0; k < n; ++k) {
      const StepReport rep = sys.step();
      if (!rep.converged) ++tr.nonconverged;
      tr.iterations_max = std::max(tr.iterations_max, rep.iterations);
      theta += sys.state(0).aD.dot(a1);  // the total rotation about the fixed axis: sum of scalar increments
      record(rep.iterations);
      progress.update(sys.t());
    }
    return tr;
  }

  void write(cm::Run& run, const Trace& tr) const {
    const double rows = static_cast<double>(tr.t.size()) / static_cast<double>(every_) + 1;
    auto tab = run.table("particle1.tsv",
                         "Example 5.2, particle 1 (Fig. 7): velocity towards the centre, spin and total rotation about "
                         "its axis e_z x u, slip of its contact point, distance from the centre",
                         {{"t", "s"},
                          {"u", "m/s"},
                          {"spin", "rad/s"},
                          {"theta", "rad"},
                          {"slip", "m/s"},
                          {"R", "m"},
                          {"pp_contacts", "1"},
                          {"KE_t", "J"},
                          {"KE_r", "J"},
                          {"iterations", "1"}},
                         {rows, "output.every"});
    for (std::size_t k = 0; k < tr.t.size(); k += static_cast<std::size_t>(every_))
      tab.row({tr.t[k], tr.u[k], tr.spin[k], tr.theta[k], tr.slip[k], tr.R[k], tr.n_pp[k], tr.ke_t[k], tr.ke_r[k],
               tr.iterations[k]});
  }

  void analyse(cm::Run& run, const Trace& tr) const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double t0 = first_crossing(tr.t, tr.overlap12, 0.0, 0.0, +1);
    const double t1 = std::isfinite(t0) ? first_crossing(tr.t, tr.overlap12, 0.0, t0, -1) : nan;
    run.scalar("t_collision_start", t0, "s");
    run.scalar("t_collision_end", t1, "s");
    run.scalar("collision_duration", t1 - t0, "s");
    run.scalar("collision_steps", (t1 - t0) / model_.dt);
    const Particle& p = particle_;
    run.scalar("collision_duration_hertz_3body",
               hertz_duration(p.m / 3.0, 0.5 * p.r, effective_E(p, p), std::sqrt(3.0) * V0_), "s");  // spec O-11
    // the samples just before and after the collision
    std::size_t before = 0, after = 0;
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      if (tr.t[k] < t0) before = k;
      if (after == 0 && tr.t[k] > t1) after = k;
    }
    run.scalar("speed_before", std::fabs(tr.u[before]), "m/s");
    run.scalar("speed_after", std::fabs(tr.u[after]), "m/s");
    run.scalar("speed_ratio", std::fabs(tr.u[after]) / std::fabs(tr.u[before]));
    const double t_spin = first_crossing(tr.t, tr.spin, 0.0, t0);
    const double t_roll = first_crossing(tr.t, tr.slip, 0.0, t1);
    run.scalar("t_spin_zero", t_spin, "s");
    run.scalar("t_roll_again", t_roll, "s");
    // O-10: the ratio of the delays from the collision, 7/10 for ideal Coulomb friction
    run.scalar("spin_zero_over_roll_delay", (t_spin - t1) / (t_roll - t1));
    double rise = -std::numeric_limits<double>::infinity();
    for (std::size_t k = after + 1; k < tr.t.size() && tr.t[k] < t_roll; ++k)
      rise = std::max(rise, std::fabs(tr.u[k]) - std::fabs(tr.u[k - 1]));
    run.scalar("speed_rise_max_sliding", rise, "m/s");
    run.scalar("symmetry_rel_dev", tr.symmetry);
    const double t_back = first_crossing(tr.t, tr.R, R0_, t1, +1);
    run.scalar("t_back", t_back, "s");
    // O-10: the final rolling speed from the state at the end of the collision (angular momentum about
    // the contact point): u_f = (5 u_e + 2 r spin_e)/7
    const double u_f_cf = (5.0 * tr.u[after] + 2.0 * p.r * tr.spin[after]) / 7.0;
    double us = 0.0, n = 0.0;
    for (std::size_t k = 0; k < tr.t.size(); ++k)
      if (tr.t[k] > t_roll + 0.1 && (!std::isfinite(t_back) || tr.t[k] < t_back)) {
        us += tr.u[k];
        n += 1.0;
      }
    run.scalar("u_final", n > 0 ? us / n : nan, "m/s");
    run.scalar("u_final_closed_form", u_f_cf, "m/s");
    run.scalar("u_final_abs_error", n > 0 ? std::fabs(us / n - u_f_cf) : nan, "m/s");
    double it = 0.0;
    for (std::size_t k = 1; k < tr.iterations.size(); ++k) it += tr.iterations[k];
    run.scalar("iterations_mean", it / static_cast<double>(tr.iterations.size() - 1));
    run.scalar("iterations_max", static_cast<double>(tr.iterations_max));
    run.scalar("nonconverged_steps", static_cast<double>(tr.nonconverged));
    if (!run.quiet())
      std::printf(
          "Example 5.2: collision %.5f-%.5f s, speed ratio %.5f, spin zero %.4f s, rolling %.4f s, back %.4f s\n", t0,
          t1, std::fabs(tr.u[after]) / std::fabs(tr.u[before]), t_spin, t_roll, t_back);
  }

  Particle particle_{1000.0, 0.2, 1e10, 0.25};
  double V0_ = 1.93, R0_ = 1.1187;
  std::vector<double> angles_deg_{90.0, 210.0, 330.0};
  bool static_overlap_ = true;
  double t_end_ = 2.0;
  long every_ = 10;
  double mu_alt_ = 0.0;
  Options model_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ThreeStudy>(argc, argv); }

// bb_outcome: the long-term rolling maps of Sect. 5 (Figs. 11, 12, 13), all four panels.
//
// The ball starts rolling (u1 = u3 = 0) at beta(0), omega1(0) on a grid, with omega2(0), omega3(0)
// fixed near a stable steady motion of region A (Sect. 5.1.1). Each cell is simulated until the
// ball falls (F2 reaches 0, eq. (40); in or out by the free-flight rule, spec §2.18), or until it
// is found rolling periodically (two transversal zeros of omega1 within one rolling phase, Prop. 4),
// or until t_max (undetermined). The four panels of each figure:
//   tl  falling only (mu -> infinity): rolling (33)-(36) and the contact condition (40);
//   tr  with slipping (Sect. 5.2): Coulomb friction mu, switches through the limit directions (81);
//   bl  with drilling dissipation k_d (83) (and slipping, spec T-22);
//   br  with rolling resistance k_r (83) (and slipping).
// The boundary of the periodic region in tl/tr is classified (Sect. 5.1.2): deadlock type where
// the minimum normal force F2min (74) tends to zero, separatrix type otherwise (the period grows
// towards the edge), slipping type where the neighbouring cell fell after a slip.
// Every cell is a pure function of its inputs, so the maps do not depend on the number of threads.
//
// One executable, several studies (key run.study): fig11 (the default), fig12, fig13 and
// sensitivity; each INI of configs/basketball names its study.
//
// Sample runs (into a scratch folder, never over the pipeline's results/):
//   bb_outcome --config configs/basketball/quick/fig11.ini --output try/fig11
//   bb_outcome --config configs/basketball/quick/fig12.ini --grid.n_beta=90 --grid.n_omega1=60 --output try/fig12
//
// Writes map_tl.tsv, map_tr.tsv, map_bl.tsv, map_br.tsv (one row per cell, gnuplot image blocks),
// centre.tsv (the steady motion at the centre) and the scalars of the qualitative claims.
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "basketball/config.hpp"
#include "basketball/model.hpp"
#include "basketball/simulate.hpp"
#include "core/math.hpp"
#include "core/study.hpp"
#include "numerics/sundials.hpp"

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
const std::array<std::string, 4> panel_names{"tl", "tr", "bl", "br"};

enum Boundary { none = 0, separatrix = 1, deadlock = 2, slipping = 3 };

struct Grid {
  double b0, b1, w0, w1;
  int nb, nw;
  double beta(int i) const { return nb > 1 ? b0 + (b1 - b0) * i / (nb - 1) : b0; }
  double omega1(int k) const { return nw > 1 ? w0 + (w1 - w0) * k / (nw - 1) : w0; }
  int index(int i, int k) const { return k * nb + i; }
  int size() const { return nb * nw; }
};

class OutcomeStudy {
 public:
  static constexpr cm::StudyInfo info{"bb_outcome", "basketball", "fig11",
                                      "Outcome maps of long-term rolling, Figs. 11-13 (four panels)"};

  void declare(cm::Config& c) {
    bb::declare_model_keys(c, p_);
    c.add("ic.omega2", &w2_, "omega2(0), the spin of the steady motion at the centre").unit("1/s");
    c.add("ic.omega3", &w3_, "omega3(0), the circular angular velocity (Sect. 5.1.1)").unit("1/s");
    c.add("grid.beta_min", &grid_.b0, "first beta(0) of the grid")
        .unit("rad")
        .range(cm::Range::closed(-2 * cm::pi, 2 * cm::pi))
        .assumption("RECONSTRUCTED: figure ranges missing (spec 004 §3.2)");
    c.add("grid.beta_max", &grid_.b1, "last beta(0) of the grid")
        .unit("rad")
        .range(cm::Range::closed(-2 * cm::pi, 2 * cm::pi));
    c.add("grid.n_beta", &grid_.nb, "grid points in beta(0) (inclusive)")
        .range(cm::Range::closed(1, 100000))
        .assumption("RECONSTRUCTED: 360 x 240 grid, axis assignment not stated (spec T-19)");
    c.add("grid.omega1_min", &grid_.w0, "first omega1(0) of the grid")
        .unit("1/s")
        .assumption("RECONSTRUCTED: figure ranges missing (spec 004 §3.2)");
    c.add("grid.omega1_max", &grid_.w1, "last omega1(0) of the grid").unit("1/s");
    c.add("grid.n_omega1", &grid_.nw, "grid points in omega1(0) (inclusive)").range(cm::Range::closed(1, 100000));
    bb::declare_dissipation_keys(c, k_d_, k_r_);  // k_d: the bottom-left panel, k_r: the bottom-right
    c.add("dissipation.with_slipping", &with_slipping_, "the bottom panels include slipping (spec T-22)")
        .assumption("ASSUMED: the paper does not say (spec T-22)");
    c.add("dissipation.t_max", &dissipation_t_max_, "t_max of the dissipative panels")
        .unit("s")
        .range(cm::Range::positive())
        .assumption("ASSUMED: no time span stated (spec 004 §3.2)");
    bb::declare_simulation_keys(c, base_);
    c.add("boundary.deadlock_F2", &deadlock_F2_, "F2min/g below which a periodic boundary cell is deadlock type")
        .unit("1")
        .range(cm::Range::positive())
        .assumption("ASSUMED: classification threshold of spec 004 §6.1");
    c.add("centre.perturbation", &perturbation_,
          "omega1 offset of the small orbit checked against the linear period (Prop. 13)")
        .unit("1/s")
        .range(cm::Range::positive());
    // The small orbit is compared with the linear period (54): its period must carry far less
    // integration error than the orbit's departure from linearity (of order perturbation^2), so it
    // has its own, tighter integrator (formerly a hidden min(solver.rtol, 1e-11)).
    cm::declare_integrator_keys(c, centre_, "centre");
    cm::KeyBuilder(c, "centre.rtol")
        .assumption(
            "ASSUMED: the small orbit's period is compared with T_lin (Prop. 13) at 1e-11, well below its "
            "nonlinear departure; not in the paper");
    cm::KeyBuilder(c, "centre.atol").assumption("ASSUMED: as centre.rtol, for omega of order 10 1/s");
    c.add("sensitivity.check", &sensitivity_,
          "also run the slipping panels with slip.delta x 10, slip.u_tol x 10 and solver.rtol / 2 and count the "
          "cells whose outcome changes (spec 004 §7.5)");
    c.add("output.threads", &threads_, "OpenMP threads (0: the runtime's default); the maps do not depend on it")
        .range(cm::Range::closed(0, cm::max_threads))
        .no_data();
    c.check([&c, this] {
      if (!(grid_.b1 > grid_.b0)) c.fail("grid.beta_max", "must exceed grid.beta_min");
      if (!(grid_.w1 > grid_.w0)) c.fail("grid.omega1_max", "must exceed grid.omega1_min");
      if (w3_ == 0) c.fail("ic.omega3", "must be non-zero (steady motions need omega30 != 0, eq. (48))");
      // The four maps and their boundary classes, one outcome and one class per cell of the grid,
      // counted against run.max_memory before any cell is simulated (a lower bound: the sweep's
      // own bookkeeping comes on top).
      const double cells = static_cast<double>(grid_.nb) * static_cast<double>(grid_.nw);
      cm::planned_memory(c, 4.0 * cells * static_cast<double>(sizeof(bb::Outcome) + sizeof(int)), "grid.n_beta",
                         "the four outcome maps of grid.n_beta x grid.n_omega1 cells");
      // Valid-looking keys may still give an infinite start (omega ~ 1e200 squares past the largest
      // double): the normal force (41) and the energy (60) at the grid's corners must be finite.
      const bb::Model model(p_);
      for (double b : {grid_.b0, grid_.b1})
        for (double w1 : {grid_.w0, grid_.w1}) {
          bb::Slipping y0 = bb::Slipping::Zero();
          y0.head<4>() = bb::Rolling(b, w1, w2_, w3_);
          if (!std::isfinite(model.normal_force(y0)) || !std::isfinite(model.energy(y0.head<4>())))
            c.fail("ic.omega2",
                   "ic.omega2, ic.omega3, grid.omega1_min, grid.omega1_max (with model.*) give a "
                   "non-finite normal force (41) or energy (60) on the grid");
        }
    });
  }

  void run(cm::Run& run) {
    setup();
    solve();
    write_maps(run);
    write_claims(run);
  }

 private:
  // --- set up: the model, the panels, the steady motion at the centre ------------------------------
  void setup() {
    if (threads_ > 0) omp_set_num_threads(int(threads_));
    const bb::Model plain(p_);
    beta0_ = centre_angle(plain, w2_, w3_, grid_);
    h0_ = std::isfinite(beta0_) ? plain.h(beta0_, w3_) : nan;
    T_lin_ = h0_ < 0 ? 2 * cm::pi / std::sqrt(-h0_) : nan;
    params_ = {p_, p_, p_, p_};
    params_[2].k_d = k_d_;
    params_[3].k_r = k_r_;
    opts_ = {base_, base_, base_, base_};
    opts_[0].slipping = false;
    for (int q = 2; q < 4; ++q) {
      opts_[q].slipping = with_slipping_;
      opts_[q].detect_periodic = false;  // (83) has no periodic orbits
      opts_[q].t_max = dissipation_t_max_;
    }
  }

  // --- solve: every cell of every panel, and the small orbit around the centre ---------------------
  void solve() {
    for (int q = 0; q < 4; ++q) {
      const auto t0 = std::chrono::steady_clock::now();
      maps_[q] = sweep(bb::Model(params_[q]), opts_[q], grid_, w2_, w3_, &simulations_[q]);
      wall_[q] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // The small orbit around the centre (Prop. 13): its period tends to the linear one.
    if (std::isfinite(beta0_)) {
      bb::SimulationOptions o = opts_[0];
      o.integrator = centre_;
      small_period_ = bb::simulate(bb::Model(p_), bb::Rolling(beta0_, perturbation_, w2_, w3_), o).period;
    }
  }

  // --- write: the four maps with their boundary classes ----------------------------------------------
  void write_maps(cm::Run& out) {
    const Grid& grid = grid_;
    const auto& maps = maps_;
    const auto& opts = opts_;
    const double g = p_.g, thr = deadlock_F2_ * g;
    auto& boundary = boundary_;
    for (int q = 0; q < 4; ++q) boundary[q] = classify_boundaries(maps[q], grid, thr, opts[q].slipping);
    const std::vector<int> tl = codes(maps[0]);
    for (int q = 0; q < 4; ++q) {
      auto table = out.table("map_" + panel_names[q] + ".tsv",
                             "outcome map, panel " + panel_names[q] +
                                 "; code 0 periodic, 1 in, 2 out, 3 undetermined; boundary 1 separatrix, "
                                 "2 deadlock, 3 slipping; former_periodic = code of tl is 0",
                             {{"beta0", "rad"},
                              {"omega1_0", "1/s"},
                              {"code", "1"},
                              {"period", "s"},
                              {"F2min", "m/s^2"},
                              {"t_end", "s"},
                              {"switches", "1"},
                              {"beta_sep", "rad"},
                              {"omega1_sep", "1/s"},
                              {"omega2_sep", "1/s"},
                              {"omega3_sep", "1/s"},
                              {"d_cross", "m"},
                              {"revolutions", "1"},
                              {"boundary", "1"},
                              {"former_periodic", "1"},
                              {"steps", "1"}},
                             cm::Planned{double(grid.size()), "grid.n_beta"});
      for (int k = 0; k < grid.nw; ++k) {
        for (int i = 0; i < grid.nb; ++i) {
          const int c = grid.index(i, k);
          const bb::Outcome& o = maps[q][c];
          table.row({grid.beta(i), grid.omega1(k), double(int(o.code)), o.period, o.F2min, o.t_end, double(o.switches),
                     o.separation(0), o.separation(1), o.separation(2), o.separation(3), o.d_cross, o.revolutions,
                     double(boundary[q][c]), tl[c] == 0 ? 1.0 : 0.0, double(o.steps)});
        }
        table.gap();
      }
    }
  }

  // --- write: the centre and the scalars of the qualitative claims (QC-11 to QC-18) -----------------
  void write_claims(cm::Run& out) {
    const Grid& grid = grid_;
    const auto& maps = maps_;
    const auto& boundary = boundary_;
    const double g = p_.g, beta0 = beta0_, h0 = h0_, T_lin = T_lin_, w2 = w2_, w3 = w3_;
    const std::vector<int> tl = codes(maps[0]);
    auto centre = out.table(
        "centre.tsv", "the steady motion at the centre of the map (48), its linear period",
        {{"beta0", "rad"}, {"omega1", "1/s"}, {"omega2", "1/s"}, {"omega3", "1/s"}, {"h", "1/s^2"}, {"T_lin", "s"}},
        cm::Planned{1, "ic.omega2"});
    centre.row({beta0, 0.0, w2, w3, h0, T_lin});
    out.scalar("beta0_centre", beta0, "rad");
    out.scalar("T_lin", T_lin, "s");
    out.scalar("small_orbit_period_ratio", small_period_ / T_lin);

    const int centre_cell = std::isfinite(beta0) ? nearest(grid, beta0, 0.0) : -1;
    const std::vector<int> comp_tl = components(tl, grid);
    // The component around the centre: that of the periodic cell nearest to the steady motion.
    int main_comp = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int c = 0; c < grid.size() && centre_cell >= 0; ++c) {
      if (comp_tl[c] < 0) continue;
      const double d = std::hypot((grid.beta(c % grid.nb) - beta0) / (grid.b1 - grid.b0),
                                  grid.omega1(c / grid.nb) / (grid.w1 - grid.w0));
      if (d < best) best = d, main_comp = comp_tl[c];
    }
    out.scalar("tl_centre_periodic", centre_cell >= 0 && tl[centre_cell] == 0 ? 1.0 : 0.0);
    // The simulations behind one map (Sect. 5.2: "about 10^5" per graph): the fewest of the panels'.
    out.scalar("simulations_per_map", double(*std::min_element(simulations_.begin(), simulations_.end())));
    for (int q = 0; q < 4; ++q) write_panel_scalars(out, panel_names[q], maps[q], boundary[q], grid, tl);

    // The left (lower beta) and right neighbours of the periodic region in tl (QC-11).
    int left_in = 0, left_n = 0, right_out = 0, right_n = 0;
    for (int k = 0; k < grid.nw; ++k)
      for (int i = 0; i < grid.nb; ++i) {
        if (tl[grid.index(i, k)] != 0) continue;
        if (i > 0 && tl[grid.index(i - 1, k)] != 0) ++left_n, left_in += tl[grid.index(i - 1, k)] == 1;
        if (i + 1 < grid.nb && tl[grid.index(i + 1, k)] != 0) ++right_n, right_out += tl[grid.index(i + 1, k)] == 2;
      }
    out.scalar("tl_left_in_frac", left_n ? double(left_in) / left_n : nan);
    out.scalar("tl_right_out_frac", right_n ? double(right_out) / right_n : nan);

    // Period at the separatrix-type boundary relative to the linear one (QC-11: the period grows).
    double ratio_max = 0;
    for (int c = 0; c < grid.size(); ++c)
      if (boundary[0][c] == separatrix) ratio_max = std::max(ratio_max, maps[0][c].period / T_lin);
    out.scalar("tl_separatrix_period_ratio_max", ratio_max);

    // tr against tl (QC-14): the share of tl's periodic cells whose class changed.
    const std::vector<int> tr = codes(maps[1]);
    int changed = 0, n_tl = 0;
    for (int c = 0; c < grid.size(); ++c) {
      n_tl += tl[c] == 0;
      changed += (tl[c] == 0) != (tr[c] == 0);
    }
    out.scalar("tr_P_changed_frac", n_tl ? double(changed) / n_tl : nan);

    // The periodic components of tl other than the one around the centre (QC-13, QC-16).
    std::map<int, int> sizes;
    for (int c = 0; c < grid.size(); ++c)
      if (comp_tl[c] >= 0 && comp_tl[c] != main_comp) ++sizes[comp_tl[c]];
    int second = -1, second_size = 0;
    for (const auto& [id, n] : sizes)
      if (n > second_size) second = id, second_size = n;
    int second_boundary = 0, second_deadlock = 0, second_tr = 0;
    double second_F2min = std::numeric_limits<double>::infinity();
    for (int c = 0; c < grid.size(); ++c) {
      if (second < 0 || comp_tl[c] != second) continue;
      second_tr += tr[c] == 0;
      second_F2min = std::min(second_F2min, maps[0][c].F2min);
      if (boundary[0][c] != none) ++second_boundary, second_deadlock += boundary[0][c] == deadlock;
    }
    out.scalar("tl_second_component_cells", second_size);
    out.scalar("tl_second_component_deadlock_frac", second_boundary ? double(second_deadlock) / second_boundary : nan);
    out.scalar("tl_second_component_F2min_over_g", second_size ? second_F2min / g : nan);
    out.scalar("tr_P_in_second_component", second_tr);

    if (sensitivity_) sensitivity(out, params_, opts_, maps, grid, w2, w3);

    for (int q = 0; q < 4; ++q) out.statistics("panel_" + panel_names[q], panel_statistics(maps[q], wall_[q]));
    out.note("in/out rule: " + std::string(base_.ballistic ? "ballistic" : "cosbeta") + "; cells: " +
             std::to_string(grid.size()) + " per panel; threads: " + std::to_string(omp_get_max_threads()));
  }

  // The outcome of a slipping panel must not hang on the numerical choices of the switch (spec 004
  // §7.5). Each panel with slipping is run again with the start-up offset delta and the re-stick
  // tolerance u_tol ten times larger, and with rtol halved. The share of cells whose outcome code
  // changes is a scalar `<panel>_changed_frac_<variant>` and a note of the run.
  static void sensitivity(cm::Run& out, const std::array<bb::Parameters, 4>& params,
                          const std::array<bb::SimulationOptions, 4>& opts,
                          const std::array<std::vector<bb::Outcome>, 4>& maps, const Grid& grid, double w2, double w3) {
    struct Variant {
      const char* name;
      const char* label;
      void (*apply)(bb::SimulationOptions&);
    };
    const Variant variants[] = {
        {"delta10", "slip.delta x 10", [](bb::SimulationOptions& o) { o.delta *= 10; }},
        {"u_tol10", "slip.u_tol x 10", [](bb::SimulationOptions& o) { o.u_tol *= 10; }},
        {"rtol_half", "solver.rtol / 2", [](bb::SimulationOptions& o) { o.integrator.rtol /= 2; }},
    };
    std::string note = "sensitivity (cells whose outcome changes, of " + std::to_string(grid.size()) + " per panel)";
    for (int q = 0; q < 4; ++q) {
      if (!opts[q].slipping) continue;
      note += (note.back() == ')' ? ": " : "; ") + panel_names[q] + ":";
      for (const Variant& v : variants) {
        bb::SimulationOptions o = opts[q];
        v.apply(o);
        const std::vector<bb::Outcome> other = sweep(bb::Model(params[q]), o, grid, w2, w3);
        int changed = 0;
        for (int c = 0; c < grid.size(); ++c) changed += maps[q][c].code != other[c].code;
        out.scalar(panel_names[q] + "_changed_frac_" + v.name, double(changed) / grid.size());
        note += std::string(" ") + v.label + " " + std::to_string(changed) + ",";
      }
      note.pop_back();
    }
    out.note(note);
  }

  // beta0 of the steady motion (48) with the given omega20, omega30 inside the grid's beta range
  // (the first, should there be several).
  static double centre_angle(const bb::Model& m, double w2, double w3, const Grid& grid) {
    const std::vector<double> roots = m.steady_angles(w2, w3, grid.b0, grid.b1);
    return roots.empty() ? nan : roots.front();
  }

  // Every cell of a map simulated from its start; `simulations` (when given) counts the simulations
  // that ran to an outcome.
  static std::vector<bb::Outcome> sweep(const bb::Model& model, const bb::SimulationOptions& o, const Grid& grid,
                                        double w2, double w3, long* simulations = nullptr) {
    std::vector<bb::Outcome> result(std::size_t(grid.size()));
    std::vector<std::exception_ptr> errors(std::size_t(grid.size()));
    std::vector<char> simulated(std::size_t(grid.size()), 0);
#pragma omp parallel for schedule(dynamic, 8)
    for (int c = 0; c < grid.size(); ++c) {
      try {
        const int i = c % grid.nb, k = c / grid.nb;
        try {
          result[std::size_t(c)] = bb::simulate(model, bb::Rolling(grid.beta(i), grid.omega1(k), w2, w3), o);
          simulated[std::size_t(c)] = 1;
        } catch (const cm::NumericalError& e) {
          throw cm::NumericalError("cell beta(0) = " + std::to_string(grid.beta(i)) +
                                   ", omega1(0) = " + std::to_string(grid.omega1(k)) + ": " + e.what());
        }
      } catch (...) {
        errors[std::size_t(c)] = std::current_exception();
      }
    }
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);  // the first failing cell in grid order
    if (simulations) *simulations = long(std::count(simulated.begin(), simulated.end(), 1));
    return result;
  }

  static std::vector<int> codes(const std::vector<bb::Outcome>& map) {
    std::vector<int> v(map.size());
    for (std::size_t c = 0; c < map.size(); ++c) v[c] = int(map[c].code);
    return v;
  }

  static int nearest(const Grid& grid, double beta, double omega1) {
    const int i = std::clamp(int(std::lround((beta - grid.b0) / (grid.b1 - grid.b0) * (grid.nb - 1))), 0, grid.nb - 1);
    const int k =
        std::clamp(int(std::lround((omega1 - grid.w0) / (grid.w1 - grid.w0) * (grid.nw - 1))), 0, grid.nw - 1);
    return grid.index(i, k);
  }

  template <class F>
  static void neighbours(const Grid& grid, int c, F&& f) {
    const int i = c % grid.nb, k = c / grid.nb;
    if (i > 0) f(grid.index(i - 1, k));
    if (i + 1 < grid.nb) f(grid.index(i + 1, k));
    if (k > 0) f(grid.index(i, k - 1));
    if (k + 1 < grid.nw) f(grid.index(i, k + 1));
  }

  // Connected components (4-neighbours) of the periodic cells; -1 elsewhere.
  static std::vector<int> components(const std::vector<int>& code, const Grid& grid) {
    std::vector<int> comp(code.size(), -1);
    int next = 0;
    for (int c = 0; c < grid.size(); ++c) {
      if (code[c] != 0 || comp[c] >= 0) continue;
      std::vector<int> stack{c};
      comp[c] = next;
      while (!stack.empty()) {
        const int d = stack.back();
        stack.pop_back();
        neighbours(grid, d, [&](int e) {
          if (code[e] == 0 && comp[e] < 0) comp[e] = next, stack.push_back(e);
        });
      }
      ++next;
    }
    return comp;
  }

  // Boundary type of each periodic cell next to a falling cell (Sect. 5.1.2, spec §6.1).
  static std::vector<int> classify_boundaries(const std::vector<bb::Outcome>& map, const Grid& grid, double thr,
                                              bool with_slip) {
    std::vector<int> b(map.size(), none);
    for (int c = 0; c < grid.size(); ++c) {
      if (map[c].code != bb::Code::periodic) continue;
      bool edge = false, slip_edge = false;
      neighbours(grid, c, [&](int e) {
        if (map[e].code == bb::Code::in || map[e].code == bb::Code::out) {
          edge = true;
          slip_edge = slip_edge || (with_slip && map[e].slipped);
        }
      });
      if (!edge) continue;
      b[c] = slip_edge ? slipping : (map[c].F2min < thr ? deadlock : separatrix);
    }
    return b;
  }

  static void write_panel_scalars(cm::Run& out, const std::string& name, const std::vector<bb::Outcome>& map,
                                  const std::vector<int>& boundary, const Grid& grid, const std::vector<int>& tl) {
    std::array<int, 4> n{};
    std::array<int, 4> bcount{};
    int next_in = 0, next_out = 0, former = 0, former_in = 0, former_out = 0;
    for (int c = 0; c < grid.size(); ++c) {
      ++n[std::size_t(map[c].code)];
      ++bcount[std::size_t(boundary[c])];
      if (map[c].code == bb::Code::periodic) {
        bool in = false, outn = false;
        neighbours(grid, c, [&](int e) {
          in = in || map[e].code == bb::Code::in;
          outn = outn || map[e].code == bb::Code::out;
        });
        next_in += in, next_out += outn;
      }
      if (tl[c] == 0) {
        ++former;
        former_in += map[c].code == bb::Code::in;
        former_out += map[c].code == bb::Code::out;
      }
    }
    const std::vector<int> comp = components(codes(map), grid);
    const int ncomp = comp.empty() ? 0 : *std::max_element(comp.begin(), comp.end()) + 1;
    out.scalar(name + "_n_periodic", n[0]);
    out.scalar(name + "_n_in", n[1]);
    out.scalar(name + "_n_out", n[2]);
    out.scalar(name + "_n_undetermined", n[3]);
    out.scalar(name + "_undetermined_frac", double(n[3]) / grid.size());
    out.scalar(name + "_periodic_components", ncomp);
    out.scalar(name + "_boundary_separatrix", bcount[separatrix]);
    out.scalar(name + "_boundary_deadlock", bcount[deadlock]);
    out.scalar(name + "_boundary_slipping", bcount[slipping]);
    out.scalar(name + "_periodic_next_to_in", next_in);
    out.scalar(name + "_periodic_next_to_out", next_out);
    out.scalar(name + "_former_periodic_in_frac", former ? double(former_in) / former : nan);
    out.scalar(name + "_former_periodic_out_frac", former ? double(former_out) / former : nan);
  }

  static std::map<std::string, double> panel_statistics(const std::vector<bb::Outcome>& map, double wall) {
    double steps = 0, rhs = 0, switches = 0, fallbacks = 0;
    for (const bb::Outcome& o : map)
      steps += o.steps, rhs += o.rhs_evaluations, switches += o.switches, fallbacks += o.fallbacks;
    return {{"cells", double(map.size())}, {"steps", steps},         {"rhs_evaluations", rhs},
            {"switches", switches},        {"fallbacks", fallbacks}, {"wall_time_s", wall}};
  }

  bb::Parameters p_;
  bb::SimulationOptions base_;  // solver.t_max 100 s
  cm::IntegratorOptions centre_{"cvode_adams", 1e-11, 1e-13, 1'000'000};
  double w2_ = 35, w3_ = 10;
  Grid grid_{0.8, 1.8, -20, 20, 360, 240};
  double k_d_ = 0.02, k_r_ = 0.02, dissipation_t_max_ = 1000, deadlock_F2_ = 0.05, perturbation_ = 1e-3;
  bool with_slipping_ = true, sensitivity_ = false;
  long threads_ = 0;
  double beta0_ = nan, h0_ = nan, T_lin_ = nan, small_period_ = nan;
  std::array<bb::Parameters, 4> params_;
  std::array<bb::SimulationOptions, 4> opts_;
  std::array<std::vector<bb::Outcome>, 4> maps_;
  std::array<double, 4> wall_{};
  std::array<long, 4> simulations_{};
  std::array<std::vector<int>, 4> boundary_;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<OutcomeStudy>(argc, argv); }

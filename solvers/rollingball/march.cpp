#include "rollingball/march.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/errors.hpp"
#include "core/grid.hpp"
#include "numerics/optimize.hpp"

namespace rb {

std::vector<double> grid(double a, double b, double dt, const std::string& key, long max_points) {
  std::vector<double> t = cm::step_grid(key, a, b, dt, max_points);
  if (b - t.back() > 1e-9 * std::max(1.0, std::abs(b))) t.push_back(b);
  t.back() = std::min(t.back(), b);
  return t;
}

std::pair<double, double> golden_maximum(const std::function<double(double)>& f, double lo, double hi, double tol) {
  const auto m = cm::golden_section_minimum([&](double x) { return -f(x); }, lo, hi, tol, 1L << 40);
  return {m.x, -m.f};
}

namespace {

// The grid maximum of one objective along a march, and the bracket [t_{k-1}, t_{k+1}] around it
// (with the state at t_{k-1}, from which the refinement restarts). A minimum is the maximum of the
// objective's negative.
struct GridMaximum {
  GridMaximum(double a, const Eigen::VectorXd& y0) : lo_t(a), hi_t(a), lo_y(y0) {}
  void visit(double t_now, double v, double prev_t, const Eigen::VectorXd& prev_y) {
    if (need_hi) {
      hi_t = t_now;
      need_hi = false;
    }
    if (v > value) {
      value = v;
      t = t_now;
      lo_t = prev_t;
      lo_y = prev_y;
      hi_t = t_now;
      need_hi = true;
    }
  }
  double value = -std::numeric_limits<double>::infinity(), t = 0.0;
  double lo_t, hi_t;
  Eigen::VectorXd lo_y;
  bool need_hi = false;
};

}  // namespace

March::March(Factory make, MarchOptions options) : make_(std::move(make)), o_(std::move(options)) {
  if (!(o_.b > o_.a)) throw cm::InputError("time.b: the final time must exceed time.a");
}

void March::root(cm::RootFunction g, int direction, bool stop) {
  root_ = std::move(g);
  root_direction_ = direction;
  root_stop_ = stop;
}

namespace {

void accumulate(std::map<std::string, double>& total, const cm::Integrator& ode) {
  for (const auto& [k, v] : ode.statistics().as_map()) {
    if (k == "last_step")
      total[k] = v;
    else
      total[k] += v;
  }
}

}  // namespace

Eigen::VectorXd March::state_at(double t0, const Eigen::VectorXd& y0, double t) const {
  if (t <= t0) return y0;
  auto ode = make_(t0, y0);
  ode->set_max_steps(o_.max_steps);
  double tc = t0;
  Eigen::VectorXd y = y0;
  for (double k : o_.kinks) {
    if (!o_.split_at_kinks || k <= tc || k >= t) continue;
    ode->set_stop_time(k);
    y = ode->advance(k).y;
    tc = k;
    if (o_.fresh_restart) {
      ode = make_(tc, y);
      ode->set_max_steps(o_.max_steps);
    } else {
      ode->reinit(tc, y);
    }
  }
  ode->set_stop_time(t);
  return ode->advance(t).y;
}

MarchResult March::run(const Eigen::VectorXd& y0, const Observer& observer) {
  // Piece boundaries and the merged grid (scan points, output points, boundaries).
  std::vector<double> bounds{o_.a};
  for (double k : o_.kinks)
    if (o_.split_at_kinks && k > o_.a && k < o_.b) bounds.push_back(k);
  bounds.push_back(o_.b);

  struct Point {
    double t;
    bool output;
  };
  std::vector<Point> points;
  for (double t : grid(o_.a, o_.b, o_.dt_scan, "analysis.dt", o_.max_points)) points.push_back({t, false});
  for (double t : grid(o_.a, o_.b, o_.dt_output, "output.dt", o_.max_points)) points.push_back({t, true});
  for (double t : bounds) points.push_back({t, false});
  std::sort(points.begin(), points.end(), [](const Point& p, const Point& q) { return p.t < q.t; });
  std::vector<Point> merged;
  for (const Point& p : points) {
    if (!merged.empty() && std::abs(p.t - merged.back().t) <= 1e-10 * std::max(1.0, std::abs(p.t))) {
      merged.back().output = merged.back().output || p.output;
      if (p.output) merged.back().t = p.t;  // keep the exact output time
      continue;
    }
    merged.push_back(p);
  }
  // boundaries must be hit exactly
  for (Point& p : merged)
    for (double bnd : bounds)
      if (std::abs(p.t - bnd) <= 1e-10 * std::max(1.0, std::abs(bnd))) p.t = bnd;

  MarchResult res;
  auto ode = make_(o_.a, y0);
  ode->set_max_steps(o_.max_steps);
  if (root_) ode->set_roots(1, root_, {root_direction_});

  // Objective bookkeeping: the previous sample, the grid maximum of objective_ and the grid
  // minimum of minimised_ (N), each with its bracket.
  double prev_t = o_.a;
  Eigen::VectorXd prev_y = y0;
  GridMaximum best(o_.a, y0), low(o_.a, y0);

  auto visit = [&](double t, const Eigen::VectorXd& y, bool output) {
    observer(t, y, output);
    if (objective_) best.visit(t, objective_(t, y), prev_t, prev_y);
    if (minimised_) low.visit(t, -minimised_(t, y), prev_t, prev_y);
    prev_t = t;
    prev_y = y;
  };

  std::size_t piece = 0;
  ode->set_stop_time(bounds[1]);
  Eigen::VectorXd y = y0;
  visit(o_.a, y0, merged.front().output);
  bool stopped = false;
  for (std::size_t k = 1; k < merged.size() && !stopped; ++k) {
    const double tout = merged[k].t;
    for (;;) {
      cm::Step step = ode->advance(tout);
      y = step.y;
      if (step.root && step.t < tout) {
        const int dir = step.roots.empty() ? 0 : step.roots[0];
        res.crossings.push_back({step.t, dir});
        if (root_stop_) {
          visit(step.t, y, true);
          res.t_end = step.t;
          res.stopped_on_root = true;
          stopped = true;
          break;
        }
        continue;  // go on to tout
      }
      if (step.root) res.crossings.push_back({step.t, step.roots.empty() ? 0 : step.roots[0]});
      break;
    }
    if (stopped) break;
    visit(tout, y, merged[k].output);
    res.t_end = tout;
    if (root_stop_ && !res.crossings.empty()) {
      res.stopped_on_root = true;
      break;
    }
    if (piece + 1 < bounds.size() - 1 && tout == bounds[piece + 1]) {
      accumulate(res.statistics, *ode);
      ++piece;
      if (o_.fresh_restart) {  // restart after the kink, (5.5)/(6.11)
        ode = make_(tout, y);
        ode->set_max_steps(o_.max_steps);
        if (root_) ode->set_roots(1, root_, {root_direction_});
      } else {
        ode->reinit(tout, y);
      }
      ode->set_stop_time(bounds[piece + 1]);
    }
  }
  accumulate(res.statistics, *ode);
  res.y_end = y;

  // The extremum between grid points, to solver precision: golden section on the bracket around
  // the grid extremum, each trial from a restart at its left end.
  const auto refine = [&](const GridMaximum& g, const Objective& f) {
    std::pair<double, double> found{g.t, g.value};
    if (g.hi_t > g.lo_t) {
      const auto at = [&](double t) { return f(t, state_at(g.lo_t, g.lo_y, t)); };
      const auto [t_star, v_star] = golden_maximum(at, g.lo_t, g.hi_t, 1e-9 * std::max(1.0, std::abs(g.hi_t)));
      if (v_star > found.second) found = {t_star, v_star};
    }
    return found;
  };
  res.grid_best_t = best.t;
  res.grid_best_value = best.value;  // -inf without an objective
  res.grid_low_t = low.t;
  res.grid_low_value = -low.value;  // +inf without a minimised function
  if (objective_) {
    std::tie(res.best_t, res.best_value) = refine(best, objective_);
  }
  if (minimised_) {
    const auto [t, negative] = refine(low, [&](double t, const Eigen::VectorXd& y) { return -minimised_(t, y); });
    res.low_t = t;
    res.low_value = -negative;
  }
  return res;
}

}  // namespace rb

#include "rollingball/march.hpp"

#include <algorithm>
#include <cmath>

#include "common/errors.hpp"
#include "common/grid.hpp"
#include "common/optimize.hpp"

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

  // Objective bookkeeping: previous sample (t, y, value) and the best bracket.
  double prev_t = o_.a;
  Eigen::VectorXd prev_y = y0;
  double best_lo_t = o_.a, best_hi_t = o_.a;
  Eigen::VectorXd best_lo_y = y0;
  bool need_hi = false;
  res.grid_best_value = -std::numeric_limits<double>::infinity();
  // The same bookkeeping for the minimum of minimised_ (N).
  double low_lo_t = o_.a, low_hi_t = o_.a;
  Eigen::VectorXd low_lo_y = y0;
  bool low_need_hi = false;
  res.grid_low_value = std::numeric_limits<double>::infinity();

  auto visit = [&](double t, const Eigen::VectorXd& y, bool output) {
    observer(t, y, output);
    if (objective_) {
      if (need_hi) {
        best_hi_t = t;
        need_hi = false;
      }
      const double v = objective_(t, y);
      if (v > res.grid_best_value) {
        res.grid_best_value = v;
        res.grid_best_t = t;
        best_lo_t = prev_t;
        best_lo_y = prev_y;
        best_hi_t = t;
        need_hi = true;
      }
    }
    if (minimised_) {
      if (low_need_hi) {
        low_hi_t = t;
        low_need_hi = false;
      }
      const double v = minimised_(t, y);
      if (v < res.grid_low_value) {
        res.grid_low_value = v;
        res.grid_low_t = t;
        low_lo_t = prev_t;
        low_lo_y = prev_y;
        low_hi_t = t;
        low_need_hi = true;
      }
    }
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

  if (objective_) {
    res.best_t = res.grid_best_t;
    res.best_value = res.grid_best_value;
    if (best_hi_t > best_lo_t) {
      const auto f = [&](double t) { return objective_(t, state_at(best_lo_t, best_lo_y, t)); };
      const auto [t_star, v_star] = golden_maximum(f, best_lo_t, best_hi_t, 1e-9 * std::max(1.0, std::abs(best_hi_t)));
      if (v_star > res.best_value) {
        res.best_t = t_star;
        res.best_value = v_star;
      }
    }
  }
  if (minimised_) {
    // The minimum between grid points, to solver precision: golden section on [t_{k-1}, t_{k+1}]
    // around the grid minimum t_k, each trial from a restart at t_{k-1} (as for the maximum).
    res.low_t = res.grid_low_t;
    res.low_value = res.grid_low_value;
    if (low_hi_t > low_lo_t) {
      const auto f = [&](double t) { return -minimised_(t, state_at(low_lo_t, low_lo_y, t)); };
      const auto [t_star, v_star] = golden_maximum(f, low_lo_t, low_hi_t, 1e-9 * std::max(1.0, std::abs(low_hi_t)));
      if (-v_star < res.low_value) {
        res.low_t = t_star;
        res.low_value = -v_star;
      }
    }
  }
  return res;
}

}  // namespace rb

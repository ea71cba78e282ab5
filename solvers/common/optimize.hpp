// Small one-dimensional optimisation shared by the papers.
#pragma once

#include <cmath>

namespace cm {

/// A point of a function and its value there.
struct Extremum {
  double x;
  double f;
};

/// Golden-section search for the minimum of f, unimodal on [lo, hi]. Stops after `iterations`
/// steps or once the bracket is no longer than `tolerance`, whichever comes first (pass 0 for a
/// fixed number of steps). Each step costs one evaluation of f and shrinks the bracket by 0.618.
/// On a tie (a flat stretch) the left part of the bracket is kept, so the leftmost of equal
/// values is found.
template <class F>
Extremum golden_section_minimum(const F& f, double lo, double hi, double tolerance, long iterations) {
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  for (long i = 0; i < iterations && hi - lo > tolerance; ++i) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - ratio * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + ratio * (hi - lo);
      f2 = f(x2);
    }
  }
  return f1 <= f2 ? Extremum{x1, f1} : Extremum{x2, f2};
}

}  // namespace cm

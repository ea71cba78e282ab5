// Small one-dimensional optimisation and root finding shared by the papers.
#pragma once

#include <cmath>
#include <limits>

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

/// Bisection for a root of f in [lo, hi], where f(lo) and f(hi) differ in sign (or one is zero):
/// halves the bracket until it no longer shrinks (its ends are adjacent doubles) or after
/// `iterations` steps, and returns the end with the smaller |f|. NaN when f(lo) and f(hi) have the
/// same strict sign.
template <class F>
double bisect(const F& f, double lo, double hi, int iterations = 1100) {
  double flo = f(lo), fhi = f(hi);
  if (flo == 0) return lo;
  if (fhi == 0) return hi;
  if ((flo < 0) == (fhi < 0)) return std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < iterations; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    const double fm = f(mid);
    if (fm == 0) return mid;
    if ((fm < 0) == (flo < 0))
      lo = mid, flo = fm;
    else
      hi = mid, fhi = fm;
  }
  return std::abs(flo) <= std::abs(fhi) ? lo : hi;
}

}  // namespace cm

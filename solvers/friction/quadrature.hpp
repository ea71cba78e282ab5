// One-dimensional quadrature used by the friction model: adaptive Gauss-Kronrod (G30K61) for smooth
// integrands split at their breakpoints, and tanh-sinh for integrands with endpoint singularities
// (square-root edges of the Hertz and Galin pressures, logarithmic singularities of K(m) at m = 1).
// A quadrature whose error estimate stays above the requested tolerance throws cm::NumericalError.
#pragma once

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace fr {

/// Adaptive G30K61 on [a, b] split at `breaks` (each strictly inside (a, b), ascending).
/// `tol` is relative to the L1 norm of the integrand.
template <class F>
double integrate_gk(F&& f, double a, double b, const std::vector<double>& breaks, double tol, const std::string& what) {
  using GK = boost::math::quadrature::gauss_kronrod<double, 61>;
  double sum = 0.0, lo = a;
  std::vector<double> ends = breaks;
  ends.push_back(b);
  for (double hi : ends) {
    if (!(hi > lo)) continue;
    double error = 0.0, l1 = 0.0;
    const double v = GK::integrate(f, lo, hi, 10, tol, &error,
                                   &l1);  // depth 10: deeper splitting only accumulates rounding in the error estimate
    if (!std::isfinite(v) || error > 100.0 * tol * std::max(l1, 1e-300) + 1e-300) {
      std::ostringstream msg;
      msg << what << ": Gauss-Kronrod quadrature did not converge on [" << lo << ", " << hi << "] (error estimate "
          << error << ", L1 norm " << l1 << ")";
      throw cm::NumericalError(msg.str());
    }
    sum += v;
    lo = hi;
  }
  return sum;
}

/// tanh-sinh on [a, b] (endpoint singularities allowed); `tol` relative to the L1 norm.
template <class F>
double integrate_ts(F&& f, double a, double b, double tol, const std::string& what) {
  if (!(b > a)) return 0.0;
  static thread_local boost::math::quadrature::tanh_sinh<double> ts(15);
  double error = 0.0, l1 = 0.0;
  std::size_t levels = 0;
  const double v = ts.integrate(f, a, b, tol, &error, &l1, &levels);
  if (!std::isfinite(v) || error > 1000.0 * tol * std::max(l1, 1e-300) + 1e-300) {
    std::ostringstream msg;
    msg << what << ": tanh-sinh quadrature did not converge on [" << a << ", " << b << "] (error estimate " << error
        << ", L1 norm " << l1 << ")";
    throw cm::NumericalError(msg.str());
  }
  return v;
}

}  // namespace fr

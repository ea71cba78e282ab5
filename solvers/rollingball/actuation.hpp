// The prescribed parameter accelerations of the internal masses, u_i(t) = theta_i''(t):
// a continuous "step-ramp", eqs. (5.5) (disk, signs (-1)^i) and (6.11) (ball, all signs +1),
//
//   u_i(t) = s_i * amp * { 1                    for a <= t <= t1,
//                          (t2 - t) / (t2 - t1) for t1 <= t <= t2,   (= -10 t + 2 for t1 = .1, t2 = .2)
//                          0                    for t >= t2 },
//
// and its integrals p(t) = int_0^t int_0^s u ds' ds / (s_i amp), p'(t), used as a test oracle
// (theta_i(t) = theta_a,i + s_i amp p(t)). The profile is only C^0: kinks at t1 and t2.
#pragma once

#include <vector>

namespace rb {

struct StepRamp {
  double t1 = 0.1;           ///< end of the plateau
  double t2 = 0.2;           ///< end of the ramp
  double amp = 1.0;          ///< plateau height
  std::vector<double> sign;  ///< s_i, one per mass

  /// The shape 1 / ramp / 0 (without amp and sign), for t >= 0.
  double shape(double t) const {
    if (t <= t1) return 1.0;
    if (t <= t2) return (t2 - t) / (t2 - t1);
    return 0.0;
  }
  /// u_i(t), i = 0-based mass index.
  double u(std::size_t i, double t) const { return sign[i] * amp * shape(t); }

  /// p'(t) = int_0^t shape.
  double pdot(double t) const {
    if (t <= t1) return t;
    if (t <= t2) return t1 + (t2 * (t - t1) - 0.5 * (t * t - t1 * t1)) / (t2 - t1);
    return 0.5 * (t1 + t2);
  }
  /// p(t) = int_0^t p'.
  double p(double t) const {
    if (t <= t1) return 0.5 * t * t;
    const double tt = t <= t2 ? t : t2;
    const double ramp = t1 * (tt - t1) + (0.5 * t2 * (tt - t1) * (tt - t1) -
                                          0.5 * ((tt * tt * tt - t1 * t1 * t1) / 3.0 - t1 * t1 * (tt - t1))) /
                                             (t2 - t1);
    const double value = 0.5 * t1 * t1 + ramp;
    return t <= t2 ? value : value + 0.5 * (t1 + t2) * (t - t2);
  }
};

}  // namespace rb

// Random single-contact problems for the tests: SPD Delassus blocks of several shapes (general,
// near-sphere, sphere, parabola-like, badly conditioned), right-hand sides with b_n of every sign.
#pragma once

#include <Eigen/Dense>
#include <random>

#include "maxdiss/single_contact.hpp"

namespace md::test {

struct Problem {
  Matrix3d A;
  Vector3d b;
  double mu;
};

inline Matrix3d random_spd(std::mt19937_64& rng, double min_eig) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Matrix3d M;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M(r, c) = U(rng);
  Matrix3d A = M * M.transpose() + min_eig * Matrix3d::Identity();
  return 0.5 * (A + A.transpose());
}

/// A problem whose kind cycles with i: 0-5 general, 6 near-sphere, 7 sphere, 8 b_n tiny, 9 ill-conditioned.
inline Problem random_problem(std::mt19937_64& rng, int i) {
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  Problem p;
  p.A = random_spd(rng, 0.05);
  p.b = Vector3d(U(rng), U(rng), U(rng));
  p.mu = 3.0 * P(rng) * P(rng);
  switch (i % 10) {
    case 6: {  // near-sphere: tiny couplings
      const double eps = std::pow(10.0, -3.0 - 9.0 * P(rng));
      const double m1 = 0.5 + P(rng), at = 1.0 + P(rng);
      p.A << m1, eps * U(rng), eps * U(rng), 0, at, eps * U(rng), 0, 0, at * (1 + eps * U(rng));
      p.A = p.A.selfadjointView<Eigen::Upper>();
      break;
    }
    case 7: {  // sphere
      const double m1 = 0.5 + P(rng), at = 1.0 + P(rng);
      p.A = Vector3d(m1, at, at).asDiagonal();
      break;
    }
    case 8:  // b_n tiny and positive
      p.b(0) = std::fabs(p.b(0)) * std::pow(10.0, -6.0 - 8.0 * P(rng));
      break;
    case 9:  // ill-conditioned
      p.A = random_spd(rng, 1e-4);
      break;
    default:
      break;
  }
  return p;
}

}  // namespace md::test

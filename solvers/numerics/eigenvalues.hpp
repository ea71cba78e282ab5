// Eigenvalues of small real matrices, compiled once for every solver that needs them.
//
// Eigen's EigenSolver is a template whose every instantiation costs some 20 s of compilation (its
// real Schur form, its complex eigenvectors). The studies call it on fixed 2x2, 3x3 and 4x4
// matrices; here one dynamic-size instantiation serves them all, and a study calls a function.
#pragma once

#include <Eigen/Core>

namespace cm {

/// The eigenvalues of A (Eigen::EigenSolver without eigenvectors), in Eigen's order.
Eigen::Vector2cd eigenvalues(const Eigen::Matrix2d& A);
Eigen::Vector3cd eigenvalues(const Eigen::Matrix3d& A);
Eigen::Vector4cd eigenvalues(const Eigen::Matrix4d& A);

/// The eigenvalues of A and its eigenvectors, column k belonging to values(k).
struct EigenDecomposition4 {
  Eigen::Vector4cd values;
  Eigen::Matrix4cd vectors;
};
EigenDecomposition4 eigen_decomposition(const Eigen::Matrix4d& A);

}  // namespace cm

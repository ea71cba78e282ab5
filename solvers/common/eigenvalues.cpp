#include "common/eigenvalues.hpp"

#include <Eigen/Eigenvalues>

namespace cm {

Eigen::Vector2cd eigenvalues(const Eigen::Matrix2d& A) {
  return Eigen::EigenSolver<Eigen::Matrix2d>(A, false).eigenvalues();
}

Eigen::Vector3cd eigenvalues(const Eigen::Matrix3d& A) {
  return Eigen::EigenSolver<Eigen::Matrix3d>(A, false).eigenvalues();
}

Eigen::Vector4cd eigenvalues(const Eigen::Matrix4d& A) {
  return Eigen::EigenSolver<Eigen::Matrix4d>(A, false).eigenvalues();
}

EigenDecomposition4 eigen_decomposition(const Eigen::Matrix4d& A) {
  const Eigen::EigenSolver<Eigen::Matrix4d> solver(A);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

}  // namespace cm

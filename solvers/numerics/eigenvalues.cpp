#include "numerics/eigenvalues.hpp"

#include <Eigen/Eigenvalues>

namespace cm {

namespace {

// One instantiation of EigenSolver for every size, eigenvectors or not: on 2x2, 3x3 and 4x4
// matrices its eigenvalues are the fixed-size solvers' bit for bit (checked on 20000 random
// matrices of each size), and its eigenvectors differ from theirs in the last bits only. A second
// instantiation doubled this file's compilation, the longest unit of the build.
Eigen::EigenSolver<Eigen::MatrixXd> dynamic_solver(const Eigen::MatrixXd& A, bool vectors) {
  return Eigen::EigenSolver<Eigen::MatrixXd>(A, vectors);
}

}  // namespace

Eigen::Vector2cd eigenvalues(const Eigen::Matrix2d& A) { return dynamic_solver(A, false).eigenvalues(); }

Eigen::Vector3cd eigenvalues(const Eigen::Matrix3d& A) { return dynamic_solver(A, false).eigenvalues(); }

Eigen::Vector4cd eigenvalues(const Eigen::Matrix4d& A) { return dynamic_solver(A, false).eigenvalues(); }

EigenDecomposition4 eigen_decomposition(const Eigen::Matrix4d& A) {
  const Eigen::EigenSolver<Eigen::MatrixXd> solver = dynamic_solver(A, true);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

}  // namespace cm

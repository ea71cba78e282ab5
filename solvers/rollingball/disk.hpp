// The rolling disk actuated by n internal point masses on concentric circular rails (Sects. 4, 5, App. A).
//
// phi is the angle from e1 to E1, counter-clockwise with e2 and E2 into the page (Fig. 4.1), so
// Omega = -phi' e2 (A.2) and the GC sits at z = z_a - r (phi - phi_a). Rails (5.4):
// zeta_i = r_i [cos theta_i, 0, sin theta_i]; zeta_0 = [zeta_01, 0, zeta_03] is the CM of m0.
//
//   phi''  = (sum m_i K_i - r F_e1) / (d2 + sum m_i [(r sin phi + zeta_i1)^2 + (r cos phi + zeta_i3)^2])  (4.1)
//   N      = eq. (4.3),   F_fr,1 = signed e1-component of -f_s sigma, eq. (4.4),   f_s = |F_fr,1|,
// sums over i = 0..n. State (5.1): x = [theta; theta'; phi; phi'] (2n + 2 components).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "rollingball/actuation.hpp"

namespace rb {

struct DiskParameters {
  double m0 = 1.0, r = 1.0, d2 = 1.0, g = 1.0;
  double zeta01 = 0.0, zeta03 = 0.0;  ///< CM of m0 in the body frame (components 1 and 3)
  double Fe1 = 0.0, Fe3 = 0.0;        ///< external force at the GC (e1, e3 components)
  std::vector<double> m;              ///< m_1..m_n
  std::vector<double> radius;         ///< r_1..r_n of the rails (5.4)
  StepRamp actuation;                 ///< u_i(t), eq. (5.5)
};

struct DiskContact {
  double phiddot = 0.0;  ///< eq. (4.1)
  double N = 0.0;        ///< eq. (4.3)
  double Ffr1 = 0.0;     ///< eq. (4.4)
  double fs = 0.0;       ///< |Ffr1|
};

class Disk {
 public:
  explicit Disk(DiskParameters p);  ///< validates; throws cm::InputError
  const DiskParameters& parameters() const { return p_; }
  int n() const { return static_cast<int>(p_.m.size()); }
  int state_size() const { return 2 * n() + 2; }  // eq. (5.1)
  double total_mass() const { return M_; }
  int i_theta() const { return 0; }
  int i_thetadot() const { return n(); }
  int i_phi() const { return 2 * n(); }
  int i_phidot() const { return 2 * n() + 1; }

  /// (zeta_i1, zeta_i3) of mass i = 0..n at the state x.
  Eigen::Vector2d zeta(int i, const Eigen::VectorXd& x) const;
  /// The total CM (body frame translated to the GC), components 1 and 3.
  Eigen::Vector2d centre_of_mass(const Eigen::VectorXd& x) const;
  /// A body vector (v1, v3) seen in space: Lambda from (A.1).
  Eigen::Vector2d to_space(double phi, const Eigen::Vector2d& v) const;

  DiskContact contact(double t, const Eigen::VectorXd& x) const;
  void rhs(double t, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> xdot) const;  // (5.2)
  /// Energy with the masses' own motion; conserved when they are frozen and F_e = 0.
  double energy(const Eigen::VectorXd& x) const;

 private:
  DiskParameters p_;
  double M_;
};

}  // namespace rb

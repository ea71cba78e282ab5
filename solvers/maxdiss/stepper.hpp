// The impulse-velocity time-stepping scheme of Sect. 3.1 for one rigid body with one contact
// against a static plane, and a smooth reference for the sphere.
//
// The body is a uniform convex ellipsoid (semi-axes a in body axes, a sphere when they are equal)
// of mass m and principal inertia I_0; the plane is z = 0 with outward normal e_z. An incline of
// angle beta is modelled by tilting gravity: g = g0 (sin beta, 0, -cos beta), so x is the
// down-slope coordinate. With primed quantities at t + dt (Sect. 3.1):
//
//   (v', w') = (v, w) + M^{-1} (W lambda~ + (dt m g, -dt w x I w))
//   x' = x + dt v',   phi' = (phi + dt Q(phi) w') / ||phi + dt Q(phi) w'||
//
// The contact impulse lambda~ solves the single-contact problem of Eq. (5) with the data of
// spec 001, 2.8: A = Q_c^T A_jj Q_c (Eq. (2)), b = -Q_c^T dv_free - (xi_eff / dt) e_n. Here
// dv_free is the contact velocity at the end of the step without the contact impulse, and
// xi_eff / dt = eps min(0, xi / dt) + max(0, xi / dt) the error-reduced gap term. The impulse
// is the maximally dissipative one (Fig. 5, single_contact.hpp) or, for the "Coulomb" time-
// stepping law, a solution of the Coulomb-like law (coulomb.hpp) chosen by a stated rule.
#pragma once

#include <Eigen/Dense>
#include <string>

#include "maxdiss/contact_law.hpp"
#include "maxdiss/single_contact.hpp"
#include "numerics/rotation.hpp"

namespace md {

using Vector4d = Eigen::Vector4d;

/// Which Coulomb-like solution is taken when the law admits several (spec 001, 2.10).
enum class CoulombPick { lowest_energy, smallest_normal };

/// A uniform rigid ellipsoid: mass, principal inertia (body axes), semi-axes (body axes).
struct EllipsoidBody {
  double m = 1.0;
  Vector3d I0 = Vector3d::Constant(0.4);
  Vector3d semi_axes = Vector3d::Ones();
};

/// I_0 of a uniform solid ellipsoid: m/5 (b^2 + c^2, a^2 + c^2, a^2 + b^2).
Vector3d solid_ellipsoid_inertia(double m, const Vector3d& semi_axes);

struct BodyState {
  Vector3d x = Vector3d::Zero();                ///< centre of mass (inertial)
  Vector4d phi = Vector4d(1.0, 0.0, 0.0, 0.0);  ///< unit quaternion (q_w, q_x, q_y, q_z)
  Vector3d v = Vector3d::Zero();                ///< linear velocity (inertial)
  Vector3d w = Vector3d::Zero();                ///< angular velocity (inertial)
};

struct StepperOptions {
  double dt = 1e-3;
  double g0 = 9.81;
  double beta = 0.0;  ///< incline angle [rad]
  double mu = 0.5;
  double erp = 0.8;  ///< error reduction eps in [0, 1)
  ContactLaw law = ContactLaw::maxdiss;
  CoulombPick pick = CoulombPick::lowest_energy;
  SolverOptions solver{};
};

/// The contact of the body with the plane z = 0: gap, lever arm and contact frame.
struct PlaneContact {
  double xi;    ///< signed gap n^T x_hat (negative: penetration)
  Vector3d r;   ///< lever arm x_hat - x of the body's lowest point
  Matrix3d Qc;  ///< contact frame [n t o] = [e_z e_x e_y] (columns)
};

/// What one step did at its contact.
struct StepRecord {
  Vector3d lambda = Vector3d::Zero();  ///< contact impulse, contact frame (n, t, o)
  Vector3d dv = Vector3d::Zero();      ///< contact velocity at the end of the step, contact frame
  double xi = 0.0;                     ///< gap at the start of the step
  Branch branch = Branch::separating;  ///< branch of Fig. 5 (maxdiss law)
  int coulomb_solutions = 0;           ///< number of Coulomb-like solutions (coulomb law)
  bool sticking = false;               ///< the impulse is the sticking one (zero post-step slip)
};

class ImpulseVelocityStepper {
 public:
  ImpulseVelocityStepper(const EllipsoidBody& body, const StepperOptions& opt);

  /// Gravity in the inertial frame, g0 (sin beta, 0, -cos beta).
  Vector3d gravity() const { return g_; }
  /// The support point of the ellipsoid in direction -e_z and the gap to the plane.
  PlaneContact contact(const BodyState& s) const;
  /// The inertia tensor in inertial components, R(phi) I_0 R(phi)^T, and its inverse.
  Matrix3d inertia(const Vector4d& phi) const;
  Matrix3d inverse_inertia(const Vector4d& phi) const;
  /// Q(phi) of Sect. 2 (phi_dot = Q(phi) w with w inertial).
  static Eigen::Matrix<double, 4, 3> Qmat(const Vector4d& phi);

  /// One step of Sect. 3.1: s <- s'. Throws cm::NumericalError on a non-finite state.
  StepRecord step(BodyState& s, double t) const;

  /// Kinetic plus potential energy (gravity potential relative to x = 0).
  double energy(const BodyState& s) const;

 private:
  EllipsoidBody body_;
  StepperOptions opt_;
  Vector3d g_;
  Matrix3d D2_;  ///< diag(a^2) of the ellipsoid, body frame
};

/// A smooth reference for a sphere (radius R, mass m, inertia factor kappa: I = kappa m R^2) on
/// the incline with Coulomb friction mu, integrated with CVODE through cm::make_integrator. Its
/// phases: sliding while the slip u - R w_y is nonzero, rolling when the friction needed stays
/// inside the cone; an event on the slip switches the phase.
struct SphereReferenceOptions {
  double R = 1.0, m = 1.0, kappa = 0.4, g0 = 9.81, beta = 0.0, mu = 0.5;
  double s0 = 0.0, u0 = 0.0, w0 = 0.0;  ///< down-slope position, velocity, spin about +e_y
  std::string method = "cvode_bdf";
  double rtol = 1e-10, atol = 1e-12;
  long max_steps = 1'000'000;  ///< most internal steps between two samples
};

struct SphereReferenceSample {
  double t, s, u, w;  ///< position, velocity (down-slope), spin about +e_y
  bool rolling;
};

struct SphereReference {
  std::vector<SphereReferenceSample> samples;  ///< on the requested time grid
  double t_roll = -1.0;                        ///< time the slip vanished (-1: never)
  long steps = 0, rhs_evaluations = 0;
};

/// The reference on the grid t_k = k t_end / n, k = 0..n.
SphereReference sphere_reference(const SphereReferenceOptions& o, double t_end, int n);

/// The closed form of the same piecewise-smooth motion (constant accelerations per phase),
/// with the time the slip first vanishes (-1: never).
SphereReferenceSample sphere_closed_form(const SphereReferenceOptions& o, double t, double* t_roll = nullptr);

}  // namespace md

// Paper 003 (dem): a discrete element model of spheres whose finite rotations are described by the
// rescaled Rodrigues vector alpha = 2 tan(theta/2) e (Sect. 2). It has gravity, drag (Sect. 3.2),
// near-field forces (3.3), Hertz contact with damping (3.4) and stick-slip friction driven by the
// incremental rotation (3.5, 3.6). It steps by the implicit generalised trapezoidal rule of Sect. 4,
// solved by fixed-point iterations over the particles (Algorithm 1, reconstructed in spec 003 §2.9).
//
// Notation follows the paper: x, v, omega (w), alpha, alpha^Delta (aD) per particle; delta the overlap,
// n_ij the unit vector from i to j, s the elongation of the tangential spring of a contact pair.
//
// The three corrections of spec 003 (T1, T3/T2, T4) are choices, each defaulting to corrected:
//   rotation_factor  4/(4 + alpha^2) (corrected) or 4/(1 + alpha^2) (printed) in Q_Delta, Eq. (27);
//   friction_sign    f = -k_t s (corrected) or f = +k_t s (printed), Eqs. (31), (33);
//   overlap_sign     delta = (r_i + r_j) - |x_j - x_i| and a repulsive -F n_ij (corrected), or the printed
//                    delta = |x_i - x_j| - (r_i + r_j) < 0 in contact with the force along +n_ij, read with
//                    |delta| (the only real reading of delta^(3/2)): an attractive contact force (printed).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/options.hpp"

namespace dem {

using Eigen::Matrix3d;
using Eigen::Vector3d;

enum class Correction { corrected, printed };
enum class Sweep { gauss_seidel, jacobi };
enum class SlipModel { relative, literal };
enum class WallMaterial { rigid, same_as_particle };
enum class FinalForces { reevaluate, last_iterate };

/// Q_Delta of Eq. (27) (the form of Eq. (10)): factor 4/(4 + alpha^2), or the printed 4/(1 + alpha^2).
Matrix3d rotation_tensor(const Vector3d& alpha, Correction factor);

/// A sphere: mass, radius, Young's modulus, Poisson ratio; j = 2/5 m r^2, G = E / (2 (1 + nu)).
struct Particle {
  double m = 1.0, r = 0.1, E = 1e8, nu = 0.25;
  double j() const { return 0.4 * m * r * r; }
  double G() const { return E / (2.0 * (1.0 + nu)); }  // spec 003 §2.0 (G is not defined in the paper)
};

/// The keys of a sphere, named once for every study of the paper: particle.r, particle.E and
/// particle.nu, and its mass as particle.m, or, given `density`, as particle.rho (the mass then
/// follows from the radius: Example 5.3 states the density).
void declare_particle_keys(cm::Config& c, Particle& particle, double* density = nullptr);

/// The state of a particle at one time: position, velocity, spin, total rotation vector alpha
/// (Eq. (9), relative to the start) and the incremental rotation vector alpha^Delta of the last step.
struct State {
  Vector3d x = Vector3d::Zero(), v = Vector3d::Zero(), w = Vector3d::Zero();
  Vector3d alpha = Vector3d::Zero(), aD = Vector3d::Zero();
};

/// A rigid obstacle: a plane (point, unit normal pointing into the particles' side), or a segment a-b
/// in the xy plane extended along z (the faces of Example 5.3).
struct Wall {
  enum class Kind { plane, segment } kind = Kind::plane;
  Vector3d point = Vector3d::Zero(), normal = Vector3d::UnitY();  // plane
  Vector3d a = Vector3d::Zero(), b = Vector3d::Zero();            // segment
  static Wall plane(const Vector3d& point, const Vector3d& normal);
  static Wall segment(const Vector3d& a, const Vector3d& b);
};

/// Friction and damping of one kind of contact (particle-particle or particle-wall).
struct ContactLaw {
  double mu_s = 0.25, mu_d = 0.25, xi = 0.0;
};

/// Everything of the model and of Algorithm 1 that a study sets by keys (declare_model_keys).
struct Options {
  double dt = 1e-4;       ///< time step
  double phi = 0.5;       ///< generalised trapezoidal rule, Eqs. (41), (44)
  double tol = 1e-4;      ///< TOL of the convergence test, Remark 6
  long k_max = 100;       ///< iteration cap per step
  double err_eta = 1e-9;  ///< (49) replaces (48) when den(48) < err_eta den(49)
  Sweep sweep = Sweep::gauss_seidel;
  FinalForces final_forces = FinalForces::reevaluate;
  Correction rotation_factor = Correction::corrected, friction_sign = Correction::corrected,
             overlap_sign = Correction::corrected;
  SlipModel pp_slip = SlipModel::relative;
  WallMaterial wall_material = WallMaterial::rigid;
  bool clamp_tensile_normal = false;  ///< F_n >= 0 (the paper does not clamp)
  bool exact_increment = false;       ///< alpha^Delta = 2 tan(theta/2) e instead of Eq. (45)
  bool rotations = true;              ///< false: omega and alpha^Delta stay zero (Example 5.3, second run)
  /// > 0: the candidate pairs (a cell grid) and the walls near each particle, within this margin,
  /// kept while the particles stay within half of it (System::step)
  double skin = 0.0;
  std::vector<double> gravity{0.0, -9.81, 0.0};  ///< g, Eq. (13)
  double c_fluid = 0.0;                          ///< Eq. (15)
  std::vector<double> v_fluid{0.0, 0.0, 0.0};
  double kappa1 = 0.0, lambda1 = 0.0, kappa2 = 0.0, lambda2 = 0.0;  ///< Eq. (17)
  ContactLaw particle_particle, particle_wall;
};

/// Declares the keys of the integrator, the corrections and the model choices (solver.*,
/// correction.*, model.*) bound to `o`, once for every study of the paper.
void declare_model_keys(cm::Config& config, Options& o);

/// One contact seen from particle i, as evaluated at the current iterate.
struct ContactForce {
  bool active = false;
  double delta = 0.0;             ///< overlap (> 0 in contact), Eq. (21) corrected
  double Fn = 0.0;                ///< 4/3 sqrt(r*) E* delta^(3/2) + d* ddelta, Eqs. (19), (22)
  Vector3d n = Vector3d::Zero();  ///< from the centre of i towards the contact, Eq. (18)
  Vector3d f = Vector3d::Zero();  ///< contact + friction force on i
  Vector3d m = Vector3d::Zero();  ///< friction moment on i, Eq. (39)
  Vector3d f_fric = Vector3d::Zero();
  Vector3d s = Vector3d::Zero();  ///< spring elongation after the return mapping, Eq. (36)
  bool slipping = false;
};

/// What one time step did.
struct StepReport {
  long iterations = 0;
  bool converged = false;
  double error = 0.0;
};

class System {
 public:
  System(std::vector<Particle> particles, std::vector<State> states, std::vector<Wall> walls, Options options);

  /// One step of Algorithm 1: fixed-point iterations of Eqs. (42), (45), (46) until every error of
  /// Remark 6 is below TOL (or k_max), then Eq. (47) and the commit of the springs.
  StepReport step();

  double t() const { return t_; }
  std::size_t size() const { return states_.size(); }
  const State& state(std::size_t i) const { return states_[i]; }
  const Particle& particle(std::size_t i) const { return particles_[i]; }
  const Vector3d& force(std::size_t i) const { return f_[i]; }
  const Vector3d& moment(std::size_t i) const { return m_[i]; }
  const Options& options() const { return options_; }
  const std::vector<Wall>& walls() const { return walls_; }
  /// The contact of particle i with wall k at the last converged state: the forces of its committed
  /// spring, and `slipping` when the return mapping (35) acted in the step that ended there.
  ContactForce wall_contact(std::size_t i, std::size_t k) const;
  /// The contact of particle i with particle j at the last converged state (as wall_contact).
  ContactForce particle_contact(std::size_t i, std::size_t j) const;
  /// Contact pairs (particle-particle, particle-wall) active at the last converged state.
  std::size_t active_pairs() const { return springs_.size(); }
  /// Particles touching wall k at the last converged state.
  std::size_t wall_contacts(std::size_t k) const;
  /// Particle-particle pairs in contact at the last converged state.
  std::size_t particle_pairs() const;
  /// Translational and rotational kinetic energy.
  double kinetic_translational() const;
  double kinetic_rotational() const;
  /// Candidate pairs examined in the last step (all pairs, or the cell grid's lists).
  double candidate_pairs() const { return candidates_; }
  /// Walls examined per particle sweep in the last step (the lists' walls near each particle, or
  /// every wall for every particle).
  double wall_candidates() const;
  /// Times the neighbour lists were built (System::step; none without a skin).
  long neighbour_builds() const { return builds_; }
  /// Steps done again because an iterate left the lists' reach (System::step).
  long steps_redone() const { return redone_; }

 private:
  using Key = std::pair<int, int>;  // (i, j >= 0) particle pair, (i, -1 - k) wall k
  /// The tangential spring of a contact pair as committed at t: s_acc (Eq. (36)) and whether the
  /// step that ended at t slipped (Eq. (32) failed).
  struct Spring {
    Vector3d s = Vector3d::Zero();
    bool slipping = false;
  };
  /// The contact law at the current iterate `cur` against the state at t (`old`), with the spring
  /// committed at t.
  ContactForce contact_wall(std::size_t i, std::size_t k, const std::vector<State>& cur) const;
  ContactForce contact_particle(std::size_t i, std::size_t j, const std::vector<State>& cur) const;
  /// f^tot and m^tot of particle i (Eqs. (13), (14)) at the iterate `cur`.
  void total(std::size_t i, const std::vector<State>& cur, Vector3d& f, Vector3d& m) const;
  ContactForce law(std::size_t i, const Vector3d& n, double delta, double ddelta, double r_star, double m_star,
                   double E_star, double G_star, const ContactLaw& cl, const Vector3d& u_rel,
                   const Vector3d& s_acc) const;
  Vector3d spring(const Key& key, bool flip) const;
  /// The key of the spring of the contact of particle i with particle j.
  Key pair_key(std::size_t i, std::size_t j) const;
  /// Whether the step that ended at t slipped at the contact `key` (false for no contact).
  bool slipped(const Key& key) const;
  /// Slip displacement of the contact point of i over the step: Delta x_i - r_i (I - Q_Delta) n (Eqs. 25-28).
  Vector3d contact_point_displacement(std::size_t i, const std::vector<State>& cur, const Vector3d& n) const;
  void commit_springs(const std::vector<State>& cur);
  /// With options.skin > 0: the particles within r_i + r_j + skin of each other at t, by a cell
  /// grid, and the walls within r_i + skin of each.
  void build_neighbours();
  /// The distance of x from wall k (signed for a plane), and n, the unit normal from x towards the
  /// wall (zero for a centre on a segment).
  double wall_distance(std::size_t k, const Vector3d& x, Vector3d& n) const;
  /// Whether the neighbour lists are in use (a skin, and a pair to list).
  bool lists() const { return options_.skin > 0.0 && states_.size() >= 2; }
  /// The largest squared distance of a position in `at` from where the lists were built.
  double largest_drift(const std::vector<State>& at) const;
  /// The fixed-point iterations of one step from the state at t (Algorithm 1) into cur, f_new and
  /// m_new; `drift` becomes the largest squared distance of an iterate from the lists' positions.
  StepReport iterate(std::vector<State>& cur, std::vector<Vector3d>& f_new, std::vector<Vector3d>& m_new,
                     double& drift) const;
  /// Calls f(k) for the walls particle i may touch, in their order: those near it, or every wall.
  template <class F>
  void for_walls_near(std::size_t i, F&& f) const {
    if (all_walls_) {
      for (std::size_t k = 0; k < walls_.size(); ++k) f(k);
    } else {
      for (const int k : walls_near_[i]) f(static_cast<std::size_t>(k));
    }
  }

  std::vector<Particle> particles_;
  std::vector<State> states_;  // at t
  std::vector<Wall> walls_;
  Options options_;
  std::vector<Vector3d> f_, m_;               // f^tot(t), m^tot(t)
  std::map<Key, Spring> springs_;             // per contact pair, committed at t
  std::vector<std::vector<int>> neighbours_;  // empty: all pairs
  std::vector<std::vector<int>> walls_near_;  // per particle, the walls within r + skin at the build
  std::vector<Vector3d> built_at_;            // the positions the lists were built at
  bool all_walls_ = true;                     // this step visits every wall (no lists, or a step done again)
  long builds_ = 0, redone_ = 0;
  double candidates_ = 0.0;
  double t_ = 0.0;
};

/// The closed form of a sphere sliding then rolling on a level plane (Eqs. (51)-(54), spec 003
/// §2.13): motion along x, spin about z, contact point at -r e_y, slip v + omega r.
struct SphereOnPlane {
  double v0, w0, r, mu, g;
  double t_roll() const;  ///< |v0 + w0 r| / (7/2 mu g)
  struct Value {
    double x, theta, v, w;
  };
  Value at(double t) const;       ///< sliding until t_roll, rolling after
  Value sliding(double t) const;  ///< Eq. (51) at any t (as the paper evaluates it at its rounded t_roll)
};

/// One rigid body with a general inertia tensor (principal moments J in the body frame), free of
/// moments, advanced by the time integration of Sect. 4. Eq. (40) is read for the spatial angular
/// momentum L = Q diag(J) Q^T omega; for the paper's spheres, J = j (1, 1, 1), this is Eq. (42)
/// itself. Then alpha^Delta follows by Eq. (45), the implicit step (46) is solved by fixed-point
/// iteration with the measure (48) on omega, and the attitude by Q(t + dt) = Q_Delta Q(t). That is
/// Eq. (47) in tensor form: the total alpha is singular every half turn, and a top turns many times.
struct RigidBody {
  Vector3d J = Vector3d::Ones();      ///< principal moments of inertia (body frame)
  Matrix3d Q = Matrix3d::Identity();  ///< attitude (body to space)
  Vector3d omega = Vector3d::Zero();  ///< spatial spin

  Vector3d angular_momentum() const { return Q * J.cwiseProduct(Q.transpose() * omega); }
  double kinetic_energy() const { return 0.5 * omega.dot(angular_momentum()); }
};

/// One step of `body` (see RigidBody): phi of Eq. (45), the iteration's tolerance, the threshold
/// err_eta at which (49) replaces (48) (as Options::err_eta) and the cap; returns the iterations
/// taken, or -1 when the cap was reached first (the body then holds the last iterate).
long rigid_body_step(RigidBody& body, double dt, double phi, double tol, double err_eta, long k_max,
                     bool exact_increment);

/// Static overlap of a sphere of weight m g on a rigid plane: (m g / (4/3 sqrt(r) E*))^(2/3).
double static_overlap(const Particle& p, double g, WallMaterial wall);
/// Hertz collision duration of Eq. (50).
double hertz_duration(double m_star, double r_star, double E_star, double v_rel);
/// Effective moduli of Eqs. (20), (38) for two particles, and of a particle against a wall.
double effective_E(const Particle& a, const Particle& b);
double effective_G(const Particle& a, const Particle& b);
double wall_E(const Particle& p, WallMaterial wall);
double wall_G(const Particle& p, WallMaterial wall);

}  // namespace dem

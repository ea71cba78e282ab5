#include "dem/model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "numerics/rotation.hpp"

namespace dem {

void declare_particle_keys(cm::Config& c, Particle& particle, double* density) {
  c.add("particle.r", &particle.r, "radius r").unit("m").range(cm::Range::positive());
  if (density)
    c.add("particle.rho", density, "density rho (the mass follows from it)")
        .unit("kg/m^3")
        .range(cm::Range::positive());
  else
    c.add("particle.m", &particle.m, "mass m").unit("kg").range(cm::Range::positive());
  c.add("particle.E", &particle.E, "Young's modulus E").unit("N/m^2").range(cm::Range::positive());
  c.add("particle.nu", &particle.nu, "Poisson ratio nu").range(cm::Range{-1.0, 0.5, true, true});
}

Matrix3d rotation_tensor(const Vector3d& alpha, Correction factor) {
  if (factor == Correction::corrected) return cm::rotation_from_rodrigues(alpha);  // eq. (10*), spec 003 T1
  const Matrix3d A = cm::hat(alpha);
  return Matrix3d::Identity() + 4.0 / (1.0 + alpha.squaredNorm()) * (A + 0.5 * A * A);  // eq. (27) as printed
}

Wall Wall::plane(const Vector3d& point, const Vector3d& normal) {
  Wall w;
  w.kind = Kind::plane;
  w.point = point;
  w.normal = normal.normalized();
  return w;
}

Wall Wall::segment(const Vector3d& a, const Vector3d& b) {
  Wall w;
  w.kind = Kind::segment;
  w.a = a;
  w.b = b;
  return w;
}

void declare_model_keys(cm::Config& c, Options& o) {
  c.add("solver.dt", &o.dt, "time step Delta t").unit("s").range(cm::Range::positive());
  c.add("solver.phi", &o.phi, "parameter phi of the generalised trapezoidal rule, Eqs. (41), (44)")
      .range(cm::Range::closed(0.0, 1.0));
  c.add("solver.tol", &o.tol, "TOL of the convergence measures (48)/(49)").range(cm::Range::positive());
  c.add("solver.k_max", &o.k_max, "iteration cap per time step (a step that reaches it is counted)")
      .range(cm::Range::closed(1, 1e6))
      .assumption("ASSUMED: Algorithm 1 is missing; the cap is not given (spec 003 §2.9)");
  c.add("solver.err_eta", &o.err_eta,
        "(49) replaces (48) when the denominator of (48) is below err_eta times that of (49)")
      .range(cm::Range::positive())
      .assumption("ASSUMED: 'vanishes or approaches zero' has no threshold in the paper (spec 003 §2.10, T9)");
  c.add_choice("solver.sweep", &o.sweep, {{"gauss_seidel", Sweep::gauss_seidel}, {"jacobi", Sweep::jacobi}},
               "order of the particle updates within an iteration (Remark 5: the paper's code is Gauss-Seidel)");
  c.add_choice("solver.final_forces", &o.final_forces,
               {{"reevaluate", FinalForces::reevaluate}, {"last_iterate", FinalForces::last_iterate}},
               "f^tot(t + dt) kept for the next step: re-evaluated at the converged state, or the last iterate's")
      .assumption("RECONSTRUCTED: Algorithm 1 is missing (spec 003 §2.9 step 5)");
  c.add("solver.skin", &o.skin,
        "margin of the neighbour lists (the pairs, by a cell grid, and the walls near each particle), kept across "
        "steps while the particles stay within half of it (0: every pair and wall at every iteration); a particle "
        "moving more than half of it in one step stops the run (exit 3), so it cannot change the results")
      .unit("m")
      .range(cm::Range::nonnegative())
      .no_data();
  c.add_choice("correction.rotation_factor", &o.rotation_factor,
               {{"corrected", Correction::corrected}, {"printed", Correction::printed}},
               "factor of Q_Delta, Eq. (27): 4/(4 + alpha^2) (corrected) or the printed 4/(1 + alpha^2)")
      .assumption(
          "TYPO: spec 003 §2.1 and T1, Eqs. (10), (27) print 4/(1 + alpha^2); (7) with vartheta = alpha/2 "
          "gives 4/(4 + alpha^2)");
  c.add_choice("correction.friction_sign", &o.friction_sign,
               {{"corrected", Correction::corrected}, {"printed", Correction::printed}},
               "sign of the friction force, Eqs. (31), (33): -k_t s (corrected) or the printed +k_t s")
      .assumption("TYPO: spec 003 §2.6 and T4; the text of Sect. 5.1 fixes the direction of the friction force");
  c.add_choice("correction.overlap_sign", &o.overlap_sign,
               {{"corrected", Correction::corrected}, {"printed", Correction::printed}},
               "overlap of Eq. (21) and direction of the contact force, Eq. (19): repulsive with delta > 0 "
               "(corrected) or the printed delta < 0 in contact with the force along +n_ij (printed)")
      .assumption("TYPO: spec 003 §2.5, T2 and T3; the printed delta is negative in contact");
  c.add_choice("model.pp_slip", &o.pp_slip, {{"relative", SlipModel::relative}, {"literal", SlipModel::literal}},
               "slip of a particle-particle contact: relative slip of both contact points (one spring per pair), "
               "or only particle i's kinematics as Eq. (29) reads")
      .assumption("ASSUMED: spec 003 §2.6 and T6; identical for walls and for Example 5.2");
  c.add_choice("model.wall_material", &o.wall_material,
               {{"rigid", WallMaterial::rigid}, {"same_as_particle", WallMaterial::same_as_particle}},
               "walls: rigid (r* = r, m* = m, E* = E/(1 - nu^2), G* = G) or of the particle's material")
      .assumption("ASSUMED: spec 003 §2.12 and T8; the paper gives no wall parameters");
  c.add("model.clamp_tensile_normal", &o.clamp_tensile_normal, "clamp the normal force F_n at zero")
      .assumption("ASSUMED: spec 003 T13; the paper does not clamp");
  c.add("model.exact_increment", &o.exact_increment,
        "alpha^Delta = 2 tan(theta/2) e of the trapezoidal theta instead of Eq. (45)");
  c.add("model.rotations", &o.rotations, "rotational degrees of freedom (false: omega = alpha^Delta = 0)");
  c.add("model.gravity", &o.gravity, "gravity g").unit("m/s^2").size(3);
  c.add("model.c_fluid", &o.c_fluid, "drag coefficient c_fluid, Eq. (15)")
      .unit("N s/m")
      .range(cm::Range::nonnegative());
  c.add("model.v_fluid", &o.v_fluid, "fluid velocity, Eq. (15)").unit("m/s").size(3);
  c.add("model.kappa1", &o.kappa1, "near-field attraction kappa_1, Eq. (17)").range(cm::Range::nonnegative());
  c.add("model.lambda1", &o.lambda1, "near-field attraction exponent lambda_1").range(cm::Range::nonnegative());
  c.add("model.kappa2", &o.kappa2, "near-field repulsion kappa_2, Eq. (17)").range(cm::Range::nonnegative());
  c.add("model.lambda2", &o.lambda2, "near-field repulsion exponent lambda_2").range(cm::Range::nonnegative());
  c.add("contact.wall_mu_s", &o.particle_wall.mu_s, "static friction mu_s, particle-wall")
      .range(cm::Range::nonnegative());
  c.add("contact.wall_mu_d", &o.particle_wall.mu_d, "dynamic friction mu_d, particle-wall")
      .range(cm::Range::nonnegative());
  c.add("contact.wall_xi", &o.particle_wall.xi, "damping rate xi, particle-wall, Eq. (22)")
      .range(cm::Range::nonnegative());
  c.add("contact.pp_mu_s", &o.particle_particle.mu_s, "static friction mu_s, particle-particle")
      .range(cm::Range::nonnegative());
  c.add("contact.pp_mu_d", &o.particle_particle.mu_d, "dynamic friction mu_d, particle-particle")
      .range(cm::Range::nonnegative());
  c.add("contact.pp_xi", &o.particle_particle.xi, "damping rate xi, particle-particle, Eq. (22)")
      .range(cm::Range::nonnegative());
  c.check([&c, &o] {
    if (o.particle_wall.mu_d > o.particle_wall.mu_s)
      c.fail("contact.wall_mu_d", "must not exceed contact.wall_mu_s (the return mapping of Eq. (35))");
    if (o.particle_particle.mu_d > o.particle_particle.mu_s)
      c.fail("contact.pp_mu_d", "must not exceed contact.pp_mu_s (the return mapping of Eq. (35))");
  });
}

double effective_E(const Particle& a, const Particle& b) {
  return a.E * b.E / (b.E * (1.0 - a.nu * a.nu) + a.E * (1.0 - b.nu * b.nu));  // eq. (20)
}
double effective_G(const Particle& a, const Particle& b) { return a.G() * b.G() / (a.G() + b.G()); }  // eq. (38)
double wall_E(const Particle& p, WallMaterial wall) {
  return effective_E(p, p) * (wall == WallMaterial::rigid ? 2.0 : 1.0);  // E_j -> inf: E/(1 - nu^2)
}
double wall_G(const Particle& p, WallMaterial wall) { return wall == WallMaterial::rigid ? p.G() : 0.5 * p.G(); }

double static_overlap(const Particle& p, double g, WallMaterial wall) {
  return std::pow(p.m * g / (4.0 / 3.0 * std::sqrt(p.r) * wall_E(p, wall)), 2.0 / 3.0);  // eq. (19) = m g
}

double hertz_duration(double m_star, double r_star, double E_star, double v_rel) {
  return 2.87 * std::pow(m_star * m_star / (r_star * E_star * E_star * v_rel), 0.2);  // eq. (50)
}

System::System(std::vector<Particle> particles, std::vector<State> states, std::vector<Wall> walls, Options options)
    : particles_(std::move(particles)),
      states_(std::move(states)),
      walls_(std::move(walls)),
      options_(std::move(options)),
      f_(states_.size(), Vector3d::Zero()),
      m_(states_.size(), Vector3d::Zero()) {
  if (particles_.size() != states_.size()) throw std::logic_error("dem::System: particles and states differ in number");
  if (!options_.rotations)
    for (auto& s : states_) s.w.setZero();
  build_neighbours();
  // f^tot(0), m^tot(0) from the initial state with zero springs [ASSUMED, spec 003 §2.9 step 5]
  for (std::size_t i = 0; i < states_.size(); ++i) total(i, states_, f_[i], m_[i]);
}

Vector3d System::contact_point_displacement(std::size_t i, const std::vector<State>& cur, const Vector3d& n) const {
  const Vector3d dx = cur[i].x - states_[i].x;  // eq. (25)
  const Vector3d& a = cur[i].aD;
  // Q_Delta n by cross products, eq. (27) with the chosen factor
  const double factor = 4.0 / ((options_.rotation_factor == Correction::corrected ? 4.0 : 1.0) + a.squaredNorm());
  const Vector3d an = a.cross(n);
  const Vector3d Qn = n + factor * (an + 0.5 * a.cross(an));
  return dx - particles_[i].r * (n - Qn);  // eq. (28): Delta r = r_i (I - Q_Delta) n_ij
}

double System::wall_distance(std::size_t k, const Vector3d& x, Vector3d& n) const {
  const Wall& w = walls_[k];
  if (w.kind == Wall::Kind::plane) {
    n = -w.normal;
    return (x - w.point).dot(w.normal);
  }
  const Vector3d ab = w.b - w.a;
  Vector3d ax = x - w.a;
  ax(2) = 0.0;  // the segment is extended along z
  const double s = std::clamp(ax.dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  const Vector3d d = ax - s * ab;
  const double dist = d.norm();
  n = dist > 0.0 ? Vector3d(-d / dist) : Vector3d::Zero();
  return dist;
}

void System::build_neighbours() {
  const std::size_t N = states_.size();
  if (!lists()) {
    neighbours_.clear();
    walls_near_.clear();
    candidates_ = 0.5 * static_cast<double>(N) * static_cast<double>(N > 0 ? N - 1 : 0);
    return;
  }
  ++builds_;
  built_at_.resize(N);
  walls_near_.assign(N, {});
  for (std::size_t i = 0; i < N; ++i) {
    built_at_[i] = states_[i].x;
    // a wall is in contact where its distance is below r (contact_wall); distances move no faster
    // than the particle
    for (std::size_t k = 0; k < walls_.size(); ++k) {
      Vector3d n;
      if (wall_distance(k, states_[i].x, n) < particles_[i].r + options_.skin)
        walls_near_[i].push_back(static_cast<int>(k));
    }
  }
  double r_max = 0.0;
  Vector3d lo = states_[0].x, hi = states_[0].x;
  for (std::size_t i = 0; i < N; ++i) {
    r_max = std::max(r_max, particles_[i].r);
    lo = lo.cwiseMin(states_[i].x);
    hi = hi.cwiseMax(states_[i].x);
  }
  const double cell = 2.0 * r_max + options_.skin;
  std::array<long, 3> dims{};
  for (int d = 0; d < 3; ++d) dims[static_cast<std::size_t>(d)] = static_cast<long>((hi(d) - lo(d)) / cell) + 1;
  // cells hashed into a table of 4 N buckets (a collision only adds candidates, checked by distance)
  const std::size_t buckets = 4 * N;
  auto coord = [&](const Vector3d& x, int d) { return static_cast<long>((x(d) - lo(d)) / cell); };
  auto bucket = [&](long cx, long cy, long cz) {
    const unsigned long h = (static_cast<unsigned long>(cx) * 73856093UL) ^
                            (static_cast<unsigned long>(cy) * 19349663UL) ^
                            (static_cast<unsigned long>(cz) * 83492791UL);
    return static_cast<std::size_t>(h % buckets);
  };
  std::vector<std::vector<int>> table(buckets);
  for (std::size_t i = 0; i < N; ++i)
    table[bucket(coord(states_[i].x, 0), coord(states_[i].x, 1), coord(states_[i].x, 2))].push_back(
        static_cast<int>(i));
  neighbours_.assign(N, {});
  candidates_ = 0.0;
  for (std::size_t i = 0; i < N; ++i) {
    const long cx = coord(states_[i].x, 0), cy = coord(states_[i].x, 1), cz = coord(states_[i].x, 2);
    for (long dx = -1; dx <= 1; ++dx)
      for (long dy = -1; dy <= 1; ++dy)
        for (long dz = -1; dz <= 1; ++dz) {
          const long x = cx + dx, y = cy + dy, z = cz + dz;
          if (x < 0 || y < 0 || z < 0 || x >= dims[0] || y >= dims[1] || z >= dims[2]) continue;
          for (const int j : table[bucket(x, y, z)]) {
            if (j == static_cast<int>(i)) continue;
            const double reach = particles_[i].r + particles_[static_cast<std::size_t>(j)].r + options_.skin;
            if ((states_[static_cast<std::size_t>(j)].x - states_[i].x).squaredNorm() < reach * reach)
              neighbours_[i].push_back(j);
          }
        }
    // sorted and without the duplicates of hash collisions: the sweep order (and so the bytes of a
    // run) does not depend on the table
    std::sort(neighbours_[i].begin(), neighbours_[i].end());
    neighbours_[i].erase(std::unique(neighbours_[i].begin(), neighbours_[i].end()), neighbours_[i].end());
    candidates_ += 0.5 * static_cast<double>(neighbours_[i].size());
  }
}

Vector3d System::spring(const Key& key, bool flip) const {
  const auto it = springs_.find(key);
  if (it == springs_.end()) return Vector3d::Zero();  // a new contact: s_acc = o
  return flip ? Vector3d(-it->second.s) : it->second.s;
}

System::Key System::pair_key(std::size_t i, std::size_t j) const {
  if (options_.pp_slip == SlipModel::relative)  // one spring per pair
    return {static_cast<int>(std::min(i, j)), static_cast<int>(std::max(i, j))};
  return {static_cast<int>(i), static_cast<int>(j)};
}

bool System::slipped(const Key& key) const {
  const auto it = springs_.find(key);
  return it != springs_.end() && it->second.slipping;
}

ContactForce System::law(std::size_t i, const Vector3d& n, double delta, double ddelta, double r_star, double m_star,
                         double E_star, double G_star, const ContactLaw& cl, const Vector3d& u_rel,
                         const Vector3d& s_acc) const {
  ContactForce c;
  c.active = true;
  c.delta = delta;
  c.n = n;
  const double d_star =
      2.0 * cl.xi * std::sqrt(2.0 * std::sqrt(r_star) * E_star * m_star) * std::pow(delta, 0.25);  // eq. (22)
  const double elastic = 4.0 / 3.0 * std::sqrt(r_star) * E_star * std::pow(delta, 1.5);            // eq. (19)
  Vector3d f_con;
  if (options_.overlap_sign == Correction::corrected) {
    c.Fn = elastic + d_star * ddelta;
    if (options_.clamp_tensile_normal) c.Fn = std::max(c.Fn, 0.0);
    f_con = -c.Fn * n;  // eq. (19) with delta > 0: repulsive (spec 003 T3)
  } else {
    // as printed: delta_ij = |x_i - x_j| - (r_i + r_j) < 0, its rate -ddelta, the force along +n_ij
    c.Fn = elastic - d_star * ddelta;
    if (options_.clamp_tensile_normal) c.Fn = std::max(c.Fn, 0.0);
    f_con = c.Fn * n;
  }
  const double f_con_norm = f_con.norm();
  const double kt = 8.0 * G_star * std::sqrt(r_star) * std::sqrt(delta);  // eq. (37)
  const Vector3d ds = u_rel - n * n.dot(u_rel);                           // eq. (29)
  Vector3d s = s_acc + ds;                                                // eq. (30)
  const double sign = options_.friction_sign == Correction::corrected ? -1.0 : 1.0;
  Vector3d f_fric = sign * kt * s;             // eq. (31), spec 003 T4
  if (f_fric.norm() > cl.mu_s * f_con_norm) {  // eq. (32) fails: slip
    c.slipping = true;
    const double sn = s.norm();
    if (sn > 0.0 && kt > 0.0) {
      const Vector3d tau = s / sn;                 // eq. (34)
      s = cl.mu_d * f_con_norm / kt * tau;         // eqs. (35), (36)
      f_fric = sign * cl.mu_d * f_con_norm * tau;  // eq. (33)
    } else {
      f_fric.setZero();
    }
  }
  c.s = s;
  c.f_fric = f_fric;
  c.f = f_con + f_fric;
  c.m = (particles_[i].r * n).cross(f_fric);  // eq. (39) with r_C = r_i n_ij (spec 003 T15)
  return c;
}

ContactForce System::contact_wall(std::size_t i, std::size_t k, const std::vector<State>& cur) const {
  Vector3d n;
  const double dist = wall_distance(k, cur[i].x, n);
  if (n.isZero(0.0)) return {};  // a centre on a segment: no direction
  const Particle& p = particles_[i];
  const double delta = p.r - dist;  // overlap with the wall (spec 003 §2.12)
  if (!(delta > 0.0)) return {};
  const double ddelta = cur[i].v.dot(n);
  const Vector3d u = contact_point_displacement(i, cur, n);
  const Key key{static_cast<int>(i), -1 - static_cast<int>(k)};
  return law(i, n, delta, ddelta, p.r, p.m, wall_E(p, options_.wall_material), wall_G(p, options_.wall_material),
             options_.particle_wall, u, spring(key, false));
}

ContactForce System::contact_particle(std::size_t i, std::size_t j, const std::vector<State>& cur) const {
  const Particle &pi = particles_[i], &pj = particles_[j];
  const Vector3d d = cur[j].x - cur[i].x;
  const double reach = pi.r + pj.r;
  if (std::fabs(d(0)) >= reach || std::fabs(d(1)) >= reach || std::fabs(d(2)) >= reach) return {};
  const double dist = d.norm();
  const double delta = reach - dist;  // eq. (21) corrected (spec 003 T2)
  if (!(delta > 0.0) || !(dist > 0.0)) return {};
  const Vector3d n = d / dist;  // eq. (18)
  const double ddelta = (cur[i].v - cur[j].v).dot(n);
  Vector3d u = contact_point_displacement(i, cur, n);
  const bool relative = options_.pp_slip == SlipModel::relative;
  if (relative) u -= contact_point_displacement(j, cur, -n);
  const Key key = pair_key(i, j);
  return law(i, n, delta, ddelta, pi.r * pj.r / reach, pi.m * pj.m / (pi.m + pj.m), effective_E(pi, pj),
             effective_G(pi, pj), options_.particle_particle, u, spring(key, relative && i > j));
}

void System::total(std::size_t i, const std::vector<State>& cur, Vector3d& f, Vector3d& m) const {
  const Particle& p = particles_[i];
  const Vector3d g(options_.gravity[0], options_.gravity[1], options_.gravity[2]);
  const Vector3d vf(options_.v_fluid[0], options_.v_fluid[1], options_.v_fluid[2]);
  f = p.m * g - options_.c_fluid * (cur[i].v - vf);  // eqs. (13), (15)
  m.setZero();
  const bool near_field = options_.kappa1 != 0.0 || options_.kappa2 != 0.0;
  if (near_field)
    for (std::size_t j = 0; j < cur.size(); ++j) {
      if (j == i) continue;
      const Vector3d d = cur[j].x - cur[i].x;
      const double dist = d.norm();
      f += (options_.kappa1 * std::pow(dist, -options_.lambda1) - options_.kappa2 * std::pow(dist, -options_.lambda2)) *
           d / dist;  // eqs. (16)-(18)
    }
  for_walls_near(i, [&](std::size_t k) {
    const ContactForce c = contact_wall(i, k, cur);
    if (!c.active) return;
    f += c.f;
    m += c.m;
  });
  auto add = [&](std::size_t j) {
    if (j == i) return;
    const ContactForce c = contact_particle(i, j, cur);
    if (!c.active) return;
    f += c.f;
    m += c.m;
  };
  if (neighbours_.empty())
    for (std::size_t j = 0; j < cur.size(); ++j) add(j);
  else
    for (const int j : neighbours_[i]) add(static_cast<std::size_t>(j));
  if (!options_.rotations) m.setZero();  // eq. (14), without rotational degrees of freedom
}

void System::commit_springs(const std::vector<State>& cur) {
  std::map<Key, Spring> next;
  const bool relative = options_.pp_slip == SlipModel::relative;
  for (std::size_t i = 0; i < cur.size(); ++i) {
    for_walls_near(i, [&](std::size_t k) {
      const ContactForce c = contact_wall(i, k, cur);
      if (c.active) next[{static_cast<int>(i), -1 - static_cast<int>(k)}] = {c.s, c.slipping};
    });
    auto pair = [&](std::size_t j) {
      if (j == i || (relative && j < i)) return;
      const ContactForce c = contact_particle(i, j, cur);
      if (c.active) next[{static_cast<int>(i), static_cast<int>(j)}] = {c.s, c.slipping};
    };
    if (neighbours_.empty())
      for (std::size_t j = 0; j < cur.size(); ++j) pair(j);
    else
      for (const int j : neighbours_[i]) pair(static_cast<std::size_t>(j));
  }
  springs_ = std::move(next);  // contacts that ended are deleted, new ones start from o
}

namespace {
/// err(a) of Eq. (48), or (49) when the denominator of (48) approaches zero (Remark 6).
struct ErrorSum {
  double num = 0.0, den48 = 0.0, den49 = 0.0;
  void add(const Vector3d& next, const Vector3d& prev, const Vector3d& at_t) {
    num += (next - prev).norm();
    den48 += (next - at_t).norm();
    den49 += next.norm();
  }
  double value(double eta) const {
    if (den48 > 0.0 && den48 >= eta * den49) return num / den48;  // eq. (48)
    if (den49 > 0.0) return num / den49;                          // eq. (49)
    return 0.0;                                                   // every a is zero: nothing to converge
  }
};
}  // namespace

// The neighbour lists (the candidate pairs and the walls near each particle) serve the steps after
// their build while every iterate stays within half the skin of the positions they were built at.
// A pair or a wall in contact at an iterate is then on them, and the contacts are visited in the
// same order (pairs by increasing index, walls in their order), so the lists change no result.
// They are built again at t when a particle has moved a quarter of the skin since, so that one
// step may move it another quarter. A step whose iterates went further is done again on lists
// built at t, as every step was before the lists were kept. Should its iterates still leave half
// the skin, it is done once more with every wall; the final iterate's check below stops the run
// when the last one did.
StepReport System::step() {
  const Options& o = options_;
  const double quarter = 0.25 * o.skin;
  bool built_at_t = false;
  if (lists() && largest_drift(states_) > quarter * quarter) {
    build_neighbours();
    built_at_t = true;
  }
  all_walls_ = !lists();
  std::vector<State> cur;
  std::vector<Vector3d> f_new(states_.size()), m_new(states_.size());
  StepReport report;
  while (true) {
    double drift = 0.0;  // the largest squared distance of an iterate from the lists' positions
    report = iterate(cur, f_new, m_new, drift);
    if (all_walls_ || drift <= 4.0 * quarter * quarter) break;
    ++redone_;
    if (!built_at_t) {
      build_neighbours();
      built_at_t = true;
    } else {
      all_walls_ = true;
    }
  }
  if (o.skin > 0.0)
    for (std::size_t i = 0; i < cur.size(); ++i)
      if ((cur[i].x - states_[i].x).norm() > 0.5 * o.skin)
        throw cm::NumericalError("particle " + std::to_string(i) +
                                 " moved more than half the neighbour skin in one step at t = " + std::to_string(t_) +
                                 " s: raise the skin or lower the time step");
  for (auto& s : cur) s.alpha = cm::compose_rodrigues(s.alpha, s.aD);  // eq. (47)
  if (o.final_forces == FinalForces::reevaluate)
    for (std::size_t i = 0; i < cur.size(); ++i) total(i, cur, f_new[i], m_new[i]);
  commit_springs(cur);
  states_ = std::move(cur);
  f_ = std::move(f_new);
  m_ = std::move(m_new);
  t_ += o.dt;
  return report;
}

double System::wall_candidates() const {
  if (all_walls_) return static_cast<double>(states_.size()) * static_cast<double>(walls_.size());
  double n = 0.0;
  for (const auto& near : walls_near_) n += static_cast<double>(near.size());
  return n;
}

double System::largest_drift(const std::vector<State>& at) const {
  double d2 = 0.0;
  for (std::size_t i = 0; i < at.size(); ++i) d2 = std::max(d2, (at[i].x - built_at_[i]).squaredNorm());
  return d2;
}

StepReport System::iterate(std::vector<State>& cur, std::vector<Vector3d>& f_new, std::vector<Vector3d>& m_new,
                           double& drift) const {
  const Options& o = options_;
  const double dt = o.dt, phi = o.phi;
  const bool tracked = lists();  // the iterates' drift from the lists' positions
  cur = states_;
  for (auto& s : cur) s.aD.setZero();  // predictor: the state at t, alpha^Delta = o [ASSUMED, spec 003 §2.9]
  std::vector<State> prev;
  StepReport report;
  for (long K = 0; K < o.k_max; ++K) {
    prev = cur;
    const std::vector<State>& source = o.sweep == Sweep::gauss_seidel ? cur : prev;
    for (std::size_t i = 0; i < cur.size(); ++i) {
      const Particle& p = particles_[i];
      const State& old = states_[i];
      Vector3d f, m;
      total(i, source, f, m);  // eq. (46)
      f_new[i] = f;
      m_new[i] = m;
      State s = cur[i];
      s.v = old.v + dt / p.m * (phi * f + (1.0 - phi) * f_[i]);  // eq. (42)
      s.x = old.x + (phi * s.v + (1.0 - phi) * old.v) * dt;      // eq. (45)
      if (o.rotations) {
        s.w = old.w + dt / p.j() * (phi * m + (1.0 - phi) * m_[i]);  // eq. (42)
        s.aD = (phi * s.w + (1.0 - phi) * old.w) * dt;               // eq. (45)
        if (o.exact_increment) s.aD = cm::rodrigues_from_rotation_vector(s.aD);
      }
      cur[i] = s;
      if (tracked) drift = std::max(drift, (s.x - built_at_[i]).squaredNorm());
    }
    ErrorSum ex, ev, ew, ea;
    for (std::size_t i = 0; i < cur.size(); ++i) {
      ex.add(cur[i].x, prev[i].x, states_[i].x);
      ev.add(cur[i].v, prev[i].v, states_[i].v);
      ew.add(cur[i].w, prev[i].w, states_[i].w);
      ea.add(cur[i].aD, prev[i].aD, states_[i].aD);  // alpha^Delta(t): the increment of the last step
    }
    report.error = std::max({ex.value(o.err_eta), ev.value(o.err_eta), ew.value(o.err_eta), ea.value(o.err_eta)});
    report.iterations = K + 1;
    if (report.error <= o.tol) {
      report.converged = true;
      break;
    }
  }
  return report;
}

namespace {
/// The converged state seen as an iterate of zero increment: the friction is that of the committed springs.
std::vector<State> at_rest_increment(const std::vector<State>& states) {
  std::vector<State> s = states;
  for (auto& x : s) x.aD.setZero();
  return s;
}
}  // namespace

// At the converged state the committed spring already holds the return mapping's result, so the law
// evaluated there sticks: whether the step slipped is the committed flag.
ContactForce System::wall_contact(std::size_t i, std::size_t k) const {
  ContactForce c = contact_wall(i, k, at_rest_increment(states_));
  c.slipping = c.active && slipped({static_cast<int>(i), -1 - static_cast<int>(k)});
  return c;
}

ContactForce System::particle_contact(std::size_t i, std::size_t j) const {
  ContactForce c = contact_particle(i, j, at_rest_increment(states_));
  c.slipping = c.active && slipped(pair_key(i, j));
  return c;
}

std::size_t System::wall_contacts(std::size_t k) const {
  std::size_t n = 0;
  for (const auto& [key, s] : springs_) n += key.second == -1 - static_cast<int>(k) ? 1 : 0;
  return n;
}

std::size_t System::particle_pairs() const {
  std::size_t n = 0;
  for (const auto& [key, s] : springs_) n += key.second >= 0 ? 1 : 0;
  return n;
}

double System::kinetic_translational() const {
  double e = 0.0;
  for (std::size_t i = 0; i < states_.size(); ++i) e += 0.5 * particles_[i].m * states_[i].v.squaredNorm();
  return e;
}

double System::kinetic_rotational() const {
  double e = 0.0;
  for (std::size_t i = 0; i < states_.size(); ++i) e += 0.5 * particles_[i].j() * states_[i].w.squaredNorm();
  return e;
}

double SphereOnPlane::t_roll() const { return std::fabs(v0 + w0 * r) / (3.5 * mu * g); }  // eqs. (52), (53)

namespace {
/// dv/dt and domega/dt while sliding: friction opposes the slip v + omega r, eq. (51).
std::pair<double, double> sliding_rates(const SphereOnPlane& s) {
  const double slip0 = s.v0 + s.w0 * s.r;
  const double sgn = slip0 < 0.0 ? 1.0 : (slip0 > 0.0 ? -1.0 : 0.0);
  return {sgn * s.mu * s.g, sgn * 2.5 * s.mu * s.g / s.r};
}
}  // namespace

SphereOnPlane::Value SphereOnPlane::sliding(double t) const {
  const auto [a, b] = sliding_rates(*this);
  return {v0 * t + 0.5 * a * t * t, w0 * t + 0.5 * b * t * t, v0 + a * t, w0 + b * t};
}

SphereOnPlane::Value SphereOnPlane::at(double t) const {
  const auto [a, b] = sliding_rates(*this);
  const double tr = t_roll(), ts = std::min(t, tr);
  Value val;
  val.v = v0 + a * ts;
  val.w = w0 + b * ts;
  val.x = v0 * ts + 0.5 * a * ts * ts + val.v * (t - ts);  // after t_roll: uniform rolling, eq. (54)
  val.theta = w0 * ts + 0.5 * b * ts * ts + val.w * (t - ts);
  return val;
}

}  // namespace dem

namespace dem {

long rigid_body_step(RigidBody& body, double dt, double phi, double tol, double err_eta, long k_max,
                     bool exact_increment) {
  const Vector3d L = body.angular_momentum();  // eq. (40) with m = o: L(t + dt) = L(t)
  const Vector3d omega_t = body.omega;
  const Matrix3d Q_t = body.Q;
  auto attitude = [&](const Vector3d& omega) {
    Vector3d aD = (phi * omega + (1.0 - phi) * omega_t) * dt;  // eq. (45)
    if (exact_increment) aD = cm::rodrigues_from_rotation_vector(aD);
    return Matrix3d(cm::rotation_from_rodrigues(aD) * Q_t);  // Q(t + dt) = Q_Delta Q(t), eq. (47)
  };
  Vector3d omega = omega_t;  // the predictor of Algorithm 1, step (2)
  long taken = -1;
  for (long k = 1; k <= k_max && taken < 0; ++k) {
    const Matrix3d Q = attitude(omega);
    const Vector3d next = Q * (Q.transpose() * L).cwiseQuotient(body.J);
    // eq. (48) on omega, the step's change as denominator; eq. (49), the iterate's size, where that
    // change approaches zero (Remark 6), as for a sphere, whose spin a free step leaves unchanged
    // (eq. (42) with m = o): its change is rounding, which no iterate can fall below
    const double change = (next - omega_t).norm(), size = next.norm(), update = (next - omega).norm();
    omega = next;
    const double scale = change > 0.0 && change >= err_eta * size ? change : size;
    if (update <= tol * std::max(scale, std::numeric_limits<double>::min())) taken = k;
  }
  body.omega = omega;
  body.Q = attitude(omega);  // step (5): the attitude of the converged spin
  return taken;
}

}  // namespace dem

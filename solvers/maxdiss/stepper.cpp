#include "maxdiss/stepper.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "maxdiss/bodies.hpp"
#include "maxdiss/coulomb.hpp"
#include "numerics/sundials.hpp"

namespace md {

Vector3d solid_ellipsoid_inertia(double m, const Vector3d& a) {
  const Vector3d s = a.cwiseProduct(a);
  return m / 5.0 * Vector3d(s(1) + s(2), s(0) + s(2), s(0) + s(1));
}

ImpulseVelocityStepper::ImpulseVelocityStepper(const EllipsoidBody& body, const StepperOptions& opt)
    : body_(body), opt_(opt) {
  g_ = opt.g0 * Vector3d(std::sin(opt.beta), 0.0, -std::cos(opt.beta));  // tilted gravity: the incline
  D2_ = body.semi_axes.cwiseProduct(body.semi_axes).asDiagonal();
}

Matrix3d ImpulseVelocityStepper::inertia(const Vector4d& phi) const {
  const Matrix3d R = cm::attitude(phi);
  return R * body_.I0.asDiagonal() * R.transpose();  // I = R I_0 R^T (Sect. 2)
}

Matrix3d ImpulseVelocityStepper::inverse_inertia(const Vector4d& phi) const {
  const Matrix3d R = cm::attitude(phi);
  return R * body_.I0.cwiseInverse().asDiagonal() * R.transpose();
}

Eigen::Matrix<double, 4, 3> ImpulseVelocityStepper::Qmat(const Vector4d& q) {
  Eigen::Matrix<double, 4, 3> Q;  // Sect. 2: phi_dot = Q(phi) w, w in inertial components
  Q << -q(1), -q(2), -q(3),       //
      q(0), q(3), -q(2),          //
      -q(3), q(0), q(1),          //
      q(2), -q(1), q(0);
  return 0.5 * Q;
}

PlaneContact ImpulseVelocityStepper::contact(const BodyState& s) const {
  PlaneContact c;
  const Matrix3d R = cm::attitude(s.phi);
  // Support point of the ellipsoid in direction d = -e_z: D^2 d_b / sqrt(d_b^T D^2 d_b), d_b = R^T d.
  const Vector3d db = -R.transpose().col(2);
  const Vector3d pb = D2_ * db / std::sqrt(db.dot(D2_ * db));
  c.r = R * pb;
  c.xi = s.x(2) + c.r(2);  // plane z = 0, normal e_z (Sect. 2.4: xi = f_S(x_hat))
  c.Qc << Vector3d::UnitZ(), Vector3d::UnitX(), Vector3d::UnitY();
  return c;
}

StepRecord ImpulseVelocityStepper::step(BodyState& s, double t) const {
  const double dt = opt_.dt;
  const Matrix3d Iw = inertia(s.phi), Iinv = inverse_inertia(s.phi);
  // Impulse-free velocities at the end of the step (Sect. 3.1, z = (dt m g, -dt w x I w)).
  const Vector3d vf = s.v + dt * g_;
  const Vector3d wf = s.w - dt * Iinv * s.w.cross(Iw * s.w);

  StepRecord rec;
  const PlaneContact c = contact(s);
  rec.xi = c.xi;
  // Delassus block of the body against the plane (infinite mass), eq. (2), contact frame.
  const Matrix3d A =
      c.Qc.transpose() * delassus_eq2(1.0 / body_.m, Iinv, c.r, 0.0, Matrix3d::Zero(), Vector3d::Zero()) * c.Qc;
  const Vector3d dv_free = c.Qc.transpose() * (vf + wf.cross(c.r));  // W^T u_free (Sect. 2.3)
  // Error-reduced gap term eps min(0, xi/dt) + max(0, xi/dt) folded into b_n (spec 001, 2.8).
  const double gap = c.xi / dt;
  const double xi_term = opt_.erp * std::min(0.0, gap) + std::max(0.0, gap);
  Vector3d b = -dv_free;
  b(0) -= xi_term;

  if (opt_.law == ContactLaw::maxdiss) {
    const Solution sol = solve(A, b, opt_.mu, opt_.solver);  // eq. (5) via Fig. 5
    rec.lambda = sol.x;
    rec.branch = sol.branch;
    rec.sticking = sol.branch == Branch::sticking;
  } else {
    const CoulombSet set = coulomb_solutions(A, b, opt_.mu, CoulombMethod::quartic, 100000, opt_.solver);
    rec.coulomb_solutions = static_cast<int>(set.solutions.size());
    double best = std::numeric_limits<double>::infinity();
    for (const auto& cs : set.solutions) {
      const double key = opt_.pick == CoulombPick::lowest_energy ? objective(A, b, cs.x) : cs.x(0);
      if (key < best) {
        best = key;
        rec.lambda = cs.x;
        rec.sticking = cs.kind == CoulombKind::sticking;
      }
    }
    if (set.solutions.empty()) {
      if (!set.continuum)
        throw cm::NumericalError("stepper: the Coulomb-like law has no solution at t = " + std::to_string(t));
      rec.lambda = set.segment_from;
    }
    rec.branch = Branch::sliding;  // not meaningful for the Coulomb law
  }
  rec.dv = A * rec.lambda - b;  // post-step contact velocity incl. the gap term (Sect. 3.2)

  const Vector3d lam = c.Qc * rec.lambda;             // inertial components
  s.v = vf + lam / body_.m;                           // v' = v + M^{-1} (W lambda~ + dt m g)
  s.w = wf + Iinv * c.r.cross(lam);                   // w' = w + I^{-1} (r x lambda~ - dt w x I w)
  s.x += dt * s.v;                                    // x' = x + dt v'
  const Vector4d q = s.phi + dt * Qmat(s.phi) * s.w;  // phi' = (phi + dt Q w') / ||.||
  s.phi = q / q.norm();
  if (!s.x.allFinite() || !s.v.allFinite() || !s.w.allFinite() || !s.phi.allFinite())
    throw cm::NumericalError("stepper: non-finite state after the step at t = " + std::to_string(t));
  return rec;
}

double ImpulseVelocityStepper::energy(const BodyState& s) const {
  return 0.5 * body_.m * s.v.squaredNorm() + 0.5 * s.w.dot(inertia(s.phi) * s.w) - body_.m * g_.dot(s.x);
}

// ---- the smooth reference ---------------------------------------------------------------------

SphereReference sphere_reference(const SphereReferenceOptions& o, double t_end, int n) {
  const double sb = std::sin(o.beta), cb = std::cos(o.beta);
  const double gt = o.g0 * sb, fn = o.mu * o.g0 * cb;  // down-slope gravity, friction per unit mass
  // rolling is sustainable iff the friction it needs, m g sin(beta) kappa / (1 + kappa), is in the cone
  const bool can_roll = std::fabs(gt) * o.kappa / (1.0 + o.kappa) <= fn;
  // phase: 0 rolling, +1 / -1 sliding with slip u - R w of that sign
  int phase = 0;
  auto slip_of = [&](const Eigen::VectorXd& y) { return y(1) - o.R * y(2); };
  Eigen::VectorXd y(3);
  y << o.s0, o.u0, o.w0;
  auto choose = [&](double slip) {
    if (slip > 0.0) return 1;
    if (slip < 0.0) return -1;
    if (can_roll) return 0;
    return gt >= 0.0 ? 1 : -1;  // the slip starts in the direction of the down-slope pull
  };
  phase = choose(slip_of(y));

  auto rhs = [&](double, cm::ConstVectorRef x, cm::VectorRef yd) {
    yd(0) = x(1);
    if (phase == 0) {
      yd(1) = gt / (1.0 + o.kappa);  // rolling: a = g sin(beta) / (1 + kappa) (= 5/7 g sin beta)
      yd(2) = yd(1) / o.R;
    } else {
      yd(1) = gt - phase * fn;               // sliding: a = g (sin beta -+ mu cos beta)
      yd(2) = phase * fn / (o.kappa * o.R);  // torque R mu N / (kappa m R^2)
    }
  };
  SphereReference ref;
  auto ode = cm::make_integrator(o.method, rhs, y, 0.0, {o.rtol, o.atol});
  ode->set_max_steps(o.max_steps);
  ode->set_roots(1,
                 [&](double, cm::ConstVectorRef x, cm::VectorRef gv) { gv(0) = phase == 0 ? 1.0 : x(1) - o.R * x(2); });
  ref.samples.push_back({0.0, y(0), y(1), y(2), phase == 0});
  double t = 0.0;
  for (int k = 1; k <= n; ++k) {
    const double tk = t_end * k / n;
    while (true) {
      const cm::Step st = ode->advance(tk);
      t = st.t;
      y = st.y;
      if (!st.root) break;
      // the slip vanished: roll if the cone allows, else slide on with the other sign
      if (ref.t_roll < 0.0) ref.t_roll = t;
      y(1) = o.R * y(2);  // land exactly on the slip-free manifold
      phase = can_roll ? 0 : -phase;
      ode->reinit(t, y);
      if (t >= tk) break;
    }
    ref.samples.push_back({tk, y(0), y(1), y(2), phase == 0});
  }
  const auto stats = ode->statistics();
  ref.steps = stats.steps;
  ref.rhs_evaluations = stats.rhs_evaluations;
  return ref;
}

SphereReferenceSample sphere_closed_form(const SphereReferenceOptions& o, double t, double* t_roll) {
  const double gt = o.g0 * std::sin(o.beta), fn = o.mu * o.g0 * std::cos(o.beta);
  const bool can_roll = std::fabs(gt) * o.kappa / (1.0 + o.kappa) <= fn;
  const double ar = gt / (1.0 + o.kappa);  // rolling: a = g sin(beta) / (1 + kappa)
  // one phase of constant accelerations from (s, u, w) over a time tau
  auto advance = [&](SphereReferenceSample p, double tau, int phase) {
    const double a = phase == 0 ? ar : gt - phase * fn;  // sliding: g (sin -+ mu cos)
    const double al = phase == 0 ? ar / o.R : phase * fn / (o.kappa * o.R);
    p.s += p.u * tau + 0.5 * a * tau * tau;
    p.u += a * tau;
    p.w += al * tau;
    p.t += tau;
    p.rolling = phase == 0;
    return p;
  };
  const SphereReferenceSample p0{0.0, o.s0, o.u0, o.w0, false};
  const double slip0 = o.u0 - o.R * o.w0;
  if (t_roll) *t_roll = -1.0;
  if (slip0 == 0.0) return advance(p0, t, can_roll ? 0 : (gt >= 0.0 ? 1 : -1));
  const int p = slip0 > 0.0 ? 1 : -1;
  const double rate = gt - p * fn * (1.0 + 1.0 / o.kappa);  // d(slip)/dt while sliding
  if (slip0 * rate >= 0.0) return advance(p0, t, p);        // the slip never vanishes
  const double ts = -slip0 / rate;                          // e.g. 2 v0 / (7 mu g) on a plane
  if (t_roll) *t_roll = ts;
  if (t <= ts) return advance(p0, t, p);
  SphereReferenceSample q = advance(p0, ts, p);
  q.u = o.R * q.w;
  return advance(q, t - ts, can_roll ? 0 : -p);
}

}  // namespace md

// Sect. 7 in rescaled time: phase portraits on the unit sphere of slip directions (Figs. 12, 15,
// 16) and direct simulations of the stopping disc and ball.
//
// With x_o = r w the test problems (13)/(18) become r' = r R*(w), w' = V*(w) (114) in the rescaled
// time d/dt = r d/dtau; F_o depends on w alone, so the direction dynamics (115) is exact for every r
// and r, t are quadratures along w(tau): (ln r)' = R*(w), t' = r. Both studies integrate in tau
// (cm::make_integrator); |w| is kept at 1 by the stabilising term -k_c (|w|^2 - 1) w.
#include "friction/sphere.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "common/grid.hpp"
#include "common/math.hpp"

namespace fr {

namespace {

using cm::pi;

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool known_model(const std::string& m, long n_max) {
  if (m == "fitted" || m == "exact" || m == "series" || m == "series_printed") return true;
  return m.size() >= 2 && m.size() <= 3 && m[0] == 'N' && m.find_first_not_of("0123456789", 1) == std::string::npos &&
         std::stol(m.substr(1)) >= 1 && std::stol(m.substr(1)) <= n_max;
}

}  // namespace

// --- the common keys ---------------------------------------------------------------------------

void SphereStudy::declare_common(cm::Config& c) {
  const std::vector<std::pair<std::string, Pressure>> pressures{{"uniform", Pressure::uniform},
                                                                {"hertz", Pressure::hertz}};
  c.add_choice("problem.disc_pressure", &o_.disc_pressure, pressures, "disc: pressure (Sect. 4.1)");
  // j = J/(m Rbar^2) <= 1 for any body whose mass lies within Rbar; j -> 0 makes a of (126) unbounded
  c.add("problem.disc_j", &o_.disc_j, "disc: J/(m Rbar^2) (solid disc 1/2)")
      .unit("1")
      .range(cm::Range::closed(1e-6, 1.0));
  c.add_choice("problem.ball_pressure", &o_.ball_pressure, pressures, "ball: pressure (Sect. 4.2)");
  c.add("problem.ball_j", &o_.ball_j, "ball: J/(m Rbar^2) (2/5)").unit("1").range(cm::Range::closed(1e-6, 1.0));
  c.add("problem.ball_lambda", &o_.ball_lambda, "ball: lambda = Rbar/R").unit("1").range(cm::Range::closed(1.0, 1e6));
  declare_rho_over_kappa_key(c, o_.rho_over_kappa);
  declare_harmonic_keys(c, o_.harmonic);
  c.add("dynamics.k_stab", &o_.k_stab, "constraint stabilisation gain k_c of -k_c (|w|^2 - 1) w")
      .unit("1")
      .range(cm::Range::closed(0.0, 1e6));
  declare_classification_key(c, o_.zero_tol);
  cm::declare_integrator_keys(c, o_.solver, "solver");
  cm::KeyBuilder(c, "solver.rtol").assumption("ASSUMED: the paper gives no tolerances");
}

void SphereStudy::check_cases(cm::Config& c, const std::vector<double>& forces, const std::string& forces_key,
                              const std::vector<std::string>& models, const std::string& models_key,
                              const std::vector<std::string>& bodies, const std::string& bodies_key) const {
  if (forces.empty()) c.fail(forces_key, "no force given");
  if (models.size() != forces.size())
    c.fail(models_key, "needs " + std::to_string(forces.size()) + " comma separated entries, one per " + forces_key);
  if (bodies.size() != forces.size())
    c.fail(bodies_key, "needs " + std::to_string(forces.size()) + " comma separated entries, one per " + forces_key);
  for (std::size_t i = 0; i < forces.size(); ++i) {
    if (bodies[i] != "disc" && bodies[i] != "ball") c.fail(bodies_key, "'" + bodies[i] + "': disc or ball");
    if (!known_model(models[i], o_.harmonic.N_max))
      c.fail(models_key, "unknown model '" + models[i] + "' (fitted, exact, series, series_printed, N1..N" +
                             std::to_string(o_.harmonic.N_max) + " with models.N_max)");
    const Pressure p = bodies[i] == "disc" ? o_.disc_pressure : o_.ball_pressure;
    if (models[i].rfind("series", 0) == 0 && p != Pressure::uniform)
      c.fail(models_key, "the series model (78)-(79) is for the uniform pressure");
  }
}

SphereCase SphereStudy::make_case(const std::string& body, const std::string& model, double f) {
  SphereCase c;
  c.body = body;
  const bool disc = body == "disc";
  c.p = disc ? o_.disc_pressure : o_.ball_pressure;
  const double kappa = kappa_closed_form(c.p);
  c.rho = o_.rho_over_kappa * kappa;
  c.j = disc ? o_.disc_j : o_.ball_j;
  c.Rbar = disc ? 1.0 : o_.ball_lambda;
  const std::string key = join(pressure_name(c.p), "_", fmt(c.rho));
  if (!coefficients_.count(key))
    coefficients_[key] =
        harmonic_coefficients(c.p, c.rho, static_cast<int>(o_.harmonic.N_max), o_.harmonic.quad_tol);  // (83)
  c.model = make_model("model list", model, c.p, c.rho, coefficients_[key]);
  c.prob = disc ? disc_problem(c.j, kappa, c.rho, c.Rbar, f) : ball_problem(c.j, kappa, c.rho, c.Rbar, f);
  c.prob.zero_tol = o_.zero_tol;
  return c;
}

// --- portraits --------------------------------------------------------------------------------

PortraitsStudy::PortraitsStudy() { o_.solver.max_steps = 500; }  // CVODE's own default, as before the keys

void PortraitsStudy::declare(cm::Config& c) {
  declare_common(c);
  c.add("portrait.f", &f_, "forces, one portrait each")
      .unit("mu m g")
      .range(cm::Range::closed(0.0, 1e6))
      .assumption("ASSUMED: representative forces (spec 000 F11)");
  c.add("portrait.model", &model_, "friction model of each portrait");
  c.add("portrait.body", &body_, "body of each portrait (disc, ball)");
  c.add("portrait.seeds", &seeds_, "Fibonacci seeds on the sphere")
      .range(cm::Range::closed(1, 100000))
      .assumption("ASSUMED: the paper draws schematic portraits (spec 000 §6.1)");
  c.add("portrait.tau_end", &tau_end_, "end of the rescaled time").unit("1").range(cm::Range::open_closed(0.0, 1e9));
  c.add("portrait.dtau", &dtau_, "output step in tau").unit("1").range(cm::Range::open_closed(0.0, 1e9));
  c.add("portrait.circle_points", &circle_points_, "points drawn on each circle of limit directions at f = 0")
      .range(cm::Range::closed(3, 1e6));
  c.check([&c, this] { check_cases(c, f_, "portrait.f", model_, "portrait.model", body_, "portrait.body"); });
}

// The output grid in tau and the seeds, counted against the budget before anything is written.
void PortraitsStudy::setup(const cm::Run& run) {
  const double per_point = static_cast<double>(f_.size()) * static_cast<double>(seeds_);
  const long max_points = std::max(1L, static_cast<long>(static_cast<double>(run.budget().max_rows) / per_point));
  tau_ = cm::step_grid("portrait.dtau", 0.0, tau_end_, dtau_, max_points);
  seed_points_ = fibonacci_sphere(static_cast<int>(seeds_));
}

void PortraitsStudy::run(cm::Run& run) {
  setup(run);
  auto lds = run.table("limit_directions.tsv", "limit directions per force (block per force)",
                       {{"case", "index"},
                        {"f", "1"},
                        {"w1", "1"},
                        {"w2", "1"},
                        {"w3", "1"},
                        {"rdot", "mu g"},
                        {"colour", "code"},
                        {"circle", "1 = member of a circle of LDs"}});
  for (std::size_t c = 0; c < f_.size(); ++c) {
    const SphereCase k = make_case(body_[c], model_[c], f_[c]);
    const LimitDirectionAnalysis A(*k.model, k.prob);
    limit_directions(lds, c, A);
    trajectories(run, c, A);
  }
}

void PortraitsStudy::limit_directions(cm::Table& lds, std::size_t c, const LimitDirectionAnalysis& A) {
  for (const LimitDirection& ld : A.limit_directions()) {
    if (ld.circle) {  // f = 0: draw the whole circle of LDs (rotational symmetry)
      for (long k = 0; k <= circle_points_; ++k) {
        const double phi = 2 * pi * static_cast<double>(k) / static_cast<double>(circle_points_);
        lds.row({double(c), f_[c], ld.w(0) * std::cos(phi), ld.w(0) * std::sin(phi), ld.w(2), ld.rdot,
                 double(ld.colour), 1.0});
      }
    } else {
      lds.row({double(c), f_[c], ld.w(0), 0.0, ld.w(2), ld.rdot, double(ld.colour), 0.0});
    }
    lds.gap();
  }
  lds.gap();
}

// w' = V*(w) (115) from every seed, written at the tau grid.
void PortraitsStudy::trajectories(cm::Run& run, std::size_t c, const LimitDirectionAnalysis& A) {
  auto t = run.table(join("portrait_", std::to_string(c), ".tsv"),
                     join("trajectories of (115) on the sphere, f = ", fmt(f_[c]), ", one block per seed"),
                     {{"seed", "index"}, {"tau", "1"}, {"w1", "1"}, {"w2", "1"}, {"w3", "1"}},
                     cm::Planned{static_cast<double>(seed_points_.size() * tau_.size()), "portrait.dtau"});
  long steps = 0;
  for (std::size_t s = 0; s < seed_points_.size(); ++s) {
    auto ode = cm::make_integrator(
        o_.solver.method,
        [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
          const Eigen::Vector3d w = y.head<3>();
          const Eigen::Vector3d wn = w.normalized();
          yd.head<3>() = A.Vstar(wn) - o_.k_stab * (w.squaredNorm() - 1.0) * wn;  // (115), stabilised
        },
        Eigen::VectorXd(seed_points_[s]), 0.0, o_.solver.tolerances());
    ode->set_max_steps(o_.solver.max_steps);
    for (double tau : tau_) {
      const cm::Step st = (tau == 0.0) ? cm::Step{0.0, Eigen::VectorXd(seed_points_[s]), false, {}} : ode->advance(tau);
      t.row({double(s), st.t, st.y(0), st.y(1), st.y(2)});
    }
    t.gap();  // two blank lines: separate data sets (splot would draw a mesh across single ones)
    t.gap();
    steps += ode->statistics().steps;
  }
  run.statistics(join("portrait_", std::to_string(c)), {{"steps", double(steps)}});
  run.scalar(join("portrait_seeds_", std::to_string(c)), double(seed_points_.size()));
}

// --- stopping ---------------------------------------------------------------------------------

StoppingStudy::StoppingStudy() { o_.solver.max_steps = 100000; }

void StoppingStudy::declare(cm::Config& c) {
  declare_common(c);
  c.add("sim.f", &f_, "force of each simulation").unit("mu m g").range(cm::Range::closed(0.0, 1e6));
  c.add("sim.x0", &x0_, "initial (u_x, u_y, rho omega_z), three per simulation")
      .unit("V")
      .range(cm::Range::closed(-1e100, 1e100))
      .assumption("ASSUMED: the paper runs no simulation (spec 000 V-SIM)");
  c.add("sim.model", &model_, "friction model of each simulation");
  c.add("sim.body", &body_, "body of each simulation (disc, ball)");
  c.add("sim.r_stop", &r_stop_, "stop when |x_o| falls below this")
      .unit("V")
      .range(cm::Range::closed(1e-300, 1e100))
      .assumption("ASSUMED: the paper runs no simulation (spec 000 V-SIM)");
  c.add("sim.tau_end", &tau_end_, "end of the rescaled time").unit("1").range(cm::Range::open_closed(0.0, 1e9));
  c.add("sim.dtau", &dtau_, "output step in tau").unit("1").range(cm::Range::open_closed(0.0, 1e9));
  c.check([&c, this] {
    check_cases(c, f_, "sim.f", model_, "sim.model", body_, "sim.body");
    if (x0_.size() != 3 * f_.size()) c.fail("sim.x0", "needs three values (u_x, u_y, rho omega_z) per force of sim.f");
    for (std::size_t i = 0; i < f_.size(); ++i)
      if (!(Eigen::Vector3d(x0_[3 * i], x0_[3 * i + 1], x0_[3 * i + 2]).norm() > 0.0))
        c.fail("sim.x0", "the initial slip of simulation " + std::to_string(i) + " must be nonzero");
  });
}

void StoppingStudy::run(cm::Run& run) {
  // the output grid in tau, counted against the budget before anything is written
  const long max_points =
      std::max(1L, static_cast<long>(static_cast<double>(run.budget().max_rows) / static_cast<double>(f_.size())));
  tau_ = cm::step_grid("sim.dtau", 0.0, tau_end_, dtau_, max_points);
  auto summary = run.table("summary.tsv", "one row per simulation",
                           {{"case", "index"},
                            {"f", "1"},
                            {"t_stop", "V/(mu g)"},
                            {"r_final", "V"},
                            {"w1", "1"},
                            {"w2", "1"},
                            {"w3", "1"},
                            {"dist_to_LD", "1"},
                            {"energy_rise", "m V^2"}},
                           cm::Planned{static_cast<double>(f_.size()), "sim.f"});
  for (std::size_t c = 0; c < f_.size(); ++c) simulate(run, c, summary);
}

void StoppingStudy::simulate(cm::Run& run, std::size_t c, cm::Table& summary) {
  const SphereCase k = make_case(body_[c], model_[c], f_[c]);
  const LimitDirectionAnalysis A(*k.model, k.prob);
  const Eigen::Vector3d xo(x0_[3 * c], x0_[3 * c + 1], x0_[3 * c + 2]);
  Eigen::VectorXd y0(5);
  y0 << xo.normalized(), std::log(xo.norm()), 0.0;  // (w, ln r, t)
  auto ode = cm::make_integrator(
      o_.solver.method,
      [&](double, cm::ConstVectorRef y, cm::VectorRef yd) {
        const Eigen::Vector3d w = y.head<3>();
        const Eigen::Vector3d wn = w.normalized();
        const Eigen::Vector3d F = A.Fo(wn);
        const double R = wn.dot(F);
        yd.head<3>() = F - R * wn - o_.k_stab * (w.squaredNorm() - 1.0) * wn;  // (114)
        yd(3) = R;                                                             // (ln r)' = R*
        yd(4) = std::exp(y(3));                                                // t' = r
      },
      y0, 0.0, o_.solver.tolerances());
  const double log_r_stop = std::log(r_stop_);
  ode->set_roots(1, [&](double, cm::ConstVectorRef y, cm::VectorRef g) { g(0) = y(3) - log_r_stop; }, {-1});
  ode->set_max_steps(o_.solver.max_steps);
  auto traj = run.table(join("trajectory_", std::to_string(c), ".tsv"),
                        join("f = ", fmt(f_[c]), ", x0 = (", fmt(xo(0)), ", ", fmt(xo(1)), ", ", fmt(xo(2)), ")"),
                        {{"tau", "1"},
                         {"t", "V/(mu g)"},
                         {"ux", "V"},
                         {"uy", "V"},
                         {"rho_omega", "V"},
                         {"r", "V"},
                         {"w1", "1"},
                         {"w2", "1"},
                         {"w3", "1"}},
                        cm::Planned{static_cast<double>(tau_.size()), "sim.dtau"});
  // kinetic energy 1/2 x_o^T M x_o / m (11)/(16): M/m = diag(m1, m1, j Rbar^2/rho^2)
  const double m1 = (k.body == "disc") ? 1.0 : k.j / (1.0 + k.j);
  const double m3 = k.j * k.Rbar * k.Rbar / (k.rho * k.rho);
  auto energy = [&](const Eigen::Vector3d& x) { return 0.5 * (m1 * (x(0) * x(0) + x(1) * x(1)) + m3 * x(2) * x(2)); };
  double e_prev = energy(xo), rise = 0.0;
  cm::Step st{0.0, y0, false, {}};
  auto write = [&](const cm::Step& s) {
    const Eigen::Vector3d w = s.y.head<3>().normalized();
    const double r = std::exp(s.y(3));
    traj.row({s.t, s.y(4), r * w(0), r * w(1), r * w(2), r, w(0), w(1), w(2)});
    const double e = energy(r * w);
    rise = std::max(rise, e - e_prev);
    e_prev = e;
  };
  write(st);
  for (std::size_t i = 1; i < tau_.size(); ++i) {
    st = ode->advance(tau_[i]);
    write(st);
    if (st.root) break;
  }
  const Eigen::Vector3d wf = st.y.head<3>().normalized();
  // the predicted final direction: the nearest attracting limit direction (R* < 0; the blue ones
  // attract almost every trajectory, the others only their stable manifolds, e.g. straight rays);
  // after a repelling w1 (Case 1) the slip grows along it. At f = 0 (rotational symmetry) w is
  // first rotated into the plane w2 = 0.
  Eigen::Vector3d wc = wf;
  if (f_[c] == 0.0) wc = Eigen::Vector3d(std::hypot(wf(0), wf(1)), 0.0, wf(2));
  double dist = INFINITY, colour = NAN;
  for (const LimitDirection& ld : A.limit_directions()) {
    if ((st.root && ld.rdot < 0.0) || (!st.root && ld.rdot > 0.0)) {
      if ((ld.w - wc).norm() < dist) {
        dist = (ld.w - wc).norm();
        colour = double(ld.colour);
      }
    }
  }
  const double t_stop = st.root ? st.y(4) : std::numeric_limits<double>::infinity();
  summary.row({double(c), f_[c], st.root ? t_stop : NAN, std::exp(st.y(3)), wf(0), wf(1), wf(2), dist,
               f_[c] == 0.0 ? rise : NAN});
  const std::string tag = std::to_string(c);
  run.scalar(join("t_stop_", tag), st.root ? t_stop : NAN, "V/(mu g)");
  run.scalar(join("stopped_", tag), st.root ? 1.0 : 0.0);
  run.scalar(join("w1_final_", tag), wf(0));
  run.scalar(join("w3_final_", tag), wf(2));
  run.scalar(join("dist_to_predicted_LD_", tag), dist);
  run.scalar(join("predicted_LD_colour_", tag), colour);
  run.scalar(join("norm_drift_", tag), std::abs(st.y.head<3>().norm() - 1.0));
  if (f_[c] == 0.0) run.scalar(join("energy_rise_max_", tag), rise);
  run.statistics(join("cvode_", tag), ode->statistics().as_map());
}

}  // namespace fr

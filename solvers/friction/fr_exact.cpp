// Study `exact`: the exact resultant friction force and torque (Sects. 3-4, Figs. 3 and 4).
//
// Problem. Coulomb's law applied pointwise over a circular contact region of radius R with an
// axisymmetric pressure gives the resultant force magnitude Q_eps(eps) and torque T_eps(eps) as
// functions of the slip-spin ratio eps = |u|/(R |omega_z|) (53); the paper recalls closed forms for
// the uniform (59)-(60) and the parabolic/Hertz (62)-(63) pressure. This study
//   1. computes kappa of (39) by quadrature for both pressures (76), (77) (and the Galin one);
//   2. tabulates the exact functions in the three parametrisations (Fig. 4) and the friction
//      surface of the map w -> Q(w) (Fig. 3, right panel);
//   3. cross-checks the closed forms (with the series switch) against the ring integral and
//      against direct 2-D quadrature of (20)-(23) at a sweep of slip directions;
//   4. derives the coefficients of the series (78)-(79) from the Maclaurin series of K and E and
//      measures how fast the printed and the corrected truncations approach the exact functions.
//
// Sample runs:
//   fr_exact --config configs/friction/exact.ini --output try/exact
//   fr_exact --config configs/friction/exact.ini --grid.eps_max=10 --output try/exact
#include <algorithm>
#include <array>
#include <cmath>

#include "core/math.hpp"
#include "core/study.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

using cm::pi;
using fr::Pressure;
using fr::QT;

class ExactStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_exact", "friction", "exact",
                                      "Exact resultant friction force and torque (Sects. 3-4)"};

  void declare(cm::Config& c) {
    c.add("grid.eps_points", &eps_points_, "points of the eps grid (Fig. 4, panel 1)").range(cm::Range::closed(2, 1e7));
    c.add("grid.eps_max", &eps_max_, "upper end of the eps grid")
        .unit("1")
        .range(cm::Range::open_closed(0.0, 1e6))
        .assumption("ASSUMED: the eps range of Fig. 4 is not stated (spec 000 F4)");
    c.add("grid.theta_points", &theta_points_, "points of the theta grid on [0, pi/2]")
        .range(cm::Range::closed(2, 1e7));
    c.add("grid.meridian_points", &meridian_points_, "points of the meridian curves (Fig. 4, panel 4)")
        .range(cm::Range::closed(3, 1e6));
    c.add_choice("surface.pressure", &surface_pressure_, {{"uniform", Pressure::uniform}, {"hertz", Pressure::hertz}},
                 "pressure of the Fig. 3 surface")
        .assumption("ASSUMED: Fig. 3 does not state the pressure (spec 000 F3)");
    c.add("surface.rho_over_kappa", &surface_rho_over_kappa_, "rho/kappa of the Fig. 3 surface")
        .unit("1")
        .range(cm::Range::closed(1e-6, 1e6))
        .assumption("ASSUMED: Fig. 3 does not state rho (spec 000 F3)");
    c.add("surface.phi_points", &phi_points_, "longitudes of the Fig. 3 surface").range(cm::Range::closed(3, 10000));
    c.add("surface.theta_points", &surface_theta_points_, "latitudes of the Fig. 3 surface")
        .range(cm::Range::closed(3, 10000));
    c.add("verify.eps", &verify_eps_, "eps of the verification sweep")
        .unit("1")
        .range(cm::Range::closed(0.0, 1e6))
        .nonempty();
    c.add("verify.rho_over_R", &verify_rho_, "rho/R of the verification directions")
        .unit("1")
        .range(cm::Range::closed(1e-6, 1e6));
    c.add("verify.phi", &verify_phi_, "longitude of the verification directions")
        .unit("rad")
        .range(cm::Range::closed(-2 * pi, 2 * pi));
    c.add("verify.inversion_points", &inversion_points_,
          "log-spaced eps in [1e-3, 1e3] at which the identity Q(eps) = eps Q(1/eps) is checked")
        .range(cm::Range::closed(1, 1e7));
    c.add("slope.h", &slope_h_,
          "step of the one-sided second-order differences at eps = 1 (C-SMOOTH): truncation O(h^2) against "
          "rounding O(1e-16/h)")
        .unit("1")
        .range(cm::Range::closed(1e-8, 1e-2));
    c.add("series.fit_points", &fit_points_, "points of the log-log fit of the series residual order on [0.1, 0.3]")
        .range(cm::Range::closed(2, 1e6));
    c.add("series.points", &series_points_, "points of the series table on (0, series.eps_max]")
        .range(cm::Range::closed(1, 1e7));
    c.add("series.eps_max", &series_eps_max_, "upper end of the series table and of its largest error")
        .unit("1")
        .range(cm::Range::open_closed(0.0, 1e6));
    c.add("quad.tol", &tol_, "relative tolerance of the 1-D quadratures")
        .unit("1")
        .range(cm::Range::closed(1e-15, 1e-3));
    c.add("quad.tol_2d", &quad_tol_, "relative tolerance of the direct 2-D quadrature")
        .unit("1")
        .range(cm::Range::closed(1e-15, 1e-3));
  }

  void run(cm::Run& run) {
    kappa_and_load(run);
    eps_tables(run);
    theta_and_w3_tables(run);
    meridian(run);
    surface(run);
    verification(run);
    series(run);
  }

 private:
  // 1. kappa (39) and the load (38) by quadrature; the Hertz peak pressure ratio.
  void kappa_and_load(cm::Run& run) {
    for (Pressure p : {Pressure::uniform, Pressure::hertz, Pressure::galin}) {
      const std::string n = fr::pressure_name(p);
      run.scalar("kappa_over_R_" + n, fr::kappa_by_quadrature(p, tol_), "1");
      run.scalar("kappa_closed_minus_quadrature_" + n, fr::kappa_closed_form(p) - fr::kappa_by_quadrature(p, tol_));
      run.scalar("load_over_P_" + n, fr::load_by_quadrature(p, tol_));
    }
    // after (61): peak pressure of (61) over that of (56)
    run.scalar("hertz_peak_over_uniform",
               fr::pressure_profile(Pressure::hertz, 0.0) / fr::pressure_profile(Pressure::uniform, 0.0));
    run.scalar("kappa_ratio_0_lt_k_lt_1_uniform", fr::kappa_closed_form(Pressure::uniform));
  }

  // 2. Fig. 4, panel 1: Q_eps, T_eps on a linear eps grid.
  void eps_tables(cm::Run& run) {
    const int n = static_cast<int>(eps_points_);
    const double emax = eps_max_;
    auto t = run.table("exact_eps.tsv", "exact functions (53) for the uniform (59)-(60) and Hertz (62)-(63) pressure",
                       {{"eps", "1"}, {"Q_uniform", "1"}, {"T_uniform", "1"}, {"Q_hertz", "1"}, {"T_hertz", "1"}},
                       cm::Planned{static_cast<double>(n), "grid.eps_points"});
    for (int i = 0; i < n; ++i) {
      const double e = emax * i / (n - 1.0);
      const QT u = fr::exact_eps(Pressure::uniform, e), h = fr::exact_eps(Pressure::hertz, e);
      t.row({e, u.Q, u.T, h.Q, h.T});
    }
    // values at eps = 1 (O3) and the one-sided slopes there (C-SMOOTH)
    for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
      const std::string n = fr::pressure_name(p);
      const QT one = fr::exact_eps(p, 1.0);
      run.scalar("Q_eps1_" + n, one.Q);
      run.scalar("T_eps1_" + n, one.T);
      const double h = slope_h_;
      const QT a = fr::exact_eps(p, 1.0 - h), b = fr::exact_eps(p, 1.0 - 2 * h);
      const QT c = fr::exact_eps(p, 1.0 + h), d = fr::exact_eps(p, 1.0 + 2 * h);
      // one-sided second-order differences of the two branches (57)
      const double dQl = (3 * one.Q - 4 * a.Q + b.Q) / (2 * h), dQr = (-3 * one.Q + 4 * c.Q - d.Q) / (2 * h);
      const double dTl = (3 * one.T - 4 * a.T + b.T) / (2 * h), dTr = (-3 * one.T + 4 * c.T - d.T) / (2 * h);
      run.scalar("dQ_deps_at_1_left_" + n, dQl);
      run.scalar("dQ_deps_at_1_right_" + n, dQr);
      run.scalar("dT_deps_at_1_left_" + n, dTl);
      run.scalar("dT_deps_at_1_right_" + n, dTr);
      run.scalar("slope_jump_at_1_" + n, std::max(std::abs(dQl - dQr), std::abs(dTl - dTr)));
    }
    // the endpoints (55), (47)
    double worst = 0.0;
    for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
      const QT z = fr::exact_eps(p, 0.0), i = fr::exact_eps(p, INFINITY);
      worst = std::max({worst, std::abs(z.Q), std::abs(z.T - 1.0), std::abs(i.Q - 1.0), std::abs(i.T)});
    }
    run.scalar("endpoint_error_max", worst);
  }

  // Fig. 4, panels 2-3: the w3 and theta forms, for rho = R and rho = kappa.
  void theta_and_w3_tables(cm::Run& run) {
    const int n = static_cast<int>(theta_points_);
    auto t = run.table(
        "exact_theta.tsv", "exact functions in theta (49) and w3 (46); blocks: rho=R, then rho=kappa of each pressure",
        {{"theta", "rad"}, {"w3", "1"}, {"Q_uniform", "1"}, {"T_uniform", "1"}, {"Q_hertz", "1"}, {"T_hertz", "1"}},
        cm::Planned{2.0 * n, "grid.theta_points"});
    for (int block = 0; block < 2; ++block) {
      const double ru = block == 0 ? 1.0 : fr::kappa_closed_form(Pressure::uniform);
      const double rh = block == 0 ? 1.0 : fr::kappa_closed_form(Pressure::hertz);
      for (int i = 0; i < n; ++i) {
        const double th = 0.5 * pi * i / (n - 1.0);
        const QT u = fr::exact_theta(Pressure::uniform, ru, th), h = fr::exact_theta(Pressure::hertz, rh, th);
        t.row({th, std::sin(th), u.Q, u.T, h.Q, h.T});
      }
      t.gap();
      t.gap();
    }
  }

  // Fig. 4, panel 4: the meridian curves (Q, T), independent of rho; the largest distance from the
  // uniform curve to the Hertz one ("these curves ... almost overlap").
  void meridian(cm::Run& run) {
    const int n = static_cast<int>(meridian_points_);
    std::vector<std::array<double, 2>> hertz;
    for (int i = 0; i < n; ++i) {
      const double th = 0.5 * pi * i / (n - 1.0);
      const QT h = fr::exact_theta(Pressure::hertz, 1.0, th);
      hertz.push_back({h.Q, h.T});
    }
    double dmax = 0.0, eps_at = 0.0;
    for (int i = 0; i < n; ++i) {
      const double th = 0.5 * pi * i / (n - 1.0);
      const QT u = fr::exact_theta(Pressure::uniform, 1.0, th);
      double dmin = INFINITY;
      for (std::size_t k = 0; k + 1 < hertz.size(); ++k) {  // distance to the Hertz polyline
        const double ax = hertz[k][0], ay = hertz[k][1], bx = hertz[k + 1][0], by = hertz[k + 1][1];
        const double vx = bx - ax, vy = by - ay, l2 = vx * vx + vy * vy;
        const double s = l2 > 0 ? std::clamp(((u.Q - ax) * vx + (u.T - ay) * vy) / l2, 0.0, 1.0) : 0.0;
        dmin = std::min(dmin, std::hypot(u.Q - ax - s * vx, u.T - ay - s * vy));
      }
      if (dmin > dmax) {
        dmax = dmin;
        eps_at = std::cos(th) / std::sin(th);
      }
    }
    run.scalar("meridian_distance_max", dmax);
    run.scalar("meridian_distance_max_at_eps", eps_at);
  }

  // Fig. 3, right panel: the friction surface (-cos(phi) Q, -sin(phi) Q, -(kappa/rho) T) over the sphere.
  void surface(cm::Run& run) {
    const Pressure p = surface_pressure_;
    const double rho = surface_rho_over_kappa_ * fr::kappa_closed_form(p);
    const int nphi = static_cast<int>(phi_points_);
    const int nth = static_cast<int>(surface_theta_points_);
    auto t = run.table("surface.tsv", "image of the unit sphere under w -> Q(w)/(mu P) (31), blocks of constant phi",
                       {{"phi", "rad"}, {"theta", "rad"}, {"Qx", "1"}, {"Qy", "1"}, {"Tz_over_rho", "1"}},
                       cm::Planned{double(nphi) * nth, "surface.phi_points"});
    for (int i = 0; i < nphi; ++i) {
      const double phi = -pi + 2 * pi * i / (nphi - 1.0);
      for (int k = 0; k < nth; ++k) {
        const double th = -0.5 * pi + pi * k / (nth - 1.0);
        const Eigen::Vector3d w(std::cos(th) * std::cos(phi), std::cos(th) * std::sin(phi), std::sin(th));  // (32)
        const Eigen::Vector3d q = fr::exact_resultant(p, rho / 1.0, w);
        t.row({phi, th, q(0), q(1), q(2)});
      }
      t.gap();
    }
  }

  // 3. Closed forms vs the ring integral and direct 2-D quadrature at a sweep of directions.
  void verification(cm::Run& run) {
    const std::vector<double>& eps_list = verify_eps_;
    const double rho = verify_rho_;
    const double phi = verify_phi_;
    auto t = run.table("verify.tsv", "closed form (with series switch) vs ring integral vs direct 2-D quadrature",
                       {{"pressure", "0=uniform,1=hertz"},
                        {"eps", "1"},
                        {"Q_closed", "1"},
                        {"T_closed", "1"},
                        {"Q_ring", "1"},
                        {"T_ring", "1"},
                        {"Q_2d", "1"},
                        {"T_2d", "1"}},
                       cm::Planned{2.0 * static_cast<double>(eps_list.size()), "verify.eps"});
    double ring_max = 0.0, direct_max = 0.0;
    for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
      const double kr = fr::kappa_closed_form(p) / rho;
      for (double e : eps_list) {
        const QT c = fr::exact_eps(p, e), r = fr::ring_eps(p, e, tol_);
        // a slip direction with this eps (35), longitude phi, spin positive
        const double w12 = e / std::sqrt(e * e + rho * rho), w3 = rho / std::sqrt(e * e + rho * rho);
        const Eigen::Vector3d w(w12 * std::cos(phi), w12 * std::sin(phi), w3);
        const Eigen::Vector3d d = fr::direct_resultant(p, rho, w, quad_tol_);
        const double Qd = std::hypot(d(0), d(1)), Td = -d(2) / kr;
        t.row({p == Pressure::uniform ? 0.0 : 1.0, e, c.Q, c.T, r.Q, r.T, Qd, Td});
        ring_max = std::max({ring_max, std::abs(c.Q - r.Q), std::abs(c.T - r.T)});
        direct_max = std::max({direct_max, std::abs(c.Q - Qd), std::abs(c.T - Td)});
      }
    }
    run.scalar("closed_vs_ring_max", ring_max);
    run.scalar("closed_vs_direct2d_max", direct_max);
    // O4 identity for the uniform pressure: Q(eps) = eps Q(1/eps)
    double inv = 0.0;
    for (long i = 1; i <= inversion_points_; ++i) {
      const double e = std::pow(10.0, -3.0 + 6.0 * static_cast<double>(i) / static_cast<double>(inversion_points_));
      inv = std::max(inv,
                     std::abs(fr::exact_eps(Pressure::uniform, e).Q - e * fr::exact_eps(Pressure::uniform, 1.0 / e).Q));
    }
    run.scalar("uniform_inversion_identity_max", inv);
    // Galin pressure by the ring integral (used for Table 2)
    run.scalar("galin_Q_eps2", fr::ring_eps(Pressure::galin, 2.0, tol_).Q);
    run.scalar("galin_T_eps2", fr::ring_eps(Pressure::galin, 2.0, tol_).T);
  }

  // 4. Series (78)-(79): coefficients from the Maclaurin series of K and E; the order of the
  // residual of the printed and corrected truncations.
  void series(cm::Run& run) {
    const fr::SeriesCoefficients& s = fr::series_coefficients(Pressure::uniform);
    // (78): Q_eps1 = eps - eps^3/8 - eps^5/64 ..., Q_eps2 = 1 - x^2/8 - x^4/64 - 5x^6/1024 ...
    for (int k = 0; k < 4; ++k) run.scalar("series_Q1_coef_eps" + std::to_string(2 * k + 1), s.q1[k]);
    for (int k = 0; k < 4; ++k) run.scalar("series_Q2_coef_x" + std::to_string(2 * k), s.q2[k]);
    // (79) in the paper's normalisation T/(mu P R) = (2/3) T_eps: coefficients divided by 3/2
    for (int k = 0; k < 4; ++k) run.scalar("series_T1_coef_eps" + std::to_string(2 * k) + "_over_1p5", s.t1[k] / 1.5);
    for (int k = 0; k < 3; ++k) run.scalar("series_T2_coef_x" + std::to_string(2 * k + 1) + "_over_1p5", s.t2[k] / 1.5);
    // residual order: slope of log|exact - truncation| against log(eps) on [0.1, 0.3] (branch 1)
    // and against log(x), x = 1/eps, on [0.1, 0.3] (branch 2), with the closed forms (59)-(60) as
    // the exact functions (no series switch; their rounding, below 1e-13 there, is far below the
    // residuals, above 1e-11).
    auto slope = [&](auto residual) {
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      const int n = static_cast<int>(fit_points_);
      for (int i = 0; i < n; ++i) {
        const double z = 0.1 * std::pow(3.0, 1.0 * i / (n - 1.0));
        const double lx = std::log(z), ly = std::log(std::abs(residual(z)));
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
      }
      return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    };
    for (bool printed : {false, true}) {
      const std::string tag = printed ? "printed" : "corrected";
      run.scalar("series_T1_residual_order_" + tag, slope([&](double e) {
                   return fr::closed_form_eps(Pressure::uniform, e).T - fr::series_model_eps(e, printed).T;
                 }));
      run.scalar("series_T2_residual_order_" + tag, slope([&](double x) {
                   return fr::closed_form_eps(Pressure::uniform, 1.0 / x).T - fr::series_model_eps(1.0 / x, printed).T;
                 }));
    }
    // the jumps of the series model at eps = 1 (C-SER) and its largest error (eps in [0, 5])
    const QT lo = fr::series_model_eps(1.0, false), hi = fr::series_model_eps(std::nextafter(1.0, 2.0), false);
    run.scalar("series_jump_Q_at_1", hi.Q - lo.Q);
    run.scalar("series_jump_T_at_1", hi.T - lo.T);
    double emax = 0.0;
    auto t = run.table("series.tsv", "piecewise series model (78)-(79) of [36] vs the exact uniform functions",
                       {{"eps", "1"},
                        {"Q_exact", "1"},
                        {"Q_series", "1"},
                        {"T_exact", "1"},
                        {"T_series", "1"},
                        {"T_series_printed", "1"}},
                       cm::Planned{static_cast<double>(series_points_), "series.points"});
    for (long i = 1; i <= series_points_; ++i) {
      const double e = series_eps_max_ * static_cast<double>(i) / static_cast<double>(series_points_);
      const QT x = fr::exact_eps(Pressure::uniform, e), c = fr::series_model_eps(e, false),
               pr = fr::series_model_eps(e, true);
      emax = std::max({emax, std::abs(x.Q - c.Q), std::abs(x.T - c.T)});
      t.row({e, x.Q, c.Q, x.T, c.T, pr.T});
    }
    run.scalar("series_model_max_error", emax);
  }

  long eps_points_ = 501;
  double eps_max_ = 5.0;
  long theta_points_ = 501;
  long meridian_points_ = 2001;
  Pressure surface_pressure_ = Pressure::uniform;
  double surface_rho_over_kappa_ = 1.0;
  long phi_points_ = 49;
  long surface_theta_points_ = 49;
  std::vector<double> verify_eps_{0.1, 0.3, 0.8, 1.0, 1.5, 3.0, 10.0};
  double verify_rho_ = 2.0 / 3.0;
  double verify_phi_ = 2.1;
  long inversion_points_ = 200;
  double slope_h_ = 1e-5;
  long fit_points_ = 20;
  long series_points_ = 500;
  double series_eps_max_ = 5.0;
  double tol_ = 1e-13;
  double quad_tol_ = 1e-12;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ExactStudy>(argc, argv); }

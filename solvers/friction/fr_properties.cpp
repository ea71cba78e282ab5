// Study `properties`: the structural results of Sects. 3 and 5 checked on the friction law.
//
// Problem. The paper states, for Coulomb's law integrated over a circular contact with an
// axisymmetric pressure, that the resultant (31) is positively homogeneous of degree zero (Prop. 1,
// (24)), has the reflection symmetries (42)-(43) (Prop. 3), is collinear with the velocity of the
// centre (Prop. 4, (44)), rotates with it (Prop. 5, (45)) and reduces to the point-contact Coulomb law
// as R -> 0 (75); and that the linear-ellipsoidal model has the three equivalent forms (70)-(72).
// This study
//   1. evaluates the law by direct 2-D quadrature of (20)-(23) on a grid of velocities, for the
//      uniform (56) and the Hertz (61) pressure, and measures the largest violation of each
//      printed property ((45) with its sign typo corrected, the printed form measured too);
//   2. measures (75) at a sequence of contact radii, and the order of its approach;
//   3. compares (72) with (70) and (71) on a grid of eps.
//
// Sample runs:
//   fr_properties --config configs/friction/properties.ini --output try/properties
//   fr_properties --config configs/friction/properties.ini --problem.rho_over_R=0.3 --output try/properties
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/study.hpp"
#include "friction/exact.hpp"
#include "friction/properties.hpp"

namespace {

using fr::Pressure;

class PropertiesStudy {
 public:
  static constexpr cm::StudyInfo info{"fr_properties", "friction", "properties",
                                      "Homogeneity, symmetries and limits of the friction law (Sects. 3, 5)"};

  void declare(cm::Config& c) {
    c.add("grid.longitudes", &longitudes_,
          "longitudes of the velocity grid on the unit sphere of x_o (each velocity costs some twenty 2-D "
          "quadratures: 100 x 100 bounds a run to 2e5 of them)")
        .range(cm::Range::closed(1, 100));
    c.add("grid.latitudes", &latitudes_, "latitudes of the velocity grid (midpoints, no pole)")
        .range(cm::Range::closed(1, 100));
    c.add("problem.rho_over_R", &rho_over_R_, "rho/R of the velocity x_o = (u_x, u_y, rho omega_z) (8)")
        .unit("1")
        .range(cm::Range::closed(1e-3, 1e3))
        .assumption("ASSUMED: the propositions are stated for any rho; rho = R");
    c.add("homogeneity.lambda", &lambdas_, "factors lambda of (24)")
        .unit("1")
        .range(cm::Range::closed(1e-6, 1e6))
        .nonempty();
    c.add("rotation.alpha", &alphas_, "angles alpha of (45)")
        .unit("rad")
        .range(cm::Range::closed(-10.0, 10.0))
        .nonempty();
    c.add_choice("rotation.Qy_sign", &qy_sign_, {{"corrected", 1.0}, {"printed", -1.0}},
                 "sign of Q_y cos(alpha) in the second line of (45)")
        .assumption("TYPO: (45) prints Q_y' = Q_x sin(alpha) - Q_y cos(alpha); a rotation needs + (spec 000 P61, E2)");
    c.add("point.R", &point_R_, "contact radii R/L of the point-contact limit (75), L the unit of length")
        .unit("1")
        .range(cm::Range::open_closed(0.0, 0.1))
        .increasing()
        .nonempty();
    c.add("linear.eps_points", &eps_points_, "points of the eps grid of (72) against (70)-(71)")
        .range(cm::Range::closed(2, 1e6));
    c.add("linear.eps_max", &eps_max_, "upper end of the eps grid").unit("1").range(cm::Range::open_closed(0.0, 1e6));
    c.add("linear.rho_over_R", &linear_rho_, "rho/R of (72)").unit("1").range(cm::Range::closed(1e-3, 1e3)).nonempty();
    c.add("quad.tol", &tol_, "relative tolerance of the direct 2-D quadrature")
        .unit("1")
        .range(cm::Range::closed(1e-15, 1e-3));
  }

  void run(cm::Run& run) {
    if (point_R_.size() < 2) throw cm::InputError("point.R: needs at least two radii (the order of the limit)");
    const std::vector<Eigen::Vector3d> x = fr::velocity_grid(int(longitudes_), int(latitudes_));
    for (const Eigen::Vector3d& v : x) {  // refused before any work, as the check (75) would refuse it
      if (!(point_R_.back() * std::abs(v(2)) < 0.5 * std::hypot(v(0), v(1)))) {
        throw cm::InputError(
            "point.R: the largest radius puts the instantaneous centre of rotation of a grid velocity "
            "within 2 R of the contact's centre (R |omega_z| >= |u|/2); take smaller radii or fewer "
            "grid.latitudes");
      }
    }
    double hom = 0.0, refl = 0.0, col = 0.0, rot = 0.0, rot_printed = 0.0;
    for (Pressure p : {Pressure::uniform, Pressure::hertz}) {
      const std::string n = fr::pressure_name(p);
      const double h = fr::homogeneity_error(p, rho_over_R_, x, lambdas_, tol_);
      const double r = fr::reflection_error(p, rho_over_R_, x, tol_);
      const double c = fr::collinearity_error(p, rho_over_R_, x, tol_);
      const double a = fr::rotation_covariance_error(p, rho_over_R_, x, alphas_, qy_sign_, tol_);
      const double ap = fr::rotation_covariance_error(p, rho_over_R_, x, alphas_, -1.0, tol_);
      run.scalar("homogeneity_err_max_" + n, h);
      run.scalar("reflection_err_max_" + n, r);
      run.scalar("collinearity_err_max_" + n, c);
      run.scalar("rotation_covariance_err_max_" + n, a);
      hom = std::max(hom, h), refl = std::max(refl, r), col = std::max(col, c), rot = std::max(rot, a);
      rot_printed = std::max(rot_printed, ap);
    }
    run.scalar("homogeneity_err_max", hom);                          // Prop. 1, (24)
    run.scalar("reflection_err_max", refl);                          // Prop. 3, (42)-(43)
    run.scalar("collinearity_err_max", col);                         // Prop. 4, (44)
    run.scalar("rotation_covariance_err_max", rot);                  // Prop. 5, (45) in the form of rotation.Qy_sign
    run.scalar("rotation_covariance_printed_err_max", rot_printed);  // (45) as printed
    point_contact(run, x);
    double lin = 0.0;
    std::vector<double> eps;
    for (long i = 0; i < eps_points_; ++i) eps.push_back(eps_max_ * double(i) / double(eps_points_ - 1));
    for (double r : linear_rho_) lin = std::max(lin, fr::linear72_vs_71_error(r, eps));
    run.scalar("linear72_vs_71_max", lin);  // (72) against (70)-(71)
  }

 private:
  // (75): the error at each radius, the largest at the smallest one, and the order of the approach
  // from the two largest radii (2: Q_eps = 1 - x^2/8 + ..., T_eps = O(x) with x = R |omega_z| / |u|).
  void point_contact(cm::Run& run, const std::vector<Eigen::Vector3d>& x) {
    std::vector<double> R = point_R_;
    std::reverse(R.begin(), R.end());  // the largest first
    auto t =
        run.table("point_contact.tsv", "the law of a contact of radius R against the Coulomb law (75)",
                  {{"R", "L"}, {"err_uniform", "1"}, {"err_hertz", "1"}}, cm::Planned{double(R.size()), "point.R"});
    std::vector<double> err;
    for (double r : R) {
      const double u = fr::point_contact_error(Pressure::uniform, x, r, tol_);
      const double h = fr::point_contact_error(Pressure::hertz, x, r, tol_);
      t.row({r, u, h});
      err.push_back(std::max(u, h));
    }
    run.scalar("point_contact_err_max", err.back());
    run.scalar("point_contact_R_min", R.back(), "L");
    run.scalar("point_contact_order", std::log(err[0] / err[1]) / std::log(R[0] / R[1]));
  }

  long longitudes_ = 8;
  long latitudes_ = 7;
  double rho_over_R_ = 1.0;
  std::vector<double> lambdas_{0.1, 0.5, 2.0, 10.0};
  std::vector<double> alphas_{0.5, 2.0, 4.0};
  double qy_sign_ = 1.0;
  std::vector<double> point_R_{1e-7, 1e-5, 1e-3};
  long eps_points_ = 1001;
  double eps_max_ = 10.0;
  std::vector<double> linear_rho_{2.0 / 3.0, 1.0};
  double tol_ = 1e-13;
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<PropertiesStudy>(argc, argv); }

#include "friction/properties.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/math.hpp"
#include "friction/models.hpp"

namespace fr {

using cm::pi;

namespace {

// (Q_x, Q_y, T_z) / (mu P) of the unit contact (R = 1) at (u_x, u_y, omega_z) by direct 2-D
// quadrature of (20)-(23) in polar coordinates (r, phi) about the centre, r = sin(beta) (so that
// the Hertz edge sqrt(1 - r^2) becomes cos(beta)). Used where the instantaneous centre of rotation
// lies far outside the disc: the integrand is then smooth, and the torque integrand x q_y - y q_x is
// O(1), where about the instantaneous centre it is the difference of two terms of order |c|.
Eigen::Vector3d centred_resultant(Pressure p, double ux, double uy, double om, double tol) {
  // Gauss-Legendre of order 20 on `panels` equal panels in beta, the trapezoidal rule (geometric
  // for a smooth periodic integrand) on `m` points in phi; both doubled until two levels agree.
  using GL = boost::math::quadrature::gauss<double, 20>;
  auto rule = [&](int panels, int m) {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    const double hb = 0.5 * pi / panels;
    for (int k = 0; k < panels; ++k) {
      const double mid = hb * (k + 0.5);
      for (std::size_t j = 0; j < GL::abscissa().size(); ++j) {
        for (double sgn : {-1.0, 1.0}) {
          if (GL::abscissa()[j] == 0.0 && sgn < 0.0) continue;
          const double beta = mid + sgn * 0.5 * hb * GL::abscissa()[j], wb = 0.5 * hb * GL::weights()[j];
          const double r = std::sin(beta), jac = pressure_profile(p, r) * r * std::cos(beta);
          Eigen::Vector3d ring = Eigen::Vector3d::Zero();
          for (int i = 0; i < m; ++i) {
            const double phi = 2.0 * pi * i / m;
            const double x = r * std::cos(phi), y = r * std::sin(phi);
            const double vx = ux - om * y, vy = uy + om * x, vn = std::hypot(vx, vy);  // eq. (20)
            const double qx = -vx / vn, qy = -vy / vn;                                 // eq. (21)
            ring += Eigen::Vector3d(qx, qy, x * qy - y * qx);                          // eq. (22)
          }
          sum += wb * jac * (2.0 * pi / m) * ring;  // eq. (23)
        }
      }
    }
    return sum;
  };
  Eigen::Vector3d prev = rule(1, 32);
  for (int panels = 2, m = 64; panels <= 64; panels *= 2, m *= 2) {
    const Eigen::Vector3d next = rule(panels, m);
    if ((next - prev).cwiseAbs().maxCoeff() <= tol) return next;
    prev = next;
  }
  throw cm::NumericalError("centred quadrature: no two levels agreed within the tolerance");
}

}  // namespace

std::vector<Eigen::Vector3d> velocity_grid(int longitudes, int latitudes) {
  std::vector<Eigen::Vector3d> x;
  for (int i = 0; i < longitudes; ++i) {
    const double phi = -pi + 2.0 * pi * (i + 0.5) / longitudes;
    for (int k = 0; k < latitudes; ++k) {
      const double th = -0.5 * pi + pi * (k + 0.5) / latitudes;
      x.emplace_back(std::cos(th) * std::cos(phi), std::cos(th) * std::sin(phi), std::sin(th));  // (32)
    }
  }
  return x;
}

double homogeneity_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x,
                         const std::vector<double>& lambdas, double tol) {
  double e = 0.0;
  for (const Eigen::Vector3d& xo : x) {
    const Eigen::Vector3d q = direct_resultant(p, rho_over_R, xo, tol);
    for (double l : lambdas) {
      // eq. (24)
      e = std::max(e, (direct_resultant(p, rho_over_R, l * xo, tol) - q).cwiseAbs().maxCoeff());
    }
  }
  return e;
}

double reflection_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x, double tol) {
  double e = 0.0;
  for (const Eigen::Vector3d& xo : x) {
    const Eigen::Vector3d q = direct_resultant(p, rho_over_R, xo, tol);
    // eq. (42): omega_z -> -omega_z keeps Q_x, Q_y and flips T_z
    const Eigen::Vector3d a = direct_resultant(p, rho_over_R, Eigen::Vector3d(xo(0), xo(1), -xo(2)), tol);
    e = std::max(e, (a - Eigen::Vector3d(q(0), q(1), -q(2))).cwiseAbs().maxCoeff());
    // eq. (43): (u_x, u_y) -> -(u_x, u_y) flips Q_x, Q_y and keeps T_z
    const Eigen::Vector3d b = direct_resultant(p, rho_over_R, Eigen::Vector3d(-xo(0), -xo(1), xo(2)), tol);
    e = std::max(e, (b - Eigen::Vector3d(-q(0), -q(1), q(2))).cwiseAbs().maxCoeff());
  }
  return e;
}

double collinearity_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x, double tol) {
  double e = 0.0;
  for (const Eigen::Vector3d& xo : x) {
    const Eigen::Vector3d q = direct_resultant(p, rho_over_R, xo, tol);
    e = std::max(e, std::abs(q(0) * xo(1) - q(1) * xo(0)));  // eq. (44)
  }
  return e;
}

double rotation_covariance_error(Pressure p, double rho_over_R, const std::vector<Eigen::Vector3d>& x,
                                 const std::vector<double>& alphas, double qy_sign, double tol) {
  double e = 0.0;
  for (const Eigen::Vector3d& xo : x) {
    const Eigen::Vector3d q = direct_resultant(p, rho_over_R, xo, tol);
    for (double al : alphas) {
      const double c = std::cos(al), s = std::sin(al);
      const Eigen::Vector3d xr(xo(0) * c - xo(1) * s, xo(0) * s + xo(1) * c, xo(2));
      const Eigen::Vector3d r = direct_resultant(p, rho_over_R, xr, tol);
      // eq. (45), its Q_y line with the sign qy_sign in front of Q_y cos(alpha)
      const Eigen::Vector3d f(q(0) * c - q(1) * s, q(0) * s + qy_sign * q(1) * c, q(2));
      e = std::max(e, (r - f).cwiseAbs().maxCoeff());
    }
  }
  return e;
}

double point_contact_error(Pressure p, const std::vector<Eigen::Vector3d>& v, double R, double tol) {
  double e = 0.0;
  for (const Eigen::Vector3d& vo : v) {
    const double un = std::hypot(vo(0), vo(1));
    if (!(un > 0.0)) throw cm::InputError("point.R: the Coulomb law (75) needs u != 0 at every velocity");
    // A contact of radius R at (u, omega_z) is the unit contact at (u, R omega_z) (20), whose torque
    // is R times that of the unit contact (the third component here is T_z / (mu P R)).
    if (!(R * std::abs(vo(2)) < 0.5 * un))
      throw cm::InputError(
          "point.R: R |omega_z| must stay below |u|/2 at every velocity (the instantaneous centre outside the "
          "contact)");
    const Eigen::Vector3d q = centred_resultant(p, vo(0), vo(1), R * vo(2), tol);
    // eq. (75)
    e = std::max({e, std::abs(q(0) + vo(0) / un), std::abs(q(1) + vo(1) / un), std::abs(R * q(2))});
  }
  return e;
}

double linear72_vs_71_error(double rho_over_R, const std::vector<double>& eps) {
  const FittedLinearModel model;
  const double r = rho_over_R;
  double e = 0.0;
  for (double ep : eps) {
    // eq. (72)
    const double Q72 = ep / std::sqrt(ep * ep + r * r), T72 = r / std::sqrt(ep * ep + r * r);
    // eq. (70) through the model (69): the direction (35) of this eps, w12 = eps w3 / (rho/R)
    const Eigen::Vector3d w = Eigen::Vector3d(ep, 0.0, r).normalized();
    const Eigen::Vector3d n = model.n(w);
    const double Qw = std::hypot(n(0), n(1)), Tw = -n(2);
    // eq. (71) at theta = atan((rho/R)/eps) (54)
    const double th = std::atan2(r, ep);
    e = std::max(
        {e, std::abs(Q72 - Qw), std::abs(T72 - Tw), std::abs(Q72 - std::cos(th)), std::abs(T72 - std::sin(th))});
  }
  return e;
}

}  // namespace fr

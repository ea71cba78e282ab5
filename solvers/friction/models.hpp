// Approximate friction models of Sects. 5-6 and the exact model behind one interface.
//
// Every model maps a slip direction w (unit vector, (27)) to the normalised friction triple
//   n(w) = (Q_x / (mu P), Q_y / (mu P), T_z / (mu P kappa)),
// so that the vector (31) is Q / (mu P) = (n1, n2, (kappa/rho) n3). In the w form (86):
//   fitted linear (69)-(71):  n = -(w1, w2, w3)                          (C = S = 1)
//   harmonic degree N (86):   n = -(w1 C(w3), w2 C(w3), w3 S(w3)),  C, S polynomials (85)
//   exact (46):               n = -(w1/w12 Q_w(w3), w2/w12 Q_w(w3), T_w(w3))
//   series (78)-(79):         the piecewise series of [36] for the uniform pressure (as printed,
//                             or with the spec's corrected coefficients)
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.hpp"
#include "friction/exact.hpp"

namespace fr {

class FrictionModel {
 public:
  virtual ~FrictionModel() = default;
  /// n(w) for a unit slip direction w.
  virtual Eigen::Vector3d n(const Eigen::Vector3d& w) const = 0;
  /// Q(theta), T(theta) of (49) on [-pi/2, pi/2] (the latitude form of the model).
  virtual QT theta_form(double theta) const;
  virtual std::string name() const = 0;
};

/// The exact model (46), for a pressure distribution and a scaling rho/R.
class ExactModel final : public FrictionModel {
 public:
  ExactModel(Pressure p, double rho_over_R) : p_(p), rho_(rho_over_R) {}
  Eigen::Vector3d n(const Eigen::Vector3d& w) const override;
  QT theta_form(double theta) const override { return exact_theta(p_, rho_, theta); }
  std::string name() const override { return "exact"; }

 private:
  Pressure p_;
  double rho_;
};

/// The fitted linear-ellipsoidal model (64)-(69): Pi-hat from the three elementary motions (66),
/// diag(-mu P, -mu P, -mu P kappa/rho) in the axisymmetric case (67).
class FittedLinearModel final : public FrictionModel {
 public:
  Eigen::Vector3d n(const Eigen::Vector3d& w) const override { return -w; }
  std::string name() const override { return "fitted"; }
};

/// A polynomial model in the w form (84)-(88): C(w3) = sum_k C_k w3^(2k-2), S(w3) likewise.
class PolynomialModel final : public FrictionModel {
 public:
  PolynomialModel(std::vector<double> C, std::vector<double> S, std::string name)
      : C_(std::move(C)), S_(std::move(S)), name_(std::move(name)) {
    short_ = C_.size() <= 4 && S_.size() <= 4;
    fixed_ = C_.size() <= 8 && S_.size() <= 8;
    std::copy(C_.begin(), C_.begin() + std::min<std::ptrdiff_t>(C_.size(), 8), Cp_.begin());
    std::copy(S_.begin(), S_.begin() + std::min<std::ptrdiff_t>(S_.size(), 8), Sp_.begin());
  }
  double C(double w3) const { return evaluate(C_, Cp_, w3 * w3); }
  double S(double w3) const { return evaluate(S_, Sp_, w3 * w3); }
  Eigen::Vector3d n(const Eigen::Vector3d& w) const override {
    const double c = C(w(2));
    return {-w(0) * c, -w(1) * c, -w(2) * S(w(2))};  // (86)
  }
  std::string name() const override { return name_; }
  const std::vector<double>& C_coefficients() const { return C_; }
  const std::vector<double>& S_coefficients() const { return S_; }

 private:
  static double horner(const std::vector<double>& a, double y) {
    double s = 0.0;
    for (auto it = a.rbegin(); it != a.rend(); ++it) s = s * y + *it;
    return s;
  }
  // Up to 8 coefficients (N <= 8) in Estrin's scheme on zero-padded copies: the products are
  // independent, so the latency is that of ~3 multiply-adds instead of Horner's N. The models
  // exist to be cheap (the `make bench` target is 20 times faster than the exact law).
  double evaluate(const std::vector<double>& a, const std::array<double, 8>& p, double y) const {
    const double y2 = y * y;
    if (short_) return (p[0] + p[1] * y) + y2 * (p[2] + p[3] * y);
    if (!fixed_) return horner(a, y);
    const double y4 = y2 * y2;
    return ((p[0] + p[1] * y) + y2 * (p[2] + p[3] * y)) + y4 * ((p[4] + p[5] * y) + y2 * (p[6] + p[7] * y));
  }
  std::vector<double> C_, S_;
  std::array<double, 8> Cp_{}, Sp_{};
  bool short_ = false, fixed_ = false;
  std::string name_;
};

/// Harmonic coefficients (83): c_i, s_i, i = 1..count, by adaptive quadrature split at
/// theta* = atan(rho/R) (eps = 1, where the exact functions are only C^1).
/// The keys of the harmonic models' coefficients (83) shared by every study that uses them:
/// models.N_max and quad.tol. The values here are the defaults.
struct HarmonicKeys {
  long N_max = 4;           ///< coefficients computed, N = 1..N_max
  double quad_tol = 1e-13;  ///< relative tolerance of their quadrature
};
void declare_harmonic_keys(cm::Config& config, HarmonicKeys& keys);

/// problem.rho_over_kappa, the scaling rho/kappa of the contact (Sect. 7: rho = kappa), for every
/// study that sets up a contact.
void declare_rho_over_kappa_key(cm::Config& config, double& rho_over_kappa);

/// classify.zero_tol, for every study that classifies limit directions.
void declare_classification_key(cm::Config& config, double& zero_tol);

struct HarmonicCoefficients {
  std::vector<double> c, s;
};
HarmonicCoefficients harmonic_coefficients(Pressure p, double rho_over_R, int count, double tol = 1e-13);

/// The Fourier form (82) of degree N.
QT harmonic_theta(const HarmonicCoefficients& h, int N, double theta);

/// Conversion of (82) to the polynomial form (84)-(85) for any N:
/// cos((2i-1)theta) = cos(theta) P_i(w3), sin((2i-1)theta) = sin(theta) U_i(w3), w3 = sin(theta),
/// P_i(w) = (-1)^(i-1) U^Cheb_(2i-2)(w), U_i(w) = U^Cheb_(2i-2)(sqrt(1 - w^2)) (both even in w);
/// returns the coefficients of w^0, w^2, ... of P_i (first) and U_i (second).
std::vector<double> chebyshev_P(int i);
std::vector<double> chebyshev_U(int i);
/// C_k, S_k of degree N (they depend on N; (94) for N = 2, (90) for N = 1).
PolynomialModel harmonic_model(const HarmonicCoefficients& h, int N);

/// Legendre polynomials P_n on [-1, 1] (Sect. 6.1), by Bonnet's recurrence
/// (n + 1) P_(n+1)(x) = (2n + 1) x P_n(x) - n P_(n-1)(x).
double legendre_P(int n, double x);
/// The coefficients of x^0, x^1, ..., x^n of P_n.
std::vector<double> legendre_monomials(int n);
/// sum_k a_k P_k(x), by the same recurrence.
double legendre_sum(const std::vector<double>& a, double x);

/// The parity of a function on [-1, 1]: its Legendre series holds only the terms of that parity.
enum class Parity { none, even, odd };

/// The Legendre series a_0..a_n of f to degree n: the L2 projection on [-1, 1] with the Legendre
/// weight 1, a_k = (2k + 1)/2 int_{-1}^{1} f(x) P_k(x) dx, by adaptive quadrature (integrate_gk) at
/// relative tolerance `tol`, split at `breaks`. An even or odd f is integrated over [0, 1] only (its
/// `breaks` then lie in (0, 1)) and the terms of the other parity are 0; `what` names the series in
/// an error message.
std::vector<double> legendre_series(const std::function<double(double)>& f, int n, Parity parity,
                                    const std::vector<double>& breaks, double tol, const std::string& what);

/// The Legendre expansion of the w3 form (46) (Sect. 6.1: "the expansion (46) by using Legendre
/// polynomials", which the paper tested but does not write out). The torque T_w(w3), odd by (48), is
/// expanded in P_1, P_3, ..., P_(2N-1) of w3, so that T_w = w3 S(w3) as in (84). The force is
/// expanded as one of (the paper does not say which):
///   w12: Qbar_w(w12) = Q_w(sqrt(1 - w12^2)) of (74), the function that the linear model makes
///        linear, odd in w12 by (81), in P_1, ..., P_(2N-1) of w12;
///   w3:  C(w3) = Q_w(w3) / sqrt(1 - w3^2), the multiplier of (86)-(88), even by (48), in
///        P_0, P_2, ..., P_(2N-2) of w3.
/// Either way Q_w = sqrt(1 - w3^2) C(w3) with C an even polynomial of degree 2N-2: the form (84)-(88)
/// of the harmonic model of degree N, whose (82)-(83) are the same projections in the Chebyshev
/// weight 1/sqrt(1 - x^2) (cos((2i-1) theta) = T_(2i-1)(w12), sin((2i-1) theta) = +-T_(2i-1)(w3)).
enum class LegendreForce { w12, w3 };

struct LegendreCoefficients {
  LegendreForce force = LegendreForce::w12;
  std::vector<double> a;  ///< force: of P_(2i-1)(w12) (w12) or P_(2i-2)(w3) (w3), i = 1..count
  std::vector<double> b;  ///< torque: of P_(2i-1)(w3), i = 1..count
};
/// The coefficients i = 1..count by L2 projection of the exact law, split at eps = 1 (54) like (83).
LegendreCoefficients legendre_coefficients(Pressure p, double rho_over_R, int count, LegendreForce force,
                                           double tol = 1e-13);
/// The expansion of degree N in the latitude form (49)-(50): Q(theta), T(theta) at w3 = sin theta.
QT legendre_theta(const LegendreCoefficients& l, int N, double theta);
/// The same expansion in the polynomial w form (84)-(88): its C_k, S_k (which depend on N).
PolynomialModel legendre_model(const LegendreCoefficients& l, int N);

/// The piecewise series model (78)-(79) of [36] (uniform pressure), in the eps form; `printed`
/// selects the coefficients as printed (5/584, 1/512) instead of the corrected ones (5/384, 3/512).
QT series_model_eps(double eps, bool printed);

class SeriesModel final : public FrictionModel {
 public:
  SeriesModel(double rho_over_R, bool printed) : rho_(rho_over_R), printed_(printed) {}
  Eigen::Vector3d n(const Eigen::Vector3d& w) const override;
  std::string name() const override { return printed_ ? "series_printed" : "series"; }

 private:
  double rho_;
  bool printed_;
};

/// Approximation errors on a theta grid of [0, pi/2] (D-ERR of the spec): max and RMS of
/// |Q_model - Q_exact| and |T_model - T_exact|, and the endpoint errors Q(0) - 1, T(pi/2) - 1.
struct ErrorNorms {
  double max_Q, rms_Q, max_T, rms_T, Q0_err, Tpi2_err;
};
ErrorNorms error_norms(const FrictionModel& model, Pressure p, double rho_over_R, int points);

/// A model by name: "fitted", "exact", "series", "series_printed" or "N<degree>" (harmonic, needing
/// `h` with at least that many coefficients). Throws cm::InputError naming `key` otherwise.
std::unique_ptr<FrictionModel> make_model(const std::string& key, const std::string& name, Pressure p,
                                          double rho_over_R, const HarmonicCoefficients& h);

/// Concatenates the parts of a scalar or file name (by appending: GCC 12 warns wrongly about
/// `"literal" + std::to_string(...)` under -Werror=restrict).
template <class... Parts>
std::string join(const Parts&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return s;
}

/// A number in a scalar name, a file name or a caption, as printf's %g writes it (0.02, 1e-05).
inline std::string format_g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace fr

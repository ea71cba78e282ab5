// Approximate friction models (Sects. 5-6). See models.hpp.
#include "friction/models.hpp"

#include <algorithm>
#include <cmath>

#include "common/errors.hpp"
#include "common/math.hpp"
#include "friction/quadrature.hpp"

namespace fr {

namespace {
using cm::pi;

// Coefficients (in t) of the Chebyshev polynomial of the second kind U_n(t), lowest power first.
std::vector<double> chebyshev_second_kind(int n) {
  std::vector<double> prev{1.0}, cur{0.0, 2.0};  // U_0 = 1, U_1 = 2t
  if (n == 0) return prev;
  for (int k = 1; k < n; ++k) {  // U_{k+1} = 2t U_k - U_{k-1}
    std::vector<double> next(cur.size() + 1, 0.0);
    for (std::size_t j = 0; j < cur.size(); ++j) next[j + 1] += 2.0 * cur[j];
    for (std::size_t j = 0; j < prev.size(); ++j) next[j] -= prev[j];
    prev = std::move(cur);
    cur = std::move(next);
  }
  return cur;
}
}  // namespace

QT FrictionModel::theta_form(double theta) const {
  // (32) with phi = 0: w = (cos theta, 0, sin theta); (49) gives Q_x / (mu P) = -Q(theta) and
  // T_z / (mu P kappa) = -T(theta).
  const Eigen::Vector3d v = n(Eigen::Vector3d(std::cos(theta), 0.0, std::sin(theta)));
  return {-v(0), -v(2)};
}

Eigen::Vector3d ExactModel::n(const Eigen::Vector3d& w) const {
  Eigen::Vector3d q = exact_resultant(p_, rho_, w);
  q(2) *= rho_ / kappa_closed_form(p_);  // (Q_x, Q_y, T_z/rho) -> (Q_x, Q_y, T_z/kappa)
  return q;
}

HarmonicCoefficients harmonic_coefficients(Pressure p, double rho_over_R, int count, double tol) {
  if (count < 1) throw cm::InputError("harmonic.N_max: must be >= 1");
  const double theta_star = std::atan(rho_over_R);  // eps = 1 in (54)
  HarmonicCoefficients h;
  for (int i = 1; i <= count; ++i) {
    const double k = 2.0 * i - 1.0;
    // (83)
    h.c.push_back(4.0 / pi *
                  integrate_gk([&](double th) { return exact_theta(p, rho_over_R, th).Q * std::cos(k * th); }, 0.0,
                               0.5 * pi, {theta_star}, tol, "harmonic coefficient c_" + std::to_string(i)));
    h.s.push_back(4.0 / pi *
                  integrate_gk([&](double th) { return exact_theta(p, rho_over_R, th).T * std::sin(k * th); }, 0.0,
                               0.5 * pi, {theta_star}, tol, "harmonic coefficient s_" + std::to_string(i)));
  }
  return h;
}

QT harmonic_theta(const HarmonicCoefficients& h, int N, double theta) {
  if (N > static_cast<int>(h.c.size())) throw cm::InputError("harmonic.N: more terms than coefficients computed");
  double Q = 0.0, T = 0.0;
  for (int i = 1; i <= N; ++i) {  // (82)
    Q += h.c[i - 1] * std::cos((2.0 * i - 1.0) * theta);
    T += h.s[i - 1] * std::sin((2.0 * i - 1.0) * theta);
  }
  return {Q, T};
}

std::vector<double> chebyshev_P(int i) {
  // cos((2i-1)t) / cos t = (-1)^(i-1) U_(2i-2)(sin t): even polynomial in w = sin t.
  const std::vector<double> u = chebyshev_second_kind(2 * i - 2);
  std::vector<double> out;
  const double sign = (i % 2 == 1) ? 1.0 : -1.0;
  for (std::size_t j = 0; j < u.size(); j += 2) out.push_back(sign * u[j]);
  return out;
}

std::vector<double> chebyshev_U(int i) {
  // sin((2i-1)t) / sin t = U_(2i-2)(cos t), cos^2 t = 1 - w^2: expand (1 - w^2)^k binomially.
  const std::vector<double> u = chebyshev_second_kind(2 * i - 2);
  std::vector<double> out(i, 0.0);
  for (std::size_t j = 0; j < u.size(); j += 2) {
    const int k = static_cast<int>(j / 2);  // coefficient of t^(2k) = (1 - w^2)^k
    double binom = 1.0;
    for (int l = 0; l <= k; ++l) {
      out[l] += u[j] * binom * ((l % 2 == 0) ? 1.0 : -1.0);
      binom = binom * (k - l) / (l + 1.0);
    }
  }
  return out;
}

PolynomialModel harmonic_model(const HarmonicCoefficients& h, int N) {
  if (N < 1 || N > static_cast<int>(h.c.size())) throw cm::InputError("harmonic.N: out of range");
  std::vector<double> C(N, 0.0), S(N, 0.0);
  for (int i = 1; i <= N; ++i) {  // C = sum c_i P_i, S = sum s_i U_i  ((94) for N = 2)
    const std::vector<double> P = chebyshev_P(i), U = chebyshev_U(i);
    for (std::size_t k = 0; k < P.size(); ++k) C[k] += h.c[i - 1] * P[k];
    for (std::size_t k = 0; k < U.size(); ++k) S[k] += h.s[i - 1] * U[k];
  }
  std::string name = "N";
  name += std::to_string(N);
  return PolynomialModel(C, S, name);
}

QT series_model_eps(double eps, bool printed) {
  if (std::isinf(eps)) return {1.0, 0.0};
  if (eps <= 1.0) {
    const double e2 = eps * eps;
    const double t6 = printed ? 5.0 / 584.0 : 5.0 / 384.0;                             // E10
    return {eps - eps * e2 / 8.0 - eps * e2 * e2 / 64.0,                               // (78)
            1.5 * (2.0 / 3.0 - e2 / 2.0 + 3.0 * e2 * e2 / 32.0 + t6 * e2 * e2 * e2)};  // (79)
  }
  const double x = 1.0 / eps, x2 = x * x;
  const double t5 = printed ? 1.0 / 512.0 : 3.0 / 512.0;                  // E11
  return {1.0 - x2 / 8.0 - x2 * x2 / 64.0 - 5.0 * x2 * x2 * x2 / 1024.0,  // (78)
          1.5 * (x / 4.0 + x * x2 / 48.0 + t5 * x * x2 * x2)};            // (79)
}

Eigen::Vector3d SeriesModel::n(const Eigen::Vector3d& w) const {
  const double w12 = std::sqrt(w(0) * w(0) + w(1) * w(1));     // w is finite and of unit length
  if (w12 == 0.0) return {0.0, 0.0, w(2) > 0.0 ? -1.0 : 1.0};  // pure spin: T_eps(0) = 1
  const double a3 = std::abs(w(2));
  const QT q = series_model_eps(a3 == 0.0 ? INFINITY : rho_ * w12 / a3, printed_);  // (35)
  const double tz = (w(2) > 0.0) ? q.T : (w(2) < 0.0 ? -q.T : 0.0);
  const double s = q.Q / w12;
  return {-w(0) * s, -w(1) * s, -tz};
}

ErrorNorms error_norms(const FrictionModel& model, Pressure p, double rho_over_R, int points) {
  if (points < 2) throw cm::InputError("errors.points: must be >= 2");
  ErrorNorms e{0, 0, 0, 0, 0, 0};
  for (int i = 0; i < points; ++i) {
    const double th = 0.5 * pi * i / (points - 1.0);
    const QT ex = exact_theta(p, rho_over_R, th), ap = model.theta_form(th);
    const double dq = std::abs(ap.Q - ex.Q), dt = std::abs(ap.T - ex.T);
    e.max_Q = std::max(e.max_Q, dq);
    e.max_T = std::max(e.max_T, dt);
    e.rms_Q += dq * dq;
    e.rms_T += dt * dt;
  }
  e.rms_Q = std::sqrt(e.rms_Q / points);
  e.rms_T = std::sqrt(e.rms_T / points);
  e.Q0_err = model.theta_form(0.0).Q - 1.0;
  e.Tpi2_err = model.theta_form(0.5 * pi).T - 1.0;
  return e;
}

std::unique_ptr<FrictionModel> make_model(const std::string& key, const std::string& name, Pressure p,
                                          double rho_over_R, const HarmonicCoefficients& h) {
  if (name == "fitted") return std::make_unique<FittedLinearModel>();
  if (name == "exact") return std::make_unique<ExactModel>(p, rho_over_R);
  if (name == "series" || name == "series_printed") {
    if (p != Pressure::uniform) throw cm::InputError(key + ": the series model (78)-(79) is for the uniform pressure");
    return std::make_unique<SeriesModel>(rho_over_R, name == "series_printed");
  }
  if (name.size() >= 2 && name[0] == 'N' && name.find_first_not_of("0123456789", 1) == std::string::npos) {
    const int N = std::stoi(name.substr(1));
    if (N < 1 || N > static_cast<int>(h.c.size()))
      throw cm::InputError(key + ": harmonic degree " + name.substr(1) + " not available (1.." +
                           std::to_string(h.c.size()) + ")");
    return std::make_unique<PolynomialModel>(harmonic_model(h, N));
  }
  throw cm::InputError(key + ": unknown model '" + name + "' (fitted, exact, series, series_printed, N1, N2, ...)");
}

void declare_harmonic_keys(cm::Config& c, HarmonicKeys& keys) {
  c.add("models.N_max", &keys.N_max, "harmonic coefficients computed (>= the highest N of the models used)")
      .range(cm::Range::closed(1, 12));
  c.add("quad.tol", &keys.quad_tol, "relative tolerance of the quadrature of the harmonic coefficients (83)")
      .unit("1")
      .range(cm::Range::closed(1e-15, 1e-3));
}

void declare_rho_over_kappa_key(cm::Config& c, double& rho_over_kappa) {
  c.add("problem.rho_over_kappa", &rho_over_kappa, "scaling rho/kappa (Sect. 7: rho = kappa)")
      .unit("1")
      .range(cm::Range::closed(1e-6, 1e6));
}

void declare_classification_key(cm::Config& c, double& zero_tol) {
  c.add("classify.zero_tol", &zero_tol,
        "eigenvalues and radial rates below this count as zero when a limit direction is classified (the "
        "difference formulas reach about 1e-11)")
      .unit("mu g")
      .range(cm::Range::closed(1e-14, 1e-2));
}

}  // namespace fr

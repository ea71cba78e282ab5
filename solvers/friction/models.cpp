// Approximate friction models (Sects. 5-6). See models.hpp.
#include "friction/models.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/math.hpp"
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

// The coefficients of w^0, w^2, ... of sum_k e_k t^(2k) at t^2 = 1 - w^2: the binomial expansion of
// each (1 - w^2)^k.
std::vector<double> at_one_minus_square(const std::vector<double>& e) {
  std::vector<double> out(e.size(), 0.0);
  for (std::size_t k = 0; k < e.size(); ++k) {
    double binom = 1.0;
    for (std::size_t l = 0; l <= k; ++l) {
      out[l] += e[k] * binom * ((l % 2 == 0) ? 1.0 : -1.0);
      binom = binom * static_cast<double>(k - l) / (static_cast<double>(l) + 1.0);
    }
  }
  return out;
}

// Every other coefficient of a, from index `first` on.
std::vector<double> every_other(const std::vector<double>& a, std::size_t first) {
  std::vector<double> out;
  for (std::size_t j = first; j < a.size(); j += 2) out.push_back(a[j]);
  return out;
}

// The full Legendre series whose terms of index first, first + 2, ... are terms[0..N-1].
std::vector<double> spread(const std::vector<double>& terms, int N, int first) {
  std::vector<double> a(static_cast<std::size_t>(first + 2 * N - 1), 0.0);
  for (int i = 0; i < N; ++i) a[static_cast<std::size_t>(first + 2 * i)] = terms[static_cast<std::size_t>(i)];
  return a;
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
  return at_one_minus_square(every_other(chebyshev_second_kind(2 * i - 2), 0));
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

double legendre_P(int n, double x) {
  if (n < 0) throw cm::InputError("legendre: a Legendre polynomial has a degree >= 0");
  double p0 = 1.0, p1 = x;  // P_0, P_1
  if (n == 0) return p0;
  for (int k = 1; k < n; ++k) {
    const double p2 = ((2.0 * k + 1.0) * x * p1 - k * p0) / (k + 1.0);
    p0 = p1;
    p1 = p2;
  }
  return p1;
}

std::vector<double> legendre_monomials(int n) {
  if (n < 0) throw cm::InputError("legendre: a Legendre polynomial has a degree >= 0");
  std::vector<double> prev{1.0}, cur{0.0, 1.0};  // P_0 = 1, P_1 = x
  if (n == 0) return prev;
  for (int k = 1; k < n; ++k) {  // (k + 1) P_(k+1) = (2k + 1) x P_k - k P_(k-1)
    std::vector<double> next(cur.size() + 1, 0.0);
    for (std::size_t j = 0; j < cur.size(); ++j) next[j + 1] += (2.0 * k + 1.0) / (k + 1.0) * cur[j];
    for (std::size_t j = 0; j < prev.size(); ++j) next[j] -= k / (k + 1.0) * prev[j];
    prev = std::move(cur);
    cur = std::move(next);
  }
  return cur;
}

double legendre_sum(const std::vector<double>& a, double x) {
  double s = 0.0, p0 = 1.0, p1 = x;  // P_k, P_(k+1)
  for (std::size_t k = 0; k < a.size(); ++k) {
    s += a[k] * p0;
    const double kk = static_cast<double>(k) + 1.0;
    const double p2 = ((2.0 * kk + 1.0) * x * p1 - kk * p0) / (kk + 1.0);
    p0 = p1;
    p1 = p2;
  }
  return s;
}

std::vector<double> legendre_series(const std::function<double(double)>& f, int n, Parity parity,
                                    const std::vector<double>& breaks, double tol, const std::string& what) {
  if (n < 0) throw cm::InputError(what + ": the degree of a Legendre series must be >= 0");
  // Over [-1, 1]: (2k + 1)/2 int f P_k. For f of P_k's parity, f P_k is even: (2k + 1) int_0^1 f P_k.
  const double lo = (parity == Parity::none) ? -1.0 : 0.0, half = (parity == Parity::none) ? 0.5 : 1.0;
  std::vector<double> a(static_cast<std::size_t>(n) + 1, 0.0);
  for (int k = 0; k <= n; ++k) {
    if ((parity == Parity::even && k % 2 == 1) || (parity == Parity::odd && k % 2 == 0)) continue;
    a[static_cast<std::size_t>(k)] = half * (2.0 * k + 1.0) *
                                     integrate_gk([&](double x) { return f(x) * legendre_P(k, x); }, lo, 1.0, breaks,
                                                  tol, join(what, ": Legendre coefficient of P_", std::to_string(k)));
  }
  return a;
}

LegendreCoefficients legendre_coefficients(Pressure p, double rho_over_R, int count, LegendreForce force, double tol) {
  if (count < 1) throw cm::InputError("legendre: the degree N must be >= 1");
  const int n = 2 * count - 1;  // the highest Legendre degree of T_w (84)
  // eps = 1 (54), where the exact functions are only C^1: w3* = sin(theta*), w12* = cos(theta*).
  const double theta_star = std::atan(rho_over_R), w3_star = std::sin(theta_star), w12_star = std::cos(theta_star);
  LegendreCoefficients l;
  l.force = force;
  // T_w(w3) of (46), odd (48)
  const std::vector<double> T = legendre_series([&](double w3) { return exact_w3(p, rho_over_R, w3).T; }, n,
                                                Parity::odd, {w3_star}, tol, "T_w(w3)");
  l.b = every_other(T, 1);
  if (force == LegendreForce::w12) {
    // Qbar_w(w12) of (74): w3 = sqrt(1 - w12^2), eps = (rho/R) w12 / w3 (35)
    const auto Qbar = [&](double w12) {
      const double w3 = std::sqrt((1.0 - w12) * (1.0 + w12));
      return exact_eps(p, w3 == 0.0 ? INFINITY : rho_over_R * w12 / w3).Q;
    };
    l.a = every_other(legendre_series(Qbar, n, Parity::odd, {w12_star}, tol, "Qbar_w(w12)"), 1);
  } else {
    // C(w3) = Q_w(w3) / w12 of (86) (the nodes of the quadrature never reach w3 = 1)
    const auto C = [&](double w3) { return exact_w3(p, rho_over_R, w3).Q / std::sqrt((1.0 - w3) * (1.0 + w3)); };
    l.a = every_other(legendre_series(C, n - 1, Parity::even, {w3_star}, tol, "C(w3)"), 0);
  }
  return l;
}

QT legendre_theta(const LegendreCoefficients& l, int N, double theta) {
  if (N < 1 || N > static_cast<int>(l.b.size())) throw cm::InputError("legendre.N: out of range");
  const double w3 = std::sin(theta), w12 = std::cos(theta);  // (32), (50)
  const double T = legendre_sum(spread(l.b, N, 1), w3);
  if (l.force == LegendreForce::w12) return {legendre_sum(spread(l.a, N, 1), w12), T};
  return {w12 * legendre_sum(spread(l.a, N, 0), w3), T};  // (84)
}

PolynomialModel legendre_model(const LegendreCoefficients& l, int N) {
  if (N < 1 || N > static_cast<int>(l.b.size())) throw cm::InputError("legendre.N: out of range");
  std::vector<double> C(N, 0.0), S(N, 0.0);
  for (int i = 1; i <= N; ++i) {
    // S(w3) = T_w / w3: the odd powers of P_(2i-1), one lower (85)
    const std::vector<double> S_i = every_other(legendre_monomials(2 * i - 1), 1);
    // C(w3): the even powers of P_(2i-2)(w3), or P_(2i-1)(w12) / w12 at w12^2 = 1 - w3^2 (73)
    const std::vector<double> C_i = (l.force == LegendreForce::w3)
                                        ? every_other(legendre_monomials(2 * i - 2), 0)
                                        : at_one_minus_square(every_other(legendre_monomials(2 * i - 1), 1));
    for (std::size_t k = 0; k < C_i.size(); ++k) C[k] += l.a[i - 1] * C_i[k];
    for (std::size_t k = 0; k < S_i.size(); ++k) S[k] += l.b[i - 1] * S_i[k];
  }
  return PolynomialModel(C, S, join("L", std::to_string(N)));
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

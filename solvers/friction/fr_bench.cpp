// `make bench` for paper 000: the cost of one evaluation of the exact friction force and torque
// (closed forms with complete elliptic integrals, or the Hertz elementary functions) against the
// approximate models of Sects. 5-6 (fitted linear, harmonic N = 1..4, piecewise series (78)-(79)).
// Each evaluation maps a slip direction w to (Q_x, Q_y, T_z/kappa)/(mu P); the directions cycle
// through a fixed set of 1024 points spread over the sphere (a Fibonacci set, deterministic).
//
//   fr_bench --benchmark_out=results/bench/friction-models.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <vector>

#include "friction/dynamics.hpp"
#include "friction/exact.hpp"
#include "friction/models.hpp"

namespace {

const std::vector<Eigen::Vector3d>& directions() {
  static const std::vector<Eigen::Vector3d> w = fr::fibonacci_sphere(1024);
  return w;
}

template <class Model>
void evaluate(benchmark::State& state, const Model& model) {
  const auto& w = directions();
  std::size_t i = 0;
  for (auto _ : state) {
    Eigen::Vector3d n = model.n(w[i]);
    benchmark::DoNotOptimize(n);
    i = (i + 1) & 1023;
  }
}

void BM_exact_uniform(benchmark::State& s) { evaluate(s, fr::ExactModel(fr::Pressure::uniform, 2.0 / 3.0)); }
void BM_exact_hertz(benchmark::State& s) {
  evaluate(s, fr::ExactModel(fr::Pressure::hertz, fr::kappa_closed_form(fr::Pressure::hertz)));
}
void BM_fitted_linear(benchmark::State& s) { evaluate(s, fr::FittedLinearModel()); }
void BM_series_uniform(benchmark::State& s) { evaluate(s, fr::SeriesModel(2.0 / 3.0, false)); }
void BM_harmonic_uniform(benchmark::State& s) {
  static const fr::HarmonicCoefficients h = fr::harmonic_coefficients(fr::Pressure::uniform, 2.0 / 3.0, 4);
  evaluate(s, fr::harmonic_model(h, static_cast<int>(s.range(0))));
}

}  // namespace

BENCHMARK(BM_exact_uniform);
BENCHMARK(BM_exact_hertz);
BENCHMARK(BM_fitted_linear);
BENCHMARK(BM_series_uniform);
BENCHMARK(BM_harmonic_uniform)->DenseRange(1, 4);
BENCHMARK_MAIN();

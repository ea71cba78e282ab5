// md_bench: speed of the single-contact kernel (Google Benchmark; run by `make bench`).
//
// Each benchmark solves a fixed set of random problems (default 2^20, about a million) once per
// iteration and reports the time per problem; repetitions give the median. Problem families:
//   sphere   - A = diag(A_nn, A_tt, A_tt) (sphere-sphere / sphere-wall), mixed branches;
//   general  - random SPD A, random b, mu: every branch of Fig. 5 in its natural mix;
//   sliding  - general problems conditioned on the sliding branch (the quartic path);
//   coulomb  - all Coulomb solutions of general colliding problems (not in the kernel).
// The number of fallback uses of the analytic path is reported as a counter.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "maxdiss/coulomb.hpp"
#include "maxdiss/single_contact.hpp"

namespace {

using namespace md;

struct Problem {
  Matrix3d A;
  Vector3d b;
  double mu;
};

constexpr int kProblems = 1 << 20;

Matrix3d random_spd(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Matrix3d M;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M(r, c) = U(rng);
  return M * M.transpose() + 0.05 * Matrix3d::Identity();
}

std::vector<Problem> make(const std::string& kind, int count) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  std::vector<Problem> out;
  out.reserve(count);
  while (static_cast<int>(out.size()) < count) {
    Problem p;
    p.b = Vector3d(U(rng), U(rng), U(rng));
    p.mu = 2.0 * P(rng);
    if (kind == "sphere") {
      const double m = 0.5 + P(rng);
      p.A = Vector3d(1 / m, 3.5 / m, 3.5 / m).asDiagonal();
    } else {
      p.A = random_spd(rng);
    }
    if (kind == "sliding" && solve(p.A, p.b, p.mu).branch != Branch::sliding) continue;
    if (kind == "coulomb") p.b(0) = std::fabs(p.b(0));
    out.push_back(p);
  }
  return out;
}

void run_kernel(benchmark::State& state, const std::string& kind) {
  const auto problems = make(kind, kProblems);
  double sink = 0.0;
  long fallbacks = 0;
  for (auto _ : state) {
    fallbacks = 0;
    for (const auto& p : problems) {
      const Solution s = solve(p.A, p.b, p.mu);
      sink += s.x(0);
      fallbacks += s.fallback;
    }
    benchmark::DoNotOptimize(sink);
  }
  state.SetItemsProcessed(state.iterations() * problems.size());
  state.counters["ns_per_contact"] =
      benchmark::Counter(static_cast<double>(state.iterations() * problems.size()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
  state.counters["fallbacks"] = static_cast<double>(fallbacks);
}

void BM_sphere(benchmark::State& s) { run_kernel(s, "sphere"); }
void BM_general(benchmark::State& s) { run_kernel(s, "general"); }
void BM_sliding(benchmark::State& s) { run_kernel(s, "sliding"); }

void BM_coulomb(benchmark::State& state) {
  const auto problems = make("coulomb", 1 << 14);
  double sink = 0.0;
  for (auto _ : state) {
    for (const auto& p : problems) sink += static_cast<double>(coulomb_solutions(p.A, p.b, p.mu).solutions.size());
    benchmark::DoNotOptimize(sink);
  }
  state.SetItemsProcessed(state.iterations() * problems.size());
}

}  // namespace

BENCHMARK(BM_sphere)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_general)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_sliding)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_coulomb)->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK_MAIN();

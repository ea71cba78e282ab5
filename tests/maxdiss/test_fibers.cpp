// Every subdomain in one process on fibers (solvers/maxdiss/channel/fibers.hpp). Each collective gives
// what its definition says, from every subdomain's part in the order of the ranks, on any number of
// threads. A task that fails stops the others (their stacks unwound) and its error reaches the
// caller; tasks that disagree on their collectives are an error, never a hang.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "maxdiss/channel/fibers.hpp"

namespace {

using md::granular::run_on_fibers;
using md::granular::Transport;

std::vector<std::byte> bytes_of(const std::vector<int>& v) {
  std::vector<std::byte> b(v.size() * sizeof(int));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<int> ints_of(const std::vector<std::byte>& b) {
  std::vector<int> v(b.size() / sizeof(int));
  if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
  return v;
}

TEST(Fibers, CollectivesGiveEveryRanksPartInRankOrder) {
  constexpr int P = 5;
  for (int threads : {1, 2, 3, 8}) {
    std::atomic<int> checked{0};
    run_on_fibers(P, threads, [&](Transport& t) {
      const int r = t.rank();
      ASSERT_EQ(t.size(), P);
      long sums[2] = {r, 1};
      t.sum(sums);
      EXPECT_EQ(sums[0], 0 + 1 + 2 + 3 + 4);
      EXPECT_EQ(sums[1], P);
      double maxima[2] = {static_cast<double>(r), -static_cast<double>(r)};
      t.max(maxima);
      EXPECT_EQ(maxima[0], P - 1);
      EXPECT_EQ(maxima[1], 0.0);
      // doubles summed in the order of the ranks: 1e16 + 1 + ... rounds every 1 away, so the bits say
      // the order (any other order would keep some of them)
      double terms[2] = {r == 0 ? 1e16 : 1.0, 0.1 * r};
      t.sum(terms);
      double in_order = 1e16, tenths = 0.0;
      for (int q = 1; q < P; ++q) in_order += 1.0;
      for (int q = 0; q < P; ++q) tenths += 0.1 * q;
      EXPECT_EQ(terms[0], in_order);
      EXPECT_EQ(terms[0], 1e16);
      EXPECT_EQ(terms[1], tenths);
      // rank r gathers r copies of r: 0 + 1 + 2 + 3 + 4 values, in rank order, on rank 0 alone
      const std::vector<int> part(static_cast<std::size_t>(r), r);
      const std::vector<int> gathered = ints_of(t.gather(bytes_of(part)));
      if (r == 0)
        EXPECT_EQ(gathered, (std::vector<int>{1, 2, 2, 3, 3, 3, 4, 4, 4, 4}));
      else
        EXPECT_TRUE(gathered.empty());
      // a ring: each rank sends its two neighbours messages of different sizes, an empty one too
      const std::vector<int> peers{(r + 1) % P, (r + P - 1) % P};
      std::vector<std::vector<std::byte>> out{bytes_of({r, peers[0], 7}),
                                              bytes_of(r == 2 ? std::vector<int>{} : std::vector<int>{r})};
      std::vector<std::span<const std::byte>> spans{out[0], out[1]};
      std::vector<std::span<const std::byte>> in;
      t.exchange(peers, spans, in);
      ASSERT_EQ(in.size(), 2u);
      EXPECT_EQ(ints_of(std::vector<std::byte>(in[1].begin(), in[1].end())), (std::vector<int>{peers[1], r, 7}))
          << "from the rank before, to me";
      EXPECT_EQ(ints_of(std::vector<std::byte>(in[0].begin(), in[0].end())),
                peers[0] == 2 ? std::vector<int>{} : std::vector<int>{peers[0]});
      ++checked;
    });
    EXPECT_EQ(checked, P) << threads << " threads";
  }
}

TEST(Fibers, ManyRoundsGiveTheSameBitsOnAnyNumberOfThreads) {
  // each of 40 ranks sums, round after round, values that every rank changes: the bits depend on
  // the order of the sums, which is the ranks', whatever the threads
  auto run = [](int threads) {
    std::vector<double> result(40);
    run_on_fibers(40, threads, [&result](Transport& t) {
      double x = 1.0 + t.rank() * 1e-3;
      for (int round = 0; round < 50; ++round) {
        double s[1] = {x * x / 3.0};
        t.sum(s);
        x = s[0] / (40.0 + x);
      }
      result[static_cast<std::size_t>(t.rank())] = x;
    });
    return result;
  };
  const std::vector<double> one = run(1);
  for (int threads : {2, 3, 16}) EXPECT_EQ(run(threads), one) << threads << " threads";
}

/// Counts the stacks unwound: one per task that ends, however it ends.
struct Unwound {
  std::atomic<int>& count;
  ~Unwound() { ++count; }
};

TEST(Fibers, AFailingTaskStopsTheOthersAndItsErrorReachesTheCaller) {
  for (int threads : {1, 2}) {
    std::atomic<int> unwound{0};
    try {
      run_on_fibers(6, threads, [&unwound](Transport& t) {
        Unwound guard{unwound};
        for (long round = 0;; ++round) {  // the others would go on for ever
          if (t.rank() == 3 && round == 2) throw std::runtime_error("rank 3 fails");
          long one[1] = {1};
          t.sum(one);
        }
      });
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "rank 3 fails");
    }
    EXPECT_EQ(unwound, 6) << "every task's stack unwound";
  }
}

TEST(Fibers, TasksThatDisagreeOnTheirCollectivesAreAnError) {
  // a reduction of another length
  EXPECT_THROW(run_on_fibers(3, 1,
                             [](Transport& t) {
                               long l[2] = {1, 2};
                               t.sum(std::span<long>(l, t.rank() == 0 ? 1 : 2));
                             }),
               std::logic_error);
  // a different collective
  EXPECT_THROW(run_on_fibers(3, 2,
                             [](Transport& t) {
                               long l[1] = {1};
                               double d[1] = {1.0};
                               if (t.rank() == 1)
                                 t.max(d);
                               else
                                 t.sum(l);
                             }),
               std::logic_error);
  // a task that ends while the others wait at a collective
  EXPECT_THROW(run_on_fibers(3, 1,
                             [](Transport& t) {
                               if (t.rank() == 2) return;
                               long l[1] = {1};
                               t.sum(l);
                             }),
               std::logic_error);
  EXPECT_THROW(run_on_fibers(0, 1, [](Transport&) {}), std::invalid_argument);
  EXPECT_THROW(run_on_fibers(1, 0, [](Transport&) {}), std::invalid_argument);
}

}  // namespace

// Every subdomain in one process, on fibers (fibers.hpp).
#include "maxdiss/channel/fibers.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace md::granular {

namespace {

namespace ctx = boost::context;

/// A fiber's stack: room for the study's deepest calls, a guard page below it (an overflow stops
/// the run instead of writing over another stack). Only the pages touched are ever memory.
constexpr std::size_t stack_bytes = std::size_t{2} << 20;

// AddressSanitizer tracks one stack per thread: each switch between a thread's stack and a fiber's
// is announced to it (its fiber interface), or it takes a throw on a fiber's stack for an overflow.
#if defined(__SANITIZE_ADDRESS__)
struct StackSwitch {
  void* fake = nullptr;  // the leaving stack's fake frames
  const void* bottom = nullptr;
  std::size_t size = 0;
  void leave(const void* to_bottom, std::size_t to_size) { __sanitizer_start_switch_fiber(&fake, to_bottom, to_size); }
  void leave_for_good(const void* to_bottom, std::size_t to_size) {
    __sanitizer_start_switch_fiber(nullptr, to_bottom, to_size);
  }
  void arrive() { __sanitizer_finish_switch_fiber(fake, &bottom, &size); }  // records the stack come from
};
#else
struct StackSwitch {
  const void* bottom = nullptr;
  std::size_t size = 0;
  void leave(const void*, std::size_t) {}
  void leave_for_good(const void*, std::size_t) {}
  void arrive() {}
};
#endif

/// A fiber's stack (guarded), whose extent the sanitizer is told at each switch to it.
struct RecordedStack {
  ctx::protected_fixedsize_stack stacks{stack_bytes};
  std::pair<const void*, std::size_t>* extent;
  ctx::stack_context allocate() {
    ctx::stack_context s = stacks.allocate();
    *extent = {static_cast<const char*>(s.sp) - s.size, s.size};
    return s;
  }
  void deallocate(ctx::stack_context& s) noexcept { stacks.deallocate(s); }
};

/// Unwinds a task whose peers failed. It derives from no std::exception, so that no handler on the
/// way takes it for an error of the task's own.
struct Stopped {};

enum class Kind { exchange, sum_long, sum_double, max, gather };

/// What one subdomain posts at a collective, for the others to read once every subdomain has posted.
struct Posted {
  Kind kind = Kind::exchange;
  std::vector<int> peers;
  std::vector<std::vector<std::byte>> messages;  // messages[k] to peers[k]
  std::vector<long> longs;
  std::vector<double> doubles;
  std::vector<std::byte> bytes;
};

/// A reduction's result, taken once between two rounds from every subdomain's part, in the order
/// of the ranks (a subdomain that took it itself would read every other: P^2 reads a round).
struct Reduced {
  std::vector<long> longs;
  std::vector<double> doubles;
};

class FiberTransport;

/// The subdomains of one run_on_fibers(), the results of their reductions, two generations of
/// them as of the posts, and whether they are being stopped.
struct World {
  std::vector<std::unique_ptr<FiberTransport>> ranks;
  std::array<Reduced, 2> reduced;
  bool stopping = false;  // set between rounds: every task is to unwind at its next collective
};

class FiberTransport final : public Transport {
 public:
  FiberTransport(const World& world, int rank) : world_(world), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(world_.ranks.size()); }

  void exchange(const std::vector<int>& peers, const std::vector<std::span<const std::byte>>& out,
                std::vector<std::span<const std::byte>>& in) override {
    Posted& mine = post(Kind::exchange);
    mine.peers = peers;
    // a copy, read in place by the peers: a task that fails frees its own buffers while the peers
    // may still read this round's messages
    mine.messages.resize(out.size());
    for (std::size_t k = 0; k < out.size(); ++k) mine.messages[k].assign(out[k].begin(), out[k].end());
    wait();
    in.resize(peers.size());
    for (std::size_t k = 0; k < peers.size(); ++k) {
      const Posted& theirs = of(peers[k]);
      const auto me = std::find(theirs.peers.begin(), theirs.peers.end(), rank_);
      if (me == theirs.peers.end())
        throw std::logic_error("subdomain " + std::to_string(peers[k]) + " does not list " + std::to_string(rank_) +
                               " among its neighbours");
      in[k] = theirs.messages[static_cast<std::size_t>(me - theirs.peers.begin())];
    }
    done();
  }

  void sum(std::span<long> values) override {
    post(Kind::sum_long).longs.assign(values.begin(), values.end());
    wait();
    std::copy(reduced().longs.begin(), reduced().longs.end(), values.begin());
    done();
  }

  void sum(std::span<double> values) override { reduce_doubles(Kind::sum_double, values); }

  void max(std::span<double> values) override { reduce_doubles(Kind::max, values); }

  std::vector<std::byte> gather(std::span<const std::byte> mine) override {
    post(Kind::gather).bytes.assign(mine.begin(), mine.end());
    wait();
    std::vector<std::byte> all;
    if (rank_ == 0)
      for (int r = 0; r < size(); ++r) all.insert(all.end(), of(r).bytes.begin(), of(r).bytes.end());
    done();
    return all;
  }

  /// What this subdomain posted at its collective now (valid between rounds), and its generation.
  const Posted& posted() const { return posted_[generation_ & 1]; }
  long generation() const { return generation_; }
  ctx::fiber sink;        // the thread's loop that resumed this fiber, to which a collective returns
  StackSwitch to_thread;  // that thread's stack, for the sanitizer
  std::pair<const void*, std::size_t> stack{};  // this fiber's own stack

 private:
  /// A reduction of doubles (a sum in rank order, or a maximum), each value replaced by its result.
  void reduce_doubles(Kind kind, std::span<double> values) {
    post(kind).doubles.assign(values.begin(), values.end());
    wait();
    std::copy(reduced().doubles.begin(), reduced().doubles.end(), values.begin());
    done();
  }

  // Two generations of posts: a subdomain posts its next collective while slower ones still read
  // this one; the round between them keeps a generation from being overwritten while it is read.
  Posted& post(Kind kind) {
    Posted& p = posted_[generation_ & 1];
    p.kind = kind;
    return p;
  }
  void wait() {
    to_thread.leave(to_thread.bottom, to_thread.size);
    sink = std::move(sink).resume();  // the round ends; every subdomain has posted when it resumes
    to_thread.arrive();
    if (world_.stopping) throw Stopped{};
  }
  const Posted& of(int rank) const { return world_.ranks[static_cast<std::size_t>(rank)]->posted_[generation_ & 1]; }
  const Reduced& reduced() const { return world_.reduced[generation_ & 1]; }
  void done() { ++generation_; }

  const World& world_;
  int rank_;
  long generation_ = 0;
  std::array<Posted, 2> posted_;
};

/// The reduction of the collective every subdomain has posted (a sum or a largest value), in the
/// order of the ranks, into the world's results of that generation.
void reduce(World& world, Kind kind, long generation) {
  Reduced& out = world.reduced[generation & 1];
  const auto& ranks = world.ranks;
  switch (kind) {
    case Kind::sum_long:
      out.longs.assign(ranks.front()->posted().longs.size(), 0);
      for (const auto& r : ranks)
        for (std::size_t i = 0; i < out.longs.size(); ++i) out.longs[i] += r->posted().longs.at(i);
      break;
    case Kind::sum_double:
      out.doubles.assign(ranks.front()->posted().doubles.size(), 0.0);
      for (const auto& r : ranks)
        for (std::size_t i = 0; i < out.doubles.size(); ++i) out.doubles[i] += r->posted().doubles.at(i);
      break;
    case Kind::max:
      out.doubles = ranks.front()->posted().doubles;
      for (const auto& r : ranks)
        for (std::size_t i = 0; i < out.doubles.size(); ++i)
          out.doubles[i] = std::max(out.doubles[i], r->posted().doubles.at(i));
      break;
    case Kind::exchange:
    case Kind::gather:
      break;  // each subdomain reads its peers' posts itself
  }
}

}  // namespace

void run_on_fibers(int subdomains, int threads, const std::function<void(Transport&)>& task) {
  if (subdomains < 1 || threads < 1) throw std::invalid_argument("run_on_fibers: no subdomain or no thread");
  const std::size_t P = static_cast<std::size_t>(subdomains);
  World world;
  for (int r = 0; r < subdomains; ++r) world.ranks.push_back(std::make_unique<FiberTransport>(world, r));
  std::vector<std::exception_ptr> failures(P);
  std::vector<char> ended(P, 0);
  std::vector<ctx::fiber> fibers(P);
  for (std::size_t r = 0; r < P; ++r) {
    fibers[r] = ctx::fiber(std::allocator_arg, RecordedStack{.extent = &world.ranks[r]->stack},
                           [&world, &failures, &task, r](ctx::fiber&& sink) {
                             FiberTransport& t = *world.ranks[r];
                             t.to_thread.arrive();
                             t.sink = std::move(sink);
                             try {
                               task(t);
                             } catch (const ctx::detail::forced_unwind&) {
                               throw;  // a fiber destroyed unfinished unwinds by it
                             } catch (const Stopped&) {
                             } catch (...) {
                               failures[r] = std::current_exception();
                             }
                             t.to_thread.leave_for_good(t.to_thread.bottom, t.to_thread.size);
                             return std::move(t.sink);
                           });
  }
  // A round: the threads take the fibers in the order of their ranks, each to its next collective
  // or its end, and meet; the meeting's last arrival checks that every fiber still running waits
  // at the same collective, and stops them all at the first failure.
  std::atomic<std::size_t> next{0};
  bool finished = false;
  std::exception_ptr disagreement;
  auto end_round = [&]() noexcept {
    next.store(0, std::memory_order_relaxed);
    std::size_t running = 0;
    bool failed = false, agree = true;
    const Posted* first = nullptr;
    for (std::size_t r = 0; r < P; ++r) {
      failed = failed || failures[r] != nullptr;
      if (ended[r]) continue;
      ++running;
      const Posted& p = world.ranks[r]->posted();
      if (!first) first = &p;
      const bool reduction = p.kind != Kind::exchange && p.kind != Kind::gather;
      agree = agree && p.kind == first->kind &&
              (!reduction || (p.longs.size() == first->longs.size() && p.doubles.size() == first->doubles.size()));
    }
    if (running == 0) {
      finished = true;
      return;
    }
    if (!failed && !world.stopping && (!agree || running < P))
      disagreement = std::make_exception_ptr(
          std::logic_error("the subdomains' tasks did not make the same collectives in the same order"));
    if (failed || disagreement) {
      world.stopping = true;
      return;
    }
    reduce(world, first->kind, world.ranks.front()->generation());
  };
  const int T = std::min(threads, subdomains);
  std::barrier round(T, end_round);
  auto work = [&] {
    for (;;) {
      for (std::size_t r; (r = next.fetch_add(1, std::memory_order_relaxed)) < P;) {
        if (ended[r]) continue;
        StackSwitch to_fiber;
        to_fiber.leave(world.ranks[r]->stack.first, world.ranks[r]->stack.second);
        fibers[r] = std::move(fibers[r]).resume();
        to_fiber.arrive();
        if (!fibers[r]) ended[r] = 1;  // its task returned (or failed)
      }
      round.arrive_and_wait();
      if (finished) return;
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (int k = 1; k < T; ++k) helpers.emplace_back(work);
    work();
  }
  for (const std::exception_ptr& e : failures)
    if (e) std::rethrow_exception(e);
  if (disagreement) std::rethrow_exception(disagreement);
}

}  // namespace md::granular

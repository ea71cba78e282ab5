// What the subdomains of the channel say to each other (decomposition.hpp): messages between
// neighbours and the reductions over all. Two implementations carry it: MPI ranks, one subdomain
// per process (mpi_transport.hpp), and fibers, every subdomain in one process on a few threads
// (fibers.hpp). Every call is collective: each subdomain makes the same calls in the same order.
//
// A result never depends on the carrier: a reduction over the subdomains is taken in the order of
// their ranks, so a grid run over MPI and in one process gives the same bits.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace md::granular {

class Transport {
 public:
  virtual ~Transport() = default;
  /// This subdomain's rank, and the number of subdomains.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Sends out[k] to peers[k] and receives in[k] from it, for each k. Every peer lists this rank
  /// among its own peers; the sizes may differ. in[k] views the bytes received, valid until this
  /// subdomain's next collective.
  virtual void exchange(const std::vector<int>& peers, const std::vector<std::span<const std::byte>>& out,
                        std::vector<std::span<const std::byte>>& in) = 0;
  /// Each value summed over the subdomains, in place (integers: exact in any order).
  virtual void sum(std::span<long> values) = 0;
  /// Each value summed over the subdomains in the order of their ranks, in place (as many values on
  /// each): the same bits on every subdomain and on either carrier.
  virtual void sum(std::span<double> values) = 0;
  /// Each value's largest over the subdomains, in place.
  virtual void max(std::span<double> values) = 0;
  /// Every subdomain's bytes, one after the other in the order of the ranks, on rank 0; nothing on
  /// the others.
  virtual std::vector<std::byte> gather(std::span<const std::byte> mine) = 0;
};

}  // namespace md::granular

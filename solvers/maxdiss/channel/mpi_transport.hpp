// The subdomains' messages over MPI (transport.hpp), one subdomain per rank of a communicator.
#pragma once

#include <mpi.h>

#include "maxdiss/channel/transport.hpp"

namespace md::granular {

class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(MPI_Comm comm);
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(const std::vector<int>& peers, const std::vector<std::span<const std::byte>>& out,
                std::vector<std::span<const std::byte>>& in) override;
  void sum(std::span<long> values) override;
  void sum(std::span<double> values) override;
  void max(std::span<double> values) override;
  std::vector<std::byte> gather(std::span<const std::byte> mine) override;

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<std::vector<std::byte>> received_;  // the last exchange's messages, per peer
};

}  // namespace md::granular

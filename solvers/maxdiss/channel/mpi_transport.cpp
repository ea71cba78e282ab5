// The subdomains' messages over MPI (mpi_transport.hpp).
#include "maxdiss/channel/mpi_transport.hpp"

#include <limits>
#include <string>

#include "core/errors.hpp"

namespace md::granular {

namespace {
constexpr int tag_sizes = 1, tag_bytes = 2;

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw cm::NumericalError(std::string("MPI failed in ") + what);
}

/// A message's size as MPI counts it.
int count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw cm::NumericalError("a message between two ranks would exceed 2 GiB: use more subdomains (mpi.grid)");
  return static_cast<int>(bytes);
}
}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm) : comm_(comm) {
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

void MpiTransport::exchange(const std::vector<int>& peers, const std::vector<std::span<const std::byte>>& out,
                            std::vector<std::span<const std::byte>>& in) {
  const std::size_t k = peers.size();
  std::vector<long> send_sizes(k), recv_sizes(k);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * k);
  // the sizes first, then the bytes
  for (std::size_t i = 0; i < k; ++i) {
    send_sizes[i] = static_cast<long>(out[i].size());
    requests.emplace_back();
    check(MPI_Irecv(&recv_sizes[i], 1, MPI_LONG, peers[i], tag_sizes, comm_, &requests.back()), "MPI_Irecv");
    requests.emplace_back();
    check(MPI_Isend(&send_sizes[i], 1, MPI_LONG, peers[i], tag_sizes, comm_, &requests.back()), "MPI_Isend");
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests.clear();
  received_.resize(k);
  for (std::size_t i = 0; i < k; ++i) {
    received_[i].resize(static_cast<std::size_t>(recv_sizes[i]));
    requests.emplace_back();
    check(MPI_Irecv(received_[i].data(), count(received_[i].size()), MPI_BYTE, peers[i], tag_bytes, comm_,
                    &requests.back()),
          "MPI_Irecv");
    requests.emplace_back();
    check(MPI_Isend(out[i].data(), count(out[i].size()), MPI_BYTE, peers[i], tag_bytes, comm_, &requests.back()),
          "MPI_Isend");
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  in.assign(received_.begin(), received_.end());
}

void MpiTransport::sum(std::span<long> values) {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_LONG, MPI_SUM, comm_),
        "MPI_Allreduce");
}

void MpiTransport::max(std::span<double> values) {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX, comm_),
        "MPI_Allreduce");
}

void MpiTransport::sum(std::span<double> values) {
  // every rank's values to every rank, then summed in rank order (an MPI_SUM may sum in any order)
  const int n = static_cast<int>(values.size());
  std::vector<double> all(values.size() * static_cast<std::size_t>(size_));
  check(MPI_Allgather(values.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, comm_), "MPI_Allgather");
  for (std::size_t k = 0; k < values.size(); ++k) {
    double s = 0.0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(size_); ++r) s += all[r * values.size() + k];
    values[k] = s;
  }
}

std::vector<std::byte> MpiTransport::gather(std::span<const std::byte> mine) {
  const int bytes = count(mine.size());
  std::vector<int> sizes(rank_ == 0 ? static_cast<std::size_t>(size_) : 0), offsets(sizes.size(), 0);
  check(MPI_Gather(&bytes, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
  std::size_t total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = count(total);
    total += static_cast<std::size_t>(sizes[r]);
  }
  count(total);
  std::vector<std::byte> all(total);
  check(MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0, comm_),
        "MPI_Gatherv");
  return all;
}

}  // namespace md::granular

// The channel over MPI ranks (decomposition.hpp).
#include "maxdiss/channel/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "maxdiss/channel/channel_keys.hpp"

namespace md::granular {

namespace {
constexpr int tag_counts = 1, tag_spheres = 2, tag_dv = 3, tag_v = 4, tag_migrants = 5;

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw cm::NumericalError(std::string("MPI failed in ") + what);
}
}  // namespace

std::vector<double> balanced_cuts(std::vector<Load> points, int p) {
  const std::size_t n = points.size(), parts = static_cast<std::size_t>(p);
  if (p < 1 || n < parts) throw std::invalid_argument("balanced_cuts: fewer points than slabs");
  std::sort(points.begin(), points.end(), [](const Load& a, const Load& b) { return a.coordinate < b.coordinate; });
  double total = 0.0;
  for (const Load& q : points) {
    if (!(q.weight > 0.0)) throw std::invalid_argument("balanced_cuts: a weight that is not positive");
    total += q.weight;
  }
  std::vector<double> cuts;
  std::size_t j = 0;   // the points below the cut
  double below = 0.0;  // and their load
  for (std::size_t k = 1; k < parts; ++k) {
    const double share = total * static_cast<double>(k) / static_cast<double>(parts);
    while (j < n - 1 && below < share) below += points[j++].weight;
    cuts.push_back(0.5 * (points[j - 1].coordinate + points[j].coordinate));
  }
  return cuts;
}

MpiCoupling::Packed MpiCoupling::pack(const Spheres& S, std::size_t i) {
  Packed p{};
  std::memcpy(p.x, S.x[i].data(), sizeof p.x);
  std::memcpy(p.v, S.vw[i].v.data(), sizeof p.v);
  std::memcpy(p.w, S.vw[i].w.data(), sizeof p.w);
  p.R = S.R[i];
  p.inv_m = S.vw[i].inv_m;
  p.inv_I = S.vw[i].inv_I;
  p.id = S.id[i];
  return p;
}

void MpiCoupling::unpack(Spheres& S, const Packed& p) {
  S.push(Vector3d(p.x[0], p.x[1], p.x[2]), Vector3d(p.v[0], p.v[1], p.v[2]), Vector3d(p.w[0], p.w[1], p.w[2]), p.R,
         p.inv_m, p.inv_I, p.id);
}

MpiCoupling::MpiCoupling(MPI_Comm comm, const SubdomainGrid& grid, double reach, double relaxation)
    : comm_(comm), grid_(grid), reach_(reach), omega_(relaxation) {
  int size = 0;
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size), "MPI_Comm_size");
  if (size != grid_.size())
    throw cm::InputError("mpi.grid: " + std::to_string(grid_.size()) + " subdomains for " + std::to_string(size) +
                         " ranks");
  // The neighbours: every subdomain at most one away along each axis, in the order of their rank.
  // A subdomain at least `reach` wide has no other within contact reach (checked by the keys).
  const auto me = grid_.coords(rank_);
  for (int q = 0; q < size; ++q) {
    if (q == rank_) continue;
    const auto c = grid_.coords(q);
    bool near = true;
    for (std::size_t a = 0; a < 3; ++a) near = near && std::abs(c[a] - me[a]) <= 1;
    if (!near) continue;
    Neighbour n;
    n.rank = q;
    n.reach_box = grid_.extent(q);
    n.reach_box.lo.array() -= reach_;
    n.reach_box.hi.array() += reach_;
    neighbours_.push_back(n);
  }
  out_.resize(neighbours_.size());
  in_.resize(neighbours_.size());
  dout_.resize(neighbours_.size());
  din_.resize(neighbours_.size());
}

Box MpiCoupling::box() const {
  Box b = grid_.clipped(rank_);
  b.lo.array() -= reach_;
  b.hi.array() += reach_;
  return b;
}

template <class T>
void MpiCoupling::exchange(const std::vector<std::vector<T>>& out, std::vector<std::vector<T>>& in, int tag) {
  const std::size_t k = neighbours_.size();
  std::vector<long> send_counts(k), recv_counts(k);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * k);
  // the sizes first, then the data
  for (std::size_t i = 0; i < k; ++i) {
    send_counts[i] = static_cast<long>(out[i].size());
    requests.emplace_back();
    check(MPI_Irecv(&recv_counts[i], 1, MPI_LONG, neighbours_[i].rank, tag_counts, comm_, &requests.back()),
          "MPI_Irecv");
    requests.emplace_back();
    check(MPI_Isend(&send_counts[i], 1, MPI_LONG, neighbours_[i].rank, tag_counts, comm_, &requests.back()),
          "MPI_Isend");
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests.clear();
  for (std::size_t i = 0; i < k; ++i) {
    in[i].resize(static_cast<std::size_t>(recv_counts[i]));
    const long in_bytes = recv_counts[i] * static_cast<long>(sizeof(T));
    const long out_bytes = send_counts[i] * static_cast<long>(sizeof(T));
    if (in_bytes > std::numeric_limits<int>::max() || out_bytes > std::numeric_limits<int>::max())
      throw cm::NumericalError("a message between two ranks would exceed 2 GiB: use more subdomains (mpi.grid)");
    requests.emplace_back();
    check(MPI_Irecv(in[i].data(), static_cast<int>(in_bytes), MPI_BYTE, neighbours_[i].rank, tag, comm_,
                    &requests.back()),
          "MPI_Irecv");
    requests.emplace_back();
    check(MPI_Isend(out[i].data(), static_cast<int>(out_bytes), MPI_BYTE, neighbours_[i].rank, tag, comm_,
                    &requests.back()),
          "MPI_Isend");
    bytes_sent_ += static_cast<double>(out_bytes + static_cast<long>(sizeof(long)));
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void MpiCoupling::add_ghosts(Engine& engine) {
  Spheres& S = engine.spheres;
  owned_ = S.size();
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    Neighbour& n = neighbours_[q];
    n.sent.clear();
    out_[q].clear();
    for (std::size_t i = 0; i < owned_; ++i) {
      if (!inside(n.reach_box, S.x[i])) continue;
      n.sent.push_back(static_cast<std::uint32_t>(i));
      out_[q].push_back(pack(S, i));
    }
  }
  exchange(out_, in_, tag_spheres);
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    neighbours_[q].ghost_begin = S.size();
    for (const Packed& p : in_[q]) unpack(S, p);
    neighbours_[q].ghost_end = S.size();
  }
  ghosts_ = S.size() - owned_;
  ghost_sum_ += static_cast<double>(ghosts_);
  ghost_layers_ += 1;
  engine.set_ghosts_from(owned_);
}

void MpiCoupling::after_sweep(Spheres& S, const std::vector<std::uint32_t>& moved, const std::vector<Vector3d>& v0,
                              const std::vector<Vector3d>& w0) {
  // moved: the owned spheres of contacts, then the ghosts (owned_ on); v0, w0 in that order
  const std::size_t first_ghost = moved.size() - ghosts_;
  // 1. the velocity changes of the ghosts go to their owners
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const Neighbour& n = neighbours_[q];
    dout_[q].clear();
    for (std::size_t g = n.ghost_begin; g < n.ghost_end; ++g) {
      const std::size_t k = first_ghost + (g - owned_);
      const Vector3d dv = S.vw[g].v - v0[k], dw = S.vw[g].w - w0[k];
      dout_[q].insert(dout_[q].end(), {dv(0), dv(1), dv(2), dw(0), dw(1), dw(2)});
    }
  }
  exchange(dout_, din_, tag_dv);
  // 2. v = v0 + omega (own change + the neighbours' changes), every owned sphere (pe); a sphere
  //    without contacts here has no own change (v0 + omega 0 = v0: it is skipped); omega = 1
  //    keeps the own change as it is (v0 + (v - v0) may round away from v)
  if (omega_ != 1.0) {
    for (std::size_t k = 0; k < first_ghost; ++k) {
      const std::uint32_t i = moved[k];
      S.vw[i].v = v0[k] + omega_ * (S.vw[i].v - v0[k]);
      S.vw[i].w = w0[k] + omega_ * (S.vw[i].w - w0[k]);
    }
  }
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const auto& sent = neighbours_[q].sent;
    if (din_[q].size() != 6 * sent.size()) throw cm::NumericalError("MPI: velocity changes of the wrong size");
    for (std::size_t k = 0; k < sent.size(); ++k) {
      const double* d = &din_[q][6 * k];
      S.vw[sent[k]].v += omega_ * Vector3d(d[0], d[1], d[2]);
      S.vw[sent[k]].w += omega_ * Vector3d(d[3], d[4], d[5]);
    }
  }
  // 3. the new velocities go to the ghosts
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    dout_[q].clear();
    for (std::uint32_t i : neighbours_[q].sent) {
      dout_[q].insert(dout_[q].end(),
                      {S.vw[i].v(0), S.vw[i].v(1), S.vw[i].v(2), S.vw[i].w(0), S.vw[i].w(1), S.vw[i].w(2)});
    }
  }
  exchange(dout_, din_, tag_v);
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const Neighbour& n = neighbours_[q];
    if (din_[q].size() != 6 * (n.ghost_end - n.ghost_begin))
      throw cm::NumericalError("MPI: ghost velocities of the wrong size");
    for (std::size_t g = n.ghost_begin; g < n.ghost_end; ++g) {
      const double* d = &din_[q][6 * (g - n.ghost_begin)];
      S.vw[g].v = Vector3d(d[0], d[1], d[2]);
      S.vw[g].w = Vector3d(d[3], d[4], d[5]);
    }
  }
}

void MpiCoupling::remove_ghosts_and_migrate(Engine& engine) {
  Spheres& S = engine.spheres;
  S.truncate(owned_);
  engine.set_ghosts_from(static_cast<std::size_t>(-1));
  // spheres whose centre has left the subdomain go to their new owner, a neighbour
  for (auto& o : out_) o.clear();
  std::vector<char> leaving(S.size(), 0);
  for (std::size_t i = 0; i < S.size(); ++i) {
    const int to = grid_.owner(S.x[i]);
    if (to == rank_) continue;
    auto it = std::find_if(neighbours_.begin(), neighbours_.end(), [to](const Neighbour& n) { return n.rank == to; });
    if (it == neighbours_.end())
      throw cm::NumericalError("sphere " + std::to_string(S.id[i]) + " crossed more than one subdomain in a step");
    out_[static_cast<std::size_t>(it - neighbours_.begin())].push_back(pack(S, i));
    leaving[i] = 1;
  }
  S.keep_if([&leaving](std::size_t i) { return leaving[i] == 0; });
  exchange(out_, in_, tag_migrants);
  for (const auto& from : in_)
    for (const Packed& p : from) unpack(S, p);
}

void MpiCoupling::reduce(StepStats& st) {
  long sums[3] = {st.contacts, st.sphere_contacts, st.pe_contacts};
  double maxima[5] = {st.max_penetration, st.delta, st.largest, static_cast<double>(st.colours),
                      st.max_sphere_penetration};
  check(MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_LONG, MPI_SUM, comm_), "MPI_Allreduce");
  check(MPI_Allreduce(MPI_IN_PLACE, maxima, 5, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
  st.contacts = sums[0];
  st.sphere_contacts = sums[1];
  st.pe_contacts = sums[2];
  st.max_penetration = maxima[0];
  st.delta = maxima[1];
  st.largest = maxima[2];
  st.colours = static_cast<int>(maxima[3]);
  st.max_sphere_penetration = maxima[4];
  st.residual = st.largest > 0.0 ? st.delta / st.largest : 0.0;
}

void MpiCoupling::sum(std::vector<double>& values) {
  // every rank's values to every rank, then summed in rank order: the same bits on every rank and
  // in every run of this decomposition
  const int n = static_cast<int>(values.size());
  std::vector<double> all(values.size() * static_cast<std::size_t>(grid_.size()));
  check(MPI_Allgather(values.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, comm_), "MPI_Allgather");
  for (std::size_t k = 0; k < values.size(); ++k) {
    double s = 0.0;
    for (int r = 0; r < grid_.size(); ++r) s += all[static_cast<std::size_t>(r) * values.size() + k];
    values[k] = s;
  }
}

Spheres MpiCoupling::gather(const Spheres& S) {
  const int P = grid_.size();
  const int mine = static_cast<int>(S.size() * sizeof(Packed));
  std::vector<int> bytes(static_cast<std::size_t>(P)), offsets(static_cast<std::size_t>(P), 0);
  check(MPI_Allgather(&mine, 1, MPI_INT, bytes.data(), 1, MPI_INT, comm_), "MPI_Allgather");
  long total = 0;
  for (int r = 0; r < P; ++r) {
    offsets[static_cast<std::size_t>(r)] = static_cast<int>(total);
    total += bytes[static_cast<std::size_t>(r)];
  }
  if (total > std::numeric_limits<int>::max())
    throw cm::NumericalError("the spheres of a frame exceed 2 GiB: they cannot be gathered for the diagnostics");
  std::vector<Packed> out(S.size()), in(static_cast<std::size_t>(total) / sizeof(Packed));
  for (std::size_t i = 0; i < S.size(); ++i) out[i] = pack(S, i);
  check(MPI_Allgatherv(out.data(), mine, MPI_BYTE, in.data(), bytes.data(), offsets.data(), MPI_BYTE, comm_),
        "MPI_Allgatherv");
  Spheres all;
  for (const Packed& p : in) unpack(all, p);
  return all;
}

std::map<std::string, double> MpiCoupling::statistics() {
  // one ghost layer per step (and one per frame detected apart): the per-step means divide by them
  const double layers = std::max(1.0, ghost_layers_);
  std::vector<double> v{static_cast<double>(neighbours_.size()), ghost_sum_ / layers, bytes_sent_ / layers};
  sum(v);
  const double P = grid_.size();
  std::map<std::string, double> s{{"ranks", P},
                                  {"subdomains_x", grid_.p[0]},
                                  {"subdomains_y", grid_.p[1]},
                                  {"subdomains_z", grid_.p[2]},
                                  {"relaxation", omega_},
                                  {"neighbours_per_rank", v[0] / P},
                                  {"ghosts_per_rank_per_step", v[1] / P},
                                  {"bytes_sent_per_rank_per_step", v[2] / P}};
  // the cuts placed by load (mpi.cuts = balanced), where they lie: cut_x_1 is the first along x
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t k = 0; k < grid_.cuts[a].size(); ++k)
      s["cut_" + std::string(1, "xyz"[a]) + "_" + std::to_string(k + 1)] = grid_.cuts[a][k];
  return s;
}

std::unique_ptr<Coupling> ChannelSetup::coupling(const Spheres* from) const {
  if (ranks == 1) return nullptr;  // one rank: the engine alone, the serial data bit for bit
  SubdomainGrid grid;
  for (std::size_t a = 0; a < 3; ++a) grid.p[a] = static_cast<int>(subdomains[a]);
  grid.box.lo = Vector3d::Zero();
  grid.box.hi = Vector3d(channel.Lx, channel.Ly, channel.Lz);
  if (cuts == Cuts::balanced) {
    // along each split axis, the cuts at the quantiles of the spheres gone on from (every rank
    // holds the whole saved frame, so every rank finds the same cuts); each slab must stay wider
    // than a contact reach, as even cuts must (declare())
    if (!from)
      throw cm::InputError("mpi.cuts: balanced places the cuts by the spheres gone on from: it needs restart.from");
    // each sphere's load: its own, and half the contact weight of each contact between two
    // spheres it has at the frame (detected by an engine of the whole channel, by which the
    // spheres may be reordered: the loads are read beside its positions)
    Engine load(engine, grid.box, channel.R);
    load.spheres = *from;
    load.detect();
    std::vector<double> weight(load.spheres.size(), 1.0);
    for (const Contact& c : load.contacts()) {
      if (c.b < 0) continue;  // a boundary
      weight[static_cast<std::size_t>(c.a)] += 0.5 * contact_weight;
      weight[static_cast<std::size_t>(c.b)] += 0.5 * contact_weight;
    }
    for (std::size_t a = 0; a < 3; ++a) {
      if (grid.p[a] == 1) continue;
      if (load.spheres.size() < static_cast<std::size_t>(grid.p[a]))
        throw cm::InputError("mpi.cuts: balanced needs at least one sphere per slab along " + std::string(1, "xyz"[a]) +
                             "; the frame gone on from has " + std::to_string(load.spheres.size()));
      std::vector<Load> points(load.spheres.size());
      for (std::size_t i = 0; i < points.size(); ++i)
        points[i] = {std::clamp(load.spheres.x[i](a), grid.box.lo(a), grid.box.hi(a)), weight[i]};
      grid.cuts[a] = balanced_cuts(points, grid.p[a]);
      double lo = grid.box.lo(a);
      for (std::size_t k = 0; k <= grid.cuts[a].size(); ++k) {
        const double hi = k < grid.cuts[a].size() ? grid.cuts[a][k] : grid.box.hi(a);
        if (hi - lo < reach())
          throw cm::InputError("mpi.cuts: balanced would make a subdomain " + cm::format_real(hi - lo) +
                               " m thin along " + std::string(1, "xyz"[a]) + ", less than the contact reach " +
                               cm::format_real(reach()) +
                               " m: its ghosts would come from beyond its neighbours (fewer subdomains along " +
                               std::string(1, "xyz"[a]) + ", or even cuts)");
        lo = hi;
      }
    }
  }
  return std::make_unique<MpiCoupling>(MPI_COMM_WORLD, grid, reach(), jacobi_relaxation);
}

}  // namespace md::granular

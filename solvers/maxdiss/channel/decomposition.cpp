// The channel cut into subdomains (decomposition.hpp).
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

SubdomainCoupling::Packed SubdomainCoupling::pack(const Spheres& S, std::size_t i) {
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

void SubdomainCoupling::unpack(Spheres& S, const Packed& p) {
  S.push(Vector3d(p.x[0], p.x[1], p.x[2]), Vector3d(p.v[0], p.v[1], p.v[2]), Vector3d(p.w[0], p.w[1], p.w[2]), p.R,
         p.inv_m, p.inv_I, p.id);
}

SubdomainCoupling::SubdomainCoupling(Transport& transport, const SubdomainGrid& grid, double reach, double relaxation,
                                     GhostContacts treat)
    : transport_(transport), grid_(grid), reach_(reach), omega_(relaxation), treat_(treat), rank_(transport.rank()) {
  const int size = transport_.size();
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
    peers_.push_back(q);
  }
  spheres_out_.resize(neighbours_.size());
  velocities_out_.resize(neighbours_.size());
  rule_.box = grid_.extent(rank_);
}

Box SubdomainCoupling::box() const {
  Box b = grid_.clipped(rank_);
  b.lo.array() -= reach_;
  b.hi.array() += reach_;
  return b;
}

template <class T>
void SubdomainCoupling::exchange(const std::vector<std::vector<T>>& out) {
  std::vector<std::span<const std::byte>> bytes(out.size());
  for (std::size_t q = 0; q < out.size(); ++q) {
    bytes[q] = std::as_bytes(std::span(out[q]));
    bytes_sent_ += static_cast<double>(bytes[q].size() + sizeof(long));  // the message and its size
  }
  transport_.exchange(peers_, bytes, received_);
  for (const auto& r : received_)
    if (r.size() % sizeof(T) != 0) throw cm::NumericalError("a message between subdomains of the wrong size");
}

namespace {
/// The k-th of the values of T in a message (read by copy: a message's bytes have no alignment).
template <class T>
T read(std::span<const std::byte> message, std::size_t k) {
  T value;
  std::memcpy(&value, message.data() + k * sizeof(T), sizeof(T));
  return value;
}
/// The k-th sphere's six velocity components (v, then w) in a message of them.
void read6(std::span<const std::byte> message, std::size_t k, Vector3d& v, Vector3d& w) {
  double d[6];
  std::memcpy(d, message.data() + k * sizeof d, sizeof d);
  v = Vector3d(d[0], d[1], d[2]);
  w = Vector3d(d[3], d[4], d[5]);
}
}  // namespace

void SubdomainCoupling::add_ghosts(Engine& engine) {
  Spheres& S = engine.spheres;
  owned_ = S.size();
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    Neighbour& n = neighbours_[q];
    n.sent.clear();
    spheres_out_[q].clear();
    for (std::size_t i = 0; i < owned_; ++i) {
      if (!inside(n.reach_box, S.x[i])) continue;
      n.sent.push_back(static_cast<std::uint32_t>(i));
      spheres_out_[q].push_back(pack(S, i));
    }
  }
  exchange(spheres_out_);
  rule_.ghost_owner.clear();
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const std::size_t count = received_[q].size() / sizeof(Packed);
    neighbours_[q].ghost_begin = S.size();
    for (std::size_t k = 0; k < count; ++k) unpack(S, read<Packed>(received_[q], k));
    neighbours_[q].ghost_end = S.size();
    rule_.ghost_owner.insert(rule_.ghost_owner.end(), count, neighbours_[q].rank);
  }
  ghosts_ = S.size() - owned_;
  ghost_sum_ += static_cast<double>(ghosts_);
  ghost_layers_ += 1;
  engine.set_ghosts_from(owned_);
}

void SubdomainCoupling::after_sweep(Spheres& S, const std::vector<std::uint32_t>& moved,
                                    const std::vector<Vector3d>& v0, const std::vector<Vector3d>& w0) {
  // moved: the owned spheres of contacts, then the ghosts (owned_ on); v0, w0 in that order
  const std::size_t first_ghost = moved.size() - ghosts_;
  // 1. the velocity changes of the ghosts go to their owners
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const Neighbour& n = neighbours_[q];
    std::vector<double>& out = velocities_out_[q];
    out.resize(6 * (n.ghost_end - n.ghost_begin));
    double* d = out.data();
    for (std::size_t g = n.ghost_begin; g < n.ghost_end; ++g, d += 6) {
      const std::size_t k = first_ghost + (g - owned_);
      const Vector3d dv = S.vw[g].v - v0[k], dw = S.vw[g].w - w0[k];
      d[0] = dv(0), d[1] = dv(1), d[2] = dv(2), d[3] = dw(0), d[4] = dw(1), d[5] = dw(2);
    }
  }
  exchange(velocities_out_);
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
    if (received_[q].size() != 6 * sizeof(double) * sent.size())
      throw cm::NumericalError("subdomains: velocity changes of the wrong size");
    for (std::size_t k = 0; k < sent.size(); ++k) {
      Vector3d dv, dw;
      read6(received_[q], k, dv, dw);
      S.vw[sent[k]].v += omega_ * dv;
      S.vw[sent[k]].w += omega_ * dw;
    }
  }
  // 3. the new velocities go to the ghosts
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const auto& sent = neighbours_[q].sent;
    std::vector<double>& out = velocities_out_[q];
    out.resize(6 * sent.size());
    double* d = out.data();
    for (std::uint32_t i : sent) {
      const Velocities& u = S.vw[i];
      d[0] = u.v(0), d[1] = u.v(1), d[2] = u.v(2), d[3] = u.w(0), d[4] = u.w(1), d[5] = u.w(2);
      d += 6;
    }
  }
  exchange(velocities_out_);
  for (std::size_t q = 0; q < neighbours_.size(); ++q) {
    const Neighbour& n = neighbours_[q];
    if (received_[q].size() != 6 * sizeof(double) * (n.ghost_end - n.ghost_begin))
      throw cm::NumericalError("subdomains: ghost velocities of the wrong size");
    for (std::size_t g = n.ghost_begin; g < n.ghost_end; ++g)
      read6(received_[q], g - n.ghost_begin, S.vw[g].v, S.vw[g].w);
  }
}

void SubdomainCoupling::remove_ghosts_and_migrate(Engine& engine) {
  Spheres& S = engine.spheres;
  S.truncate(owned_);
  engine.set_ghosts_from(static_cast<std::size_t>(-1));
  // spheres whose centre has left the subdomain go to their new owner, a neighbour
  for (auto& o : spheres_out_) o.clear();
  std::vector<char> leaving(S.size(), 0);
  for (std::size_t i = 0; i < S.size(); ++i) {
    const int to = grid_.owner(S.x[i]);
    if (to == rank_) continue;
    auto it = std::find_if(neighbours_.begin(), neighbours_.end(), [to](const Neighbour& n) { return n.rank == to; });
    if (it == neighbours_.end())
      throw cm::NumericalError("sphere " + std::to_string(S.id[i]) + " crossed more than one subdomain in a step");
    spheres_out_[static_cast<std::size_t>(it - neighbours_.begin())].push_back(pack(S, i));
    leaving[i] = 1;
  }
  S.keep_if([&leaving](std::size_t i) { return leaving[i] == 0; });
  exchange(spheres_out_);
  for (const auto& from : received_)
    for (std::size_t k = 0; k < from.size() / sizeof(Packed); ++k) unpack(S, read<Packed>(from, k));
}

void SubdomainCoupling::reduce(StepStats& st) {
  long sums[3] = {st.contacts, st.sphere_contacts, st.pe_contacts};
  double maxima[5] = {st.max_penetration, st.delta, st.largest, static_cast<double>(st.colours),
                      st.max_sphere_penetration};
  transport_.sum(sums);
  transport_.max(maxima);
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

void SubdomainCoupling::sum(std::vector<double>& values) {
  transport_.sum(std::span<double>(values));  // in rank order: the same bits on every subdomain and carrier
}

Spheres SubdomainCoupling::gather(const Spheres& S) {
  std::vector<Packed> out(S.size());
  for (std::size_t i = 0; i < S.size(); ++i) out[i] = pack(S, i);
  const std::vector<std::byte> in = transport_.gather(std::as_bytes(std::span(out)));
  Spheres all;
  for (std::size_t b = 0; b + sizeof(Packed) <= in.size(); b += sizeof(Packed)) {
    Packed p;
    std::memcpy(&p, in.data() + b, sizeof p);
    unpack(all, p);
  }
  return all;
}

std::map<std::string, double> SubdomainCoupling::statistics() {
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

SubdomainGrid ChannelSetup::grid(const Spheres* from) const {
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
  return grid;
}

std::unique_ptr<Coupling> ChannelSetup::coupling(const SubdomainGrid& grid, Transport* transport) const {
  // one subdomain: the engine alone, the serial data bit for bit
  if (!transport || transport->size() == 1) return nullptr;
  return std::make_unique<SubdomainCoupling>(*transport, grid, reach(), jacobi_relaxation, ghost_contacts);
}

}  // namespace md::granular

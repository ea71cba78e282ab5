// The order of the sweep (contact_order.hpp): the greedy colouring, the slabs, and the placement
// of detection's contacts in the sweep's order and into blocks of four.
#include "maxdiss/granular/contact_order.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/errors.hpp"
#include "maxdiss/granular/block_laws.hpp"

namespace md::granular {

int ContactOrder::arrange(const Detector& detector, std::size_t spheres, const EngineOptions& opt) {
  int colours = 1;
  switch (opt.order) {
    case SweepOrder::slabs:
      colours = slab(detector, spheres, opt);
      break;
    case SweepOrder::colour:
      colours = colour(detector, spheres, 1, opt);
      break;
    case SweepOrder::detection:
      keep_detection_order(detector, opt.threads);
      break;
  }
  // the passes: a colour each; the even slabs, then the odd ones; the one group of detection order
  const auto groups = static_cast<std::uint32_t>(group_start_.size() - 1);
  passes_.clear();
  if (opt.order == SweepOrder::colour) {
    for (std::uint32_t g = 0; g < groups; ++g) passes_.push_back({g, g + 1, 1, true, true});
  } else if (opt.order == SweepOrder::slabs) {
    // One slab leaves the colours as the groups, and colours share spheres: their parities are
    // then relaxed by one thread, in the same order.
    const bool slabbed = slabs_ > 1;
    passes_.push_back({0, groups, 2, false, slabbed});
    passes_.push_back({1, groups, 2, false, slabbed});
  } else {
    passes_.push_back({0, groups, 1, false, false});
  }
  return colours;
}

void ContactOrder::keep_detection_order(const Detector& detector, int threads) {
  in_blocks_ = false;
  place_contacts(detector, nullptr, threads);
  group_start_ = {0, static_cast<std::uint32_t>(contacts_.size())};
}

double ContactOrder::bytes() const {
  auto cap = [](const auto& a) { return static_cast<double>(a.capacity() * sizeof(a[0])); };
  return cap(contacts_) + cap(blocks_) + cap(block_start_) + cap(group_start_) + cap(used_colours_) + cap(colour_of_) +
         cap(group_of_) + cap(chunk_keys_) + cap(place_);
}

int ContactOrder::colour(const Detector& detector, std::size_t spheres, std::uint32_t groups,
                         const EngineOptions& opt) {
  // greedy colouring in detection order: a contact takes the lowest colour neither sphere has yet
  // (the detector's ends hold the spheres of each contact in detection order)
  const std::vector<ContactEnds>& detected_ends = detector.ends();
  const std::vector<std::size_t>& chunk_start = detector.chunk_start();
  const std::size_t nc = detected_ends.size();
  used_colours_.assign(spheres, 0);
  colour_of_.resize(nc);
  int colours = 0;
  for (std::size_t k = 0; k < nc; ++k) {
    const ContactEnds c = detected_ends[k];
    std::uint64_t used = used_colours_[static_cast<std::size_t>(c.a)];
    if (c.b >= 0) used |= used_colours_[static_cast<std::size_t>(c.b)];
    if (~used == 0)
      throw cm::NumericalError("a sphere has more than 64 contacts: the greedy colouring of the sweep cannot go on");
    const int col = std::countr_zero(~used);
    const std::uint64_t bit = std::uint64_t{1} << col;
    used_colours_[static_cast<std::size_t>(c.a)] |= bit;
    if (c.b >= 0) used_colours_[static_cast<std::size_t>(c.b)] |= bit;
    colour_of_[k] = static_cast<std::uint32_t>(col);
    colours = std::max(colours, col + 1);
  }
  // stable counting sort of the contacts by (group, colour), a colour's sphere-sphere contacts
  // before its boundary contacts (the order inside a colour changes no bit: its contacts share no
  // sphere; place_contacts puts the sphere-sphere ones four at a time into blocks_); group_of_ holds
  // the groups (or is empty)
  const std::uint32_t ncol = static_cast<std::uint32_t>(colours);
  auto key = [&](std::size_t k) {
    const std::uint32_t boundary = detected_ends[k].b < 0 ? 1u : 0u;
    return ((group_of_.empty() ? 0u : group_of_[k]) * ncol + colour_of_[k]) * 2u + boundary;
  };
  // The sort by any thread: each of detection's chunks (chunk_start) counts its keys, the counts
  // are summed key by key and chunk by chunk (so that a chunk's contacts of one key follow those
  // of the chunks before it, as one pass in detection order would place them), and each chunk
  // then places its contacts.
  const std::size_t keys = 2 * static_cast<std::size_t>(groups) * ncol;
  const long chunks = static_cast<long>(chunk_start.size()) - 1;
  chunk_keys_.assign(static_cast<std::size_t>(chunks) * keys, 0);
#pragma omp parallel for schedule(dynamic, 16) num_threads(opt.threads)
  for (long k = 0; k < chunks; ++k) {
    std::uint32_t* count = chunk_keys_.data() + static_cast<std::size_t>(k) * keys;
    for (std::size_t j = chunk_start[static_cast<std::size_t>(k)]; j < chunk_start[static_cast<std::size_t>(k) + 1];
         ++j)
      ++count[key(j)];
  }
  std::vector<std::uint32_t> start(keys + 1, 0);  // where each key's contacts begin
  std::uint32_t at = 0;
  for (std::size_t q = 0; q < keys; ++q) {
    start[q] = at;
    for (long k = 0; k < chunks; ++k) {  // a chunk's count becomes where its contacts of key q go
      std::uint32_t& count = chunk_keys_[static_cast<std::size_t>(k) * keys + q];
      const std::uint32_t here = count;
      count = at;
      at += here;
    }
  }
  start[keys] = at;
  place_.resize(nc);
#pragma omp parallel for schedule(dynamic, 16) num_threads(opt.threads)
  for (long k = 0; k < chunks; ++k) {
    std::uint32_t* fill = chunk_keys_.data() + static_cast<std::size_t>(k) * keys;
    for (std::size_t j = chunk_start[static_cast<std::size_t>(k)]; j < chunk_start[static_cast<std::size_t>(k) + 1];
         ++j)
      place_[j] = fill[key(j)]++;
  }
  // group_start_: where each group begins (one group: where each colour begins)
  const std::uint32_t stride = groups > 1 ? ncol : 1;
  const std::size_t bounds = groups > 1 ? groups : ncol;
  group_start_.resize(bounds + 1);
  for (std::size_t q = 0; q <= bounds; ++q) group_start_[q] = start[2 * q * stride];
  // Colour by colour in blocks (one group): a colour's sphere-sphere contacts, start[2 col] to
  // start[2 col + 1], go four at a time into its blocks of blocks_, the last few (fewer than
  // four) and its boundary contacts into contacts_; the law decides whether its contacts go into
  // blocks (Law::in_blocks, block_laws.hpp)
  in_blocks_ = groups == 1 && opt.order == SweepOrder::colour && opt.vector_width != VectorWidth::one &&
               with_block_law(opt.solver, [&]<class Law>(Law) { return Law::in_blocks(opt); });
  if (in_blocks_) {
    block_start_.assign(ncol + 1, 0);
    for (std::size_t col = 0; col < ncol; ++col)
      block_start_[col + 1] = block_start_[col] + (start[2 * col + 1] - start[2 * col]) / 4;
    blocks_.resize(block_start_.back());
  }
  place_contacts(detector, &place_, opt.threads);
  return colours;
}

int ContactOrder::slab(const Detector& detector, std::size_t spheres, const EngineOptions& opt) {
  // Contacts come in the order of the cell of their sphere a (x-major): the slab of a contact is
  // the column of that cell over slab_columns. Inside a slab the contacts are then ordered by
  // colour: consecutive contacts share no sphere, so the processor overlaps their relaxations,
  // while the slab's spheres stay in cache.
  const std::vector<ContactEnds>& detected_ends = detector.ends();
  const std::uint32_t width = static_cast<std::uint32_t>(std::max(1, opt.slab_columns));
  const std::uint32_t slabs = (static_cast<std::uint32_t>(detector.columns()) + width - 1) / width;
  slabs_ = slabs;
  group_of_.resize(detected_ends.size());
  for (std::size_t k = 0; k < detected_ends.size(); ++k)
    group_of_[k] = detector.column(static_cast<std::size_t>(detected_ends[k].a)) / width;
  const int colours = colour(detector, spheres, slabs, opt);
  group_of_.clear();
  return colours;
}

double ContactOrder::largest_impulse(int threads) const {
  // the impulses of blocks_ and, after each colour's blocks, of its contacts relaxed one at a time
  const std::size_t colours = group_start_.size() - 1;
  double largest = 0.0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(max : largest)
  for (std::size_t col = 0; col < colours; ++col) {
    if (in_blocks_) {
      for (std::uint32_t g = block_start_[col]; g < block_start_[col + 1]; ++g) {
        const ContactBlock& L = blocks_[g];
        for (std::uint32_t j = 0; j < 4; ++j)
          largest = std::max(largest, Vector3d(L.la0[j], L.la1[j], L.la2[j]).cwiseAbs().maxCoeff());
      }
    }
    const std::size_t packed =
        group_start_[col] + (in_blocks_ ? 4 * std::size_t{block_start_[col + 1] - block_start_[col]} : 0);
    for (std::size_t k = packed; k < group_start_[col + 1]; ++k)
      largest = std::max(largest, contacts_[k].lambda.cwiseAbs().maxCoeff());
  }
  return largest;
}

void ContactOrder::place_contacts(const Detector& detector, const std::vector<std::uint32_t>* place, int threads) {
  // each chunk's contacts copied by any thread to their places:
  // - contact k of detection order (the chunks one after the other) goes to contacts_[place[k]],
  //   or to contacts_[k] without a placement;
  // - in blocks (colour(): in_blocks_), the place of a contact that a colour's blocks hold is in
  //   them, and its entry of contacts_ is left as it was (the sweep reads the blocks)
  contacts_.resize(detector.ends().size());
  const long chunks = detector.chunks();
  const bool blocked = place && in_blocks_;
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
  for (long k = 0; k < chunks; ++k) {
    const auto& chunk = detector.chunk(k);
    const std::size_t at = detector.chunk_start()[static_cast<std::size_t>(k)];
    if (blocked) {
      for (std::size_t j = 0; j < chunk.size(); ++j) {
        const std::size_t p = (*place)[at + j], col = colour_of_[at + j];
        const std::size_t offset = p - group_start_[col];  // in the colour
        const std::size_t block = block_start_[col] + offset / 4;
        if (block < block_start_[col + 1])
          blocks_[block].store(static_cast<int>(offset % 4), chunk[j]);
        else
          contacts_[p] = chunk[j];
      }
    } else if (place) {
      for (std::size_t j = 0; j < chunk.size(); ++j) contacts_[(*place)[at + j]] = chunk[j];
    } else {
      std::copy(chunk.begin(), chunk.end(), contacts_.begin() + static_cast<std::ptrdiff_t>(at));
    }
  }
}

}  // namespace md::granular

// The order of the sweep (engine.hpp, the phase `order`): the contacts of detection (detector.hpp)
// put in the order the sweep visits them, in groups that share no sphere, and the sphere-sphere
// contacts of a colour four at a time into blocks (ContactBlock, contacts.hpp).
//
// Colours: a greedy colouring in detection order gives each contact the lowest colour neither of
// its spheres has yet, so that no two contacts of one colour share a sphere. The contacts of a
// colour are independent: any number of threads may relax them, in any split, several at once in
// vector registers, with the same result.
//
// The orders (EngineOptions::order, SweepOrder):
//   colour     colour by colour, each colour a pass of its own (the default)
//   slabs      the grid cut into slabs of slab_columns columns of cells across the channel, each
//              slab colour by colour; detection lists the contacts in the order of the cell of
//              their sphere a, whose partner lies in the same column or the next, so the contacts
//              of one slab touch its own columns and the first column of the next slab only. The
//              even slabs, then the odd ones, are relaxed, slabs of one parity by any thread
//   detection  detection order, one group, one thread
// The placement is a stable counting sort by (group, colour, boundary or not), done by any thread
// chunk by chunk of detection, so the data depend on the keys and never on the thread count.
//
// The sweep (sweep.hpp) reads the result as passes (SweepPass): a pass is a list of groups that
// share no sphere, each group a range of contacts relaxed by one thread, in order, unless its
// contacts are independent (a colour). An order that is a list of subdomains, each swept by one
// thread, is one more way of filling the passes.
#pragma once

#include <cstdint>
#include <vector>

#include "maxdiss/granular/contacts.hpp"
#include "maxdiss/granular/detector.hpp"
#include "maxdiss/granular/options.hpp"

namespace md::granular {

/// One pass of a sweep: the groups first, first + stride, ... (below end), which share no sphere,
/// so that any thread may take any of them; the passes one after the other.
struct SweepPass {
  std::uint32_t first = 0, end = 0, stride = 1;
  /// The contacts of a group share no sphere (a colour): they may be split between threads and
  /// taken several at once. Else a group is relaxed in order by one thread.
  bool independent = false;
  /// The pass may be shared out among threads (a meeting of the threads at its end).
  bool parallel = false;
};

class ContactOrder {
 public:
  /// The contacts of the last detection in the sweep's order opt.order (opt: order, slab_columns,
  /// threads, solver, vector_width and what the law reads to decide on blocks); returns the
  /// colours used. Throws cm::NumericalError where a sphere has more than 64 contacts.
  int arrange(const Detector& detector, std::size_t spheres, const EngineOptions& opt);
  /// The contacts of the last detection in detection order, no blocks (Engine::detect).
  void keep_detection_order(const Detector& detector, int threads);

  /// The contacts in the sweep's order; in blocks, those a colour's blocks hold are left as they
  /// were (their values are in the blocks).
  std::vector<Contact>& contacts() { return contacts_; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  /// The passes of a sweep over the groups.
  const std::vector<SweepPass>& passes() const { return passes_; }
  /// Group g's contacts are contacts()[group_begin(g) .. group_begin(g + 1)).
  std::uint32_t group_begin(std::size_t g) const { return group_start_[g]; }
  /// Whether the colours' sphere-sphere contacts are in blocks of four (colour order).
  bool in_blocks() const { return in_blocks_; }
  /// Colour g's blocks are blocks()[block_begin(g) .. block_begin(g + 1)); they hold its first
  /// 4 (block_begin(g + 1) - block_begin(g)) contacts.
  std::uint32_t block_begin(std::size_t g) const { return block_start_[g]; }
  std::vector<ContactBlock>& blocks() { return blocks_; }
  /// The largest |component| of the step's impulses, in the blocks and the contacts (a maximum:
  /// any order, any thread).
  double largest_impulse(int threads) const;
  /// Bytes held by the contacts, the blocks and the colouring.
  double bytes() const;

 private:
  int colour(const Detector& detector, std::size_t spheres, std::uint32_t groups, const EngineOptions& opt);
  int slab(const Detector& detector, std::size_t spheres, const EngineOptions& opt);
  /// Puts the contacts the chunks hold into contacts_ (or blocks_), contact k of detection order
  /// at place[k] (nullptr: at k).
  void place_contacts(const Detector& detector, const std::vector<std::uint32_t>* place, int threads);

  std::vector<Contact> contacts_;
  std::vector<SweepPass> passes_;
  std::vector<std::uint32_t> place_;         // colour(): the place of each contact in the sorted order
  std::vector<std::uint32_t> group_start_;   // colour: contacts of colour k; slabs: of slab k
  std::uint32_t slabs_ = 0;                  // slab(): the slabs of the last arrangement
  std::vector<std::uint64_t> used_colours_;  // each sphere's colours (a bit each)
  std::vector<std::uint32_t> colour_of_, group_of_;
  std::vector<std::uint32_t> chunk_keys_;  // colour(): each chunk's count of each key, then where they go
  bool in_blocks_ = false;                 // the colours' sphere-sphere contacts are in blocks_
  std::vector<ContactBlock> blocks_;
  std::vector<std::uint32_t> block_start_;  // colour k: its blocks are blocks_[block_start_[k] .. block_start_[k + 1])
};

}  // namespace md::granular

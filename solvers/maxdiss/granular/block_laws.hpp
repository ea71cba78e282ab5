// The block laws of the sweep, registered: one traits type per per-contact law (law_*.hpp), each
// with its BlockSolver id and what the sweep asks of it,
//   solve(A_nn, A_tt, b, mu, opt)      the impulse x of one contact on diag(A_nn, A_tt, A_tt)
//   solve_lanes<W>(A_nn, A_tt, b, mu)  the same for W sphere-sphere contacts in vector registers
//   in_blocks(opt)                     whether the sweep takes the law's contacts four at a time
//   sets_aside                         whether a contact may wait for a golden section (then also
//                                      solve_or_set_aside and resume, law_coulomb_decoupling.hpp)
// where b = -Q_c^T dv_free - (xi_eff / dt) e_n is the contact's right-hand side (sweep.hpp).
//
// A new law is its file law_<name>.hpp (the traits above, the numerics of its one-contact form
// in laws.hpp or single_contact.hpp), its name in BlockLaws below, its BlockSolver value
// (options.hpp) and its choice word for the key coulomb.solver. The sweep (sweep.cpp) and
// solve_block (laws.cpp) reach every law through with_block_law, compiled for each law, so that
// a law's code is inlined into the loop that calls it.
#pragma once

#include <utility>

#include "maxdiss/granular/law_coulomb_decoupling.hpp"
#include "maxdiss/granular/law_coulomb_exact.hpp"
#include "maxdiss/granular/law_maxdiss.hpp"
#include "maxdiss/granular/options.hpp"

namespace md::granular {

/// A list of block laws.
template <class... Laws>
struct BlockLawList {};

/// Every block law, one per BlockSolver.
using BlockLaws = BlockLawList<MaxDissipationLaw, CoulombDecouplingLaw, CoulombExactLaw>;

namespace detail {

template <class F, class First, class... Rest>
decltype(auto) with_law(BlockSolver id, F& f, BlockLawList<First, Rest...>) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(First{});  // the last law: the ids cover BlockSolver
  } else {
    if (id == First::id) return f(First{});
    return with_law(id, f, BlockLawList<Rest...>{});
  }
}

}  // namespace detail

/// f(Law{}) for the block law whose id is `id`, and what it returns (the same type for every law).
template <class F>
decltype(auto) with_block_law(BlockSolver id, F&& f) {
  return detail::with_law(id, f, BlockLaws{});
}

}  // namespace md::granular

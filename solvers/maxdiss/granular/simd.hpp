// W doubles in one vector register, for the hard-contact engine's kernels that take several
// contacts or several golden sections at once (block_kernels.hpp, the block laws law_*.hpp) and
// for detection's candidates (detector.cpp has its own, with a mask).
//
// GCC's vector extension: W = 2 is an SSE2 register (every x86-64), W = 4 an AVX2 one. The kernels
// written on these types are always inlined into entry points compiled for one instruction set
// each (target("avx2"), sweep.cpp), so that one source gives both. Neither set contracts
// a * b + c into one rounding (-ffp-contract=off, CMakeLists.txt), so every lane does the
// operations of the one-contact path, in the same order, with the same bits.
//
// A comparison of two such vectors gives a mask of signed 64-bit integers, all ones in a true
// lane; `m ? a : b` selects lane by lane. The laws write every branch of the one-contact path as
// such a selection, never a jump.
#pragma once

namespace md::granular {

/// W doubles in one vector register.
template <int W>
struct DoubleVector;
template <>
struct DoubleVector<2> {
  typedef double type __attribute__((vector_size(16)));
};
template <>
struct DoubleVector<4> {
  typedef double type __attribute__((vector_size(32)));
};

/// The register of W doubles.
template <int W>
using doubles = typename DoubleVector<W>::type;

}  // namespace md::granular

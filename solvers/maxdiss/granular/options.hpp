// The options of the hard-contact engine (engine.hpp) and what they choose from: the per-contact
// law (block_laws.hpp), the contact point (detector.hpp), the order of the sweep
// (contact_order.hpp) and its vector width (sweep.hpp). The processor's instruction sets that the
// vector width asks for are tested here too (sweep.cpp defines the tests).
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <optional>

#include "maxdiss/granular/subdomain_grid.hpp"
#include "maxdiss/single_contact.hpp"

namespace md::granular {

using Eigen::Vector3d;

/// The block solver of the NBGS: the contact law (md::ContactLaw) on one contact, and for the
/// Coulomb law the algorithm that solves it.
enum class BlockSolver : std::uint8_t {
  maxdiss,             ///< Eq. (5): the analytic single-contact solver (Fig. 5)
  coulomb_decoupling,  ///< the Coulomb time-stepping law by normal/tangential decoupling (as pe)
  coulomb_exact,       ///< the Coulomb time-stepping law solved in closed form (isotropic blocks)
};

/// Where the sphere-sphere contact point lies (spec 001, 2.4): the paper's definition, on the
/// surface of body 2, or the middle of the overlap (pe).
enum class ContactPoint : std::uint8_t { midpoint, body2_surface };

/// Order of the NBGS sweep.
enum class SweepOrder : std::uint8_t {
  colour,     ///< colour by colour of a greedy colouring (threads share a colour); the default
  slabs,      ///< even slabs of cells, then odd ones, each colour by colour (threads share slabs)
  detection,  ///< detection order, one thread
};

/// How many contacts of one colour the sweep relaxes at once, in vector registers (never a change
/// to the data: every lane does the operations of the one-contact path, in the same order). The
/// key is nbgs.lanes.
enum class VectorWidth : std::uint8_t {
  widest,  ///< avx512 where the processor has AVX-512VL, else avx2 where it has AVX2, else sse2; the default
  avx512,  ///< four, as avx2, with AVX-512VL's 32 vector registers (refused where the processor has none)
  avx2,    ///< four (refused where the processor has no AVX2)
  sse2,    ///< two (every x86-64)
  one,     ///< one contact at a time: the reference the others reproduce bit for bit
};
/// Whether this processor has AVX2.
bool avx2_available();
/// Whether this processor has AVX-512F and AVX-512VL (the 32 registers of VectorWidth::avx512).
bool avx512_available();
/// Whether `width` takes four contacts at once (avx512, avx2, or widest where the processor has
/// AVX2); throws std::invalid_argument where it asks for an instruction set the processor lacks.
bool four_wide(VectorWidth width);
/// Whether `width` is avx512, or widest where the processor has AVX-512VL.
bool avx512_registers(VectorWidth width);

struct EngineOptions {
  double dt = 1e-5;
  Vector3d gravity = Vector3d(0.0, 0.0, -9.81);
  double mu = 0.4;  ///< sphere-sphere friction
  BlockSolver solver = BlockSolver::maxdiss;
  int sweeps = 10;          ///< NBGS sweeps per step (fixed count)
  double erp = 0.8;         ///< error reduction eps in [0, 1)
  double threshold = 1e-8;  ///< contact when the gap xi < threshold [m]
  double relaxation = 1.0;  ///< lambda <- (1 - w) lambda + w lambda_block, w in (0, 1]
  ContactPoint contact_point = ContactPoint::midpoint;
  SweepOrder order = SweepOrder::colour;
  int slab_columns = 4;        ///< slabs: columns of cells (along x) per slab
  int golden_iterations = 20;  ///< decoupling: golden-section steps on the friction circle
  int decoupling_sweeps = 20;  ///< decoupling: normal/tangential fixed-point sweeps at most
  int reorder_every = 50;      ///< spheres are sorted by cell every so many steps
  int threads = 1;             ///< OpenMP threads (never changes the data)
  int parallel_min = 256;  ///< colour: a colour with fewer contacts is relaxed by one thread (no effect on the data)
  VectorWidth vector_width = VectorWidth::widest;  ///< colour order: contacts relaxed at once (no effect on the data)
  SolverOptions kernel{};                          ///< options of the analytic single-contact solver
  std::optional<SubdomainGrid> pe_blocks;  ///< the blocks StepStats::pe_contacts is counted on (pe_count.hpp), or none
};

}  // namespace md::granular

// The sweep of the hard-contact engine (engine.hpp, the phase `sweeps`): one sweep of non-linear
// block Gauss-Seidel (NBGS) over the contacts in the order's passes (contact_order.hpp), on the
// spheres' velocities in place. Per contact j, with the current velocities,
//   dv_j = v_a + w_a x r_1 - v_b - w_b x r_2,   r_1 = -l1 n, r_2 = l2 n
//   b_j  = -([n t o]^T dv_j - A_j lambda_j) - (xi_eff_j / dt) e_n                  (spec 001, 2.8)
//   x_j  = the block law on A_j = diag(A_nn, A_tt, A_tt) and b_j     (block_laws.hpp, eq. (5))
//   lambda_j <- lambda_j + w (x_j - lambda_j),   w = EngineOptions::relaxation
// and the change of impulse P = [n t o] (lambda_new - lambda_old) applied to both bodies at once
// (v_a += P / m_a, w_a += I_a^-1 (r_1 x P), and the opposite on b). A sweep returns the largest
// |change of impulse| for the residual.
//
// Passes: the groups of one pass share no sphere, so any thread may take any of them. A group
// whose contacts are independent (a colour) is cut into parts of 64 contacts (1024 under a law
// that sets contacts aside), any thread taking any part; any other group is relaxed in order by
// one thread (a slab, detection order, a subdomain).
//
// Vector width (EngineOptions::vector_width): colour by colour, the sweep takes several contacts
// at once: the sphere-sphere contacts four to an AVX2 register (two to an SSE2 one where the
// processor has no AVX2) from the colour's blocks, and the decoupled Coulomb law's golden sections
// sixteen (eight) together, a contact that needs one waiting for them. Where the processor has
// AVX-512VL, the blocks are compiled with its 32 vector registers (the same AVX2 operations, fewer
// values spilled to the stack). Each lane does the operations of the one-contact path in the same
// order, and no multiply-add is contracted, so the data are the same bits either way. The kernels
// are block_kernels.hpp; sweep.cpp holds their instruction-set entries.
#pragma once

#include <vector>

#include "maxdiss/granular/bodies.hpp"
#include "maxdiss/granular/contact_order.hpp"
#include "maxdiss/granular/contacts.hpp"
#include "maxdiss/granular/options.hpp"

namespace md::granular {

/// One sweep's view of the engine: what it reads (the boundaries, the options) and writes (the
/// spheres' velocities, the impulses the order holds).
class Sweep {
 public:
  Sweep(Spheres& spheres, const std::vector<Plane>& planes, const EngineOptions& opt, ContactOrder& order)
      : spheres_(spheres), planes_(planes), opt_(opt), order_(order) {}

  /// One sweep over every contact, pass by pass; returns max |change of impulse|. barriers: the
  /// threads' meetings are added to it (a parallel colour or slab parity, each ending in one).
  double run(long& barriers);

 private:
  /// A pass of independent groups (colours), under the block law Law (law_*.hpp).
  template <class Law>
  void relax_colours(const SweepPass& pass, double& delta, long& barriers);
  /// Contacts k0 .. k1 - 1 of one colour, under Law: in blocks, setting aside, or one at a time.
  template <class Law>
  void relax_part(int colour, long k0, long k1, bool avx2, bool registers32, double& delta);
  /// Colour order in blocks: a colour's sphere-sphere contacts relaxed W at a time from its blocks
  /// (registers32: W = 4 in AVX-512VL's 32 registers), the rest one at a time.
  template <int W, class Law>
  void relax_colour_blocks(int colour, long k0, long k1, bool registers32, double& delta);
  /// Contacts sharing no sphere, under a law that sets contacts aside (Law::sets_aside): those
  /// that wait for a golden section take them together, then resume.
  template <class Law>
  void relax_waiting(long k0, long k1, bool avx2, double& delta);
  /// Contacts k0 .. k1 - 1 in order, one at a time.
  void relax_range(long k0, long k1, double& delta);
  void relax_contact(Contact& c, double& delta);
  /// Relaxes contact c with the block solution solve(A_nn, A_tt, b) (a Vector3d), or, when solve
  /// returns a std::optional, leaves the contact as it is if that is empty (a contact set aside).
  template <class Solve>
  void relax_with(Contact& c, double& delta, Solve&& solve);
  /// The spheres of the contact so many ahead are fetched while one is relaxed (their addresses
  /// are known in advance).
  static constexpr long prefetch_ahead = 8;
  void prefetch(const Contact& c) const;
  /// Velocity of boundary k (b = -k - 1).
  Vector3d boundary_velocity(int k) const;

  Spheres& spheres_;
  const std::vector<Plane>& planes_;
  const EngineOptions& opt_;
  ContactOrder& order_;
};

}  // namespace md::granular

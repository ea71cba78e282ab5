// Every subdomain of a grid in one process (coupling = subdomains): each subdomain's task runs on a
// fiber of its own, a stack switched in user space, and a few threads take the fibers in turn. It is
// the paper's solver as pe runs it on 640 processes (Gauss-Seidel inside a subdomain, Jacobi across),
// on the threads of one machine.
//
// A task's collectives (its Transport, transport.hpp) end its turn: the fiber waits there until
// every task has reached the same collective. Then a round begins: the threads resume the fibers in
// the order of their ranks, each fiber to its next collective, and meet once at the round's end.
// A round of the channel is one exchange between neighbours, so a sweep of the paper's grid costs
// the threads two meetings, however many subdomains there are, and a subdomain of some 400 spheres
// is swept from the cache of the thread that holds it.
//
// What a collective gives is computed from every subdomain's part in the order of the ranks, so the
// data never depend on the threads, and equal those of the same grid over MPI ranks (MpiTransport).
// A task that throws stops the others at their next collective (their stacks unwound); the error of
// the first rank that failed is then thrown again to the caller.
#pragma once

#include <functional>

#include "maxdiss/channel/transport.hpp"

namespace md::granular {

/// Runs task(transport) for every subdomain, on `threads` threads (at most one per subdomain), and
/// returns when every task has returned; rethrows the failure of the first rank that failed.
void run_on_fibers(int subdomains, int threads, const std::function<void(Transport&)>& task);

}  // namespace md::granular

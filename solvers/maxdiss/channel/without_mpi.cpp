// The channel in a program without MPI: md_channel_bench, and md_channel in a build without it
// (-DCM_MPI=OFF). No split into subdomains, and the key coupling = ranks refused. A build with MPI
// links decomposition.cpp's ChannelSetup::coupling() and over_ranks.cpp into md_channel instead.
#include "core/errors.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/channel_study.hpp"

namespace md::granular {

std::unique_ptr<Coupling> ChannelSetup::coupling(const Spheres*) const { return nullptr; }

int study_over_ranks(int argc, char** argv) {
  return cm::guarded_main(argc > 0 ? argv[0] : ChannelStudy::info.solver, []() -> int {
    throw cm::InputError(
        "coupling: ranks needs a build with MPI (CMake option CM_MPI and Open MPI), and this one has none; "
        "coupling = serial runs the whole channel in one process");
  });
}

}  // namespace md::granular

// The channel in a program without MPI: md_channel_bench, and md_channel in a build without it
// (-DCM_MPI=OFF). The key coupling = ranks is refused (coupling = subdomains needs no MPI). A build
// with MPI links over_ranks.cpp into md_channel instead.
#include "core/errors.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/channel_study.hpp"

namespace md::granular {

int study_over_ranks(int argc, char** argv) {
  return cm::guarded_main(argc > 0 ? argv[0] : ChannelStudy::info.solver, []() -> int {
    throw cm::InputError(
        "coupling: ranks needs a build with MPI (CMake option CM_MPI and Open MPI), and this one has none; "
        "coupling = serial runs the whole channel in one process");
  });
}

}  // namespace md::granular

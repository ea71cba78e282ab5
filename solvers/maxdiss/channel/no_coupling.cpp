// The channel on one process (md_channel): no split, no coupling. md_channel_mpi links
// decomposition.cpp's ChannelSetup::coupling() instead.
#include "maxdiss/channel/channel_keys.hpp"

namespace md::granular {

std::unique_ptr<Coupling> ChannelSetup::coupling(const Spheres*) const { return nullptr; }

}  // namespace md::granular

// The channel over MPI ranks (coupling = ranks), linked into md_channel by a build with MPI: the
// study of channel_study.hpp run by cm::mpi::study_main, one subdomain of mpi.grid per rank
// (decomposition.hpp), talking over MPI (mpi_transport.hpp). Rank 0 writes the run; on one rank the data are serial's,
// bit for bit.
//
// A run over ranks names its solver md_channel_mpi, the link beside md_channel in the build's bin
// that make verify launches under mpirun on the ranks the run recorded.
#include "core/mpi_study.hpp"
#include "maxdiss/channel/channel_study.hpp"
#include "maxdiss/channel/mpi_transport.hpp"

namespace md::granular {

namespace {

struct ChannelStudyOverRanks : ChannelStudy {
  static constexpr cm::StudyInfo info{"md_channel_mpi", ChannelStudy::info.paper, ChannelStudy::info.study,
                                      ChannelStudy::info.summary};
  void run(cm::Run& run) {
    MpiTransport ranks(MPI_COMM_WORLD);
    ChannelStudy::run(run, &ranks);
  }
};

}  // namespace

int study_over_ranks(int argc, char** argv) { return cm::mpi::study_main<ChannelStudyOverRanks>(argc, argv); }

}  // namespace md::granular

// The study of the granular channel (README.md): its keys, its run of one law or both, and what it
// writes. md_channel.cpp defines it; over_ranks.cpp runs it over MPI ranks.
//
// The coupling key chooses how the channel is simulated: serial, the whole channel in one process,
// or ranks, one subdomain per MPI rank over mpi.grid (decomposition.hpp). A build without MPI runs
// serial only and refuses ranks (without_mpi.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "core/run_reader.hpp"
#include "core/study.hpp"
#include "maxdiss/channel/channel_keys.hpp"
#include "maxdiss/channel/channel_state.hpp"
#include "maxdiss/channel/compared_run.hpp"
#include "maxdiss/channel/cost.hpp"
#include "maxdiss/channel/last_frame.hpp"
#include "maxdiss/channel/restart.hpp"
#include "maxdiss/channel/schedule.hpp"
#include "maxdiss/channel/simulation.hpp"

namespace md::granular {

/// How the channel is simulated (the key coupling).
enum class CouplingChoice { serial, ranks };

class ChannelStudy {
 public:
  static constexpr cm::StudyInfo info{"md_channel", "maxdiss", "channel",
                                      "Granular channel flow of Sect. 4.3 (Table 2, Figs. 9-12), both friction laws"};

  /// The ranks of the run (coupling = ranks), before declare().
  void set_ranks(int ranks) { setup_.ranks = ranks; }
  void declare(cm::Config& c);
  void run(cm::Run& run);
  CouplingChoice coupling() const { return coupling_; }

 private:
  /// Whether run.laws simulates both laws (Table 2 side by side, and the laws compared).
  bool both_laws() const { return laws_.size() == contact_laws.size(); }
  /// The channel's geometry, for the figures.
  void write_geometry(cm::Run& run) const;
  /// The scalars of one law and its cost.
  void write_scalars(cm::Run& run, const std::string& law, const Outcome& r, const Channel& channel) const;
  /// The two laws against each other (P49) and the claims of Sect. 4.3 over both.
  void compare(cm::Run& run) const;

  ChannelSetup setup_;
  Schedule schedule_;
  LastFrame last_frame_;
  Restart restart_;
  Projection projection_;
  CouplingChoice coupling_ = CouplingChoice::serial;
  std::vector<ContactLaw> laws_{contact_laws.begin(), contact_laws.end()};  // run.laws, in the order of the laws
  bool side_by_side_ = false;
  ComparedRun compared_;
  PerLaw<Outcome> outcome_;
};

/// The study over MPI ranks, the whole of main for coupling = ranks: cm::mpi::study_main in a build
/// with MPI (over_ranks.cpp), a refusal with exit status 2 in one without (without_mpi.cpp).
int study_over_ranks(int argc, char** argv);

}  // namespace md::granular

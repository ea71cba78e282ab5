// The study of the granular channel (README.md): its keys, its run of one law or both, and what it
// writes. md_channel.cpp defines it; over_ranks.cpp runs it over MPI ranks.
//
// The coupling key (channel_keys.hpp) chooses how the channel is simulated: serial, the whole channel
// in one process; ranks, one subdomain of mpi.grid per MPI rank (over_ranks.cpp; a build without MPI
// refuses it, without_mpi.cpp); or subdomains, every subdomain of mpi.grid in this process on fibers
// (fibers.hpp). Over ranks or fibers every subdomain runs the study; the first alone writes the run.
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

class ChannelStudy {
 public:
  static constexpr cm::StudyInfo info{"md_channel", "maxdiss", "channel",
                                      "Granular channel flow of Sect. 4.3 (Table 2, Figs. 9-12), both friction laws"};

  /// The ranks of the run (coupling = ranks), before declare().
  void set_ranks(int ranks) { setup_.ranks = ranks; }
  void declare(cm::Config& c);
  /// The study on the coupling asked for; `ranks`: this MPI rank's transport (coupling = ranks).
  void run(cm::Run& run, Transport* ranks = nullptr);
  CouplingChoice coupling() const { return setup_.coupling_choice; }

 private:
  /// Whether run.laws simulates both laws (Table 2 side by side, and the laws compared).
  bool both_laws() const { return laws_.size() == contact_laws.size(); }
  /// One subdomain's part of the study (the whole channel when serial): every law set up, stepped
  /// and finished; the first subdomain writes, the others compute with it.
  void run_subdomain(cm::Run& run, const PerLaw<SubdomainGrid>& grids, Transport* transport);
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
  std::vector<ContactLaw> laws_{contact_laws.begin(), contact_laws.end()};  // run.laws, in the order of the laws
  bool side_by_side_ = false;
  ComparedRun compared_;
  PerLaw<Outcome> outcome_;
};

/// The study over MPI ranks, the whole of main for coupling = ranks: cm::mpi::study_main in a build
/// with MPI (over_ranks.cpp), a refusal with exit status 2 in one without (without_mpi.cpp).
int study_over_ranks(int argc, char** argv);

}  // namespace md::granular

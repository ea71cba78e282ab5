// A study over MPI ranks: the study shape of study.hpp, launched by mpirun (or a batch system).
//
//   int main(int argc, char** argv) { return cm::mpi::study_main<ChannelStudy>(argc, argv); }
//
// Every rank runs the study; rank 0 alone writes the run, the others write into a discarding run
// (Run::discarding), so a study computes its global values by reductions and writes as it would
// on one process. Rank 0 parses the command line and opens the output first: a bad key, --help
// or a refused output stops every rank with one message (the others exit quietly with rank 0's
// status). The study has a set_ranks(int), called before its keys are declared, so that its checks
// know the number of ranks. A failure on any rank once rank 0 has let the study start ends every
// rank (MPI_Abort with the failure's exit status), since the others would wait for it for ever.
// No rank commits a run once the launcher that started it is gone (mpirun killed: the ranks, left
// running, are orphans): it exits with an I/O error (74) instead, leaving no run behind.
#pragma once

#include <mpi.h>
#include <unistd.h>

#include <memory>

#include "core/errors.hpp"
#include "core/study.hpp"

namespace cm::mpi {

/// MPI_Init and MPI_Finalize around a program (one thread calls MPI).
class Session {
 public:
  Session(int& argc, char**& argv);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Rank 0's value on every rank.
  void broadcast(int& value) const;
  /// Waits for every rank.
  void barrier() const;
  /// Ends every rank with `status`.
  [[noreturn]] void abort(int status) const;

 private:
  int rank_ = 0, size_ = 1;
};

/// Throws cm::IoError when the process that launched this rank (`launcher`, its parent at the
/// start) is gone: the rank has been left an orphan, and what it would write is no one's.
void require_launcher(pid_t launcher);

template <class Study>
int study_main(int argc, char** argv) {
  const pid_t launcher = ::getppid();
  Session session(argc, argv);
  program_start();
  const bool root = session.rank() == 0;
  const char* program = argc > 0 ? argv[0] : Study::info.solver;
  int go = 0;  // rank 0's word: 1 when every rank may run the study
  const int status = guarded_main(program, [&] {
    Study study;
    study.set_ranks(session.size());
    StudyConfig<Study> setup(study);
    std::unique_ptr<Run> run;
    if (root) {
      struct Tell {  // the others learn rank 0's word however this block ends
        const Session& s;
        int& go;
        ~Tell() { s.broadcast(go); }
      } tell{session, go};
      const Invocation invocation = setup.config.parse(argc, argv);
      if (invocation.help || invocation.version) return exit_ok;
      run = std::make_unique<Run>(setup.config, setup.identity(), invocation, setup.budget, setup.store);
      go = 1;
    } else {
      session.broadcast(go);
      if (!go) return exit_ok;  // rank 0 has said why
      const Invocation invocation = setup.config.parse(argc, argv);
      run = Run::discarding(setup.config, setup.identity(), invocation, setup.budget);
    }
    // the ranks of the run, so that it can be run again as it was (cm_verify launches mpirun)
    run->statistics("mpi", {{"ranks", static_cast<double>(session.size())}});
    study.run(*run);
    // Every rank holds the stop signals before rank 0 commits: a signal mpirun passes on then
    // ends no rank, so that mpirun never reports a failure with the run in place.
    hold_stop_signals();
    session.barrier();
    require_launcher(launcher);
    run->commit();
    return exit_ok;
  });
  if (go) {
    if (status != exit_ok && session.size() > 1) session.abort(status);
    return status;
  }
  // rank 0 stopped before the study (help, a bad key, a refused output): its status for all
  int code = status;
  session.broadcast(code);
  return code;
}

}  // namespace cm::mpi

// MPI around a study (mpi_study.hpp).
#include "core/mpi_study.hpp"

#include <string>

namespace cm::mpi {

Session::Session(int& argc, char**& argv) {
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw NumericalError("MPI_Init_thread failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() { MPI_Finalize(); }

void Session::broadcast(int& value) const { MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); }

void Session::barrier() const { MPI_Barrier(MPI_COMM_WORLD); }

void require_launcher(pid_t launcher) {
  if (::getppid() != launcher)
    throw IoError("the launcher that started this rank (process " + std::to_string(launcher) +
                  ", mpirun) is gone: the run is not committed");
}

void Session::abort(int status) const {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

}  // namespace cm::mpi

#!/usr/bin/env bash
# make's MPI launcher (pipeline/mpirun-signals) and a signal: passed on to mpirun, and the
# launcher's status 128 + the signal unless mpirun still ends with 0. That is what a run does
# whose ranks hold the signal while it commits (core/run.hpp, hold_stop_signals): it ends
# complete, and make must not take it for a failure. mpirun here is a stand-in on PATH.
#   test_mpirun_signals.sh SOURCE SCRATCH
set -u
source=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch/bin" && cd "$scratch" || exit 1
# The stand-in: tells it started, holds SIGTERM while it "commits" (0.5 s) and ends with
# $END, as a run whose ranks held the signal (0) or died of it (1).
cat > bin/mpirun <<'STUB'
#!/usr/bin/env bash
trap 'echo held > held' TERM
touch started
for _ in 1 2 3 4 5; do sleep 0.1; done
exit "$END"
STUB
chmod +x bin/mpirun
failures=0
launch() {  # END, then the status the launcher must give after SIGTERM
  rm -f started held
  END=$1 PATH="$scratch/bin:$PATH" "$source/pipeline/mpirun-signals" -np 2 x &
  local launcher=$! status=0
  for _ in $(seq 100); do [ -e started ] && break; sleep 0.02; done
  kill -TERM $launcher
  wait $launcher || status=$?
  [ -e held ] || { echo "FAIL: END=$1: SIGTERM was not passed on to mpirun"; failures=$((failures + 1)); }
  [ "$status" -eq "$2" ] || { echo "FAIL: END=$1: exit $status, expected $2"; failures=$((failures + 1)); }
}
launch 0 0    # the run was committed: mpirun's 0
launch 1 143  # the ranks ended: 128 + SIGTERM
launch 3 143  # any failure after a signal: 128 + SIGTERM
[ $failures -eq 0 ] && echo "mpirun-signals: 0 after a held signal, 143 otherwise"
exit $((failures > 0))

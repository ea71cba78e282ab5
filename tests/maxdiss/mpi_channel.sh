#!/usr/bin/env bash
# The channel over MPI ranks (coupling = ranks, started as md_channel_mpi, md_channel's other name)
# against the serial channel (md_channel) on the quick channel.
#
#   one_rank_is_serial  mpirun -np 1 md_channel_mpi writes md_channel's data, byte for byte: every
#                       data row of every data file (the headers differ only in the run id, which
#                       names the solver)
#   two_ranks           mpirun -np 2 with mpi.grid = 2,1,1:
#                       - twice: the same data, byte for byte (a run is deterministic for a
#                         decomposition);
#                       - Table 2 against md_channel's, within the statistical spread of the
#                         preset (below): two ranks relax the contacts in another order and blend
#                         across the split (omega = 0.75, pe's weighted Jacobi), so the flow is
#                         another sample of the same statistics, not the serial one;
#                       - an output that exists and is not a run is refused (exit 2) and left as
#                         it was, by every rank;
#                       - a grid that does not match the ranks, or whose subdomains are thinner
#                         than a contact reach, is refused (exit 2) with its key;
#                       - md_mpi_scaling (make bench) reads the runs on 1 and 2 ranks and writes
#                         its table, and refuses a run of md_channel (exit 2).
#
#   subdomains          every subdomain in one process (coupling = subdomains) is the run over
#                       ranks, byte for byte: mpi.grid = 2,2,1 under pe's rule (mpi.treat =
#                       contact_point) on 4 ranks, and in md_channel on 1 and on 2 threads, for
#                       3 ms (300 steps)
#
#   launcher            a run is never committed by a rank whose launcher is gone: md_channel_mpi
#                       started by a shell that exits before the run ends writes no run and says
#                       why; and pipeline/mpirun-signals (make's launcher) passes SIGTERM and SIGINT
#                       on to mpirun and exits 143 and 130, leaving no run, where mpirun exits 1.
#
#   mpi_channel.sh <check> <mpirun> <md_channel> <md_channel_mpi> <cm_tsvdiff> <md_mpi_scaling> <scratch>
set -euo pipefail
check=$1 mpirun=$2 serial=$3 parallel=$4 tsvdiff=$5 scaling=$6 scratch=$7
config=configs/maxdiss/quick/channel.ini
source "$(dirname "$0")/channel_lib.sh"
rm -rf "$scratch" && mkdir -p "$scratch"

case $check in
  launcher)
    # The launcher gone: the shell that started the solver exits after a second; the run takes
    # several (three times the preset's 0.01 s), so the solver finds itself an orphan before it
    # commits.
    bash -c "\"$parallel\" --coupling=ranks --config $config --time.t_end=0.03 --output \"$scratch/orphan\" --quiet \
      2>\"$scratch/orphan.err\" & sleep 1"
    for _ in $(seq 1 120); do
      grep -q . "$scratch/orphan.err" 2>/dev/null && break
      sleep 1
    done
    grep -q 'launcher.*is gone: the run is not committed' "$scratch/orphan.err" || fail "an orphan rank: $(cat "$scratch/orphan.err")"
    sleep 1  # its exit, after the message
    [[ ! -e $scratch/orphan ]] && ! compgen -G "$scratch/.orphan.*" >/dev/null || fail "an orphan rank left a run: $(ls -A "$scratch")"
    echo "an orphan rank commits nothing and says why"
    # Signals to make's launcher: passed on, and the launcher's status is 128 + the signal.
    set -m  # the launcher in a process group of its own, which keeps SIGINT
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    for signal in TERM INT; do
      status=0
      # ten times the preset's 0.01 s, so that the signal comes long before the end
      pipeline/mpirun-signals --oversubscribe -np 2 "$parallel" --coupling=ranks --config $config --mpi.grid=2,1,1 \
        --time.t_end=0.1 --output "$scratch/$signal" --quiet 2>"$scratch/$signal.err" &
      launcher=$!
      sleep 2
      kill -s $signal $launcher
      wait $launcher || status=$?
      expected=$((128 + $(kill -l $signal)))
      [[ $status -eq $expected ]] || fail "SIG$signal to the launcher: exit $status, expected $expected"
      [[ ! -e $scratch/$signal ]] || fail "SIG$signal to the launcher: a run was committed"
    done
    echo "SIGTERM and SIGINT to the launcher: exit 143 and 130, no run"
    ;;
  subdomains)
    # a third of the preset's time: four ranks share the machine's cores, and the flow's first
    # contacts across the cuts come within its first 2 ms
    grid=(--mpi.grid=2,2,1 --mpi.treat=contact_point --time.t_end=0.003 --average.t_start=0.002)
    run_mpi 4 --config $config "${grid[@]}" --output "$scratch/ranks" --quiet
    for threads in 1 2; do
      "$serial" --config $config --coupling=subdomains "${grid[@]}" --solver.threads=$threads \
        --output "$scratch/threads$threads" --quiet
      same_data "$scratch/ranks" "$scratch/threads$threads"
    done
    ;;
  one_rank_is_serial)
    "$serial" --config $config --output "$scratch/serial" --quiet
    run_mpi 1 --config $config --output "$scratch/mpi1" --quiet
    same_data "$scratch/serial" "$scratch/mpi1"
    ;;
  two_ranks)
    "$serial" --config $config --output "$scratch/serial" --quiet
    run_mpi 2 --config $config --mpi.grid=2,1,1 --output "$scratch/mpi2" --quiet
    run_mpi 2 --config $config --mpi.grid=2,1,1 --output "$scratch/mpi2_again" --quiet
    same_data "$scratch/mpi2" "$scratch/mpi2_again"
    # Relative tolerances per column: twice the largest difference between serial runs of seeds 1
    # to 4 on this preset (6 samples of about 1430 spheres): spheres and volume fraction 0.22 %,
    # contacts and contacts per sphere 5.7 %, deepest sampled penetration 25 %, deepest of all
    # steps 50 %. Measured on two ranks over the same seeds: contacts per sphere 2 to 3 % above the
    # serial mean (the blend leaves (1 - omega)^sweeps of each correction), the rest within the
    # spread. The contacts between two spheres apart spread as all contacts do over those seeds
    # (their deepest penetration is that of every contact on this preset): the same tolerances.
    tolerances=law:0:0,avg_particles:0:0.005,solid_volume_fraction:0:0.005,avg_contacts:0:0.12
    tolerances+=,contacts_per_particle:0:0.12,max_penetration_sampled:0:0.5,max_penetration_all:0:1
    tolerances+=,avg_sphere_contacts:0:0.12,max_sphere_penetration_sampled:0:0.5,max_sphere_penetration_all:0:1
    "$tsvdiff" --reference="$scratch/serial/table2.tsv" --candidate="$scratch/mpi2/table2.tsv" \
      --columns="$tolerances"
    echo "Table 2 on two ranks within the blend's tolerances of the serial run"
    # a user's file at the output: refused by every rank, untouched
    echo "a user's notes" >"$scratch/notes"
    status=0
    run_mpi 2 --config $config --mpi.grid=2,1,1 --output "$scratch/notes" --quiet 2>"$scratch/refused.err" || status=$?
    [[ $status -eq 2 ]] || { echo "a user's file at --output: exit $status, expected 2"; exit 1; }
    [[ "$(cat "$scratch/notes")" == "a user's notes" ]] || { echo "the user's file was changed"; exit 1; }
    # a grid that does not match the ranks
    status=0
    run_mpi 2 --config $config --mpi.grid=1,1,1 --output "$scratch/mismatch" --quiet 2>"$scratch/mismatch.err" || status=$?
    [[ $status -eq 2 && ! -e $scratch/mismatch ]] || { echo "mpi.grid 1,1,1 on 2 ranks: exit $status, expected 2"; exit 1; }
    grep -q 'mpi.grid' "$scratch/mismatch.err" || { echo "the message does not name mpi.grid"; exit 1; }
    # subdomains thinner than a contact reach (0.75 mm against 0.94 mm)
    status=0
    run_mpi 2 --config $config --mpi.grid=1,1,2 --channel.height=0.0015 --output "$scratch/thin" --quiet \
      2>"$scratch/thin.err" || status=$?
    [[ $status -eq 2 && ! -e $scratch/thin ]] || { echo "subdomains thinner than a contact: exit $status, expected 2"; exit 1; }
    grep -q 'mpi.grid.*thin' "$scratch/thin.err" || { echo "the message does not name mpi.grid as too thin"; exit 1; }
    echo "a user's file and a mismatched grid refused with exit 2"
    # md_mpi_scaling on these runs (one rank, two ranks: strong and, for the tool, weak too)
    run_mpi 1 --config $config --output "$scratch/mpi1" --quiet
    "$scaling" --scaling.strong="$scratch/mpi1,$scratch/mpi2" --scaling.weak="$scratch/mpi1,$scratch/mpi2" \
      --output "$scratch/scaling" --quiet
    rows=$(grep -c -v '^#' "$scratch/scaling/scaling.tsv")
    [[ $rows -eq 8 ]] || { echo "scaling.tsv: $rows rows, expected 8"; exit 1; }
    status=0
    "$scaling" --scaling.strong="$scratch/serial,$scratch/mpi2" --scaling.weak="$scratch/mpi1,$scratch/mpi2" \
      --output "$scratch/scaling_bad" --quiet 2>"$scratch/scaling_bad.err" || status=$?
    [[ $status -eq 2 && ! -e $scratch/scaling_bad ]] || { echo "a run of md_channel: exit $status, expected 2"; exit 1; }
    grep -q 'scaling.strong' "$scratch/scaling_bad.err" || { echo "the message does not name scaling.strong"; exit 1; }
    # strong scaling is one channel on more ranks: a run of another channel (friction.mu) is refused
    # (a short run of one law: only its configuration is read)
    run_mpi 2 --config $config --mpi.grid=2,1,1 --friction.mu=0.3 --run.laws=maxdiss --time.t_end=0.001 \
      --average.t_start=0 --output "$scratch/other2" --quiet
    status=0
    "$scaling" --scaling.strong="$scratch/mpi1,$scratch/other2" --scaling.weak="$scratch/mpi1,$scratch/mpi2" \
      --output "$scratch/scaling_other" --quiet 2>"$scratch/scaling_other.err" || status=$?
    [[ $status -eq 2 && ! -e $scratch/scaling_other ]] || { echo "another channel as strong scaling: exit $status, expected 2"; exit 1; }
    grep -q 'scaling.strong.*friction.mu' "$scratch/scaling_other.err" || { echo "the message does not name scaling.strong and friction.mu"; exit 1; }
    echo "md_mpi_scaling: 8 rows from the runs on 1 and 2 ranks; a run of md_channel and another channel refused"
    ;;
  *)
    echo "mpi_channel.sh: unknown check '$check'" >&2
    exit 2
    ;;
esac

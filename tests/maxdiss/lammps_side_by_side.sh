#!/usr/bin/env bash
# md_channel_bench's timed state run by LAMMPS (pipeline/maxdiss/lammps_channel.sh) on a small
# channel: the tool reads the bench run, LAMMPS runs it on one rank and the timing is a row of
# timings.tsv with every sphere still in the box (10 steps of 3e-6 s move a sphere 30 um); a
# second call refuses the existing output folder (exit 2) and leaves it as it was; a missing bench
# run is bad input (exit 2).
#   lammps_side_by_side.sh <md_channel_bench> <scratch folder>
set -euo pipefail
bench=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
"$bench" --config configs/maxdiss/quick/channel_bench.ini --output "$scratch/bench" --quiet
STEPS=10 pipeline/maxdiss/lammps_channel.sh "$scratch/bench" "$scratch/lammps" 1
spheres=$(grep -c -v '^#' "$scratch/bench/state.tsv")
row=$(grep -v '^#' "$scratch/lammps/timings.tsv")
awk -F'\t' -v n="$spheres" '{ if ($1 != 1 || $2 != n || !($5 > 0)) { print "unexpected row: " $0 " (spheres " n ")"; exit 1 } }' <<<"$row"
before=$(cat "$scratch/lammps/timings.tsv")
status=0
STEPS=10 pipeline/maxdiss/lammps_channel.sh "$scratch/bench" "$scratch/lammps" 1 2>/dev/null || status=$?
[[ $status -eq 2 ]] || { echo "an existing output folder: exit $status, expected 2"; exit 1; }
[[ "$(cat "$scratch/lammps/timings.tsv")" == "$before" ]] || { echo "the existing output was changed"; exit 1; }
status=0
pipeline/maxdiss/lammps_channel.sh "$scratch/missing" "$scratch/other" 1 2>/dev/null || status=$?
[[ $status -eq 2 && ! -e $scratch/other ]] || { echo "a missing bench run: exit $status, expected 2 and no output"; exit 1; }
echo "LAMMPS ran the bench state of $spheres spheres: $row"

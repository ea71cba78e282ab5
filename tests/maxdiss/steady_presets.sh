#!/usr/bin/env bash
# The steady pair's quick presets (configs/maxdiss/quick/steady_settle.ini, then quick/steady.ini,
# the siblings of steady_settle.ini and steady.ini) parse and run: the first saves the
# maximum-dissipation law's frame; the second goes on from it under both laws (restart.law), both
# starting from that frame (the same first sample in every column the state gives), and measures
# its window's stationarity and standard errors, and the extremes at the sampled steps and at every
# step. The run records the preset and its bases.
#
#   steady_presets.sh <md_channel> <scratch>
set -euo pipefail
serial=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
source "$(dirname "$0")/channel_lib.sh"

"$serial" --config configs/maxdiss/quick/steady_settle.ini --output "$scratch/settle" --quiet
[[ -f $scratch/settle/state_maxdiss.tsv && ! -e $scratch/settle/state_coulomb.tsv ]] ||
  fail "steady_settle: the maximum-dissipation law's frame alone is not saved"
"$serial" --config configs/maxdiss/quick/steady.ini --restart.from="$scratch/settle" --output "$scratch/steady" --quiet
json=$scratch/steady/run.json
grep -q '"file": "configs/maxdiss/quick/steady.ini"' "$json" || fail "steady: run.json does not name its preset"
grep -q '"configs/maxdiss/quick/steady_settle.ini"' "$json" || fail "steady: run.json does not name its base"
first() { data "$1" | head -1 | cut -f1-11; }  # the columns the state gives (channel_restart.sh)
cmp -s <(first "$scratch/steady/timeseries_coulomb.tsv") <(first "$scratch/steady/timeseries_maxdiss.tsv") ||
  fail "steady: the two laws' first samples differ: they did not start from the same frame"
[[ $(first "$scratch/steady/timeseries_maxdiss.tsv" | cut -f1) == 500 ]] || fail "steady: not from step 500"
for scalar in steady steady_coulomb steady_maxdiss se_avg_particles_coulomb se_avg_particles_maxdiss \
  drift_particles_maxdiss max_penetration_um_maxdiss max_penetration_all_um_maxdiss max_sphere_penetration_um_maxdiss \
  max_sphere_penetration_all_um_maxdiss avg_sphere_contacts_coulomb se_avg_sphere_contacts_coulomb \
  model_rel_diff_averages_max; do
  grep -q "\"$scalar\": {" "$json" || fail "steady: no scalar $scalar"
done
echo "the quick steady pair runs: one law's frame saved, both laws from it, stationarity and extremes measured"

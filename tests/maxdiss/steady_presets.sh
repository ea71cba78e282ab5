#!/usr/bin/env bash
# The steady pair's quick presets (configs/maxdiss/quick/steady_settle.ini, then quick/steady.ini,
# the siblings of steady_settle.ini and steady.ini) parse and run: the first saves the
# maximum-dissipation law's frame; the second goes on from it under both laws (restart.law), both
# starting from that frame (the same first sample in every column the state gives), and measures
# its window's stationarity and standard errors, and the extremes at the sampled steps and at every
# step. The run records the preset and its bases.
# The ablation's quick preset (quick/ablation.ini) goes on from the same frame: a baseline, a
# variant with a key of the channel changed (refused unless restart.vary names it) and the paper's
# grid in one process; md_channel_ablation writes a row for each, each variant named by the keys it
# changed, and refuses runs of other windows.
#
#   steady_presets.sh <md_channel> <scratch> <md_channel_ablation>
set -euo pipefail
serial=$1 scratch=$2 ablation=$3
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

# The whole-run average (average.whole_run_to = 0.02 s, a sample every 100 steps): the settle run's
# samples from t = 0, the steady run's, then the window's averages to the end, recomputed here.
scalar_of() { scalars "$1" | awk -v n="$2" '$1 == n { print $2 }'; }
for law in coulomb maxdiss; do
  expected=$(awk -v wn="$(scalar_of "$scratch/steady" avg_particles_$law)" '
    !/^#/ && $1 % 100 == 0 { n[$1] = $3 }  # the steady run read last: its rows win
    END { for (k = 0; k <= 2000; k += 100) s += (k in n) ? n[k] : wn; printf "%.12g\n", s / 21 }' \
    "$scratch/settle/timeseries_maxdiss.tsv" "$scratch/steady/timeseries_$law.tsv")
  got=$(scalar_of "$scratch/steady" avg_particles_whole_run_$law)
  awk -v a="$expected" -v b="$got" 'BEGIN { exit !(b != "" && (a - b) ^ 2 <= (1e-12 * a) ^ 2) }' ||
    fail "steady: avg_particles_whole_run_$law $got, recomputed $expected"
done
echo "the whole-run average is the settle run's samples, the window's, and its averages projected"

variant() { "$serial" --config configs/maxdiss/quick/ablation.ini --restart.from="$scratch/settle" --quiet "$@"; }
variant --output "$scratch/baseline"
status=0
variant --nbgs.erp=0 --output "$scratch/refused" 2>"$scratch/refused.err" || status=$?
[[ $status -eq 2 && ! -e $scratch/refused ]] && grep -q 'restart.from.*nbgs.erp' "$scratch/refused.err" ||
  fail "ablation: another nbgs.erp without restart.vary: exit $status, $(cat "$scratch/refused.err")"
variant --nbgs.erp=0 --restart.vary=nbgs.erp --output "$scratch/erp_0"
variant --coupling=subdomains --mpi.grid=2,2,1 --mpi.treat=contact_point --output "$scratch/grid"
variant --time.t_end=0.007 --output "$scratch/shorter"
"$ablation" --ablation.runs="$scratch/baseline,$scratch/erp_0,$scratch/grid" --output "$scratch/ablation" --quiet
[[ $(data "$scratch/ablation/ablation.tsv" | wc -l) -eq 3 ]] || fail "ablation: not a row per run"
grep -q '"variant 1 (run [0-9a-f]*): nbgs.erp = 0"' "$scratch/ablation/run.json" || fail "ablation: variant 1 not named"
grep -q 'variant 2 (run [0-9a-f]*): coupling = subdomains; mpi.grid = 2,2,1; mpi.treat = contact_point' \
  "$scratch/ablation/run.json" || fail "ablation: variant 2 not named"
status=0
"$ablation" --ablation.runs="$scratch/baseline,$scratch/shorter" --output "$scratch/mixed" --quiet 2>"$scratch/mixed.err" ||
  status=$?
[[ $status -eq 2 && ! -e $scratch/mixed ]] && grep -q 'ablation.runs.*time.t_end' "$scratch/mixed.err" ||
  fail "ablation: runs of two windows: exit $status, $(cat "$scratch/mixed.err")"
for refused in "$scratch/baseline" "$scratch/baseline,$scratch/nowhere"; do  # a baseline alone; a run not there
  status=0
  "$ablation" --ablation.runs="$refused" --output "$scratch/refused_table" --quiet 2>"$scratch/refused_table.err" ||
    status=$?
  [[ $status -eq 2 && ! -e $scratch/refused_table ]] && grep -q 'ablation.runs' "$scratch/refused_table.err" ||
    fail "ablation: --ablation.runs=$refused: exit $status, $(cat "$scratch/refused_table.err")"
done
echo "the ablation's variants run from the settled frame and are set side by side; other windows refused"

#!/usr/bin/env bash
# A channel run that goes on from a saved state (state.write, restart.from) is the run that never
# stopped, and a run compared with another (compare.with) says by how much its Table 2 differs.
#
#   serial     md_channel on the quick channel: 1000 steps in one run, against 500 steps that save
#              their state and a second run from it to the same end. Every data file of the
#              second run equals the first's byte for byte (the time series from the saved step
#              on), and so does every scalar; the second run with one contact at a time
#              (nbgs.lanes = one) on two threads writes the same data files. Then the refusals
#              (exit 2, the key named, nothing left behind): a channel with another friction
#              coefficient, a run that saved no state, an end before the state, an averaging
#              window that starts before it.
#              A friction coefficient changed in the base of a config is refused the same way.
#              The same continuation with the two laws stepped side by side (solver.side_by_side)
#              writes the same data files and scalars, and at most one law widened (the one
#              still running when the other ended, if it had a step left); one law
#              side by side (run.laws) widens at its first step, with the same data.
#              compare.with: a run against one over the same window gives relative differences
#              of exactly 0 against itself; another window is refused.
#   law        restart.law: the quick channel to 0.005 s under the maximum-dissipation law alone,
#              its frame saved; then both laws from that frame (restart.law = maxdiss). Both laws
#              start their window from the same spheres at the same places and speeds: their
#              first samples agree in every column the state gives (step, time, spheres, contacts
#              and deepest penetration of its positions, solid fraction, both kinetic energies of
#              its velocities, counters), and the maximum-dissipation law is the run that never
#              stopped (its data byte for byte those of the law gone on from its own frame). A
#              law whose frame the saved run lacks is refused naming restart.law.
#   window     an averaging window in parts (make channel-steady-part): the quick channel's window
#              from 0.003 s run whole, against the same window run in three parts (to 0.005 s and
#              0.007 s with their states saved, then to the end), each going on from the last
#              (restart.from) with the same average.t_start. The last part is the whole run: its
#              time series holds the window's samples of the parts before it, and every data file
#              and every scalar (averages, drifts, standard errors, deepest penetrations) is the
#              whole run's byte for byte. Refused naming average.t_start: the window in parts with
#              restart.law (the other law has no samples before the frame), with another
#              sample.every, and from a saved run without its window (state_<law>_window.tsv);
#              refused naming restart.from: a saved time series with a window sample that is not
#              a number, or with one missing.
#   ranks      (md_channel_mpi) one rank from the saved state writes md_channel's data byte for
#              byte; two ranks from it run, and their note compares them with the serial run;
#              two ranks with cuts placed by the saved frame's load (mpi.cuts = balanced) record
#              a cut inside the channel and go on from the saved spheres, and balanced cuts
#              without a saved frame are refused naming mpi.cuts; the
#              laws side by side over two ranks are refused.
#
#   channel_restart.sh <check> <md_channel> <scratch> [<mpirun> <md_channel_mpi>]
set -euo pipefail
check=$1 serial=$2 scratch=$3
config=configs/maxdiss/quick/channel.ini
rm -rf "$scratch" && mkdir -p "$scratch"
source "$(dirname "$0")/channel_lib.sh"
refused() {  # name, key, then the solver's arguments: exit 2, the key named, no output left
  local name=$1 key=$2 status=0
  shift 2
  "$@" --output "$scratch/$name" --quiet 2>"$scratch/$name.err" || status=$?
  [[ $status -eq 2 ]] || fail "$name: exit $status, expected 2"
  [[ ! -e $scratch/$name ]] || fail "$name: an output was left behind"
  grep -q "$key" "$scratch/$name.err" || fail "$name: the message does not name $key: $(cat "$scratch/$name.err")"
  echo "$name refused: $(head -1 "$scratch/$name.err")"
}

# the quick channel to 0.005 s (500 steps), with its state
"$serial" --config $config --time.t_end=0.005 --average.t_start=0.003 --state.write --output "$scratch/half" --quiet

case $check in
  serial)
    "$serial" --config $config --output "$scratch/whole" --quiet
    "$serial" --config $config --restart.from="$scratch/half" --output "$scratch/continued" --quiet
    same_files "$scratch/whole" "$scratch/continued" table2.tsv cells_coulomb.tsv cells_maxdiss.tsv rdf_coulomb.tsv \
      rdf_maxdiss.tsv snapshot_coulomb.tsv snapshot_maxdiss.tsv
    for law in coulomb maxdiss; do
      # the samples of the whole run from step 500 on are the continued run's samples
      cmp -s <(data "$scratch/whole/timeseries_$law.tsv" | awk '$1 >= 500') \
        <(data "$scratch/continued/timeseries_$law.tsv") || fail "timeseries_$law.tsv: the samples from step 500 differ"
    done
    [[ $(scalars "$scratch/whole" | wc -l) -gt 20 ]] || fail "fewer than 20 scalars read from run.json"
    cmp -s <(scalars "$scratch/whole") <(scalars "$scratch/continued") || fail "the scalars differ"
    echo "the continued run is the whole run: data files, samples from step 500 and every scalar"
    # one contact at a time (nbgs.lanes), on two threads: the same data, bit for bit
    "$serial" --config $config --restart.from="$scratch/half" --nbgs.lanes=one --solver.threads=2 \
      --output "$scratch/one_lane" --quiet
    same_data "$scratch/continued" "$scratch/one_lane"
    echo "one contact at a time on two threads writes the same data as the widest lanes on one"
    # the two laws stepped side by side, one thread each (the maximum-dissipation law ends first and
    # the Coulomb law takes its thread): the same run, with the same saved state
    "$serial" --config $config --restart.from="$scratch/half" --solver.side_by_side --solver.threads=1 --state.write \
      --output "$scratch/side_by_side" --quiet
    same_data "$scratch/continued" "$scratch/side_by_side"
    cmp -s <(scalars "$scratch/continued") <(scalars "$scratch/side_by_side") || fail "side by side: the scalars differ"
    # the law still running when the other ends takes its threads, from its next step: whether there
    # is a next step depends on how the machine scheduled the two (on a loaded machine both may end
    # in the same step), so only "at most one law" is certain here; one law alone, below, widens
    # at its first step, always
    [[ $(grep -c '"widened_at_step"' "$scratch/side_by_side/run.json") -le 1 ]] ||
      fail "side by side: both laws took the other's threads"
    echo "the laws stepped side by side give the same run: data files and every scalar"
    # one law side by side has the other law's threads from its first step (there is no other to wait
    # for): the same data as the law alone, and the widening recorded
    "$serial" --config $config --restart.from="$scratch/half" --run.laws=maxdiss --solver.side_by_side \
      --solver.threads=1 --output "$scratch/alone_side_by_side" --quiet
    "$serial" --config $config --restart.from="$scratch/half" --run.laws=maxdiss --output "$scratch/alone" --quiet
    same_data "$scratch/alone" "$scratch/alone_side_by_side"
    grep -Eq '"widened_at_step": 500(\.0)?,?$' "$scratch/alone_side_by_side/run.json" ||
      fail "one law side by side: it did not take the other law's threads from its first step (500)"
    echo "one law side by side takes both laws' threads from its first step"
    refused other_friction restart.from "$serial" --config $config --restart.from="$scratch/half" --friction.mu=0.3
    # the same change in a config's base: the channel is compared by its effective keys, wherever they come from
    printf '[config]\nbase = %s\n[friction]\nmu = 0.3\n' "$PWD/$config" >"$scratch/other_friction_base.ini"
    printf '[config]\nbase = other_friction_base.ini\n' >"$scratch/on_other_friction.ini"
    refused other_friction_in_base friction.mu "$serial" --config "$scratch/on_other_friction.ini" \
      --restart.from="$scratch/half"
    refused no_state restart.from "$serial" --config $config --restart.from="$scratch/whole"
    refused no_run restart.from "$serial" --config $config --restart.from="$scratch/nothing_here"
    refused end_before_state time.t_end "$serial" --config $config --restart.from="$scratch/half" \
      --time.t_end=0.004 --average.t_start=0.001
    refused window_before_state average.t_start "$serial" --config $config --restart.from="$scratch/half" \
      --average.t_start=0.004
    "$serial" --config $config --restart.from="$scratch/half" --run.laws=maxdiss --compare.with="$scratch/continued" \
      --output "$scratch/compared" --quiet
    diffs=$(scalars "$scratch/compared" | grep -c '_rel_diff_maxdiss 0.0$')
    [[ $diffs -eq 9 ]] || fail "compare.with the same run: $diffs of 9 relative differences are 0"
    grep -q 'Table 2 of this run' "$scratch/compared/run.json" || fail "compare.with: no note"
    echo "compare.with the same run: 9 relative differences of 0, and a note"
    refused other_window compare.with "$serial" --config $config --restart.from="$scratch/half" --run.laws=maxdiss \
      --average.t_start=0.006 --compare.with="$scratch/continued"
    ;;
  law)
    "$serial" --config $config --time.t_end=0.005 --average.t_start=0.003 --run.laws=maxdiss --state.write \
      --output "$scratch/settled" --quiet
    "$serial" --config $config --restart.from="$scratch/settled" --restart.law=maxdiss --output "$scratch/both" --quiet
    # columns 1-11: step, t, spheres, contacts, contacts per sphere, deepest penetration, solid
    # fraction, kinetic energies, inserted, deleted (the residual and colours are the law's solve)
    first() { data "$1" | head -1 | cut -f1-11; }
    [[ -n $(first "$scratch/both/timeseries_maxdiss.tsv") ]] || fail "restart.law: no first sample"
    cmp -s <(first "$scratch/both/timeseries_coulomb.tsv") <(first "$scratch/both/timeseries_maxdiss.tsv") ||
      fail "restart.law: the two laws' first samples differ: they did not start from the same frame"
    [[ $(first "$scratch/both/timeseries_coulomb.tsv" | cut -f1) == 500 ]] || fail "restart.law: not from step 500"
    grep -q "every law from the maxdiss law's frame (restart.law)" "$scratch/both/run.json" ||
      fail "restart.law: no note of the frame gone on from"
    "$serial" --config $config --restart.from="$scratch/settled" --run.laws=maxdiss --output "$scratch/own" --quiet
    same_files "$scratch/own" "$scratch/both" timeseries_maxdiss.tsv cells_maxdiss.tsv rdf_maxdiss.tsv \
      snapshot_maxdiss.tsv
    cmp -s <(data "$scratch/own/table2.tsv") <(data "$scratch/both/table2.tsv" | awk '$1 == 1') ||
      fail "restart.law: the maximum-dissipation law's Table 2 is not that of the law gone on from its own frame"
    echo "both laws go on from the maximum-dissipation law's frame: the same first sample, and that law unchanged"
    refused law_not_saved restart.law "$serial" --config $config --restart.from="$scratch/settled" \
      --restart.law=coulomb
    refused own_frame_not_saved restart.from "$serial" --config $config --restart.from="$scratch/settled"
    ;;
  window)
    # 11 draws: the window's 700 steps estimate the largest of them (1001 would need 14447 steps)
    window=(--average.t_start=0.003 --extremes.draws=11)
    "$serial" --config $config "${window[@]}" --output "$scratch/whole" --quiet
    "$serial" --config $config "${window[@]}" --restart.from="$scratch/half" --time.t_end=0.007 --output "$scratch/mid" \
      --quiet
    "$serial" --config $config "${window[@]}" --restart.from="$scratch/mid" --output "$scratch/rest" --quiet
    same_files "$scratch/whole" "$scratch/rest" table2.tsv cells_coulomb.tsv cells_maxdiss.tsv rdf_coulomb.tsv \
      rdf_maxdiss.tsv snapshot_coulomb.tsv snapshot_maxdiss.tsv state_coulomb.tsv state_maxdiss.tsv \
      state_coulomb_window.tsv state_maxdiss_window.tsv
    for law in coulomb maxdiss; do
      # the window's samples (from step 300) of the whole run are the last part's, those of the
      # parts before it carried
      [[ $(data "$scratch/rest/timeseries_$law.tsv" | head -1 | cut -f1) == 300 ]] ||
        fail "timeseries_$law.tsv: the last part's samples do not begin with the window (step 300)"
      cmp -s <(data "$scratch/whole/timeseries_$law.tsv" | awk '$1 >= 300') \
        <(data "$scratch/rest/timeseries_$law.tsv") || fail "timeseries_$law.tsv: the window's samples differ"
    done
    [[ $(scalars "$scratch/whole" | grep -c '^samples_') -eq 2 ]] || fail "no samples_<law> scalars read"
    [[ $(scalars "$scratch/whole" | grep -c '^max_sphere_penetration_draws_um_') -eq 2 ]] ||
      fail "no max_sphere_penetration_draws_um_<law> scalars read"
    cmp -s <(scalars "$scratch/whole") <(scalars "$scratch/rest") || fail "the window in three parts: the scalars differ"
    echo "a window in three parts is the whole run's: data files, the window's samples and every scalar"
    # what the whole took: the last part records the wall time of the parts before it
    wall() { sed -n 's/^  "wall_time_s": \([0-9.e+-]*\),\{0,1\}$/\1/p' "$1/run.json"; }
    earlier=$(grep -o '"earlier_runs_wall_seconds": [0-9.e+-]*' "$scratch/rest/run.json" | cut -d' ' -f2)
    awk -v e="$earlier" -v a="$(wall "$scratch/half")" -v b="$(wall "$scratch/mid")" \
      'BEGIN { exit !(e != "" && a > 0 && b > 0 && (e - a - b) ^ 2 <= (1e-9 * e) ^ 2) }' ||
      fail "the last part's earlier_runs_wall_seconds ($earlier) is not the parts' wall times before it"
    "$serial" --config $config --time.t_end=0.005 "${window[@]}" --run.laws=maxdiss --state.write \
      --output "$scratch/settled" --quiet
    refused window_from_one_frame average.t_start "$serial" --config $config "${window[@]}" \
      --restart.from="$scratch/settled" --restart.law=maxdiss
    refused window_other_sampling average.t_start "$serial" --config $config "${window[@]}" --sample.every=50 \
      --restart.from="$scratch/half"
    cp -r "$scratch/half" "$scratch/old_half"
    rm "$scratch/old_half/state_maxdiss_window.tsv"
    refused window_not_saved average.t_start "$serial" --config $config "${window[@]}" --restart.from="$scratch/old_half"
    cp -r "$scratch/half" "$scratch/steps_half"
    rm "$scratch/steps_half/state_maxdiss_window_steps.tsv"
    refused window_steps_not_saved average.t_start "$serial" --config $config "${window[@]}" \
      --restart.from="$scratch/steps_half"
    cp -r "$scratch/half" "$scratch/short_half"
    sed -i '$ d' "$scratch/short_half/state_maxdiss_window_steps.tsv"
    refused window_steps_missing_one restart.from "$serial" --config $config "${window[@]}" \
      --restart.from="$scratch/short_half"
    # a saved window whose deepest penetration between two spheres (its last column) is deeper
    # than that of every contact
    cp -r "$scratch/half" "$scratch/deeper_half"
    sed -i '$ s/\t[^\t]*$/\t1/' "$scratch/deeper_half/state_maxdiss_window.tsv"
    refused window_sphere_deeper average.t_start "$serial" --config $config "${window[@]}" \
      --restart.from="$scratch/deeper_half"
    # a damaged time series of the saved run: a window sample that is not a number, one missing
    cp -r "$scratch/half" "$scratch/nan_half"
    sed -i '$ s/^\([0-9]*\)\t[^\t]*/\1\tnan/' "$scratch/nan_half/timeseries_maxdiss.tsv"
    refused window_sample_nan restart.from "$serial" --config $config "${window[@]}" --restart.from="$scratch/nan_half"
    cp -r "$scratch/half" "$scratch/short_half"
    sed -i '/^400\t/ d' "$scratch/short_half/timeseries_coulomb.tsv"  # samples 300, 400 lie in the window
    refused window_sample_missing restart.from "$serial" --config $config "${window[@]}" \
      --restart.from="$scratch/short_half"
    cp -r "$scratch/half" "$scratch/no_series_half"
    rm "$scratch/no_series_half/timeseries_maxdiss.tsv"
    refused window_series_not_saved restart.from "$serial" --config $config "${window[@]}" \
      --restart.from="$scratch/no_series_half"
    grep -q 'saved no timeseries_maxdiss.tsv (a channel run writes one for each law among run.laws)' \
      "$scratch/window_series_not_saved.err" || fail "a missing time series: the message does not say how a run writes one"
    ;;
  ranks)
    mpirun=$4 parallel=$5
    "$serial" --config $config --restart.from="$scratch/half" --run.laws=maxdiss --output "$scratch/serial" --quiet
    run_mpi 1 --config $config --restart.from="$scratch/half" --run.laws=maxdiss --output "$scratch/mpi1" --quiet
    same_files "$scratch/serial" "$scratch/mpi1" table2.tsv timeseries_maxdiss.tsv cells_maxdiss.tsv rdf_maxdiss.tsv \
      snapshot_maxdiss.tsv
    run_mpi 2 --config $config --restart.from="$scratch/half" --run.laws=maxdiss --mpi.grid=2,1,1 \
      --compare.with="$scratch/serial" --output "$scratch/mpi2" --quiet
    grep -q 'Table 2 of this run (2 rank' "$scratch/mpi2/run.json" || fail "two ranks: no note comparing with the serial run"
    # the spheres the two ranks start from are the saved ones: the first sample is the state's
    cmp -s <(data "$scratch/serial/timeseries_maxdiss.tsv" | head -1 | cut -f1-3,7,10,11) \
      <(data "$scratch/mpi2/timeseries_maxdiss.tsv" | head -1 | cut -f1-3,7,10,11) ||
      fail "two ranks: the first sample (step, time, spheres, volume fraction, counters) is not the saved state's"
    echo "two ranks go on from the saved state and compare their Table 2 with the serial run's"
    refused side_by_side_over_ranks solver.side_by_side run_mpi 2 --config $config --restart.from="$scratch/half" \
      --mpi.grid=2,1,1 --solver.side_by_side
    # cuts placed by the saved frame's load (mpi.cuts = balanced): recorded, inside the channel,
    # and the two ranks still go on from the saved spheres
    run_mpi 2 --config $config --restart.from="$scratch/half" --run.laws=maxdiss --mpi.grid=2,1,1 --mpi.cuts=balanced \
      --output "$scratch/balanced" --quiet
    cut=$(awk '/"cut_x_1":/ { v = $2; sub(/,$/, "", v); print v; exit }' "$scratch/balanced/run.json")
    length=$(awk -F' *= *' '$1 == "length" { print $2; exit }' $config)
    awk -v c="$cut" -v L="$length" 'BEGIN { exit !(c > 0 && c < L) }' ||
      fail "balanced cuts: the cut recorded ('$cut') does not lie inside the channel (0, $length)"
    cmp -s <(data "$scratch/serial/timeseries_maxdiss.tsv" | head -1 | cut -f1-3,7,10,11) \
      <(data "$scratch/balanced/timeseries_maxdiss.tsv" | head -1 | cut -f1-3,7,10,11) ||
      fail "balanced cuts: the first sample is not the saved state's"
    echo "balanced cuts: x = $cut, the ranks go on from the saved state"
    refused balanced_without_frame mpi.cuts run_mpi 2 --config $config --mpi.grid=2,1,1 --mpi.cuts=balanced
    ;;
  *)
    echo "channel_restart.sh: unknown check '$check'" >&2
    exit 2
    ;;
esac

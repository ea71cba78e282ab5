#!/usr/bin/env bash
# The hidden folders of runs and imports killed midway (SIGKILL, a crash): `.<run id>.partial-<pid>`
# and `.import-<pid>` in the run store. The next run into the store, the next import and cm_prune
# remove those whose process is gone, and nothing else: not the folder of a live process, not a
# name outside the project's grammar of them, not a link.
#   test_stale_partials.sh DEMO TOOLS SCRATCH
# DEMO is cm_demo_study, TOOLS the folder of cm_import and cm_prune.
set -u
source "$(cd "$(dirname "$0")/.." && pwd)/check.sh"
demo=$1 tools=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1

# A pid whose process is gone (a subshell, ended and reaped) and one that lives (this shell).
(:) &
dead=$!
wait "$dead"
live=$$
id=$(printf 'a%.0s' {1..64})
store=results/runs
mkdir -p "$store" results/selftest archive target

# left: the store as a killed run and a killed import leave it, beside what is not theirs.
left() {
  mkdir -p "$store/.import-$dead" "$store/.$id.partial-$dead" "$store/.$id.old-$dead"
  echo data > "$store/.$id.partial-$dead/rows.tsv"
  mkdir -p "$store/.import-$live" "$store/.$id.partial-$live"
  mkdir -p "$store/.import-0$dead" "$store/.import-${dead}x" "$store/.notes.partial-$dead" "$store/.$id.partial-"
  ln -sfn "$scratch/target" "$store/.import-9$dead"
}
# swept WHO: the dead process's folders are gone, every other entry is there.
swept() {
  local who=$1
  check "${who}_removes_a_dead_import" test ! -e "$store/.import-$dead"
  check "${who}_removes_a_dead_partial_run" test ! -e "$store/.$id.partial-$dead"
  check "${who}_removes_a_dead_old_run" test ! -e "$store/.$id.old-$dead"
  check "${who}_keeps_a_live_import" test -d "$store/.import-$live"
  check "${who}_keeps_a_live_partial_run" test -d "$store/.$id.partial-$live"
  for other in ".import-0$dead" ".import-${dead}x" ".notes.partial-$dead" ".$id.partial-" ".import-9$dead"; do
    check "${who}_keeps_${other//[^a-z]/_}" test -e "$store/$other" -o -L "$store/$other"
  done
  check "${who}_keeps_the_link_target" test -d target
}

left
"$tools/cm_prune" --results=results --archives=archive --dry-run > prune_dry.out; rc=$?
check "prune_dry_run_exit_0" test $rc -eq 0
check "prune_dry_run_names_the_dead_import" grep -q "would remove $store/.import-$dead:" prune_dry.out
check "prune_dry_run_removes_nothing" test -d "$store/.import-$dead"
"$tools/cm_prune" --results=results --archives=archive > prune.out; rc=$?
check "prune_exit_0" test $rc -eq 0
swept prune

left
"$demo" --output results/selftest/demo --output.store="$store" --quiet; rc=$?
check "run_exit_0" test $rc -eq 0
swept run

left
head -c 100 /dev/urandom > "archive/$(printf '0%.0s' {1..64}).tar.gz"
"$tools/cm_import" --archive="archive/$(printf '0%.0s' {1..64}).tar.gz" --results=results > import.out 2>&1; rc=$?
check "import_of_a_damaged_record_exit_65" test $rc -eq 65
swept import
check "import_leaves_no_folder_of_its_own" test -z "$(find "$store" -maxdepth 1 -name '.import-*' ! -name ".import-$live" \
  ! -name ".import-0$dead" ! -name ".import-${dead}x" ! -name ".import-9$dead")"
summary

#!/usr/bin/env bash
# The study kit on a real process (cm_demo_study): what a user's shell can do to a run.
#   test_kit.sh DEMO SCRATCH
set -u
demo=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1
failures=0 cases=0
check() {  # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  cases=$((cases + 1))
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
no_leftovers() { [ -z "$(find . -name '.*partial*' -o -name '.*.old-*' | head -1)" ]; }
committed() { [ -f "$1/run.json" ] && grep -q '"study": "demo"' "$1/run.json"; }
wait_for_partial() { for _ in $(seq 100); do [ -n "$(find . -name '.*partial-*' | head -1)" ] && return 0; sleep 0.05; done; return 1; }

# A SIGKILL leaves the hidden partial run; the next run of the same study removes it.
"$demo" --demo.sleep=5 --output k/run --quiet & pid=$!
wait_for_partial; kill -9 $pid; wait $pid 2>/dev/null
check "sigkill_leaves_a_hidden_partial" test -n "$(find k -name '.run.partial-*')"
"$demo" --output k/run --quiet
check "next_run_removes_the_leftover" no_leftovers
check "next_run_commits" committed k/run

# SIGTERM and SIGHUP remove the partial run; under nohup SIGHUP is ignored and the run completes.
"$demo" --demo.sleep=5 --output t/run --quiet & pid=$!
wait_for_partial; kill -TERM $pid; wait $pid; rc=$?
check "sigterm_ends_the_run" test $rc -ne 0
check "sigterm_leaves_nothing" test ! -e t/run -a -z "$(find t -name '.*' -mindepth 1 2>/dev/null)"
nohup "$demo" --demo.sleep=1 --output h/run --quiet >/dev/null 2>&1 & pid=$!
wait_for_partial; kill -HUP $pid; wait $pid; rc=$?
check "nohup_keeps_sighup_ignored" test $rc -eq 0
check "nohup_run_commits" committed h/run

# A closed pipe on stdout neither kills a run nor leaves a partial.
"$demo" --demo.print=200000 --output p/run --quiet | head -1 >/dev/null
rc=${PIPESTATUS[0]}
check "sigpipe_exit_status_0" test $rc -eq 0
check "sigpipe_run_commits" committed p/run
check "sigpipe_no_leftovers" no_leftovers

# Two runs racing for one output both succeed; one complete run remains.
"$demo" --demo.rows=20000 --output r/run --quiet & a=$!
"$demo" --demo.rows=20000 --output r/run --quiet & b=$!
wait $a; ra=$?; wait $b; rb=$?
check "race_both_succeed" test $ra -eq 0 -a $rb -eq 0
check "race_one_complete_run" committed r/run
check "race_no_leftovers" no_leftovers

# The wall time counts from the program's start (the demo sleeps 0.3 s before it writes).
"$demo" --demo.sleep=0.3 --output w/demo --quiet
wall=$(sed -n 's/^  "wall_time_s": \([0-9.e+-]*\),$/\1/p' w/demo/run.json)
check "wall_time_counts_from_the_start" awk -v w="$wall" 'BEGIN { exit !(w >= 0.3) }'

# The run id: a no_data key does not change it, the study name does, the data do.
"$demo" --demo.threads=1 --output i1/demo --quiet
"$demo" --demo.threads=8 --output i2/demo --quiet
"$demo" --run.study=other --output i3/demo --quiet
id() { sed -n 's/^  "run_id": "\([0-9a-f]*\)",$/\1/p' "$1/run.json"; }
check "threads_do_not_change_the_id" test "$(id i1/demo)" = "$(id i2/demo)"
check "threads_do_not_change_the_data" cmp -s i1/demo/rows.tsv i2/demo/rows.tsv
check "the_study_changes_the_id" test "$(id i1/demo)" != "$(id i3/demo)"
check "the_id_is_a_sha256" test "$(id i1/demo | wc -c)" -eq 65
check "the_study_comes_from_the_key" grep -q '"study": "other"' i3/demo/run.json

# Replacing: an earlier run of the same study yes; the same study with a user's file in it, no.
"$demo" --demo.rows=5 --output i1/demo --quiet
check "an_earlier_run_is_replaced" grep -q '"rows"' i1/demo/run.json
echo mine > i1/demo/notes.txt
"$demo" --output i1/demo --quiet 2>/dev/null; rc=$?
check "a_run_with_a_user_file_is_refused" test $rc -eq 2 -a -f i1/demo/notes.txt
"$demo" --output i3/demo --quiet 2>/dev/null; rc=$?
check "another_study_is_refused" test $rc -eq 2 && check "another_study_untouched" grep -q '"study": "other"' i3/demo/run.json

# Budgets: a planned table over output.max_rows is refused before anything is written, naming the key.
err=$("$demo" --demo.rows=1e12 --output b/run --quiet 2>&1); rc=$?
check "budget_refused_with_2" test $rc -eq 2
check "budget_names_the_key" grep -q "demo.rows" <<<"$err"
check "budget_leaves_nothing" test ! -e b
"$demo" --demo.rows=100 --output.max_rows=50 --output b2/run --quiet 2>/dev/null; rc=$?
check "budget_key_lowers_the_limit" test $rc -eq 2 -a ! -e b2

# An output inside folders that do not exist yet: created, and removed again when the run fails.
"$demo" --demo.rows=100 --output.max_rows=50 --output deep/er/run --quiet 2>/dev/null
check "created_folders_removed_on_failure" test ! -e deep

# The run store (output.store): the run is kept as <store>/<run id>, the output is a relative link
# to it; a newer run of the study moves the link and the older run stays retrievable by its id.
"$demo" --output s/res/demo --output.store=s/runs --quiet
first=$(id s/res/demo)
check "store_output_is_a_link" test -L s/res/demo
check "store_link_is_relative" test "$(readlink s/res/demo)" = "../runs/$first"
check "store_entry_named_by_its_id" committed "s/runs/$first"
"$demo" --output s/res/demo --output.store=s/runs --demo.value=2.5 --quiet
second=$(id s/res/demo)
check "store_rerun_has_a_new_id" test "$first" != "$second"
check "store_link_moves_to_the_new_run" test "$(readlink s/res/demo)" = "../runs/$second"
check "store_keeps_the_first_run" grep -q $'^0\t1.5$' "s/runs/$first/rows.tsv"
check "store_no_leftovers" no_leftovers
# A link that is not a pointer into the store, and a user's file, are refused and left untouched.
mkdir -p s/mine && ln -s ../mine s/res/other
"$demo" --output s/res/other --output.store=s/runs --quiet 2>/dev/null; rc=$?
check "store_foreign_link_refused" test $rc -eq 2 -a "$(readlink s/res/other)" = "../mine"
echo mine > s/res/file
"$demo" --output s/res/file --output.store=s/runs --quiet 2>/dev/null; rc=$?
check "store_user_file_refused" test $rc -eq 2 -a "$(cat s/res/file)" = "mine"
# A pointer naming another study's run in the store is refused.
"$demo" --output s/res/demo --output.store=s/runs --run.study=other --quiet 2>/dev/null; rc=$?
check "store_other_study_refused" test $rc -eq 2 -a "$(readlink s/res/demo)" = "../runs/$second"
# An earlier run written in place (before the store) is replaced by the link.
"$demo" --output s/res/old --quiet
"$demo" --output s/res/old --output.store=s/runs --quiet
check "store_replaces_an_in_place_run" test -L s/res/old
# Without the key, a link at the output is refused as before.
"$demo" --output s/res/demo --quiet 2>/dev/null; rc=$?
check "no_store_link_refused" test $rc -eq 2 -a -L s/res/demo

echo "$((cases - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# The study kit on a real process (cm_demo_study): what a user's shell can do to a run.
#   test_kit.sh DEMO SCRATCH
set -u
source "$(cd "$(dirname "$0")/.." && pwd)/check.sh"
demo=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1
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

# A config on a base (`[config] base`, from the config's own folder, a chain of them) is its
# flattened copy: the same data and the same run id; run.json records the file and its bases. A
# cycle of bases and an unknown key in a base are refused (exit 2), naming the file and the key.
mkdir -p layer/sub
printf '[demo]\nrows = 4\nvalue = 2\n' >layer/base.ini
printf '[config]\nbase = base.ini\n[demo]\nvalue = 2.5\n' >layer/middle.ini
printf '[config]\nbase = ../middle.ini  # two levels up the chain\n[demo]\nthreads = 3\n' >layer/sub/top.ini
printf '[demo]\nrows = 4\nvalue = 2.5\nthreads = 3\n' >layer/flat.ini
"$demo" --config layer/sub/top.ini --output l1/demo --quiet
"$demo" --config layer/flat.ini --output l2/demo --quiet
check "a_layered_config_has_the_id_of_its_flattened_copy" test -n "$(id l1/demo)" -a "$(id l1/demo)" = "$(id l2/demo)"
check "a_layered_config_has_the_data_of_its_flattened_copy" cmp -s l1/demo/rows.tsv l2/demo/rows.tsv
check "the_base_gives_the_rows" test "$(grep -vc '^#' l1/demo/rows.tsv)" -eq 4
check "run_json_records_the_file_and_its_bases" grep -q '"config":{"file":"layer/sub/top.ini","bases":\["layer/middle.ini","layer/base.ini"\]' \
  <(tr -d ' \n' <l1/demo/run.json)
"$demo" --config layer/sub/top.ini --demo.value=3 --output l3/demo --quiet
check "the_command_line_overrides_the_bases" test "$(id l3/demo)" != "$(id l1/demo)"
printf '[config]\nbase = cycle_b.ini\n' >layer/cycle_a.ini
printf '[demo]\nrows = 2\n[config]\nbase = cycle_a.ini\n' >layer/cycle_b.ini
err=$("$demo" --config layer/cycle_a.ini --output l4/demo --quiet 2>&1); rc=$?
check "a_cycle_of_bases_is_refused_with_2" test $rc -eq 2 -a ! -e l4
check "a_cycle_names_the_file_and_key" grep -q 'layer/cycle_b.ini:4: config.base' <<<"$err"
printf '[demo]\nrows = 2\nvalu = 2\n' >layer/bad_base.ini
printf '[config]\nbase = bad_base.ini\n' >layer/on_bad_base.ini
err=$("$demo" --config layer/on_bad_base.ini --output l5/demo --quiet 2>&1); rc=$?
check "an_unknown_key_in_a_base_is_refused_with_2" test $rc -eq 2 -a ! -e l5
check "an_unknown_key_in_a_base_names_file_line_key" grep -q "layer/bad_base.ini:3: unknown key 'demo.valu'" <<<"$err"

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

summary

#!/usr/bin/env bash
# Runs kept by id, archived, verified and cited, on the demonstration study of the kit:
#   test_archive.sh DEMO TOOLS SCRATCH
# DEMO is cm_demo_study, TOOLS the folder of cm_archive, cm_verify, cm_cite and cm_prune.
#   - a run made, its config changed, re-run: the first run is still retrievable and verifiable
#     by its id, and citable;
#   - the archive id is the SHA-256 of its manifest; archiving twice gives the same id; the archive
#     verifies (exit 0);
#   - one byte flipped in an archived data file: verification names the damaged file (exit 65,
#     distinct from drift) and re-runs nothing; a drifting solver gives exit 1 and names where;
#   - a run that goes on from another is named by the run it read: two origins give two ids, one
#     origin at two paths one id, and run.json lists it under `reads`;
#   - make prune keeps what a study names, what is pinned, what is archived and what a kept run
#     read, and nothing else.
set -u
source "$(cd "$(dirname "$0")/.." && pwd)/check.sh"
demo=$1 tools=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1
id() { sed -n 's/^  "run_id": "\([0-9a-f]*\)",$/\1/p' "$1/run.json"; }
mkdir -p bin configs/selftest && cp "$demo" bin/cm_demo_study
printf '[demo]\nrows = 4\nvalue = 1.5\n' > configs/selftest/demo.ini
printf 'selftest\tA demonstration of the kit (no article)\n' > papers.tsv
study() { bin/cm_demo_study --config configs/selftest/demo.ini --output results/selftest/demo --output.store=results/runs --quiet "$@"; }
archive() { "$tools/cm_archive" --papers-file=papers.tsv --results=results --reports=reports --configs=configs --archives=archive; }

# A run, archived.
study
first=$(id results/selftest/demo)
out=$(archive); rc=$?
check "archive_written" test $rc -eq 0
archive_id=$(sed -n 's/^archive \([0-9a-f]*\):.*/\1/p' <<<"$out")
mkdir named && tar -xzf "archive/$archive_id.tar.gz" -C named
check "archive_named_by_its_manifest" test "$(sha256sum named/cm-archive/manifest.json | cut -c1-64)" = "$archive_id"
check "archive_index_lists_the_run" grep -q "^$archive_id	$first	selftest/demo$" archive/index.tsv
out2=$(archive)
check "archiving_twice_gives_the_same_id" test "$(sed -n 's/^archive \([0-9a-f]*\):.*/\1/p' <<<"$out2")" = "$archive_id"
check "archiving_twice_one_archive" test "$(ls archive/*.tar.gz | wc -l)" -eq 1
tar -xzf "archive/$archive_id.tar.gz" -C . 
check "archive_holds_the_manifest" test -f cm-archive/manifest.json -a -f cm-archive/SHA256SUMS
check "archive_holds_the_citation" test -f cm-archive/CITATION.cff -a -f cm-archive/.zenodo.json -a -f cm-archive/papers/selftest.json
check "archive_holds_the_config" cmp -s cm-archive/configs/selftest/demo.ini configs/selftest/demo.ini
check "archive_manifest_sums" bash -c "cd cm-archive && sha256sum --quiet -c SHA256SUMS"

# The config changed, the study re-run: the pointer moves, the first run stays retrievable by id.
printf '[demo]\nrows = 4\nvalue = 2.5\n' > configs/selftest/demo.ini
study
second=$(id results/selftest/demo)
check "rerun_has_a_new_id" test "$first" != "$second"
check "first_run_retrievable_by_id" grep -q '"demo.value": "1.5"' "results/runs/$first/run.json"
"$tools/cm_verify" --archive="archive/$archive_id.tar.gz" --bin=bin --scratch=v1 > verify.out; rc=$?
cat verify.out
check "first_run_verifies_after_the_change" test $rc -eq 0
check "verify_table_says_reproduces" grep -q "^REPRODUCES *selftest/demo *${first:0:16}" verify.out
"$tools/cm_cite" --run="${first:0:12}" --results=results --archives=archive > cite.out; rc=$?
check "cite_exit_0" test $rc -eq 0
check "cite_bibtex_names_run_and_archive" grep -q "Run id $first.*archive $archive_id" cite.out
check "cite_plain_text" grep -q "^The contact mechanics reproductions project .*run id $first" cite.out
"$tools/cm_cite" --run=0000000000000000 --results=results --archives=archive 2>/dev/null; rc=$?
check "cite_unknown_run_is_bad_input" test $rc -eq 2

# One byte flipped in an archived data file: named, exit 65, nothing re-run.
cp -r cm-archive flipped-src && mkdir flipped && mv flipped-src flipped/cm-archive
file="flipped/cm-archive/runs/$first/rows.tsv"
byte=$(tail -c 2 "$file" | head -c 1)
printf '%s' "$([ "$byte" = 5 ] && echo 6 || echo 5)" | dd of="$file" bs=1 seek=$(($(stat -c %s "$file") - 2)) conv=notrunc status=none
"$tools/cm_verify" --archive=flipped --id="$archive_id" --bin=bin --scratch=v2 > flip.out; rc=$?
cat flip.out
check "flipped_byte_exit_65" test $rc -eq 65
check "flipped_byte_names_the_file" grep -q "^DAMAGED runs/$first/rows.tsv: changed" flip.out
check "flipped_byte_nothing_rerun" test ! -e v2/reruns
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C flipped -czf flipped.tar.gz cm-archive
"$tools/cm_verify" --archive=flipped.tar.gz --id="$archive_id" --bin=bin --scratch=v3 > flip2.out; rc=$?
check "flipped_byte_in_a_tarball_exit_65" test $rc -eq 65
cp "archive/$archive_id.tar.gz" "$(printf 'f%.0s' {1..64}).tar.gz"
"$tools/cm_verify" --archive="$(printf 'f%.0s' {1..64}).tar.gz" --bin=bin --scratch=v4 > name.out; rc=$?
check "archive_id_not_its_hash_exit_65" test $rc -eq 65
rm -rf flipped/cm-archive/configs && "$tools/cm_verify" --archive=flipped --id="$archive_id" --bin=bin --scratch=v5 > missing.out; rc=$?
check "missing_file_named" grep -q "^DAMAGED configs/selftest/demo.ini: missing" missing.out

# Drift: a solver whose data moved is named with the file and column (exit 1, not 65).
mkdir -p drift
printf '#!/bin/sh\n"%s" "$@" || exit $?\nwhile [ $# -gt 0 ]; do [ "$1" = --output ] && out=$2; shift; done\nsed -i "s/\t1.5$/\t1.50001/" "$out/rows.tsv"\n' \
  "$PWD/bin/cm_demo_study" > drift/cm_demo_study && chmod +x drift/cm_demo_study
"$tools/cm_verify" --archive="archive/$archive_id.tar.gz" --bin=drift --scratch=v6 > drift.out; rc=$?
cat drift.out
check "drift_exit_1" test $rc -eq 1
check "drift_names_file_and_column" grep -q "^DRIFT .*rows.tsv column value" drift.out
# A run of record (--batch_means): data that differ are verified when every average with a
# standard error (the demo's mean, se_mean 1 % of it) agrees within 3 combined errors (WITHIN-ERROR,
# exit 0), and not when one is 6.7 away (DRIFT, exit 1); without --batch_means both drift.
moved() {  # folder, new mean: a solver whose rows and mean moved to that value (its demo.value)
  mkdir -p "$1"
  printf '#!/bin/sh\nfor a; do shift; case $a in --demo.value=*) a=--demo.value=%s;; esac; set -- "$@" "$a"; done\nexec "%s" "$@"\n' \
    "$2" "$PWD/bin/cm_demo_study" >"$1/cm_demo_study"
  chmod +x "$1/cm_demo_study"
}
moved near 1.52  # 0.02 from 1.5, combined error sqrt(0.015^2 + 0.0152^2) = 0.0214: 0.9 of it
moved far 1.65   # 0.15 away, combined error sqrt(0.015^2 + 0.0165^2) = 0.0223: 6.7 of it
"$tools/cm_verify" --archive="archive/$archive_id.tar.gz" --bin=near --scratch=v7 --batch_means > near.out; rc=$?
cat near.out
check "batch_means_near_exit_0" test $rc -eq 0
check "batch_means_near_within_error" grep -q "^WITHIN-ERROR .*scalar mean" near.out
"$tools/cm_verify" --archive="archive/$archive_id.tar.gz" --bin=far --scratch=v8 --batch_means > far.out; rc=$?
cat far.out
check "batch_means_far_exit_1" test $rc -eq 1
check "batch_means_far_drift" grep -q "^DRIFT .*average with a batch-means error: largest 6.73 of 3" far.out
"$tools/cm_verify" --archive="archive/$archive_id.tar.gz" --bin=near --scratch=v9 > tight.out; rc=$?
check "no_batch_means_near_drifts" test $rc -eq 1
"$tools/cm_verify" --archive=no_such.tar.gz --bin=bin 2>/dev/null; rc=$?
check "verify_missing_archive_exit_2" test $rc -eq 2

# Provenance: a run that goes on from another is named by what it read.
bin/cm_demo_study --config configs/selftest/demo.ini --output p/o1 --quiet
bin/cm_demo_study --config configs/selftest/demo.ini --demo.rows=6 --output p/o2 --quiet
bin/cm_demo_study --config configs/selftest/demo.ini --demo.from=p/o1 --output p/c1 --quiet
bin/cm_demo_study --config configs/selftest/demo.ini --demo.from=p/o2 --output p/c2 --quiet
cp -r p/o1 p/o1-moved
bin/cm_demo_study --config configs/selftest/demo.ini --demo.from=p/o1-moved --output p/c3 --quiet
check "two_origins_two_run_ids" test "$(id p/c1)" != "$(id p/c2)"
check "two_origins_two_data" test "$(grep -v '^#' p/c1/rows.tsv | head -1 | cut -f1)" = 4 -a \
  "$(grep -v '^#' p/c2/rows.tsv | head -1 | cut -f1)" = 6
check "one_origin_at_two_paths_one_run_id" test "$(id p/c1)" = "$(id p/c3)"
# Another frame at the same path (the origin run again, longer): another id, where the path alone
# gave the same id to different data.
bin/cm_demo_study --config configs/selftest/demo.ini --output p/o --quiet
bin/cm_demo_study --config configs/selftest/demo.ini --demo.from=p/o --output p/c4 --quiet
bin/cm_demo_study --config configs/selftest/demo.ini --demo.rows=6 --output p/o --quiet
bin/cm_demo_study --config configs/selftest/demo.ini --demo.from=p/o --output p/c5 --quiet
check "another_origin_at_the_same_path_another_run_id" test "$(id p/c4)" != "$(id p/c5)"
check "run_json_lists_what_it_read" grep -A3 '"reads"' p/c1/run.json | grep -q "$(id p/o1)"

# Prune: the current run (named), the first (archived) and a pinned one stay; an older unarchived run goes.
study --demo.rows=5
third=$(id results/selftest/demo)
study --demo.rows=6
fourth=$(id results/selftest/demo)
mkdir -p results/pinned && touch "results/pinned/$third"
study --demo.rows=7
origin=$(id results/selftest/demo)
study --demo.rows=7 --demo.from="results/runs/$origin"
fifth=$(id results/selftest/demo)
mkdir results/runs/not-a-run
"$tools/cm_prune" --results=results --archives=archive > prune.out; rc=$?
cat prune.out
check "prune_exit_0" test $rc -eq 0
check "prune_keeps_the_archived_run" test -d "results/runs/$first"
check "prune_keeps_the_pinned_run" test -d "results/runs/$third"
check "prune_keeps_the_current_run" test -d "results/runs/$fifth"
check "prune_keeps_the_run_a_kept_run_read" test -d "results/runs/$origin"
check "prune_removes_the_unkept" test ! -e "results/runs/$second" -a ! -e "results/runs/$fourth"
check "prune_leaves_what_is_not_a_run" test -d results/runs/not-a-run

summary

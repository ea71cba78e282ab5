#!/usr/bin/env bash
# A run of record, end to end on the quick steady pair (configs/maxdiss/quick/steady_settle.ini,
# then quick/steady.ini): made and archived by `make channel-steady QUICK=1` into records/, imported
# by make into a fresh tree as make all does, compared and reported from there; then damaged and
# hostile records refused. The record is made here, in the scratch, never committed.
#   - make all's plan imports it before the comparison and never runs its study; an index line of
#     another grammar, a record of a study of make all or of no paper, or one not there stops make;
#   - the record imports into a tree without results: results/maxdiss/channel_steady links to
#     results/runs/<run id>, every file as archived; again, it is kept (no second copy);
#   - Table 2's rows and P49 are compared from it (study channel_steady); without it they are a
#     missing run (the committed record gone), and before a study's first record NOT-REPRODUCED-YET,
#     which is no failure;
#   - the parts of a run made in parts are kept apart from the studies' runs (results/parts), which
#     the comparison reads;
#   - it is cited with its archive (make cite reads records/index.tsv too);
#   - the report names its run id, archive id, revision, machine and hours, and says when the
#     record was made at another revision than this build's;
#   - a damaged record (a byte flipped, a file missing) and a hostile one (a manifest path out of
#     its folder, a member through "..", a link) are refused with exit 65 naming the file, by make
#     too, leaving nothing behind (no run, no link, no folder of the import) and re-running nothing
#     (make's md_channel is a stub that would say so);
#   - a run folder or a user's folder at results/maxdiss/channel_steady, a store entry of that id
#     that differs, and an index line naming another run are refused (exit 2), untouched;
#   - make verify of the record without the settle run it went on from names what it needs
#     (NO-ORIGIN, exit 1, nothing run), and with that run in the store reproduces.
#
#   record_import.sh <md_channel> <folder of the tools> <scratch>
set -u
source "$(cd "$(dirname "$0")/.." && pwd)/check.sh"
source "$(cd "$(dirname "$0")" && pwd)/channel_lib.sh"  # data, scalars
md_channel=$1 tools=$2 scratch=$3
source_dir=$PWD
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1
bin=$(dirname "$md_channel")

# A tree as a clone has it: make's files and the configs, and make's programs in BIN.
tree() {
  mkdir -p "$1" && ln -s "$source_dir/Makefile" "$1/Makefile" && ln -s "$source_dir/pipeline" "$1/pipeline" &&
    ln -s "$source_dir/configs" "$1/configs"
}
# make in a tree, its programs already built (-o programs, -o build: never rebuilt here).
mk() { local dir=$1; shift; make --no-print-directory -C "$dir" -o programs -o build "$@"; }
# A BIN where every solver is a stub that leaves a trace, and the import tool is the real one.
mkdir -p stubbin
for tool in "$tools"/cm_*; do ln -s "$tool" "stubbin/$(basename "$tool")"; done
printf '#!/bin/sh\ntouch "%s/RERUN"\nexit 3\n' "$PWD" > stubbin/md_channel && chmod +x stubbin/md_channel
not_rerun() { [ ! -e RERUN ]; }

# The record, made by the target of record from the quick presets.
tree maker
mk maker channel-steady QUICK=1 BIN="$bin" > maker.out 2>&1; rc=$?
check "channel_steady_quick_exit_0" test $rc -eq 0
[ $rc -eq 0 ] || cat maker.out
line=$(cat maker/records/index.tsv)
archive_id=$(cut -f1 <<<"$line") run_id=$(cut -f2 <<<"$line")
record=records/$archive_id.tar.gz
check "record_index_line" test "$(cut -f3 <<<"$line")" = maxdiss/channel_steady
check "record_named_by_its_manifest" test "$(tar -xzOf "maker/$record" cm-archive/manifest.json | sha256sum | cut -c1-64)" = "$archive_id"
check "record_holds_no_frame" bash -c "! tar -tzf maker/$record | grep -q state_"

# The record made in parts by the targets of parts (the settle run in two, the window in two, each
# going on from the last) is the record made whole: the same data and scalars.
tree parts
{
  mk parts channel-settle-part QUICK=1 BIN="$bin" SETTLE_UNTIL=0.002 &&
    mk parts channel-settle-rest QUICK=1 BIN="$bin" SETTLE_FROM=results/parts/maxdiss/channel_settle_to_0.002 &&
    mk parts channel-steady-part QUICK=1 BIN="$bin" STEADY_UNTIL=0.0065 &&
    mk parts channel-steady-rest QUICK=1 BIN="$bin" STEADY_FROM=results/parts/maxdiss/channel_steady_to_0.0065
} > parts.out 2>&1; rc=$?
check "record_in_parts_exit_0" test $rc -eq 0
[ $rc -eq 0 ] || cat parts.out
same_record() {
  local a=maker/results/record/maxdiss/channel_steady b=parts/results/record/maxdiss/channel_steady f
  for f in "$a"/*.tsv; do cmp -s <(data "$f") <(data "$b/$(basename "$f")") || return 1; done
  [ "$(scalars "$a" | wc -l)" -gt 20 ] && cmp -s <(scalars "$a") <(scalars "$b")
}
check "record_in_parts_is_the_record_whole" same_record
check "record_in_parts_archived" test "$(wc -l <parts/records/index.tsv)" -eq 1
# the parts are runs of channel_settle and channel_steady under other names: kept out of
# results/maxdiss, whose runs the comparison and the report read (a run in the folder of another
# study is refused there, exit 2)
check "parts_kept_apart" test -d parts/results/parts/maxdiss/channel_steady_to_0.0065 -a \
  ! -e parts/results/maxdiss/channel_steady_to_0.0065
status=0
"$tools/cm_compare" --published="$source_dir/configs/maxdiss/published.tsv" --results=parts/results/maxdiss \
  --out=parts/comparison.tsv > parts_compare.out 2>&1 || status=$?
check "parts_leave_the_comparison_readable" test $status -le 1

# A fresh tree: the record imported as make all does, never re-run.
tree fresh && cp -r maker/records fresh/
mk fresh results/maxdiss/channel_steady/run.json BIN="$PWD/stubbin" > import.out 2>&1; rc=$?
cat import.out
check "import_exit_0" test $rc -eq 0
check "import_links_the_study" test "$(readlink fresh/results/maxdiss/channel_steady)" = "../runs/$run_id"
check "import_run_as_archived" cmp -s "fresh/results/runs/$run_id/run.json" "maker/results/runs/$run_id/run.json"
check "import_data_as_archived" cmp -s "fresh/results/runs/$run_id/table2.tsv" "maker/results/runs/$run_id/table2.tsv"
check "import_leaves_no_folder_of_its_own" test -z "$(find fresh/results -name '.import-*')"
check "import_reruns_nothing" not_rerun
mk fresh results/maxdiss/channel_steady/run.json BIN="$PWD/stubbin" > import2.out 2>&1
check "import_once" grep -q "is up to date" import2.out
"$tools/cm_import" --archive="fresh/$record" --results=fresh/results > import3.out 2>&1; rc=$?
check "import_again_keeps_the_run" test $rc -eq 0 -a "$(ls fresh/results/runs | wc -l)" -eq 1
check "import_again_says_so" grep -q "in the run store already" import3.out
# The maker's own store holds the run already (make channel-steady made it): kept, not copied.
mk maker results/maxdiss/channel_steady/run.json BIN="$PWD/stubbin" > import4.out 2>&1; rc=$?
check "import_where_the_run_was_made" test $rc -eq 0

# make all's plan: the record imported before the paper's comparison, its study never run.
tree plan && cp -r maker/records plan/
mk plan -n reports/maxdiss/comparison.tsv BIN="$bin" > plan.out 2>&1; rc=$?
check "plan_exit_0" test $rc -eq 0
check "plan_imports_the_record" grep -q "cm_import --archive=$record --study=maxdiss/channel_steady --run=$run_id" plan.out
check "plan_compares_after_it" bash -c "grep -n 'cm_import\|cm_compare' plan.out | tail -1 | grep -q cm_compare"
check "plan_never_runs_the_record" bash -c "! grep -q 'md_channel .*steady' plan.out"
check "plan_runs_the_default_channel" grep -q "md_channel --config configs/maxdiss/channel.ini" plan.out
# An index of another grammar, a record of a study of make all, a record that is not there.
index_refused() {
  local name=$1 line=$2 what=$3
  tree "$name" && mkdir -p "$name/records" && printf '%b\n' "$line" > "$name/records/index.tsv"
  mk "$name" results/maxdiss/channel_steady/run.json BIN="$PWD/stubbin" > "$name.out" 2>&1
  local rc=$?
  check "${name}_stops_make" test $rc -ne 0
  check "${name}_named" grep -qF -- "$what" "$name.out"
}
index_refused index_bad_line "$archive_id\t../../x\tmaxdiss/channel_steady" "records/index.tsv:1: not <archive id> TAB"
index_refused index_make_all_study "$archive_id\t$run_id\tmaxdiss/channel" "maxdiss/channel is a study of make all"
index_refused index_no_paper "$archive_id\t$run_id\tnopaper/channel_steady" "'nopaper' of nopaper/channel_steady is not a paper"
index_refused index_record_absent "$archive_id\t$run_id\tmaxdiss/channel_steady" "lists the record $record, which is not there"

# A record is citable by its run id: the citation names its archive (records/index.tsv).
(cd fresh && "$tools/cm_cite" --run="${run_id:0:12}" --results=results --archives=archive,records) > cite.out 2>&1
check "record_cited_with_its_archive" grep -q "Run id $run_id.*archive $archive_id" cite.out

# Table 2 and P49 compared from the record's study; without it, not reproduced yet (no failure).
"$tools/cm_compare" --published="$source_dir/configs/maxdiss/published.tsv" --results=fresh/results/maxdiss \
  --studies=channel_steady --out=compare.tsv > compare.out 2>&1; rc=$?
check "compare_from_the_record_runs" test $rc -eq 0 -o $rc -eq 1
for id in P26 P27 P28 P29 P30 P31 P32 P33 P34 P35 P49; do
  check "compare_${id}_from_the_record" grep -q "^$id	channel_steady/.*	$run_id" compare.tsv
done
check "compare_default_channel_not_in_table_2" test -z "$(awk -F'\t' '$1 ~ /^(P2[6-9]|P3[0-9]|P4[01]|P49)/ && $2 ~ /^channel\//' \
  "$source_dir/configs/maxdiss/published.tsv")"
# Without the record: its rows expect what the committed record gives, so a record gone missing is
# a missing run (exit 1); before a study's first record its rows are NOT-REPRODUCED-YET, no failure
# (published.tsv as it was then: every row of channel_steady so).
mkdir -p empty/maxdiss
"$tools/cm_compare" --published="$source_dir/configs/maxdiss/published.tsv" --results=empty/maxdiss \
  --studies=channel_steady --out=compare_none.tsv > compare_none.out 2>&1; rc=$?
check "record_missing_is_a_missing_run" test $rc -eq 1
check "record_missing_names_the_study" grep -q "MISSING-RUN P26 channel_steady/" compare_none.out
awk -F'\t' -v OFS='\t' '$2 ~ /^channel_steady\// { $11 = "NOT-REPRODUCED-YET"; $12 = $13 = $14 = "-" } 1' \
  "$source_dir/configs/maxdiss/published.tsv" > published_before.tsv
"$tools/cm_compare" --published=published_before.tsv --results=empty/maxdiss \
  --studies=channel_steady --out=compare_before.tsv > compare_before.out 2>&1; rc=$?
check "no_record_yet_no_failure" test $rc -eq 0
check "no_record_yet_not_reproduced_yet" grep -q "^P26	channel_steady/[^	]*	.*NOT-REPRODUCED-YET" compare_before.tsv

# The report names the record; a record of another revision is said to be older than this build.
if command -v pandoc > /dev/null; then
  report() {
    "$tools/cm_report" --paper=maxdiss --results="$1" --comparison=compare.tsv --records=fresh/records/index.tsv \
      --out="$2" --quiet > "$2.out" 2>&1
  }
  report fresh/results/maxdiss report; rc=$?
  check "report_exit_0" test $rc -eq 0
  for text in "## Runs of record" "$run_id" "$archive_id" "on the machine \`$(hostname)\`" " hours (" \
    "made at this build's revision" "compared from it: P26"; do
    check "report_names: $text" grep -qF "$text" report/index.md
  done
  mkdir -p older/maxdiss && cp -r "fresh/results/runs/$run_id" older/maxdiss/channel_steady
  sed -i 's/"revision": "[^"]*"/"revision": "0123456789abcdef0123456789abcdef01234567"/' older/maxdiss/channel_steady/run.json
  report older/maxdiss report_older; rc=$?
  check "report_older_exit_0" test $rc -eq 0
  check "report_says_the_record_is_older" grep -q "older than this build: it was made at revision 0123456789abcdef" \
    report_older/index.md
fi

# Damaged and hostile records: each refused with 65, naming the file, leaving nothing behind.
mkdir -p good && tar -xzf "maker/$record" -C good
reseal() {  # reseal DIR: the manifest's hashes those of the files now; prints the new id
  local top=$1/cm-archive
  python3 - "$top" <<'EOF'
import hashlib, json, os, sys
top = sys.argv[1]
m = json.load(open(os.path.join(top, "manifest.json")))
for f in m["files"]:
    p = os.path.join(top, f["path"])
    if os.path.isfile(p):
        f["sha256"] = hashlib.sha256(open(p, "rb").read()).hexdigest()
        f["bytes"] = os.path.getsize(p)
open(os.path.join(top, "manifest.json"), "w").write(json.dumps(m, indent=2) + "\n")
open(os.path.join(top, "SHA256SUMS"), "w").write("".join(f["sha256"] + "  " + f["path"] + "\n" for f in m["files"]))
EOF
  sha256sum "$top/manifest.json" | cut -c1-64
}
# refused NAME EXPECT WHAT ID: the record ID of records/ (in a copy of the fresh tree as a clone
# has it, before any import) imported by make and by cm_import; both refuse, WHAT named.
refused() {
  local name=$1 expect=$2 what=$3 id=$4
  rm -rf "t_$name" && tree "t_$name" && mkdir -p "t_$name/records" "t_$name/results/runs" &&
    cp "d/$id.tar.gz" "t_$name/records/" &&
    printf '%s\t%s\tmaxdiss/channel_steady\n' "$id" "$run_id" > "t_$name/records/index.tsv" &&
    mkdir -p "t_$name/canary" && echo kept > "t_$name/canary/notes.txt"
  local before
  before=$(cd "t_$name" && find results canary -printf '%y %p %s\n' | sort)
  mk "t_$name" results/maxdiss/channel_steady/run.json BIN="$PWD/stubbin" > "$name.make.out" 2>&1
  local rc=$?
  check "${name}_make_fails" test $rc -ne 0
  check "${name}_make_says_$expect" grep -q "Error $expect" "$name.make.out"
  check "${name}_make_names_it" grep -qF -- "$what" "$name.make.out"
  "$tools/cm_import" --archive="t_$name/records/$id.tar.gz" --results="t_$name/results" > "$name.out" 2>&1
  rc=$?
  check "${name}_exit_$expect" test $rc -eq "$expect"
  check "${name}_names_it" grep -qF -- "$what" "$name.out"
  [ $rc -eq "$expect" ] || cat "$name.out"
  check "${name}_leaves_nothing" test "$(cd "t_$name" && find results canary -printf '%y %p %s\n' | sort)" = "$before"
  check "${name}_reruns_nothing" not_rerun
}
# damage NAME EXPECT WHAT EDIT [reseal]: a copy of the good record changed by EDIT (run in its
# cm-archive/), optionally resealed, packed as tar does, then refused.
damage() {
  local name=$1 expect=$2 what=$3 edit=$4 seal=${5:-}
  rm -rf "w/$name" && mkdir -p "w/$name" d && cp -r good/cm-archive "w/$name/" && (cd "w/$name/cm-archive" && "$edit")
  local id=$archive_id
  [ -z "$seal" ] || id=$(reseal "w/$name")
  tar --sort=name --format=gnu -C "w/$name" -czf "d/$id.tar.gz" cm-archive
  refused "$name" "$expect" "$what" "$id"
}
flip() { local f=runs/$run_id/table2.tsv; printf '%s' "$(tail -c 2 "$f" | head -c 1 | tr 0-9 1-90)" |
  dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 2)) conv=notrunc status=none; }
damage flipped_byte 65 "runs/$run_id/table2.tsv: changed" flip
drop() { rm "runs/$run_id/timeseries_maxdiss.tsv"; }
damage missing_file 65 "runs/$run_id/timeseries_maxdiss.tsv: missing" drop
escape() {
  python3 - <<'EOF'
import json
m = json.load(open("manifest.json"))
m["files"].append({"path": "../../escape.txt", "sha256": "0" * 64, "bytes": 0})
open("manifest.json", "w").write(json.dumps(m, indent=2) + "\n")
EOF
}
damage manifest_path_escapes 65 "'../../escape.txt' is not a name the project writes" escape seal
bad_run_id() { sed -i "s/\"run_id\": \"$run_id\"/\"run_id\": \"..\/..\/..\/x\"/" manifest.json; }
damage manifest_run_id_escapes 65 "runs[0].run_id is not a run id" bad_run_id seal
# Members only a tar can hold: a name through "..", a symbolic link.
python3 - "$archive_id" good/cm-archive d <<'EOF'
import io, os, sys, tarfile
archive_id, top, out = sys.argv[1:4]
def pack(name, extra):
    with tarfile.open(os.path.join(out, name), "w:gz", format=tarfile.GNU_FORMAT) as t:
        t.add(top, arcname="cm-archive")
        extra(t)
def dotdot(t):
    info = tarfile.TarInfo("cm-archive/runs/../../../escape.txt"); data = b"escaped\n"; info.size = len(data)
    t.addfile(info, io.BytesIO(data))
def link(t):
    info = tarfile.TarInfo("cm-archive/link"); info.type = tarfile.SYMTYPE; info.linkname = "/etc/passwd"
    t.addfile(info)
os.makedirs(out + "/dotdot", exist_ok=True); os.makedirs(out + "/link", exist_ok=True)
pack("dotdot/%s.tar.gz" % archive_id, dotdot)
pack("link/%s.tar.gz" % archive_id, link)
EOF
mv "d/dotdot/$archive_id.tar.gz" "d/$archive_id.tar.gz" && refused member_through_dotdot 65 "runs/../../../escape.txt" "$archive_id"
mv "d/link/$archive_id.tar.gz" "d/$archive_id.tar.gz" && refused member_link 65 "cm-archive/link': a symbolic link" "$archive_id"
check "nothing_escaped" test -z "$(find . -name escape.txt)"

# What stands at the study's path or in the store is someone's own: refused, untouched.
cp "maker/$record" "d/$archive_id.tar.gz"
tree own && mkdir -p own/results/maxdiss/channel_steady && echo mine > own/results/maxdiss/channel_steady/notes.txt
"$tools/cm_import" --archive="d/$archive_id.tar.gz" --results=own/results > own.out 2>&1; rc=$?
check "own_folder_exit_2" test $rc -eq 2
check "own_folder_named" grep -q "results/maxdiss/channel_steady' is not a link into the run store" own.out
check "own_folder_untouched" test "$(cat own/results/maxdiss/channel_steady/notes.txt)" = mine
check "own_folder_no_run_left" test ! -e "own/results/runs/$run_id"
tree other && mkdir -p "other/results/runs/$run_id" && echo other > "other/results/runs/$run_id/run.json"
"$tools/cm_import" --archive="d/$archive_id.tar.gz" --results=other/results > other.out 2>&1; rc=$?
check "other_store_entry_exit_2" test $rc -eq 2
check "other_store_entry_named" grep -q "holds a run $run_id whose .* is not the record's" other.out
check "other_store_entry_untouched" test "$(cat "other/results/runs/$run_id/run.json")" = other
"$tools/cm_import" --archive="d/$archive_id.tar.gz" --results=fresh/results --study=maxdiss/channel_steady \
  --run="$(printf 'e%.0s' {1..64})" > wrong_run.out 2>&1; rc=$?
check "index_names_another_run_exit_2" test $rc -eq 2
check "index_names_another_run_named" grep -q "^cm_import: error: run: .*the record index and the record disagree" wrong_run.out

# make verify of the record: without the settle run it went on from, what is needed is named and
# nothing runs; with it in the store (where make channel-steady made it), it reproduces.
mk fresh verify ARCHIVE="$record" BIN="$bin" > verify_fresh.out 2>&1; rc=$?
cat verify_fresh.out
check "verify_without_origin_exit_nonzero" test $rc -ne 0
check "verify_without_origin_names_it" grep -q "^NO-ORIGIN .*maxdiss/channel_steady.*restart.from = results/maxdiss/channel_settle.*make channel-settle" verify_fresh.out
mk maker verify ARCHIVE="$record" BIN="$bin" > verify_maker.out 2>&1; rc=$?
cat verify_maker.out
check "verify_with_origin_exit_0" test $rc -eq 0
check "verify_with_origin_reproduces" grep -q "^REPRODUCES .*maxdiss/channel_steady" verify_maker.out

summary

#!/usr/bin/env bash
# Hostile archives: verifying an archive from elsewhere never touches anything outside the scratch.
#   test_hostile_archive.sh DEMO TOOLS SCRATCH SOURCE
# DEMO is cm_demo_study, TOOLS the folder of cm_archive and cm_verify, SOURCE the project's root
# (for `make verify`, `make cite` and `make pin`, run without building).
#
# Each case starts from a good archive of the demonstration study, changes it as an attacker would
# and, where the change touches the manifest, reseals it: every hash and size made that of the
# files as they now are, SHA256SUMS rewritten, and the archive named by the new manifest's SHA-256,
# so that only the checks of names, links, members and budgets stand between it and the reader.
# Every case is verified twice, as a tar.gz and as an unpacked folder (a member that only a tar
# can hold, only as a tar.gz), into a scratch beside a canary folder. Each must exit as expected
# (65 damaged, 2 bad input) and leave the canary byte for byte as it was.
set -u
source "$(cd "$(dirname "$0")/.." && pwd)/check.sh"
demo=$1 tools=$2 scratch=$3 source=$4
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1

# A good archive of two runs of the demonstration study (one goes on from the other).
mkdir -p bin configs/selftest && cp "$demo" bin/cm_demo_study
printf '[demo]\nrows = 4\nvalue = 1.5\n' > configs/selftest/demo.ini
printf 'selftest\tA demonstration of the kit (no article)\n' > papers.tsv
bin/cm_demo_study --config configs/selftest/demo.ini --output results/selftest/demo --output.store=results/runs --quiet
out=$("$tools/cm_archive" --papers-file=papers.tsv --results=results --reports=reports --configs=configs --archives=archive)
good_id=$(sed -n 's/^archive \([0-9a-f]*\):.*/\1/p' <<<"$out")
mkdir good && tar -xzf "archive/$good_id.tar.gz" -C good
run_id=$(ls good/cm-archive/runs)
check "good_archive_named_by_its_manifest" test "$(sha256sum good/cm-archive/manifest.json | cut -c1-64)" = "$good_id"
"$tools/cm_verify" --archive="archive/$good_id.tar.gz" --bin=bin --scratch=s_good > good.out; rc=$?
check "good_archive_verifies" test $rc -eq 0
cp -r good "$good_id" && "$tools/cm_verify" --archive="$good_id" --bin=bin --scratch=s_good_dir > good_dir.out; rc=$?
check "good_archive_verifies_unpacked" test $rc -eq 0
rm -rf "$good_id"

# The canary: a folder beside every scratch, as a reader's own files would be.
mkdir -p canary/thesis && echo precious > canary/thesis/thesis.tex && echo kept > canary/notes.txt
snapshot() { (cd canary && find . -printf '%y %p %s %l\n' | sort && find . -type f -exec sha256sum {} + | sort); }
before=$(snapshot)
canary_intact() { [ "$(snapshot)" = "$before" ]; }

# reseal DIR: the manifest's hashes and sizes those of the files of DIR/cm-archive as they are now
# (through links, as a careless tool would), SHA256SUMS rewritten; prints the new archive id.
reseal() {
  local top=$1/cm-archive
  awk -v top="$top" '
    /^      "path": "/ { p = $0; sub(/^      "path": "/, "", p); sub(/",?$/, "", p) }
    /^      "sha256": "/ && p != "" {
      cmd = "sha256sum \"" top "/" p "\" 2>/dev/null | cut -c1-64"; h = ""; cmd | getline h; close(cmd)
      if (h != "") sub(/"[0-9a-f]*"/, "\"" h "\"")
    }
    /^      "bytes": [0-9]/ && p != "" {
      cmd = "stat -L -c %s \"" top "/" p "\" 2>/dev/null"; b = ""; cmd | getline b; close(cmd)
      if (b != "") sub(/[0-9]+/, b)
      p = ""
    }
    { print }' "$top/manifest.json" > "$top/manifest.new" && mv "$top/manifest.new" "$top/manifest.json"
  awk '/^      "path": "/ { p = $0; sub(/^      "path": "/, "", p); sub(/",?$/, "", p) }
       /^      "sha256": "/ && p != "" { h = $0; sub(/^      "sha256": "/, "", h); sub(/",?$/, "", h); print h "  " p }' \
    "$top/manifest.json" > "$top/SHA256SUMS"
  sha256sum "$top/manifest.json" | cut -c1-64
}

# hostile NAME EXPECT EDIT [VERIFY-ARGS...]: a copy of the good archive changed by the function
# EDIT (run inside the copy's cm-archive/) and resealed, verified as a tar.gz and as a folder.
hostile() {
  local name=$1 expect=$2 edit=$3
  shift 3
  mkdir -p "h/$name" && cp -r good/cm-archive "h/$name/" || return
  (cd "h/$name/cm-archive" && "$edit")
  local id
  id=$(reseal "h/$name")
  tar --sort=name --format=gnu -C "h/$name" -czf "h/$id.tar.gz" cm-archive 2>/dev/null
  "$tools/cm_verify" --archive="h/$id.tar.gz" --bin=bin --scratch="w/$name.tgz" "$@" > "h/$name.tgz.out" 2>&1
  local rc=$?
  check "${name}_tar_exit_$expect" test $rc -eq "$expect"
  check "${name}_tar_canary_intact" canary_intact
  [ $rc -eq "$expect" ] || cat "h/$name.tgz.out"
  mv "h/$name" "h/$id"
  "$tools/cm_verify" --archive="h/$id" --bin=bin --scratch="w/$name.dir" "$@" > "h/$name.dir.out" 2>&1
  rc=$?
  check "${name}_folder_exit_$expect" test $rc -eq "$expect"
  check "${name}_folder_canary_intact" canary_intact
  [ $rc -eq "$expect" ] || cat "h/$name.dir.out"
}
mkdir -p h w

# 1. Traversal through every name of the manifest and of run.json.
in_manifest() { sed -i "$1" manifest.json; }
in_run() { sed -i "$1" "runs/$run_id/run.json"; }
paper_up() { in_manifest 's|"paper": "selftest"|"paper": "../../../canary"|'; }
study_up() { in_manifest 's|"study": "demo"|"study": "../../../../canary"|'; }
paper_and_study_up() { in_manifest 's|"paper": "selftest"|"paper": ".."|; s|"study": "demo"|"study": "../../../canary"|'; }
run_id_up() { in_manifest "s|\"run_id\": \"$run_id\"|\"run_id\": \"../\"|"; }
solver_up() { in_manifest 's|"solver": "cm_demo_study"|"solver": "../../../bin/cm_demo_study"|'; }
file_up() { in_run 's|"name": "rows.tsv"|"name": "../../../../canary/notes.txt"|'; }
printf '[evil]\nkey = 1\n' > "$scratch/evil.ini"  # a key no solver knows: read, it fails the re-run
config_file_absolute() { in_run 's|"file": "[^"]*"|"file": "'"$scratch/evil.ini"'"|'; }
config_value_absolute() { in_run 's|"demo.from": "none"|"demo.from": "'"$scratch"'/canary"|'; }
config_value_up() { in_run 's|"demo.from": "none"|"demo.from": "../../canary"|'; }
output_key() { in_run 's|"demo.from": "none"|"demo.from": "none", "output": "../../canary"|'; }
hostile paper_traversal 65 paper_up
hostile study_traversal 65 study_up
hostile paper_study_traversal 65 paper_and_study_up
hostile run_id_traversal 65 run_id_up
hostile solver_path 65 solver_up
hostile data_file_traversal 65 file_up
hostile config_file_never_read 0 config_file_absolute  # every key is in run.json: the file is never read
hostile config_value_absolute 65 config_value_absolute
hostile config_value_traversal 65 config_value_up
hostile output_key 65 output_key

# 2. Links, special files, what the manifest does not list.
unlisted_link() { ln -s /etc reports/etc 2>/dev/null || { mkdir -p reports && ln -s /etc reports/etc; }; }
listed_link() { rm CITATION.cff && ln -s "$scratch/canary/notes.txt" CITATION.cff; }
dir_link() { mv configs configs.real && ln -s "$scratch/canary" configs; }
fifo() { mkfifo papers/pipe; }
hostile unlisted_symlink 65 unlisted_link
hostile listed_symlink 65 listed_link
hostile folder_symlink 65 dir_link
hostile fifo 65 fifo
# A file the manifest lists in a run's folder that the run did not write: it would ride into a run
# store on import (cm_import), so a run's folder holds only what cm_archive copies.
listed_extra_in_run() {
  echo extra > "runs/$run_id/extra.sh"
  python3 -c 'import json, sys
m = json.load(open("manifest.json"))
m["files"].append({"path": "runs/" + sys.argv[1] + "/extra.sh", "sha256": "0" * 64, "bytes": 0})
open("manifest.json", "w").write(json.dumps(m, indent=2) + "\n")' "$run_id"
}
hostile listed_file_not_of_the_run 65 listed_extra_in_run

# 3. Wrong types in the JSON: damage (65), never an internal error (70).
runs_not_array() { in_manifest 's|"runs": \[|"runs": "x", "old_runs": [|'; }
paper_number() { in_manifest 's|"paper": "selftest"|"paper": 5|'; }
bytes_text() { in_manifest '0,/"bytes": \([0-9]*\)/s//"bytes": "\1"/'; }
ranks_text() { in_run 's|"statistics": {}|"statistics": {"mpi": {"ranks": "6"}}|'; }
values_number() { in_run 's|"demo.rows": "4"|"demo.rows": 4|'; }
hostile runs_not_an_array 65 runs_not_array
hostile paper_a_number 65 paper_number
hostile bytes_a_string 65 bytes_text
hostile ranks_a_string 65 ranks_text
hostile config_value_a_number 65 values_number

# 3b. Nesting deeper than any file the project writes (131,072 arrays in a run.json, 58,000 objects
# in the manifest, made here): damage (65), refused by the parser before any tree is built. A copy
# of such a tree crashed cm_verify and cm_import (SIGSEGV), and cm_import left its folder behind.
deep_run_json() {
  python3 -c 'import sys; f = sys.argv[1]; t = open(f).read(); n = 131072
open(f, "w").write("{\"deep\": " + "[" * n + "]" * n + ", " + t.lstrip()[1:])' "runs/$run_id/run.json"
}
deep_manifest() {
  python3 -c 'import sys; t = open("manifest.json").read(); n = 58000
open("manifest.json", "w").write("{\"deep\": " + "{\"a\": " * n + "1" + "}" * n + ", " + t.lstrip()[1:])'
}
hostile deep_run_json 65 deep_run_json
deep_record=$(ls -t h/*.tar.gz | head -1)
hostile deep_manifest 65 deep_manifest
mkdir -p imported
"$tools/cm_import" --archive="$deep_record" --results=imported > deep_import.out 2>&1; rc=$?
check "deep_run_json_import_exit_65" test $rc -eq 65
check "deep_run_json_import_names_the_depth" grep -q "nested deeper than" deep_import.out
check "deep_run_json_import_leaves_nothing" test -z "$(find imported -mindepth 2 | head -1)"

# 4. What an archive may ask for: MPI ranks beyond max_ranks are refused (2) before any run.
ranks_six() { in_run 's|"statistics": {}|"statistics": {"mpi": {"ranks": 6}}|'; }
ranks_fraction() { in_run 's|"statistics": {}|"statistics": {"mpi": {"ranks": 1.5}}|'; }
hostile six_ranks 2 ranks_six --max_ranks=2
hostile fractional_ranks 65 ranks_fraction

# 5. A changed manifest under the old id is damage, resealed hashes and all.
mkdir -p m/"$good_id" && cp -r good/cm-archive m/"$good_id"/
sed -i 's|"rows": |"rows": |' m/"$good_id"/cm-archive/manifest.json
sed -i 's|"solver": "cm_demo_study"|"solver": "cm_demo_study" |' m/"$good_id"/cm-archive/manifest.json
reseal m/"$good_id" > /dev/null
"$tools/cm_verify" --archive=m/"$good_id" --bin=bin --scratch=w/resealed > resealed.out 2>&1; rc=$?
check "resealed_manifest_under_the_old_id_exit_65" test $rc -eq 65
check "resealed_manifest_named" grep -q "SHA-256 of its manifest" resealed.out
"$tools/cm_verify" --archive=good --bin=bin --scratch=w/no_id > no_id.out 2>&1; rc=$?
check "folder_without_an_id_exit_2" test $rc -eq 2
check "folder_without_an_id_names_the_key" grep -q "^cm_verify: error: id:" no_id.out

# 6. Members only a tar can hold: absolute, "..", hard links, a member twice; and a bomb.
tarball() {  # tarball NAME ARGS...: a tar.gz of the good archive plus what ARGS add, named by the manifest
  local name=$1
  shift
  mkdir -p "t/$name" && tar -C good -cf "t/$name/a.tar" cm-archive && tar "$@" -f "$(pwd)/t/$name/a.tar" &&
    gzip -n "t/$name/a.tar" && mv "t/$name/a.tar.gz" "t/$name/$good_id.tar.gz"
}
verify_tarball() {  # verify_tarball NAME EXPECT [ARGS...]
  local name=$1 expect=$2
  shift 2
  "$tools/cm_verify" --archive="t/$name/$good_id.tar.gz" --bin=bin --scratch="w/t_$name" "$@" > "t/$name.out" 2>&1
  local rc=$?
  check "${name}_exit_$expect" test $rc -eq "$expect"
  check "${name}_canary_intact" canary_intact
  [ $rc -eq "$expect" ] || cat "t/$name.out"
}
mkdir -p t
echo evil > t/evil.txt
tarball absolute_member --append -P --transform="s|^|$scratch/canary/|" -C t evil.txt
verify_tarball absolute_member 65
check "absolute_member_not_written" test ! -e canary/evil.txt
tarball dotdot_member --append -P --transform="s|^|cm-archive/../../../canary/|" -C t evil.txt
verify_tarball dotdot_member 65
tarball member_beside_cm_archive --append -C t evil.txt
verify_tarball member_beside_cm_archive 65
mkdir -p t/hl/cm-archive && echo linked > t/hl/cm-archive/a && ln t/hl/cm-archive/a t/hl/cm-archive/b
tarball hard_link --append -C t/hl cm-archive/a cm-archive/b
verify_tarball hard_link 65
tarball member_twice --append -C good cm-archive/CITATION.cff
verify_tarball member_twice 65
mkdir -p t/big/cm-archive && head -c 8000000 /dev/zero > t/big/cm-archive/zeros
tarball bomb --append -C t/big cm-archive/zeros
verify_tarball bomb 65 --max_bytes=1000000
check "bomb_wrote_within_the_budget" test "$(du -sk w/t_bomb | cut -f1)" -lt 2000
check "bomb_names_the_budget" grep -q "max_bytes" t/bomb.out

# 7. A scratch that is not cm_verify's own is refused, untouched.
mkdir -p w/theirs && echo mine > w/theirs/file
"$tools/cm_verify" --archive="archive/$good_id.tar.gz" --bin=bin --scratch=w/theirs > theirs.out 2>&1; rc=$?
check "scratch_not_empty_exit_2" test $rc -eq 2
check "scratch_not_empty_untouched" test "$(ls w/theirs)" = file -a "$(cat w/theirs/file)" = mine

# 8. make's recipes pass a command-line value to the shell as one quoted word (run without
# building: -o programs -o build -o deps, the tools given as BIN).
touch_file=$scratch/injected
make -s -C "$source" -o programs -o build -o deps BIN="$tools" verify "ARCHIVE=x; touch $touch_file #" > make_verify.out 2>&1; rc=$?
check "make_verify_injection_fails" test $rc -ne 0
check "make_verify_injection_runs_nothing" test ! -e "$touch_file"
make -s -C "$source" -o programs -o build -o deps BIN="$tools" cite "RUN=x; touch $touch_file #" > make_cite.out 2>&1; rc=$?
check "make_cite_injection_fails" test $rc -ne 0
check "make_cite_injection_runs_nothing" test ! -e "$touch_file"
make -s -C "$source" pin "RUN=\$(touch $touch_file)" > make_pin.out 2>&1; rc=$?
check "make_pin_injection_fails" test $rc -ne 0
check "make_pin_injection_runs_nothing" test ! -e "$touch_file"
make -s -C "$source" -n archive "PAPER=x; touch $touch_file" > make_paper.out 2>&1; rc=$?
check "make_paper_not_a_paper_fails" test $rc -ne 0
check "make_paper_not_a_paper_named" grep -q "PAPER: 'x; touch" make_paper.out

check "canary_intact_at_the_end" canary_intact
summary

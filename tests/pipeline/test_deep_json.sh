#!/usr/bin/env bash
# Nesting deeper than any file the project writes, in a run that a key names: a run.json of
# 131,072 nested arrays (or 58,000 objects) crashed every reader that copied the parsed document
# (SIGSEGV: a copy recurses once per level). The one strict parser refuses it before it builds the
# tree: exit 2 naming the key, and nothing left behind. The hostile files are made here.
#   test_deep_json.sh DEMO SCRATCH [CHANNEL SOURCE]
# DEMO is cm_demo_study (its key demo.from names a run); CHANNEL, when given, is md_channel (its
# keys restart.from and compare.with), run on SOURCE's quick preset.
set -u
source "$(cd "$(dirname "$0")/.." && pwd)/check.sh"
demo=$1 scratch=$2 channel=${3:-} source=${4:-}
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 1

# deep_run DIR OPEN CLOSE N: a run folder whose run.json holds, beside its own fields, a value of N
# levels, each OPEN ... CLOSE; the rest is a valid run, so only the depth is wrong with it.
deep_run() {
  mkdir -p "$1"
  python3 -c 'import sys
d, o, c, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
head = "{\"schema\": \"cm-run 1\", \"paper\": \"maxdiss\", \"study\": \"channel\", \"run_id\": \"" + "0" * 64 + "\""
open(d + "/run.json", "w").write(head + ", \"solver\": {\"name\": \"md_channel\"}, \"scalars\": {}, \"deep\": " +
                                 o * n + c * n + "}\n")' "$1" "$2" "$3" "$4"
}
deep_run arrays '[' ']' 131072
deep_run objects '{"a": ' '}' 58000
deep_run shallow '[' ']' 30  # within the limit: read as any run
: > shallow/rows.tsv         # what demo.from goes on from

# refused NAME KEY ARGS...: exit 2, a message naming KEY, no run nor partial left.
refused() {
  local name=$1 key=$2
  shift 2
  local err rc
  err=$("$@" --output out --quiet 2>&1 >/dev/null)
  rc=$?
  check "${name}_exit_2" test $rc -eq 2
  check "${name}_names_the_key" grep -q "^[^:]*: error: $key: .*nested deeper than" <<<"$err"
  check "${name}_leaves_nothing" test -z "$(find . -name 'out' -o -name '.*partial*' -o -name 'runs' | head -1)"
  [ $rc -eq 2 ] || echo "$err" | head -3
}
refused demo_from_arrays demo.from "$demo" --demo.from=arrays
refused demo_from_objects demo.from "$demo" --demo.from=objects
"$demo" --demo.from=shallow --output out --quiet 2>/dev/null
check "demo_from_shallow_is_read" test -f out/run.json
rm -rf out

if [ -n "$channel" ]; then
  config=$source/configs/maxdiss/quick/channel.ini
  refused restart_from_arrays restart.from "$channel" --config "$config" --restart.from=arrays
  refused restart_from_objects restart.from "$channel" --config "$config" --restart.from=objects
  refused compare_with_arrays compare.with "$channel" --config "$config" --compare.with=arrays
fi
summary

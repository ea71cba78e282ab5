#!/usr/bin/env bash
# The bad-input sweep every solver must pass (cm_bad_input_sweep in tests/CMakeLists.txt): twenty
# kinds of bad input that the study kit refuses the same way for every solver. Each must give exit
# status 2 and a message naming the key or file, touch none of the user's files, and leave nothing
# behind (no run, no hidden .partial directory, no created folder).
#
#   bad_input_sweep.sh SOLVER CONFIG REAL_KEY SCRATCH
#
# REAL_KEY is one real-valued key of the solver (the malformed numbers are given to it).
set -u
solver=$1 config=$2 real_key=$3 scratch=$4
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || exit 1
failures=0 cases=0

# The user's own material, which no case may touch.
mkdir -p thesis && echo 'chapter one' > thesis/chapter1.tex
echo 'not a run' > notes.txt
mkdir -p other && printf '{"schema": "cm-run 1", "paper": "nopaper", "study": "nostudy", "files": []}\n' > other/run.json
printf '[section\nkey = 1\n' > syntax.ini
printf 'no.such.key = 1\n' > unknown.ini
printf '[run]\nstudy = a\nstudy = b\n' > twice.ini
snapshot() { find . -path ./out -prune -o -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(snapshot)

# expect NAME WHAT_THE_MESSAGE_NAMES ARGS...
expect() {
  local name=$1 names=$2
  shift 2
  cases=$((cases + 1))
  local err rc
  err=$("$solver" "$@" --quiet 2>&1 >/dev/null </dev/null)
  rc=$?
  local problem=""
  if [ "$rc" -ne 2 ]; then
    problem="exit status $rc, expected 2"
  elif [[ "$err" != *"$names"* ]]; then
    problem="the message does not name '$names'"
  elif [ -e out ]; then
    problem="a run directory was left behind"
  elif [ -n "$(find . -name '.*partial*' -o -name '.*.old-*' | head -1)" ]; then
    problem="a temporary directory was left behind"
  elif [ "$(snapshot)" != "$before" ]; then
    problem="the user's files were changed"
  fi
  if [ -n "$problem" ]; then
    failures=$((failures + 1))
    echo "FAIL $name: $problem"
    echo "     $solver $*" | cut -c1-300
    echo "     $err" | head -5
  else
    echo "ok   $name: ${err%%$'\n'*}"
  fi
  rm -rf out
}

c=(--config "$config")
expect unknown_key no.such.key "${c[@]}" --no.such.key=1 --output out
expect stray_argument stray.ini "${c[@]}" stray.ini --output out
expect missing_config missing.ini --config missing.ini --output out
expect config_syntax syntax.ini:1 --config syntax.ini --output out
expect config_unknown_key unknown.ini:1 --config unknown.ini --output out
expect config_key_twice twice.ini:3 --config twice.ini --output out
expect key_twice "$real_key" "${c[@]}" "--$real_key=1" "--$real_key=2" --output out
expect nan "$real_key" "${c[@]}" "--$real_key=nan" --output out
expect infinity "$real_key" "${c[@]}" "--$real_key=1e999" --output out
expect hexadecimal "$real_key" "${c[@]}" "--$real_key=0x10" --output out
expect subnormal "$real_key" "${c[@]}" "--$real_key=1e-320" --output out
expect empty_value "$real_key" "${c[@]}" "--$real_key=" --output out
expect trailing_junk "$real_key" "${c[@]}" "--$real_key=1.5abc" --output out
expect deep_nesting "$real_key" "${c[@]}" "--$real_key=$(printf '(%.0s' {1..5000})1$(printf ')%.0s' {1..5000})" --output out
expect bad_study_name run.study "${c[@]}" "--run.study=../escape" --output out
expect zero_budget output.max_rows "${c[@]}" --output.max_rows=0 --output out
expect output_is_a_file notes.txt "${c[@]}" --output notes.txt
expect output_is_a_folder thesis "${c[@]}" --output thesis
expect output_is_another_run other "${c[@]}" --output other
expect output_is_here --output "${c[@]}" --output .

echo "$((cases - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]

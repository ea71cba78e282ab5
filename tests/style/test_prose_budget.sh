#!/usr/bin/env bash
# The prose budget can fail: prose_budget.py on the fixtures of fixtures/ flags each kind of excess
# (exit 1, one line each, as path:line: what (measured vs limit)), passes a file within budget,
# honours an allow-list entry and flags one that allows nothing.
# Usage: test_prose_budget.sh PYTHON SCRATCH
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../check.sh"
python=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
cd "$here"

checker() { "$python" prose_budget.py "$@" >"$scratch/out" 2>"$scratch/err"; echo $? >"$scratch/status"; }
status_is() { [ "$(cat "$scratch/status")" = "$1" ]; }
says() { grep -qF -- "$1" "$scratch/out"; }

checker fixtures/over_budget.md.fixture fixtures/long_header.cpp.fixture fixtures/notebook.ini.fixture
cat "$scratch/out"
check "exit 1 on text over the budget" status_is 1
check "a long sentence" says 'fixtures/over_budget.md.fixture:5: sentence of 57 words, "This sentence runs on and on ..." (57 vs 55)'
check "nested parentheses" says 'fixtures/over_budget.md.fixture:9: parentheses nested 2 deep'
check "a long table cell" says 'fixtures/over_budget.md.fixture:14: table cell of 210 characters'
check "a long file header" says 'fixtures/long_header.cpp.fixture:1: file header of 41 lines (41 vs 40)'
check "a long INI header" says 'fixtures/notebook.ini.fixture:1: INI header of 11 lines (11 vs 10)'
check "nothing else" test "$(wc -l <"$scratch/out")" -eq 5

checker fixtures/within_budget.cpp.fixture
check "exit 0 within the budget" status_is 0
check "no flag within the budget" test ! -s "$scratch/out"

checker --allow=fixtures/allow.tsv.fixture fixtures/over_budget.md.fixture
check "an allowed sentence is not flagged" eval '! says ":5: sentence of 57 words"'
check "an entry that allows nothing is flagged" says 'fixtures/allow.tsv.fixture:2: allows nothing'

checker fixtures/no_such.md
check "exit 2 on a file that cannot be read" status_is 2
summary

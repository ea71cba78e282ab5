#!/usr/bin/env bash
# A paper's record stays current across changes to other papers' solvers: the report's
# --same-solvers list (the Makefile's same_solvers) starts at the last commit that changed
# solvers/core, solvers/numerics, solvers/<paper> or the CMake files that hold the flags. In a clone of the
# committed HEAD (uncommitted changes are not part of the test), `make -n` prints the report's
# command line of maxdiss and basketball:
#   - a commit to solvers/basketball: maxdiss's list keeps its first revision and gains the new
#     one (its record stays current); basketball's list is the new commit alone;
#   - a commit to solvers/core: maxdiss's list is that commit alone (every paper's record is
#     older than it).
#   test_same_solvers.sh SOURCE BUILD SCRATCH
# BUILD is a build tree of the project (make -n needs its programs to exist, and runs none).
set -euo pipefail
source=$1 build=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
git clone --quiet --no-hardlinks "$source" "$scratch/clone"
cd "$scratch/clone"
git config user.email test@localhost
git config user.name test
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# the revisions of paper $1's --same-solvers, one a line
revisions() {
  make --no-print-directory -n "reports/$1/index.html" BUILD="$build" 2>/dev/null |
    grep -o -- '--same-solvers=[^ ]*' | head -n 1 | cut -d= -f2 | tr ',' '\n'
}
commit_to() {  # a comment appended to a file, committed
  echo "// a change to $1" >>"$1"
  git commit --quiet -am "change $1"
  git rev-parse HEAD
}
[[ -f records/index.tsv ]] || fail "no records/index.tsv: the report gets no --same-solvers without records"
first=$(revisions maxdiss | head -n 1)
[[ -n $first ]] || fail "no --same-solvers in maxdiss's report command"

other=$(commit_to solvers/basketball/bb_steady.cpp)
revisions maxdiss | grep -qx "$first" || fail "a change to basketball's solvers dropped maxdiss's $first"
revisions maxdiss | grep -qx "$other" || fail "maxdiss's list lacks the later commit $other"
[[ $(revisions basketball) == "$other" ]] || fail "basketball's list is not its own change alone: $(revisions basketball)"
echo "a change to solvers/basketball keeps maxdiss's record current and starts basketball's list"

common=$(commit_to solvers/core/run.cpp)
[[ $(revisions maxdiss) == "$common" ]] || fail "maxdiss's list after a change to solvers/core: $(revisions maxdiss)"
echo "a change to solvers/core starts every paper's list again"

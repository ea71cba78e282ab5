#!/usr/bin/env bash
# End to end (label slow): an archive made by `make archive` in one clone verifies with
# `make verify` in a fresh clone of the same revision.
#   test_archive_e2e.sh SOURCE SCRATCH [PAPER]
# SOURCE is the project's checkout (its committed HEAD is cloned twice; uncommitted changes are
# not part of the test); PAPER (default maxdiss) is archived from its quick presets (QUICK=1).
# Each clone is built from scratch (JOBS, default 2), so this takes two full builds.
set -eu
source=$1 scratch=$2 paper=${3:-maxdiss}
jobs=${JOBS:-2}
rm -rf "$scratch" && mkdir -p "$scratch"
git clone --quiet --no-hardlinks "$source" "$scratch/maker"
git clone --quiet --no-hardlinks "$source" "$scratch/checker"
make -C "$scratch/maker" --no-print-directory JOBS="$jobs" archive PAPER="$paper" QUICK=1
archive=$(ls "$scratch"/maker/archive/*.tar.gz)
[ "$(echo "$archive" | wc -l)" -eq 1 ] || { echo "expected one archive, got: $archive" >&2; exit 1; }
echo "archive: $archive"
make -C "$scratch/checker" --no-print-directory JOBS="$jobs" verify ARCHIVE="$archive"
echo "verified in a fresh clone: $archive"

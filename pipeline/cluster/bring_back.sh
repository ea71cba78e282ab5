#!/usr/bin/env bash
# Usage: pipeline/cluster/bring_back.sh <run directory>
#
# Makes a finished run of the granular channel (paper maxdiss, study channel; e.g. the output of
# channel_paper.slurm) the channel study's current run, where make all reads it: the run is copied
# into the run store as results/runs/<run id>/ and results/maxdiss/channel becomes a link to it
# (../runs/<run id>), as a study run by make all is kept (pipeline/README.md, "The run store").
#
#   - the argument must be a complete run of maxdiss/channel: run.json of schema cm-run 1 with that
#     paper and study and a run id, every data file it lists present with that run id in its header;
#   - results/maxdiss/channel may be replaced only when it is a link into results/runs naming a run
#     of maxdiss/channel (or a pruned one), or a run of maxdiss/channel written in place, which is
#     then moved into the store under its own id; anything else there is refused and left as it is;
#   - the copy is made in a hidden sibling (results/runs/.<run id>.partial-<pid>) and renamed into
#     place, the link made beside the old one and renamed over it: an interrupted copy leaves no
#     half-copied run; the earlier run stays in the store; nothing is deleted but the hidden copy of
#     a failed attempt;
#   - a store entry of the same run id is used as it is when it holds the same files, else refused
#     (a run id names the solver, revision and configuration, not the start time).
#
# make all KEEP=maxdiss/channel builds the reports from the run and never re-runs the study over
# it; a plain make all re-runs the study (configs/maxdiss/channel.ini) once that file or
# build/bin/md_channel is newer than the run (pipeline/cluster/README.md).
#
# Exit status: 0 done; 2 refused (nothing changed); 74 the copy or the link failed.
set -euo pipefail

refuse() {
  echo "bring_back.sh: $*" >&2
  exit 2
}
[[ $# -eq 1 && -n $1 ]] || refuse "usage: pipeline/cluster/bring_back.sh <run directory>"
[[ -d $1 ]] || refuse "'$1' is not a directory"
source_dir=$(realpath -- "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$root"
store=results/runs
pointer=results/maxdiss/channel

# run_info <dir> <mode>: checks that <dir> is a run of maxdiss/channel and prints its run id, then
# a one-line summary. Mode `source`: every listed file must be there, with the run id in the
# header of each .tsv. Mode `replaceable`: no file that the run did not write (as a solver checks
# what it may replace). Prints the reason and exits 1 when not.
run_info() {
  python3 - "$1" "$2" <<'PY'
import json, os, re, sys
folder, mode = sys.argv[1], sys.argv[2]
def no(why):
    print(why)
    sys.exit(1)
try:
    with open(os.path.join(folder, "run.json")) as f:
        j = json.load(f)
except FileNotFoundError:
    no("holds no run.json: it is not a run")
except (OSError, ValueError) as e:
    no("holds a run.json that cannot be read as JSON (%s)" % e)
if not isinstance(j, dict) or j.get("schema") != "cm-run 1":
    no("holds a run.json that is not a run of this project (schema is not cm-run 1)")
if (j.get("paper"), j.get("study")) != ("maxdiss", "channel"):
    no("is a run of %s/%s, not of maxdiss/channel" % (j.get("paper"), j.get("study")))
rid = j.get("run_id")
if not isinstance(rid, str) or not re.fullmatch(r"[0-9a-f]{64}", rid):
    no("holds a run.json without a run id")
names = [f.get("name") for f in j.get("files", []) if isinstance(f, dict)]
if mode == "source":
    if not names:
        no("lists no data files")
    for name in names + ["columns.gp"]:
        if not isinstance(name, str) or "/" in name or not os.path.isfile(os.path.join(folder, name)):
            no("lacks '%s', which its run.json lists: an incomplete copy?" % name)
        if name.endswith(".tsv"):
            with open(os.path.join(folder, name), errors="replace") as f:
                head = [f.readline() for _ in range(2)]
            if "# run: %s\n" % rid not in head:
                no("holds '%s' of another run (its header does not name run %s)" % (name, rid))
else:
    listed = set(n for n in names if isinstance(n, str)) | {"run.json", "columns.gp"}
    for entry in os.scandir(folder):
        if entry.name not in listed or entry.is_symlink() or entry.is_dir():
            no("is a run of maxdiss/channel but also holds '%s', which no run wrote" % entry.name)
print(rid)
try:  # a summary for the report; a run without these fields is still a run
    d = j["statistics"].get("decomposition_coulomb") or j["statistics"].get("decomposition_maxdiss")
    split = ("%d ranks, mpi.grid %d,%d,%d" % (d["ranks"], d["subdomains_x"], d["subdomains_y"], d["subdomains_z"])
             if d else "one process")
    print("config %s, %s, revision %s%s, started %s on %s, %.0f s" % (
        j["config"]["file"], split, j["solver"]["revision"], "+modified" if j["solver"]["modified"] else "",
        j["start_utc"], j["host"], j["wall_time_s"]))
except (KeyError, TypeError, ValueError, AttributeError):
    print("(run.json lacks some provenance fields)")
PY
}

# The source: a complete run of maxdiss/channel.
info=$(run_info "$source_dir" source) || refuse "'$1' $info"
id=$(sed -n 1p <<<"$info")
summary=$(sed -n 2p <<<"$info")
entry=$store/$id

# The pointer: what may be replaced.
earlier=""       # what the pointer named (for the report)
move_in_place="" # an earlier run written in place, to move into the store
if [[ -L $pointer ]]; then
  text=$(readlink -- "$pointer")
  named=$(cd results/maxdiss && realpath -m -- "$text")
  [[ $(basename -- "$named") =~ ^[0-9a-f]{64}$ && $(dirname -- "$named") == "$(realpath -m -- "$store")" ]] ||
    refuse "$pointer is a link to '$text', not into $store: it is left as it is; move it away yourself"
  earlier=$store/$(basename -- "$named")
  if [[ -e $earlier || -L $earlier ]]; then
    why=$(run_info "$earlier" replaceable) || refuse "$pointer names $earlier, which $why: it is left as it is"
  else
    earlier="$earlier, pruned already"
  fi
elif [[ -d $pointer ]]; then
  why=$(run_info "$pointer" replaceable) || refuse "$pointer $why: it is left as it is; move it away yourself"
  move_in_place=$store/$(sed -n 1p <<<"$why")
  [[ $move_in_place != "$entry" ]] ||
    refuse "$pointer is this run itself, written in place: move it away yourself and bring that copy back"
  [[ ! -e $move_in_place && ! -L $move_in_place ]] ||
    refuse "$pointer is a run written in place whose id is already in the store ($move_in_place): move one of them away yourself"
  earlier="the run written in place there, now $move_in_place"
elif [[ -e $pointer ]]; then
  refuse "$pointer exists and is not a run directory: it is left as it is; move it away yourself"
fi

# The store entry: copied, or one already there with the same files.
if [[ -e $entry || -L $entry ]]; then
  if [[ -L $entry || ! -d $entry ]] || ! diff -rq -- "$source_dir" "$entry" >/dev/null; then
    refuse "$entry exists and does not hold the same files as '$1' (an earlier run of the same solver, revision and" \
      "configuration, hence the same id?): it is left as it is; to make that one current: pipeline/cluster/bring_back.sh $entry"
  fi
  copied="already in the store with the same files: $entry"
else
  mkdir -p "$store"
  partial=$store/.$id.partial-$$
  trap 'rm -rf -- "$partial"' EXIT
  trap 'exit 130' INT TERM HUP
  # No -p: the copy is dated now (make compares this date with the config's and the solver's).
  cp -R -- "$source_dir" "$partial" || { echo "bring_back.sh: cannot copy '$1' to $partial" >&2; exit 74; }
  if [[ -e $entry ]] || ! mv -T -n -- "$partial" "$entry" || [[ -e $partial ]]; then
    echo "bring_back.sh: cannot rename $partial to $entry" >&2
    exit 74
  fi
  trap - EXIT INT TERM HUP
  copied="copied to $entry"
fi

# The pointer, atomically: a link made beside it and renamed over it (a link or nothing).
if [[ -n $move_in_place ]]; then
  if ! mv -T -n -- "$pointer" "$move_in_place" || [[ -e $pointer ]]; then
    echo "bring_back.sh: cannot move $pointer to $move_in_place" >&2
    exit 74
  fi
fi
mkdir -p results/maxdiss
link=results/maxdiss/.channel.link-$$
ln -s -- "../runs/$id" "$link"
mv -T -- "$link" "$pointer" || { rm -f -- "$link"; echo "bring_back.sh: cannot link $pointer" >&2; exit 74; }

echo "bring_back.sh: run $id of maxdiss/channel"
echo "  $summary"
echo "  $copied"
if [[ $earlier == "$entry" ]]; then
  echo "  $pointer -> ../runs/$id, as before"
else
  echo "  $pointer -> ../runs/$id${earlier:+ (before: $earlier)}"
fi
echo "  keep it from make prune: make pin RUN=$id"

# What make all will do with it (the rule results/maxdiss/channel/run.json: configs/maxdiss/channel.ini
# build/bin/md_channel; a study re-runs when a prerequisite is newer than its run.json, unless it is
# named in KEEP).
echo "  make all KEEP=maxdiss/channel: builds the reports from this run, never re-running the study over it"
if [[ -e build/bin/md_channel && ! $entry/run.json -ot configs/maxdiss/channel.ini &&
      ! $entry/run.json -ot build/bin/md_channel ]]; then
  echo "  (plain make all uses it too, until md_channel is rebuilt or configs/maxdiss/channel.ini changes)"
else
  echo "  (plain make all would re-run the channel study over it: it is older than md_channel or channel.ini)"
fi

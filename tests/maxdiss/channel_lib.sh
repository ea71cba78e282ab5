# Shared by the channel's shell tests (mpi_channel.sh, channel_restart.sh, record_import.sh), which source it.
# run_mpi needs $mpirun and $parallel (md_channel_mpi, md_channel's other name) set by the caller.

data() { grep -v '^#' "$1"; }  # a data file's rows, without its header
scalars() {  # a run folder: "name value" per scalar, as run.json writes them (one key a line)
  awk '/^  "scalars": \{/ { on = 1; next } on && /^  \}/ { exit }
       on && /^    "/ { name = $1; gsub(/[":{]/, "", name) }
       on && /"value":/ { v = $2; sub(/,$/, "", v); print name, v }' "$1/run.json"
}
fail() {
  echo "$*"
  exit 1
}
same_files() {  # two run folders, then the files compared: their data rows byte for byte
  local a=$1 b=$2
  shift 2
  [[ $# -gt 0 ]] || fail "no data files in $a"
  for name in "$@"; do
    [[ -f $b/$name ]] || fail "$name: missing in $b"
    cmp -s <(data "$a/$name") <(data "$b/$name") || fail "$name: the data differ between $a and $b"
  done
  echo "$# data files the same, byte for byte ($a, $b)"
}
same_data() {  # two run folders: every data file of the first, as same_files
  local names=() f
  for f in "$1"/*.tsv; do [[ -f $f ]] && names+=("$(basename "$f")"); done
  same_files "$1" "$2" "${names[@]}"
}
run_mpi() {  # ranks, then the solver's arguments: the channel over ranks (coupling = ranks)
  local np=$1
  shift
  "$mpirun" --allow-run-as-root --oversubscribe -np "$np" "$parallel" --coupling=ranks "$@"
}

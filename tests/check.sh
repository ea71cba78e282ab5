# The checks of the shell tests, which source it:
#   check NAME COMMAND...   runs COMMAND, counts a case, prints "ok   NAME" or "FAIL NAME"
#   summary                 prints the closing line "N passed, M failed"; fails when a case failed
failures=0 cases=0
check() {
  local name=$1
  shift
  cases=$((cases + 1))
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
summary() {
  echo "$((cases - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ]
}

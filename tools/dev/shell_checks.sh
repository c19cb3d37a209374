# The checks of a shell test, sourced by tools/dev/setup_test.sh and tools/gpu/run_set_test.sh: `check NAME TEST`
# prints "PASS  NAME" or "FAIL  NAME" as TEST (a shell expression) holds, and `summary` prints "N passed, N failed" and
# fails where one failed.
passed=0 failed=0
check() {
  if eval "$2"; then echo "PASS  $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}

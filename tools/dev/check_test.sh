#!/usr/bin/env bash
# Tests of tools/dev/check.py's own command line: --help answers with the usage and runs no check; a flag or a check it
# does not know is refused in one line, before any check runs.
cd "$(dirname "$0")/../.." || exit 2
. tools/dev/shell_checks.sh
out=$(timeout 20 python tools/dev/check.py --help 2>&1); rc=$?
check "--help prints the usage and exits 0" '[ $rc = 0 ] && grep -q "^usage: check.py" <<< "$out"'
check "--help runs no check" '! grep -q "^step times" <<< "$out"'
out=$(timeout 20 python tools/dev/check.py --only=nonsense 2>&1); rc=$?
check "an unknown check is refused, naming the checks" '[ $rc = 2 ] && grep -q "unknown check nonsense" <<< "$out" && grep -q "main_job" <<< "$out"'
out=$(timeout 20 python tools/dev/check.py --no-such-flag 2>&1); rc=$?
check "an unknown flag is refused" '[ $rc = 2 ] && grep -q "unrecognized arguments: --no-such-flag" <<< "$out"'
summary

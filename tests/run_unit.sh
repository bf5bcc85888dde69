#!/bin/sh
# The cmocka unit tests (tests/unit/test_*.c, built by make): each binary
# run under a "== BINARY" heading, its own report shown, and the tests it
# ran counted from cmocka's "[  PASSED  ] N test(s)" and "[  FAILED  ] N
# test(s)" lines.  A binary that exits non-zero without saying a test
# failed (a crash, a sanitizer's report at exit) counts as one failure.
#
#     sh tests/run_unit.sh BINARY...
#
# Prints each binary's report, then "unit: N passed, M failed".
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || { echo "usage: $0 BINARY... (make builds them in build/)" >&2; exit 2; }

for t in "$@"; do
	echo "== $t"
	case $t in */*) ;; *) t=./$t ;; esac
	"$t" >"$tmp/out" 2>&1
	st=$?
	cat "$tmp/out"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\..*/\1/p' "$tmp/out")
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s).*/\1/p' "$tmp/out")
	pass=$((pass + ${p:-0}))
	if [ -n "$f" ]; then
		fail=$((fail + f))
		echo "FAIL: $t: $f test(s) failed"
	elif [ "$st" -ne 0 ]; then
		bad "$t exited with status $st"
	elif [ -z "$p" ]; then
		bad "$t reported no tests"
	fi
done
summary unit

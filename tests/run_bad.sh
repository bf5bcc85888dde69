#!/bin/sh
# The bad-input corpus: every DIR/NAME.tile is a broken spec, and
# DIR/NAME.err holds the exact diagnostics bankc must print for it.
#
#     sh tests/run_bad.sh [-u] BANKC DIR
#
# For each DIR/*.tile, `BANKC check DIR/NAME.tile` must exit with status 1,
# print nothing on stdout, and print on stderr exactly the bytes of
# DIR/NAME.err.  A .tile without its .err fails, and so does an .err
# without its .tile.  Run it from the repository root with DIR given as
# tests/bad, since the file name in each message is the path as given.
#
# Maintainers: UPDATE=1 in the environment (or -u) rewrites each .err
# from what bankc prints now (docs/testing.md: the golden files).  It only
# writes diagnostics bankc gave with status 1 and an empty stdout; a crash,
# a hang or a status other than 1 is still a failure.  Read `git diff
# tests/bad` before committing the result.
#
# Prints one line per failure (a mismatch is followed by a diff), then
#     bad-input corpus: N passed, M failed
# Exit status: 0 all passed, 1 a failure, 2 bad usage.
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = "-u" ] || [ "${1:-}" = "--update" ]; then
	update=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [-u] BANKC DIR  (UPDATE=1 is the same as -u)" >&2
	exit 2
fi
bankc=$1
dir=$2
while :; do
	case $dir in
	?*/) dir=${dir%/} ;;
	*) break ;;
	esac
done
case $bankc in
*/*) [ -x "$bankc" ] || { echo "$0: '$bankc' is not an executable" >&2; exit 2; } ;;
*) have "$bankc" || { echo "$0: '$bankc' not found" >&2; exit 2; } ;;
esac
if [ ! -d "$dir" ]; then
	echo "$0: '$dir' is not a directory" >&2
	exit 2
fi

# A spec that sends bankc into a loop must not hang the test run.
if have timeout; then
	limit="timeout 20"
else
	limit=
fi

for f in "$dir"/*.tile; do
	[ -e "$f" ] || continue
	$limit "$bankc" check "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ -n "$limit" ] && [ $rc -eq 124 ]; then
		bad "$f: bankc did not finish in 20 seconds"
	elif [ $rc -gt 128 ]; then
		bad "$f: bankc was killed by signal $((rc - 128))"
	elif [ $rc -ne 1 ]; then
		bad "$f: exit status $rc, expected 1"
	elif [ -s "$tmp/out" ]; then
		bad "$f: bankc wrote to stdout"
	elif [ ! -s "$tmp/err" ]; then
		bad "$f: bankc printed no diagnostic"
	else
		golden "${f%.tile}.err" "$tmp/err" "bankc check $f"
	fi
done

for e in "$dir"/*.err; do
	[ -e "$e" ] || continue
	[ -f "${e%.err}.tile" ] || bad "$e: no ${e%.err}.tile for it"
done

if [ $((pass + fail)) -eq 0 ]; then
	bad "$dir: no .tile files"
fi

summary "bad-input corpus"

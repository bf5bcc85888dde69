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
# Maintainers: -u (or UPDATE=1 in the environment) rewrites each .err from
# what bankc prints now.  It only writes diagnostics bankc gave with status
# 1 and an empty stdout; a crash, a hang or a status other than 1 is still
# a failure.  Read `git diff tests/bad` before committing the result.
#
# Prints one line per failure (a mismatch is followed by a diff), then
#     bad-input corpus: N passed, M failed
# Exit status: 0 all passed, 1 a failure, 2 bad usage.

update=${UPDATE:-0}
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
*) command -v "$bankc" >/dev/null 2>&1 || { echo "$0: '$bankc' not found" >&2; exit 2; } ;;
esac
if [ ! -d "$dir" ]; then
	echo "$0: '$dir' is not a directory" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/run_bad.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

# A spec that sends bankc into a loop must not hang the test run.
if command -v timeout >/dev/null 2>&1; then
	limit="timeout 20"
else
	limit=
fi

passed=0
failed=0
fail() {
	echo "FAIL $1"
	failed=$((failed + 1))
}

for f in "$dir"/*.tile; do
	[ -e "$f" ] || continue
	exp=${f%.tile}.err
	if [ "$update" != 1 ] && [ ! -f "$exp" ]; then
		fail "$f: no $exp (generate it with UPDATE=1 and read it)"
		continue
	fi
	$limit "$bankc" check "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ -n "$limit" ] && [ $rc -eq 124 ]; then
		fail "$f: bankc did not finish in 20 seconds"
		continue
	fi
	if [ $rc -gt 128 ]; then
		fail "$f: bankc was killed by signal $((rc - 128))"
		continue
	fi
	if [ $rc -ne 1 ]; then
		fail "$f: exit status $rc, expected 1"
		continue
	fi
	if [ -s "$tmp/out" ]; then
		fail "$f: bankc wrote to stdout"
		continue
	fi
	if [ ! -s "$tmp/err" ]; then
		fail "$f: bankc printed no diagnostic"
		continue
	fi
	if [ "$update" = 1 ]; then
		if [ ! -f "$exp" ] || ! cmp -s "$tmp/err" "$exp"; then
			cp "$tmp/err" "$exp" || { fail "$f: cannot write $exp"; continue; }
			echo "updated $exp"
		fi
		passed=$((passed + 1))
		continue
	fi
	if cmp -s "$tmp/err" "$exp"; then
		passed=$((passed + 1))
	else
		fail "$f: stderr differs from $exp"
		diff -u "$exp" "$tmp/err" | sed -e "1s|.*|--- $exp (expected)|" \
			-e "2s|.*|+++ bankc check $f (actual)|"
	fi
done

for e in "$dir"/*.err; do
	[ -e "$e" ] || continue
	[ -f "${e%.err}.tile" ] || fail "$e: no ${e%.err}.tile for it"
done

if [ $((passed + failed)) -eq 0 ]; then
	fail "$dir: no .tile files"
fi

echo "bad-input corpus: $passed passed, $failed failed"
[ $failed -eq 0 ]

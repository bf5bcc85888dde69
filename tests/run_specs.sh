#!/bin/sh
# The good specs: every DIR/*.tile must check cleanly and dump stably.
#
#     sh tests/run_specs.sh BANKC DIR
#
# For each DIR/*.tile:
#   - `BANKC check FILE` exits 0 and prints nothing;
#   - `BANKC dump FILE` exits 0 silently on stderr, and its output, written
#     to a file and dumped again, gives byte-identical text (the canonical
#     form parses back to itself);
#   - `BANKC dump --json FILE` exits 0 and prints valid JSON (validated
#     with `python3 -m json.tool` where python3 exists; a skip otherwise).
#
# Prints one line per failure, then
#     specs: N passed, M failed[, 1 skipped]
# Exit status: 0 all passed, 1 a failure, 2 bad usage.
. "$(dirname "$0")/lib.sh"

if [ $# -ne 2 ]; then
	echo "usage: $0 BANKC DIR" >&2
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

if have python3; then
	have_python=1
else
	have_python=0
	skip "the JSON output is not validated (no python3)"
fi

# why FILE: print the first line of what bankc said on stderr, if anything.
why() {
	if [ -s "$1" ]; then
		sed -n '1s/^/    /p' "$1"
	fi
}

# one FILE: run every check on one spec; a failure (counted) at the
# first that fails, and status 1.
one() {
	f=$1
	"$bankc" check "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$f: check exited with status $rc"
		why "$tmp/err"
		return 1
	fi
	if [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
		bad "$f: check printed something"
		return 1
	fi

	"$bankc" dump "$f" >"$tmp/dump1.tile" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$f: dump exited with status $rc"
		why "$tmp/err"
		return 1
	fi
	if [ -s "$tmp/err" ]; then
		bad "$f: dump printed on stderr"
		why "$tmp/err"
		return 1
	fi
	if [ ! -s "$tmp/dump1.tile" ]; then
		bad "$f: dump printed nothing"
		return 1
	fi
	"$bankc" dump "$tmp/dump1.tile" >"$tmp/dump2.tile" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$f: its dump does not parse back (status $rc)"
		why "$tmp/err"
		return 1
	fi
	if ! cmp -s "$tmp/dump1.tile" "$tmp/dump2.tile"; then
		bad "$f: dumping its dump gives different text"
		diff -u "$tmp/dump1.tile" "$tmp/dump2.tile" |
			sed -e "1s|.*|--- dump $f|" -e "2s|.*|+++ dump of that dump|"
		return 1
	fi

	"$bankc" dump --json "$f" >"$tmp/dump.json" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$f: dump --json exited with status $rc"
		why "$tmp/err"
		return 1
	fi
	if [ -s "$tmp/err" ]; then
		bad "$f: dump --json printed on stderr"
		why "$tmp/err"
		return 1
	fi
	if [ $have_python = 1 ] &&
	   ! python3 -m json.tool <"$tmp/dump.json" >/dev/null 2>"$tmp/err"; then
		bad "$f: dump --json is not valid JSON"
		why "$tmp/err"
		return 1
	fi
	return 0
}

for f in "$dir"/*.tile; do
	[ -e "$f" ] || continue
	one "$f" && ok
done

if [ $((pass + fail)) -eq 0 ]; then
	bad "$dir: no .tile files"
fi

summary specs

# What every shell test runner shares.  Source it first:
#
#     . "$(dirname "$0")/lib.sh"
#
# It makes $tmp, a temporary folder removed when the runner exits, and
# gives:
#
#     ok                    count a pass
#     bad MESSAGE           count a failure, printing "FAIL: MESSAGE"
#     skip MESSAGE          count a skip, printing "skip: MESSAGE"
#     have COMMAND          whether COMMAND is on PATH
#     indent                copy stdin to stdout, each line indented by
#                           four spaces (a log under its FAIL line)
#     golden WANT GOT [WHAT]  the golden-file check (below); WHAT names
#                           GOT in the message (default: GOT's path)
#     summary NAME          print "NAME: N passed, M failed[, K skipped]";
#                           its status is 0 when nothing failed
#
# Golden files: WANT holds the exact bytes a test expects (of a command's
# output, a file it writes, or a capture from `capture`).  `golden WANT
# GOT` passes when GOT has the same bytes and otherwise fails with the
# start of their diff.  With UPDATE=1 in the environment it rewrites WANT
# from GOT instead ("updated WANT" where that changed it), and passes:
# review `git diff` before committing.  docs/testing.md lists the golden
# files.
#
#     capture OUT ARGS...   run ARGS, writing to OUT its exit status,
#                           stdout and stderr as one file:
#                               status: N
#                               --- stdout
#                               ...
#                               --- stderr
#                               ...
pass=0 fail=0 skipped=0
update=${UPDATE:-0}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bankc-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "skip: $*"; }
# a check whose tool (make deps installs it) is missing: a skip, but in CI
# (CI=true) a failure, so that a green CI run has run it
missing() { if [ "${CI:-}" = true ]; then bad "$* (CI=true: make deps must have installed it)"; else skip "$*"; fi; }
have() { command -v "$1" >/dev/null 2>&1; }
# cutlass_dir: CUTLASS 4.7's folder: CUTLASS_DIR, else shared/vendor/
# cutlass-4.7 beside the checkout or beside any folder above it (a clone
# made deeper than the checkout); prints it, fails where its headers are
# not there.
cutlass_dir() {
	_c=${CUTLASS_DIR:-}
	if [ -z "$_c" ]; then
		_d=$(cd "$(dirname "$0")/.." && pwd)
		_c=$_d/../shared/vendor/cutlass-4.7
		while [ "$_d" != / ] && [ -n "$_d" ]; do
			_d=$(dirname "$_d")
			if [ -f "$_d/shared/vendor/cutlass-4.7/include/cute/layout.hpp" ]; then
				_c=$_d/shared/vendor/cutlass-4.7
				break
			fi
		done
	fi
	echo "$_c"
	[ -f "$_c/include/cute/layout.hpp" ]
}
indent() { sed 's/^/    /'; }

golden() {
	if [ -f "$1" ] && cmp -s "$1" "$2"; then
		ok
	elif [ "$update" = 1 ]; then
		if mkdir -p "$(dirname "$1")" && cp "$2" "$1"; then
			echo "updated $1"
			ok
		else
			bad "cannot write $1"
		fi
	elif [ -f "$1" ]; then
		bad "${3:-$2} differs from its golden file $1"
		diff -u "$1" "$2" | awk -v a="$1" -v b="${3:-$2}" '
			NR == 1 { $0 = "--- " a } NR == 2 { $0 = "+++ " b } { print }' |
			head -n 20 | indent
	else
		bad "no golden file $1 (UPDATE=1 writes it; review it)"
	fi
}

capture() {
	_out=$1
	shift
	"$@" >"$tmp/capture.out" 2>"$tmp/capture.err"
	_st=$?
	{ echo "status: $_st"; echo "--- stdout"; cat "$tmp/capture.out"
	  echo "--- stderr"; cat "$tmp/capture.err"; } >"$_out"
	return "$_st"
}

summary() {
	if [ "$skipped" -gt 0 ]; then
		echo "$1: $pass passed, $fail failed, $skipped skipped"
	else
		echo "$1: $pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ]
}

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
#     golden WANT GOT       the golden-file check (below)
#     summary NAME          print "NAME: N passed, M failed[, K skipped]";
#                           its status is 0 when nothing failed
#
# Golden files: WANT holds the exact bytes a test expects (of a command's
# output, a file it writes, or a capture from `capture`).  `golden WANT
# GOT` passes when GOT has the same bytes and otherwise fails with the
# start of their diff.  With UPDATE=1 in the environment it rewrites WANT
# from GOT instead, and passes: review `git diff` before committing.
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
have() { command -v "$1" >/dev/null 2>&1; }

golden() {
	if [ "$update" = 1 ]; then
		mkdir -p "$(dirname "$1")" && cp "$2" "$1" && ok
	elif [ -f "$1" ] && cmp -s "$1" "$2"; then
		ok
	else
		bad "$2 differs from its golden file $1"
		if [ -f "$1" ]; then diff "$1" "$2" | head -n 20 | sed 's/^/    /'
		else echo "    ($1 does not exist; UPDATE=1 writes it)"; fi
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

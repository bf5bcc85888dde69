#!/bin/bash
# Faults around bankc build and the --sarif log: an output folder that
# cannot be made or written, a full disk (a file-size limit), a read error, a signal during
# a build, a failing standard output, too little memory.  Each must give a
# clear message and a non-zero status, and leave the previous outputs as
# they were.
# usage: run_faults.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
# failed MESSAGE: a failure, with the start of the last stderr kept
failed() { bad "$*"; indent <"$tmp/err" 2>/dev/null | head -n 5; }

# expect_fail NAME PATTERN -- CMD...: non-zero status and PATTERN on stderr
expect_fail() {
	name=$1 pat=$2
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 0 ]; then failed "$name: exit 0"
	elif ! grep -q -- "$pat" "$tmp/err"; then failed "$name: no '$pat'"
	else ok; fi
}

# previous outputs, kept to compare with after each fault; the builds
# that fault are of the same spec file, changed (another spec's outputs
# a build refuses to replace)
cp specs/seeds.tile "$tmp/changed.tile"
"$bankc" build "$tmp/changed.tile" -o "$tmp/prev" -MD || failed "first build"
cp -r "$tmp/prev" "$tmp/saved"
sed 's/shape 32 x 32;/shape 32 x 64;/' specs/seeds.tile >"$tmp/changed.tile"
intact() {
	if diff -r "$tmp/prev" "$tmp/saved" >/dev/null; then ok
	else failed "$1: previous outputs changed"; fi
	if ls -A "$tmp/prev" | grep -q '\.tmp'; then failed "$1: temporary files left"; else ok; fi
}

expect_fail "folder that cannot be made" "cannot create folder '/proc/bankc-out'" -- \
	"$bankc" build specs/seeds.tile -o /proc/bankc-out
expect_fail "folder that cannot be written" "cannot create a file beside '/proc/" -- \
	"$bankc" build specs/seeds.tile -o /proc
expect_fail "output is a file" "exists and is not a folder" -- \
	"$bankc" build specs/seeds.tile -o specs/seeds.tile
expect_fail "depfile that cannot be written" "/proc/bankc.d" -- \
	"$bankc" build "$tmp/changed.tile" -o "$tmp/prev" -MD -MF /proc/bankc.d
intact "unwritable depfile"

# a full disk: writes fail (EFBIG) past a 1 KiB file-size limit
expect_fail "full disk" "cannot write '$tmp/prev/" -- \
	bash -c "ulimit -f 1; trap '' XFSZ; exec '$bankc' build '$tmp/changed.tile' -o '$tmp/prev'"
intact "full disk"
# the same limit with SIGXFSZ left at its default: bankc ignores it while
# writing, so the write fails cleanly instead of killing the process
bash -c "ulimit -f 1; '$bankc' build '$tmp/changed.tile' -o '$tmp/prev' 2>'$tmp/err'" 2>/dev/null
st=$?
if [ "$st" -eq 1 ] && grep -q "File too large" "$tmp/err"; then ok; else failed "SIGXFSZ: status $st"; fi
intact "file-size limit, SIGXFSZ default"
# the disk fills up midway: the first tile's header fits, its check
# program does not; before, the header was already replaced
bash -c "ulimit -f 8; exec '$bankc' build '$tmp/changed.tile' -o '$tmp/prev'" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "_check.cu': File too large" "$tmp/err"; then ok; else failed "full midway"; fi
intact "full disk midway"

# a signal during the build (here during the search of a slow tile)
"$bankc" build tests/data/scattered.tile -o "$tmp/prev" 2>"$tmp/err" &
pid=$!
sleep 0.3
kill -TERM "$pid" 2>/dev/null
wait "$pid"
st=$?
if [ "$st" -eq 143 ]; then ok; else failed "SIGTERM during a build: status $st"; fi
intact "SIGTERM"

# out of memory (a 30 MB address space; the search of this tile needs
# more): one message, status 1, nothing on standard output
bash -c "ulimit -v 30000; exec '$bankc' compare tests/data/scattered.tile" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "bankc: error: out of memory" ]; then ok
else failed "out of memory: status $st"; fi

expect_fail "read error" "cannot read 'specs'" -- "$bankc" check specs
expect_fail "missing file" "cannot open 'no-such.tile'" -- "$bankc" build no-such.tile -o "$tmp/x"
if [ -e "$tmp/x" ]; then failed "a failed build created its folder"; else ok; fi
if [ -w /dev/full ]; then
	"$bankc" compare --json specs/seeds.tile >/dev/full 2>"$tmp/err"
	if [ $? -eq 1 ] && grep -q "cannot write the output" "$tmp/err"; then ok
	else failed "compare to /dev/full"; fi
fi
# --sarif FILE on a full disk: the old log as it was, no temporary left
"$bankc" check --sarif "$tmp/log.sarif" specs/seeds.tile 2>/dev/null
cp "$tmp/log.sarif" "$tmp/log.saved"
bash -c "ulimit -f 1; trap '' XFSZ; exec '$bankc' check --sarif '$tmp/log.sarif' tests/bad/multi_errors.tile" \
	2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && cmp -s "$tmp/log.sarif" "$tmp/log.saved" && ! ls "$tmp"/log.sarif.tmp.* >/dev/null 2>&1 &&
	grep -q "cannot write '$tmp/log.sarif'" "$tmp/err"; then ok
else failed "--sarif on a full disk: status $st"; fi
# hostile names and interrupted commits (tests/faults_outputs.sh)
. "$(dirname "$0")/faults_outputs.sh"

summary faults

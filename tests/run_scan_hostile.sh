#!/bin/sh
# bankc scan against hostile input and faults (docs/robustness.md):
#
#   1. file names and nvcc flags that nvcc's shell would run as code:
#      none runs (no file P appears), #include "..." of the source's
#      folder still works, unsafe flags are refused;
#   2. SIGTERM, SIGINT and SIGHUP while nvcc runs: status 128+SIG, no
#      temporary folder and no nvcc stage left;
#   3. numeric options out of range are refused, not wrapped;
#   4. source lines only from regular files the user pointed to: not from
#      /proc, FIFOs or devices that a PTX's .file names, and not blocking;
#   5. control bytes and non-UTF-8 bytes of names escaped, on the
#      terminal and in valid JSON;
#   6. time and memory: source lines shown in linear time; a module's
#      registers and instructions bounded, and max RSS of a large
#      generated input under a bound; the accesses of a loop, a block
#      waiting at a barrier every few instructions and lanes of a warp
#      apart cost as they come: memory that does not grow with trips.
#
#     sh tests/run_scan_hostile.sh BANKC
#
# Needs nvcc for 1 and 2 (skipped without it) and GNU time for the RSS
# check of 6 (skipped without it).
. "$(dirname "$0")/lib.sh"
bankc=$1
[ -x "$bankc" ] || { echo "usage: $0 BANKC" >&2; exit 2; }
case $bankc in /*) ;; *) bankc=$PWD/$bankc ;; esac
src=$PWD/tests/ptx

# the status of a command, its stderr in $tmp/err
status() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }

# 1. nothing of the user's reaches nvcc's shell
if have nvcc; then
	mkdir "$tmp/sh" "$tmp/x\$(touch P)d"
	cd "$tmp/sh" || exit 2
	mkdir 'd$(touch P)'
	cp "$src/called.cu" 'x$(touch P)y.cu'
	rc=$(status "$bankc" scan 'x$(touch P)y.cu' --block 32)
	if [ -e P ]; then bad "scan of a file named x\$(touch P)y.cu ran the command"
	elif [ "$rc" != 0 ] || ! grep -q '^x$(touch P)y.cu:5:2: note: .*its address depends on data' "$tmp/err"; then
		bad "scan of x\$(touch P)y.cu: status $rc, $(head -n 1 "$tmp/out") $(head -n 1 "$tmp/err")"
	else ok; fi
	rc=$(status "$bankc" scan 'x$(touch P)y.cu' --block 32 -- '-DX=$(touch P)')
	if [ -e P ]; then bad "an nvcc flag -DX=\$(touch P) ran the command"
	elif [ "$rc" != 1 ] || ! grep -q "nvcc flag '-DX=\$(touch P)' refused" "$tmp/err"; then
		bad "nvcc flag -DX=\$(touch P): status $rc, $(head -n 1 "$tmp/err")"
	else ok; fi
	for f in '-DX=`touch P`' '-DX=1;touch P' '-DX=a b' "-DX='1'" '-I$HOME'; do
		rc=$(status "$bankc" scan 'x$(touch P)y.cu' --block 32 -- "$f")
		if [ -e P ] || [ "$rc" != 1 ] || ! grep -q "refused" "$tmp/err"; then
			bad "nvcc flag $f: status $rc, $(head -n 1 "$tmp/err")"
		else ok; fi
	done
	# a folder of its own with a header: the include still found, the
	# header's lines shown under the user's name for it
	printf '#define STRIDE 2\n' >'d$(touch P)/stride.h'
	printf '#include "stride.h"\n__global__ void k(int *p)\n{\n\t__shared__ int s[64];\n\ts[threadIdx.x * STRIDE %% 64] = 1;\n\t__syncthreads();\n\tp[0] = s[threadIdx.x];\n}\n' >'d$(touch P)/k.cu'
	rc=$(status "$bankc" scan 'd$(touch P)/k.cu' --block 32)
	if [ -e P ]; then bad "scan of a source in a folder d\$(touch P) ran the command"
	elif [ "$rc" != 0 ] || ! grep -q '^d$(touch P)/k.cu:5:.*warning: 4-byte shared store' "$tmp/err"; then
		bad "scan of d\$(touch P)/k.cu: status $rc, $(head -n 1 "$tmp/out") $(head -n 1 "$tmp/err")"
	else ok; fi
	# a source whose real path is not literal, reached by a literal name
	cp "$src/called.cu" "$tmp/x\$(touch P)d/c.cu"
	ln -s "$tmp/x\$(touch P)d" lnk
	rc=$(status "$bankc" scan lnk/c.cu --block 32 --param 1=1)
	if [ -e P ] || [ -e "$tmp/P" ]; then bad "scan through a link to a folder x\$(touch P)d ran the command"
	elif [ "$rc" != 0 ]; then bad "scan of lnk/c.cu: status $rc, $(head -n 1 "$tmp/err")"
	else ok; fi
	cd - >/dev/null || exit 2
else
	skip "nvcc's shell and file names (no nvcc)"
fi

# 2. a signal while nvcc runs: the whole group ends, nothing is left
cat >"$tmp/slow_nvcc" <<'EOF'
#!/bin/sh
# stands in for nvcc: a stage of its own, a temporary, then a wait
sleep 60 &
echo $$ $! >"$PIDS.new"
: >"$TMPDIR/tmpxft_stage"
mv "$PIDS.new" "$PIDS"
wait
EOF
chmod +x "$tmp/slow_nvcc"
alive() { ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
for sig in TERM INT HUP; do
	case $sig in TERM) want=143 ;; INT) want=130 ;; HUP) want=129 ;; esac
	mkdir "$tmp/t$sig"
	rm -f "$tmp/pids"
	# a shell's background job starts with SIGINT ignored, one under nohup
	# with SIGHUP too: give them back
	PIDS=$tmp/pids TMPDIR=$tmp/t$sig NVCC=$tmp/slow_nvcc \
		env --default-signal=INT,HUP,TERM "$bankc" scan "$src/called.cu" --block 32 \
		>/dev/null 2>"$tmp/err" &
	b=$!
	n=0
	while [ ! -f "$tmp/pids" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	kill -s "$sig" "$b"
	{ wait "$b"; } 2>/dev/null
	rc=$?
	sleep 0.2
	left=""
	for p in $(cat "$tmp/pids" 2>/dev/null); do alive "$p" && left="$left $p" && kill "$p"; done
	if [ ! -f "$tmp/pids" ]; then bad "SIG$sig: the stand-in nvcc did not start"
	elif [ "$rc" != "$want" ]; then bad "SIG$sig during nvcc: status $rc, want $want"
	elif [ -n "$left" ]; then bad "SIG$sig during nvcc left processes$left running"
	elif [ -n "$(ls -A "$tmp/t$sig")" ]; then bad "SIG$sig during nvcc left $(ls -A "$tmp/t$sig")"
	else ok; fi
done

# 3. numbers out of range: refused, not wrapped
for a in "--grid 2147483648" "--grid 1,65536" "--grid 4294967297" "--grid +5" \
	"--grid -1" "--ctaid 2147483647" "--block 4294967328" "--max-steps 0" \
	"--param 0=18446744073709551616" "--param 0=-9223372036854775809" \
	"--param 0+4294967296=1" "--param 0+0:16=1"; do
	# shellcheck disable=SC2086
	rc=$(status "$bankc" scan "$src/bounds.ptx" --block 32 $a)
	if [ "$rc" = 2 ] && grep -q "^bankc: error: --" "$tmp/err"; then ok
	else bad "scan $a: status $rc, $(head -n 1 "$tmp/err")"; fi
done
rc=$(status "$bankc" scan "$src/bounds.ptx" --block 32 --grid " 5")
if [ "$rc" = 2 ]; then ok; else bad "scan --grid ' 5': status $rc"; fi
for a in "--grid 2147483647" "--grid 2,65535,65535" "--grid 0x10" ; do
	# shellcheck disable=SC2086
	rc=$(status "$bankc" scan "$src/bounds.ptx" --block 32 $a)
	if [ "$rc" != 2 ]; then ok; else bad "scan $a refused: $(head -n 1 "$tmp/err")"; fi
done

# 4. source lines only from regular files the user pointed to
gen=$PWD/tests/gen/many_warnings.sh
mkdir "$tmp/src" "$tmp/other"
printf 'line one\nline two\n' >"$tmp/src/k.cu"
printf 'SECRET=1\nSECRET=2\n' >"$tmp/other/k.cu"
mkfifo "$tmp/src/fifo.cu"
ln -s "$tmp/other/k.cu" "$tmp/src/link.cu"
shows() {   # shows WANT SOURCE [ARGS]: whether scan shows the source lines
	_want=$1 _file=$2
	shift 2
	sh "$gen" 2 "$_file" >"$tmp/src/g.ptx"
	if command -v timeout >/dev/null; then _t="timeout 20"; else _t=; fi
	$_t "$bankc" scan "$tmp/src/g.ptx" "$@" >"$tmp/out" 2>"$tmp/err"
	_rc=$?
	# the lines shown under the warnings (not the notes' own indented lines)
	_n=$(awk '/: warning: / { w = 1; next } w && /^    [^ ^]/ { n++ } { w = 0 } END { print n + 0 }' "$tmp/err")
	if [ $_rc != 0 ]; then bad "scan of a PTX whose .file is $_file: status $_rc"
	elif [ "$_want" = no ] && grep -q '^    [A-Z_]*=' "$tmp/err"; then
		bad "scan showed the lines of $_file"
	elif [ "$_want" = yes ] && [ "$_n" != 2 ]; then bad "scan did not show the lines of $_file"
	elif [ "$_want" = no ] && [ "$_n" != 0 ]; then bad "scan showed lines of $_file"
	else ok; fi
}
shows yes "$tmp/src/k.cu"
shows no /proc/self/environ
shows no /proc/self/environ --source-dir /proc
shows no /proc/self/cmdline --source-dir /
shows no "$tmp/src/fifo.cu"
shows no /dev/zero --source-dir /dev
shows no /dev/tty
shows no "$tmp/other/k.cu"
shows no "$tmp/src/link.cu"             # a link out of the folder
shows no "$tmp/src/../other/k.cu"
shows yes "$tmp/other/k.cu" --source-dir "$tmp/other"
# a relative .file is read from the working folder: run from $tmp/src
cd "$tmp/src" && shows yes k.cu && cd - >/dev/null || exit 2

# 5. control bytes and bytes that are not UTF-8 in names: escaped
esc=$(printf 'a\033]0;x\007\033[31m\377\302\233.cu')
sh "$gen" 3 "$esc" >"$tmp/src/e.ptx"
cp "$tmp/src/e.ptx" "$tmp/src/$(printf 'n\033[2J\376.ptx')"
want='a\x1b]0;x\x07\x1b[31m\xff\xc2\x9b.cu:1:1: warning: 4-byte shared store'
"$bankc" scan "$tmp/src/e.ptx" >"$tmp/out" 2>&1
if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177\200-\377]')" "$tmp/out"; then
	bad "scan wrote a control byte or a byte that is not ASCII of a .file name"
elif ! grep -qF "$want" "$tmp/out"; then bad "scan did not show the .file name escaped: $(head -n 1 "$tmp/out")"
else ok; fi
for f in e.ptx "$(printf 'n\033[2J\376.ptx')"; do
	"$bankc" scan "$tmp/src/$f" --json >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 0 ]; then bad "scan --json of $f: status $rc"
	elif have python3; then
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
k = d["kernels"][0]
acc = k["accesses"]
assert len(acc) == 3 and k["totals"]["st"]["instructions"] == 3, acc
assert acc[0]["where"].startswith("a\\x1b]0;x\\x07\\x1b[31m\\xff\\xc2\\x9b.cu:1:1"), acc[0]["where"]
assert d["file"].endswith(".ptx") and "\x1b" not in d["file"], d["file"]
' "$tmp/out" && ok || bad "scan --json of $f: not a valid document with the three accesses"
	elif [ -s "$tmp/out" ] && grep -q '"accesses": \[$' "$tmp/out"; then ok
	else bad "scan --json of $f: no accesses"; fi
done
# the same of a .cu name holding them, with nvcc
if have nvcc; then
	cp "$src/called.cu" "$tmp/sh/$(printf 'c\033[31m\377.cu')"
	"$bankc" scan "$tmp/sh/$(printf 'c\033[31m\377.cu')" --block 32 --param 1=1 --json >"$tmp/out" 2>"$tmp/err"
	if [ $? = 0 ] && grep -qF '"file": "'"$tmp"'/sh/c\\x1b[31m\\xff.cu"' "$tmp/out"; then ok
	else bad "scan --json of a .cu named c<ESC>[31m<0xff>.cu: $(grep '"file"' "$tmp/out") $(head -n 1 "$tmp/err")"; fi
fi

# 6a. source lines in linear time: 30,000 warnings of one file (before
# the index, 7.6 s of CPU for 25,000), 20,000 of /dev/zero (refused now)
awk 'BEGIN { for (i = 1; i <= 30000; i++) print "s[threadIdx.x * 2] = " i ";" }' >"$tmp/src/big.cu"
sh "$gen" 30000 "$tmp/src/big.cu" >"$tmp/src/big.ptx"
sh "$gen" 20000 /dev/zero >"$tmp/src/zero.ptx"
if [ -x /usr/bin/time ]; then
	for f in big zero; do
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$bankc" scan "$tmp/src/$f.ptx" >"$tmp/out" 2>"$tmp/err"
		cpu=$(awk '{ printf "%d", $1 + $2 }' "$tmp/time")
		n=$(grep -c '^    s\[' "$tmp/err")
		want=0
		[ $f = big ] && want=30000
		if [ "$n" != $want ]; then bad "scan of $f.ptx showed $n source lines, want $want"
		elif [ "$cpu" -ge 8 ]; then bad "scan of $f.ptx took $cpu s of CPU"
		else ok; fi
	done
else
	skip "the time of many warnings (no GNU time at /usr/bin/time)"
fi

# 6b. memory follows what is used, and large outputs are streamed: max RSS
# of moderately large inputs under a bound (before: 418 MiB and 15 s for
# the registers, 129 MiB for the JSON)
worst=tests/gen/worst_scan.sh
sh "$worst" regs 200 >"$tmp/regs.ptx"
sh "$worst" kernels 10 4096 >"$tmp/kernels.ptx"
if [ -x /usr/bin/time ]; then
	for c in "regs.ptx" "kernels.ptx --block 16 --no-vectorize --json"; do
		# shellcheck disable=SC2086
		/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$bankc" scan "$tmp"/$c >"$tmp/out" 2>"$tmp/err"
		rc=$?
		set -- $(cat "$tmp/time")
		cpu=$(echo "$1 $2" | awk '{ printf "%d", $1 + $2 }')
		if [ $rc != 0 ]; then bad "scan $c: status $rc, $(head -n 1 "$tmp/err")"
		# 160 MiB: the JSON streamed, and the warp instructions that the
		# fixes are proven on kept (at most 2^18 of them)
		elif [ "$3" -gt 163840 ]; then bad "scan $c: max RSS $3 KB, over 160 MiB"
		elif [ "$cpu" -ge 4 ]; then bad "scan $c: $cpu s of CPU"
		else ok; fi
	done
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["kernels"]) == 10 and all(len(k["accesses"]) == 4096 for k in d["kernels"])' "$tmp/out" 2>/dev/null &&
		ok || bad "scan --json of 10 kernels streamed: not the document of 10 kernels of 4096 accesses"
else
	skip "max RSS (no GNU time at /usr/bin/time)"
fi
# 6c. memory that does not grow with trips: 4000000 stores of one thread
# (refused before: more than 1048576 accesses in one warp), a block of
# 1024 threads at a barrier every 5 instructions to --max-steps (partial
# totals), and lanes of a warp in two loops of 200000 stores, whose warp
# instructions wait for each other until the lanes end
sh "$worst" loop 4000000 >"$tmp/loop.ptx"
sh "$worst" barriers 100000000 >"$tmp/barriers.ptx"
sh "$worst" apart 200000 >"$tmp/apart.ptx"
bounded() {     # bounded STATUS KB SECS ARGS...: its status, max RSS, CPU
	_want=$1 _kb=$2 _secs=$3
	shift 3
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$bankc" scan "$@" >"$tmp/out" 2>"$tmp/err"
	_rc=$?
	# shellcheck disable=SC2046
	set -- $(tail -n 1 "$tmp/time") "$@"
	_cpu=$(echo "$1 $2" | awk '{ printf "%d", $1 + $2 }')
	if [ $_rc != "$_want" ]; then bad "scan $4: status $_rc, $(head -n 1 "$tmp/err")"
	elif [ "$3" -gt "$_kb" ]; then bad "scan $4: max RSS $3 KB, over $_kb"
	elif [ "$_cpu" -ge "$_secs" ]; then bad "scan $4: $_cpu s of CPU"
	elif ! grep -q '^  stores ' "$tmp/out"; then bad "scan $4: no totals"
	else ok; fi
}
if [ -x /usr/bin/time ]; then
	bounded 0 65536 8 "$tmp/loop.ptx" --block 1 --max-steps 1099511627776
	bounded 1 65536 8 "$tmp/barriers.ptx" --block 1024 --max-steps 33554432
	grep -q 'partial: not the kernel' "$tmp/out" && ok || bad "barriers.ptx: no partial totals"
	bounded 0 262144 8 "$tmp/apart.ptx" --block 32
else
	skip "memory that does not grow with trips (no GNU time at /usr/bin/time)"
fi
# the limits of a module, each with its error
awk 'BEGIN { print ".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<4>;"
	for (i = 0; i <= 65536; i++) print "\tst.shared.u32 [%r1], %r2;"; print "\tret;\n}" }' >"$tmp/slots.ptx"
rc=$(status "$bankc" scan "$tmp/slots.ptx" --block 32)
if [ "$rc" = 1 ] && grep -q "slots.ptx:65543:2: error: more than 65536 shared-memory instructions in one module" "$tmp/err"; then ok
else bad "65537 shared-memory instructions: status $rc, $(head -n 1 "$tmp/err")"; fi
printf '.version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k()\n.reqntid 32\n{\n\t.reg .b32 %%r<1048577>;\n\tret;\n}\n' >"$tmp/r.ptx"
rc=$(status "$bankc" scan "$tmp/r.ptx")
if [ "$rc" = 1 ] && grep -q "r.ptx:7:15: error: register count 1048577 is out of range" "$tmp/err"; then ok
else bad "%r<1048577>: status $rc, $(head -n 1 "$tmp/err")"; fi

summary "scan hostile"

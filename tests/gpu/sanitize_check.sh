#!/usr/bin/env bash
# sanitize_check.sh BANKC [OUTDIR]
#
# bankc scan's shared-memory findings beside compute-sanitizer's, on the
# planted bugs of tests/safety/ (each bug beside its fixed twin).  Every
# program there is built with nvcc -lineinfo (its main launches each
# kernel once, one block, as the file's "// scan:" line scans it; a kernel
# that would hang is not launched), then:
#   - bankc scan FILE.cu with the file's "// scan:" options: its findings
#     (-Wshared-race, -Wshared-bounds, -Wshared-align,
#     -Wbarrier-divergence), as "LINE flag level[/OTHER]";
#   - the program under compute-sanitizer --tool racecheck, --tool memcheck
#     and --tool synccheck, once per kernel (SF_KERNEL=NAME launches that
#     kernel alone; each run under `timeout`): the source lines each
#     reports.
# Writes into OUTDIR (default $OUT):
#   sanitize.tsv   kernel, bankc, racecheck, memcheck, synccheck
#   sanitize.md    the same as a Markdown table (docs/validation.md)
#   logs/          each tool's raw output, the builds', bankc's
#   env.txt        the GPU, driver, nvcc and compute-sanitizer versions
# Needs nvcc, compute-sanitizer and a GPU; not re2c, cmocka nor make (BANKC
# is prebuilt).  DRYRUN=1 builds everything and runs bankc, and skips the
# sanitizer (no GPU needed).  Environment: NVCC, SANITIZER, ARCH (default
# sm_90), TIMEOUT (seconds per sanitizer run, default 60).
set -uo pipefail

die() { echo "sanitize_check.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: sanitize_check.sh BANKC [OUTDIR]" >&2; exit 2; }
bankc=$1 out=${2:-${OUT:-}}
[ -n "$out" ] || die "no OUTDIR given and no \$OUT"
case $bankc in /*) ;; *) bankc=$PWD/$bankc ;; esac
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.." || die "no repository root"
[ -x "$bankc" ] || die "$bankc is not an executable"
nvcc=${NVCC:-nvcc}
san=${SANITIZER:-compute-sanitizer}
arch=${ARCH:-sm_90}
limit=${TIMEOUT:-60}
dry=${DRYRUN:-0}
command -v "$nvcc" >/dev/null || die "$nvcc not found"
[ "$dry" = 1 ] || command -v "$san" >/dev/null || die "$san not found (DRYRUN=1 skips it)"
mkdir -p "$out/logs" "$out/bin" || die "cannot write $out"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "bankc: $("$bankc" --version 2>&1)"
	echo "nvcc: $("$nvcc" --version 2>&1 | tail -n 1)"
	if [ "$dry" = 1 ]; then
		echo "sanitizer: not run (DRYRUN=1)"
	else
		echo "sanitizer: $("$san" --version 2>&1 | tail -n 1)"
		nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	fi
} >"$out/env.txt"

# lines KERNEL LOG: the source lines a sanitizer log reports for KERNEL
# ("at KERNEL+0x.. in FILE:LINE" and "... access at KERNEL+0x.. in
# FILE:LINE"), unique, comma-separated; "-" for none
lines() {
	{ grep -oE "$1(\(|\+0x)[^ ]* in [^ ]*:[0-9]+" "$2" | sed 's/.*://'
	  # the older form: "in FILE:LINE:KERNEL(ARGS)"
	  grep -oE "in [^ ]*:[0-9]+:$1\(" "$2" | sed "s/:$1(\$//; s/.*://"; } 2>/dev/null |
		sort -n -u | paste -sd, - | sed 's/^$/-/'
}
# errors KERNEL LOG: whether the log reports an error in KERNEL at all
# (some reports, such as synccheck's, may name no line)
errors() {
	awk -v k="$1" '/^========= (Error|Invalid|Barrier|Warning)/ { e = 1; next }
		e && (index($0, k "+0x") || index($0, ":" k "(")) { n++; e = 0 } END { print n + 0 }' "$2" 2>/dev/null
}

fail=0
printf 'kernel\tbankc\tracecheck\tmemcheck\tsynccheck\n' >"$out/sanitize.tsv"
for cu in tests/safety/*.cu; do
	p=$(basename "$cu" .cu)
	exe=$out/bin/$p
	if ! "$nvcc" -std=c++17 -O3 -lineinfo -arch="$arch" -o "$exe" "$cu" >"$out/logs/$p.build.log" 2>&1; then
		echo "nvcc failed on $cu (logs/$p.build.log)"
		fail=1
		continue
	fi
	args=$(sed -n 's|^// scan: ||p' "$cu")
	# shellcheck disable=SC2086
	"$bankc" scan "$cu" $args -- -arch="$arch" >"$out/logs/$p.bankc.out" 2>"$out/logs/$p.bankc.err"
	for k in $(sed -n 's/^extern "C" __global__ void \([A-Za-z0-9_]*\)(.*/\1/p' "$cu"); do
		# each kernel in a run of its own (SF_KERNEL): after a kernel's
		# first error memcheck may launch nothing more in its process
		for tool in racecheck memcheck synccheck; do
			if [ "$dry" = 1 ]; then
				: >"$out/logs/$p.$k.$tool.log"
			else
				SF_KERNEL=$k timeout "$limit" "$san" --tool "$tool" --show-backtrace no "$exe" \
					>"$out/logs/$p.$k.$tool.log" 2>&1
				st=$?
				[ "$st" -eq 124 ] && echo "$tool timed out on $p ($k)" && fail=1
			fi
		done
		# bankc's findings in kernel k: "LINE flag level[/OTHER]"
		b=$(awk -v k="($k)" '
			function flush() { if (cur != "") out = out (out != "" ? "; " : "") cur (other != "" ? "/" other : ""); cur = ""; other = "" }
			/^[^ ].*:[0-9]+:[0-9]+: (error|warning): .*\[-W(shared-race|shared-bounds|shared-align|barrier-divergence)\]$/ {
				flush()
				if (!index($0, k)) next
				split($0, q, ":")
				lvl = $0; sub(/^[^ ]*:[0-9]+:[0-9]+: /, "", lvl); sub(/:.*/, "", lvl)
				fl = $0; sub(/.*\[-W/, "", fl); sub(/\]$/, "", fl)
				cur = q[2] " " fl " " lvl
				next
			}
			/note: the other (access|barrier) is here$/ { if (cur != "" && other == "") { split($0, q, ":"); other = q[2] } next }
			/^[^ ].*:[0-9]+:[0-9]+: (error|warning): / { flush() }
			END { flush(); print out == "" ? "-" : out }' "$out/logs/$p.bankc.err")
		row="$k	$b"
		for tool in racecheck memcheck synccheck; do
			log=$out/logs/$p.$k.$tool.log
			if [ "$dry" = 1 ]; then
				v="not run"
			elif ! grep -q "^$k: " "$log"; then
				v="not launched"
			else
				v=$(lines "$k" "$log")
				n=$(errors "$k" "$log")
				[ "$v" = - ] && [ "$n" -gt 0 ] && v="$n reports, no line"
			fi
			row="$row	$v"
		done
		printf '%s\n' "$row" >>"$out/sanitize.tsv"
	done
done

awk -F '\t' 'NR == 1 { print "| kernel | bankc scan | racecheck | memcheck | synccheck |"; print "|---|---|---|---|---|"; next }
	{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/sanitize.tsv" >"$out/sanitize.md"
cat "$out/sanitize.md"
echo "== results in $out"
exit $fail

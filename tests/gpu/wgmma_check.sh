#!/usr/bin/env bash
# wgmma_check.sh [-b BANKC] OUTDIR [SPEC...]
#
# On a machine with an H200 (or any sm_90 GPU) and nvcc: the wgmma check of
# runtime/bankc_wgmma.cuh on real hardware.  Builds the hand-written tiles
# of tests/wgmma/gen_tiles.c (all eight canonical layouts, every operand
# type, both operands), and the check programs bankc builds for the given
# specs' tiles (those with a wgmma access; bankc with -b, default ./bankc),
# all for sm_90a, runs each, and prints one line per tile and a summary:
# "wgmma check: N ok, M failed, K not run".  OUTDIR gets each program's
# output (NAME.log), the hand-written headers (tiles/) and the summary
# (summary.txt); the binaries stay in a temporary folder.  Exits non-zero
# unless every tile is ok.
#
# Environment: NVCC, CC, JOBS (parallel compiles, default the CPU count).
set -uo pipefail

usage() { echo "usage: wgmma_check.sh [-b BANKC] OUTDIR [SPEC...]" >&2; exit 2; }
bankc=./bankc
while getopts b: o; do
	case $o in
	b) bankc=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nvcc=${NVCC:-nvcc}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 8)}
mkdir -p "$out/tiles" || { echo "wgmma_check.sh: cannot make $out" >&2; exit 1; }
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$out/summary.txt"
say() { echo "$*"; echo "$*" >>"$out/summary.txt"; }
start=$(date +%s)

# the generator needs four of bankc's sources and a C compiler (nvcc's host
# compiler will do)
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || cc=gcc
"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/compiler" -o "$tmp/gen_tiles" \
	"$root/tests/wgmma/gen_tiles.c" "$root/compiler/model/wgmma.c" "$root/compiler/model/mma_canon.c" \
	"$root/compiler/emit/emit_wgmma.c" \
	"$root/compiler/base/tables.c" || { echo "wgmma_check.sh: gen_tiles did not build" >&2; exit 1; }
"$tmp/gen_tiles" "$tmp/tiles" >"$tmp/names" || exit 1
cp "$tmp"/tiles/*.cuh "$out/tiles/"
progs=() notrun=0
while read -r n; do progs+=("$tmp/tiles/${n}_check.cu"); done <"$tmp/names"

# the specs' check programs that include the wgmma check
if [ $# -gt 0 ]; then
	if "$bankc" build "$@" -o "$tmp/specs" >"$tmp/bankc.log" 2>&1; then
		for f in "$tmp"/specs/*_check.cu; do
			[ -e "$f" ] || continue
			n=$(basename "$f" _check.cu)
			grep -q '"op": *"wgmma\.[ab]"' "$tmp/specs/$n.json" || continue
			if grep -q 'bankc_wgmma.cuh' "$f"; then progs+=("$f")
			else
				say "wgmma $n: NOT RUN (its check program has no wgmma check)"
				notrun=$((notrun + 1))
			fi
		done
	else
		echo "wgmma_check.sh: bankc build failed:"; cat "$tmp/bankc.log"; exit 1
	fi
fi

printf '%s\n' "${progs[@]}" | xargs -P "$jobs" -I{} sh -c \
	"$nvcc -std=c++17 -O1 -gencode=arch=compute_90a,code=sm_90a -I$root/runtime -I\$(dirname {}) -o {}.bin {} >{}.nvcc.log 2>&1 || echo {} >>$tmp/nvcc_failed"
built=$(date +%s)

ok=0 failed=0
for src in "${progs[@]}"; do
	name=$(basename "$src" _check.cu)
	log=$out/$name.log
	if grep -qx "$src" "$tmp/nvcc_failed" 2>/dev/null; then
		cp "$src.nvcc.log" "$log"
		say "wgmma $name: FAILED (nvcc; see $log)"
		failed=$((failed + 1))
		continue
	fi
	timeout 60 "$src.bin" >"$log" 2>&1
	rc=$?
	last=$(grep "^wgmma $name: \(ok\|FAILED\|NOT RUN\)" "$log" | tail -n 1)
	[ -n "$last" ] || last="wgmma $name: FAILED (status $rc, no verdict; see $log)"
	case $rc:$last in
	0:*": ok") ok=$((ok + 1)) ;;
	2:*"NOT RUN"*) notrun=$((notrun + 1)) ;;
	*": ok") failed=$((failed + 1)); last="$last, but the program's status is $rc (see $log)" ;;
	*) failed=$((failed + 1)) ;;
	esac
	say "$last"
done
end=$(date +%s)
say "wgmma check: $ok ok, $failed failed, $notrun not run (build $((built - start)) s, runs $((end - built)) s)"
[ "$failed" -eq 0 ] && [ "$notrun" -eq 0 ]

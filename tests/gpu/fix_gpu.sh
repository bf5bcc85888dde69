#!/usr/bin/env bash
# fix_gpu.sh BANKC OUTDIR
#
# The fixes of tests/fix/ on the GPU: for every case of
# tests/fix/cases.txt that gets a diff (padding or index rewrite, 1- to
# 16-byte elements), the kernel and its fixed source are compiled to PTX,
# and
#   - both run once (tests/gpu/fix_run.cu, one block, the same input: the
#     case's --data file, else fixed pseudo-random bytes): the fixed
#     kernel's output must equal the unfixed one's, byte for byte;
#   - the fixed kernel runs once under Nsight Compute (--clock-control
#     none): its shared-memory load and store wavefronts must equal what
#     bankc scan predicts for the fixed PTX, which tests/run_fix.sh
#     (make check) holds to the fix's promise.
# Needs nvcc, patch, python3 and, for the counters, ncu (MEASURE=0 skips
# them).  Writes OUTDIR/fix_gpu.tsv (case, kernel, block, promised,
# scanned, measured, output) and fix_gpu.md, fix_gpu.log, env.txt; exits
# non-zero when a row differs or a step failed.
set -uo pipefail
die() { echo "fix_gpu.sh: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: fix_gpu.sh BANKC OUTDIR" >&2; exit 2; }
bankc=$1 out=$2
case $bankc in /*) ;; *) bankc=$PWD/$bankc ;; esac
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.." || die "no repository root"
root=$PWD
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
MEASURE=${MEASURE:-1}
for t in "$nvcc" patch python3; do command -v "$t" >/dev/null || die "$t not found"; done
[ "$MEASURE" = 1 ] && { command -v "$ncu" >/dev/null || die "$ncu (Nsight Compute) not found (MEASURE=0 skips the counters)"; }
mkdir -p "$out" || die "cannot create $out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$out/fix_gpu.log
: >"$log"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/fix_gpu.sh $*"
	echo "bankc: $("$bankc" --version 2>&1 | head -n 1)"
	"$nvcc" --version | tail -n 1
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
	[ "$MEASURE" = 1 ] && "$ncu" --version | tail -n 1
} >"$out/env.txt"
"$nvcc" -std=c++17 -O2 -o "$tmp/fix_run" tests/gpu/fix_run.cu -lcuda >>"$log" 2>&1 || die "fix_run does not build (fix_gpu.log)"
check=$root/tests/fix/check_fix.py
flags=(-ptx -lineinfo -arch=sm_90 -O3)
tab=$(printf '\t')
rows=$tmp/rows
: >"$rows"
fail=0
n=0
while read -r file kern block arr expect rest; do
	case $file in '#'* | '') continue ;; esac
	[ "$expect" = diff ] || continue
	n=$((n + 1))
	rest=${rest//@/$root}
	data=$(printf '%s\n' "$rest" | sed -n 's/.*--data 0=\([^ ]*\).*/\1/p')
	dir=$(dirname "$file")
	w=$tmp/$n
	mkdir -p "$w/$dir"
	cp "$file" "$w/$dir/"
	"$nvcc" "${flags[@]}" -I"$dir" -o "$w/before.ptx" "$file" >>"$log" 2>&1 || { echo "$kern: nvcc failed" >>"$log"; fail=1; continue; }
	# shellcheck disable=SC2086
	"$bankc" scan "$w/before.ptx" --block "$block" --kernel "$kern" --source-dir "$dir" --json $rest >"$w/scan.json" 2>>"$log"
	# shellcheck disable=SC2086
	"$bankc" scan "$w/before.ptx" --block "$block" --kernel "$kern" --source-dir "$dir" --fix $rest >"$w/fix.diff" 2>>"$log"
	promised=$(python3 "$check" promise "$w/scan.json" "$kern" "$arr")
	(cd "$w" && patch -s -p0 <fix.diff) >>"$log" 2>&1 &&
		(cd "$w" && "$nvcc" "${flags[@]}" -I"$root/$dir" -o after.ptx "$file") >>"$log" 2>&1 ||
		{ echo "$kern: the fix does not apply or compile" >>"$log"; fail=1; continue; }
	# shellcheck disable=SC2086
	"$bankc" scan "$w/after.ptx" --block "$block" --kernel "$kern" --json $rest >"$w/after.json" 2>>"$log"
	scanned=$(python3 "$check" wave "$w/after.json" "$kern" "$arr")
	total=$("$bankc" scan "$w/after.ptx" --block "$block" --kernel "$kern" $rest 2>/dev/null |
		awk '/^  (loads|stores) / { t += $2 } END { print t + 0 }')
	entry=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["kernels"][0]["kernel"])' "$w/after.json")
	same=$("$tmp/fix_run" cmp "$w/before.ptx" "$w/after.ptx" "$entry" "$block" ${data:+"$data"} 2>>"$log")
	measured=NA
	if [ "$MEASURE" = 1 ]; then
		m=l1tex__data_pipe_lsu_wavefronts_mem_shared_op
		timeout 120 "$ncu" --clock-control none --csv --print-units base \
			--metrics "${m}_ld.sum,${m}_st.sum" "$tmp/fix_run" one "$w/after.ptx" "$entry" "$block" \
			${data:+"$data"} >"$w/ncu.csv" 2>>"$log"
		measured=$(awk -F '","' '{ sub(/^"/, ""); sub(/"\r?$/, "") }
			$1 == "ID" { for (k = 1; k <= NF; k++) col[$k] = k; next }
			"Metric Value" in col { v = $col["Metric Value"]; gsub(/,/, "", v); t += v; got = 1 }
			END { print got ? t : "NA" }' "$w/ncu.csv")
	fi
	verdict=holds
	[ "$scanned" = "$promised" ] || verdict=DIFFERS
	[ "$same" = same ] || verdict=DIFFERS
	[ "$measured" = NA ] || [ "$measured" = "$total" ] || verdict=DIFFERS
	[ "$verdict" = holds ] || fail=1
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$kern" "$block" "$promised" "$scanned" \
		"$total" "$measured" "$same" "$verdict" >>"$rows"
done <tests/fix/cases.txt
{
	printf 'file\tkernel\tblock\tpromised (array)\tscanned (array)\tscanned (ld+st)\tmeasured (ld+st)\toutput\tverdict\n'
	cat "$rows"
} >"$out/fix_gpu.tsv"
awk -F '\t' 'NR == 1 { print "| file | kernel | block | promised | scanned | scanned ld+st | measured ld+st | output | |"
	print "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |"; next }
	{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' \
	"$out/fix_gpu.tsv" >"$out/fix_gpu.md"
column -t -s "$tab" "$out/fix_gpu.tsv" 2>/dev/null || cat "$out/fix_gpu.tsv"
[ "$(wc -l <"$rows")" -eq "$n" ] || fail=1
[ "$fail" -eq 0 ]

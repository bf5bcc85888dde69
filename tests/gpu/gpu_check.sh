#!/usr/bin/env bash
# gpu_check.sh BANKC OUTDIR SPEC...
#
# On a machine with a GPU, nvcc and Nsight Compute: builds every tile of the
# specs with bankc, compiles and runs each check program (round trip and
# timing against the predictions, chosen layout and row-major), then runs
# each under Nsight Compute in --count mode and compares the wavefront
# counters of every access, under both layouts, with bankc's predictions.
# Writes OUTDIR/checks.log (the programs' output), OUTDIR/counters.tsv and
# prints a summary; exits non-zero if anything failed.
#
# Environment: ARCH (nvcc -arch, default sm_90; sm_90a for tiles with a
# wgmma access), NVCC, NCU, JOBS.  A Blackwell tile (arch sm_100a, sm_103a,
# sm_120a: its tcgen05.mma check, its 8-bit matrix forms) is built for its
# own target and runs on that GPU alone: on another its program is said to
# be skipped, and counts neither way.
set -uo pipefail

die() { echo "gpu_check.sh: $*" >&2; exit 1; }
[ $# -ge 3 ] || { echo "usage: gpu_check.sh BANKC OUTDIR SPEC..." >&2; exit 2; }
bankc=$1 outdir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
runtime=$(cd "$here/../../runtime" && pwd)
arch=${ARCH:-sm_90}
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
metric=l1tex__data_pipe_lsu_wavefronts_mem_shared
mkdir -p "$outdir" || die "cannot create $outdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bankc" build "$@" -o "$tmp/gen" || die "bankc build failed"
# a wgmma tile's program issues wgmma itself: sm_90a code; a Blackwell
# tile's, its own target's (the header's comment names it)
target() {
	sed -n 's/^ \* spec: .*, \(sm_1[0-9][0-9]a\)\(, .*\)\{0,1\}$/\1/p' "${1%_check.cu}.cuh"
}
export -f target 2>/dev/null || true
ls "$tmp"/gen/*_check.cu | xargs -P "${JOBS:-8}" -I{} bash -c \
	"a=$arch; grep -q bankc_wgmma.cuh {} && a=sm_90a; b=\$(target {}); [ -n \"\$b\" ] && a=\$b; $nvcc -std=c++17 -O2 -arch=\$a -I$runtime -I$tmp/gen -o {}.bin {} || echo {} >>$tmp/build_failed"
[ -f "$tmp/build_failed" ] && die "nvcc failed for: $(cat "$tmp/build_failed")"
# this GPU's compute capability, as a target's digits (90, 100, 120)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
for src in "$tmp"/gen/*_check.cu; do
	b=$(target "$src")
	if [ -n "$b" ] && [ "${b#sm_}" != "${cc}a" ]; then
		echo "skipped: $(basename "$src" _check.cu) needs $b (this GPU: sm_${cc:-unknown})" |
			tee -a "$outdir/skipped.log"
		rm -f "$src.bin"
	fi
done

fail=0
: >"$outdir/checks.log"
for bin in "$tmp"/gen/*_check.cu.bin; do
	if ! "$bin" >>"$outdir/checks.log" 2>&1; then
		echo "FAIL: $(basename "$bin" .cu.bin)" | tee -a "$outdir/checks.log"
		fail=$((fail + 1))
	fi
done

# Counters: one launch per (access, layout), in the order the program
# prints its "count TILE ACCESS LAYOUT PREDICTED" lines.
printf 'tile\taccess\tlayout\tpredicted\tmeasured\n' >"$outdir/counters.tsv"
for bin in "$tmp"/gen/*_check.cu.bin; do
	"$bin" --count >"$tmp/pred.txt" 2>&1 || die "$bin --count failed"
	# a tile read only by wgmma launches nothing the LSU counters see
	grep -q '^count ' "$tmp/pred.txt" || continue
	"$ncu" --clock-control none --metrics "${metric}_op_ld.sum,${metric}_op_st.sum,${metric}_op_atom.sum,${metric}_op_red.sum" \
		-f -o "$tmp/rep" "$bin" --count >"$tmp/ncu.log" 2>&1 ||
		{ tail -n 20 "$tmp/ncu.log" >&2; die "ncu failed on $bin"; }
	"$ncu" --import "$tmp/rep.ncu-rep" --csv --page details --print-units base \
		>"$tmp/ncu.csv" 2>/dev/null || die "ncu --import failed"
	awk -v metric="$metric" '
	function csv(line, f) {
		sub(/\r$/, "", line)
		if (line !~ /^".*"$/) return 0
		return split(substr(line, 2, length(line) - 2), f, /","/)
	}
	FILENAME == ARGV[1] {
		n = csv($0, f)
		if (!hdr) { if (n && f[1] == "ID") { for (i = 1; i <= n; i++) col[f[i]] = i; hdr = 1 } next }
		m = f[col["Metric Name"]]; val = f[col["Metric Value"]]; gsub(/,/, "", val)
		if (m == metric "_op_ld.sum" || m == metric "_op_st.sum" ||
		    m == metric "_op_atom.sum" || m == metric "_op_red.sum") w[f[1]] += val
		next
	}
	BEGIN { k = 0 }
	$1 == "count" { printf "%s\t%s\t%s\t%s\t%s\n", $2, $3, $4, $5, (k in w) ? w[k] : "NA"; k++ }
	' "$tmp/ncu.csv" "$tmp/pred.txt" >>"$outdir/counters.tsv"
done
rows=$(awk -F'\t' 'NR > 1' "$outdir/counters.tsv" | wc -l)
differ=$(awk -F'\t' 'NR > 1 && $4 != $5' "$outdir/counters.tsv" | wc -l)
awk -F'\t' 'NR > 1 && $4 != $5 { print "DIFFERS: " $0 }' "$outdir/counters.tsv"
grep -E '^tile |^  ' "$outdir/checks.log"
echo "check programs: $(ls "$tmp"/gen/*_check.cu.bin | wc -l) run, $fail failed"
echo "counters: $rows accesses x layouts, $((rows - differ)) match, $differ differ"
[ "$fail" -eq 0 ] && [ "$differ" -eq 0 ]

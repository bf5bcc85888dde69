#!/bin/sh
# bankc scan on real kernels (bankc's outputs on the PTX of tests/ptx/ are
# tests/run_scan.sh's):
#
#   1. the validation kernels (tests/gpu/scan_kernels/, manifest.tsv),
#      compiled to PTX by nvcc in BUILD (skipped, and counted so, where
#      nvcc is missing): a .cu given to scan itself, every launch scanned
#      completely, its totals exactly the golden file
#      tests/ptx/validation_predicted.tsv, and --emit-spec's specs costing
#      what the scan predicted (tests/ptx/roundtrip.sh);
#   2. the counters measured on an H200 (tests/data/scan_h200.tsv, and
#      tests/data/scan_triton_h200.tsv for the Triton kernels, each from
#      the PTX that ran there: tests/data/scan_h200/ptx/, launched as its
#      manifest.tsv says): every load, store and atomic wavefront count
#      must equal bankc's prediction, but for the rows of its
#      tolerated.tsv that the scan notes it cannot predict (counted as
#      skipped).
#
#     sh tests/run_scan_kernels.sh BANKC [BUILD]
#
# UPDATE=1 rewrites the golden file (docs/testing.md); review the diff.
# Prints a line per failure, then "scan kernels: N passed, M failed, K
# skipped".
. "$(dirname "$0")/lib.sh"
bankc=$1
build=${2:-build}
[ -x "$bankc" ] || { echo "usage: $0 BANKC [BUILD]" >&2; exit 2; }

# 1. the validation kernels
if ! have nvcc; then
	skip "the validation kernels (no nvcc)"
else
	# a .cu compiled by scan itself prints what its PTX does
	"$bankc" scan tests/gpu/scan_kernels/transpose.cu --block 32,8 -- -O3 >"$tmp/cu.out" 2>&1
	if sed -n '/^--- stdout$/,/^--- stderr$/p' tests/ptx/expected/transpose | sed '1d;$d' |
		cmp -s - "$tmp/cu.out"; then
		ok
	else
		bad "scan tests/gpu/scan_kernels/transpose.cu differs from its PTX's scan"
		head -n 5 "$tmp/cu.out"
	fi
	printf '__global__ void k() { undeclared(); }\n' >"$tmp/bad.cu"
	"$bankc" scan "$tmp/bad.cu" --block 32 >"$tmp/cu.out" 2>"$tmp/cu.err"
	if [ $? -eq 1 ] && [ ! -s "$tmp/cu.out" ] && grep -q "bankc: error: nvcc failed on" "$tmp/cu.err"; then
		ok
	else
		bad "scan of a .cu that nvcc rejects"
	fi
	gen=$build/scan-gen ptx=$build/scan-ptx
	mkdir -p "$gen" "$ptx"
	"$bankc" build specs/templates.tile -o "$gen" >/dev/null 2>&1 || bad "bankc build specs/templates.tile"
	# compiled only when the source (or the tiles) changed
	for cu in tests/gpu/scan_kernels/*.cu; do
		p=$(basename "$cu" .cu)
		out=$ptx/$p.ptx
		if [ ! -f "$out" ] || [ "$cu" -nt "$out" ] || [ tests/gpu/scan_kernels/scan_kernel.cuh -nt "$out" ]; then
			nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -Iruntime -I"$gen" -ptx -o "$out.tmp" "$cu" \
				>"$tmp/nvcc.log" 2>&1 && mv "$out.tmp" "$out" || { bad "nvcc -ptx $cu"; cat "$tmp/nvcc.log"; }
		fi
	done
	: >"$tmp/pred.tsv"
	: >"$tmp/pred.err"
	grep -v '^#' tests/gpu/scan_kernels/manifest.tsv | while IFS="$(printf '\t')" read -r prog kern block opts; do
		# shellcheck disable=SC2086
		if "$bankc" scan "$ptx/$prog.ptx" --kernel "$kern" --block "$block" $opts >"$tmp/k.out" 2>"$tmp/k.err"; then
			awk -v p="$prog" -v k="$kern" '
			$1 == "loads" { w["ld"] = $2; i["ld"] = $5 }
			$1 == "stores" { w["st"] = $2; i["st"] = $5 }
			$1 == "atomics" { w["atom"] = $2; i["atom"] = $5 }
			$1 == "reductions" { w["red"] = $2; i["red"] = $5 }
			END {
				printf "%s\t%s", p, k
				n = split("ld st atom red", c, " ")
				for (j = 1; j <= n; j++) printf "\t%d", w[c[j]]
				for (j = 1; j <= n; j++) { v = i[c[j]]; sub(/,$/, "", v); printf "\t%d", v }
				printf "\n"
			}' "$tmp/k.out" >>"$tmp/pred.tsv"
		else
			echo "FAIL: scan $prog $kern:" >>"$tmp/pred.err"
			head -n 5 "$tmp/k.err" >>"$tmp/pred.err"
		fi
	done
	if [ -s "$tmp/pred.err" ]; then
		cat "$tmp/pred.err"
		fail=$((fail + $(grep -c '^FAIL' "$tmp/pred.err")))
	fi
	{ echo "# bankc scan's predicted wavefronts per block of the validation kernels"
	  echo "# (tests/run_scan_kernels.sh; UPDATE=1 rewrites this file)"
	  printf '# program\tkernel\tld\tst\tatom\tred\tideal_ld\tideal_st\tideal_atom\tideal_red\n'
	  cat "$tmp/pred.tsv"; } >"$tmp/predicted.tsv"
	golden tests/ptx/validation_predicted.tsv "$tmp/predicted.tsv" "the scan of the validation kernels"
	# --emit-spec, then check and compare on the specs
	sh tests/ptx/roundtrip.sh "$bankc" "$bankc" "$ptx" >"$tmp/rt.txt" 2>&1
	grep -E '^(FAIL|skip)' "$tmp/rt.txt"
	# its "roundtrip: N passed, M failed[, K skipped]" added to ours
	set -- $(tail -n 1 "$tmp/rt.txt" | tr -d ',')
	if [ "${1:-}" = roundtrip: ]; then
		pass=$((pass + $2)) fail=$((fail + $4)) skipped=$((skipped + ${6:-0}))
	else
		bad "tests/ptx/roundtrip.sh ended without its summary"
		tail -n 5 "$tmp/rt.txt" | indent
	fi
fi

# 2. against the counters measured on an H200, from the PTX that ran there:
# the validation kernels, and the Triton kernels (tests/gpu/triton/)
compare_measured() {
	meas=$1 ran=$2
	if [ ! -f "$meas" ]; then
		skip "no measured counters ($meas)"
		return
	fi
	sh tests/gpu/scan_compare.sh "$bankc" "$ran/ptx" "$meas" "$ran/manifest.tsv" \
		"$ran/tolerated.tsv" >"$tmp/cmp.txt" 2>&1
	grep -E "$(printf '\t')DIFFERS\$|^not scanned" "$tmp/cmp.txt"
	# "scan counters: N compared, M differ, T tolerated, R within a
	# predicted range, K launches not scanned, U measured launches not
	# matched": a tolerated row counts as skipped, one within its range
	# as passed
	set -- $(tail -n 1 "$tmp/cmp.txt" | tr -d ',')
	if [ "${1:-} ${2:-}" = "scan counters:" ]; then
		pass=$((pass + $3 - $5 - $7)) fail=$((fail + $5 + ${14} + ${18})) skipped=$((skipped + $7))
		[ "${18}" -eq 0 ] || echo "FAIL: ${18} launches of $meas match no launch of $ran/manifest.tsv"
	else
		bad "tests/gpu/scan_compare.sh ended without its summary ($meas)"
		tail -n 5 "$tmp/cmp.txt" | indent
	fi
}
compare_measured tests/data/scan_h200.tsv tests/data/scan_h200
compare_measured tests/data/scan_triton_h200.tsv tests/data/scan_triton_h200
summary "scan kernels"

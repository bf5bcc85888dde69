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
#   1a. the real sizes: the register-blocked SGEMM at K = 4096 and the
#      attention row of 8192 keys (their manifest rows) total exactly their
#      first trip's counts plus (trips - 1) times one trip's (the scans of
#      one and of two trips), each scan under 10 s of CPU and 1 GiB (in a
#      plain build: under sanitizers, ASAN_OPTIONS set, the totals only);
#   1b. the fixes: every padding diff that --fix prints for them applied
#      with patch, the fixed program compiled and scanned again, its total
#      the promised one (tests/gpu/fix_validate.sh, unmeasured); the same
#      for the kernels of tests/ptx/fix.cu; and the transpose that the
#      note's swizzle would make (transpose_swizzled) takes its promise;
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
	"$bankc" scan tests/gpu/scan_kernels/transpose.cu --block 32,8 -- -O3 >"$tmp/cu.out" \
		2>"$tmp/cu.err"
	if sed -n '/^--- stdout$/,/^--- stderr$/p' tests/ptx/expected/transpose | sed '1d;$d' |
		cmp -s - "$tmp/cu.out" &&
		sed -n '/^--- stderr$/,$p' tests/ptx/expected/transpose | sed '1d' | cmp -s - "$tmp/cu.err"; then
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

# 1a. the real sizes: a trip's pattern, multiplied out
real_size() {   # real_size PROGRAM KERNEL BLOCK PARAM ONE TRIPS
	_p=$1 _k=$2 _b=$3 _i=$4 _one=$5 _n=$6
	for _t in 1 2 "$_n"; do
		_v=$((_t * _one))
		if [ -x /usr/bin/time ] && [ -z "${ASAN_OPTIONS:-}" ]; then
			_tm="/usr/bin/time -f %U_%S_%M -o $tmp/rs.time"
		else
			_tm=
		fi
		if ! $_tm "$bankc" scan "$ptx/$_p.ptx" --kernel "$_k" --block "$_b" --param "$_i=$_v" \
			--json >"$tmp/rs.$_t.json" 2>"$tmp/rs.err"; then
			bad "scan $_k with --param $_i=$_v: $(head -n 1 "$tmp/rs.err")"
			return
		fi
		if [ -n "$_tm" ]; then
			# shellcheck disable=SC2046
			set -- $(tr '_' ' ' <"$tmp/rs.time")
			_cpu=$(echo "$1 $2" | awk '{ printf "%d", $1 + $2 }')
			if [ "$_cpu" -ge 10 ] || [ "$3" -ge 1048576 ]; then
				bad "scan $_k with --param $_i=$_v: $_cpu s of CPU, $3 KB"
			fi
		fi
	done
	python3 -c '
import json, sys
def tot(f):
    k = json.load(open(f))["kernels"][0]
    assert k["complete"], f
    return {(c, f2): k["totals"][c][f2] for c in ("ld", "st", "atom", "red")
            for f2 in ("instructions", "wavefronts", "ideal")}
one, two, all_ = (tot(sys.argv[i]) for i in (1, 2, 3))
n = int(sys.argv[4])
bad = [(c, all_[c], one[c] + (n - 1) * (two[c] - one[c])) for c in one
       if all_[c] != one[c] + (n - 1) * (two[c] - one[c])]
assert not bad, bad
assert all_[("ld", "instructions")] > 0
' "$tmp/rs.1.json" "$tmp/rs.2.json" "$tmp/rs.$_n.json" "$_n" 2>"$tmp/rs.py" && ok ||
		{ bad "$_k at its real size: not its trips multiplied out"; indent <"$tmp/rs.py"; }
}
if have nvcc && have python3; then
	real_size sgemm_regblock sgemm_regblock 256 2 8 512
	real_size attention attention_row 32 3 32 256
else
	skip "the real sizes (no nvcc or no python3)"
fi

# 1b. the fixes hold: diffs applied, compiled and scanned again
if have nvcc && have patch; then
	if MEASURE=0 PTXDIR=$ptx bash tests/gpu/fix_validate.sh "$bankc" "$build/fix-validate" \
		>"$tmp/fv.txt" 2>&1; then
		n=$(grep -c "$(printf '\t')holds\$" "$build/fix-validate/fix_validation.tsv")
		pass=$((pass + n))
	else
		bad "tests/gpu/fix_validate.sh: a fix of the validation kernels does not hold"
		indent <"$tmp/fv.txt"
	fi
	# no index rewrite where the compiler kept the array's values in
	# registers at a use (attention's S, stored at line 48 and used at 49
	# and 57 with no load): rewritten, the index hides that the elements
	# are distinct, the compiler loads them, and the proof did not count
	# those loads (1318912 where 794624 were promised at 8192 keys)
	"$bankc" scan "$ptx/attention.ptx" --block 32 --param 3=32 --fix \
		--source-dir tests/gpu/scan_kernels >"$tmp/at.diff" 2>"$tmp/at.err"
	if grep -q "(no padding: tests/gpu/scan_kernels/attention.cu:49: the compiler made no shared-memory access of its use there" "$tmp/at.err" &&
		grep -q '^+.*Vj\[' "$tmp/at.diff" && ! grep -q '^+.*S\[(' "$tmp/at.diff"; then
		ok
	else
		bad "attention's S: an index rewrite offered where the compiler loads nothing at line 49"
	fi
	mkdir -p "$tmp/fx/tests/ptx"
	cp tests/ptx/fix.cu "$tmp/fx/tests/ptx/"
	"$bankc" scan tests/ptx/fix.ptx --block 32 --fix >"$tmp/fx.diff" 2>/dev/null
	(cd "$tmp/fx" && patch -s -p0 <../fx.diff && nvcc -O3 -lineinfo -arch=sm_90 -ptx \
		-o fixed.ptx tests/ptx/fix.cu) >"$tmp/fx.log" 2>&1 || { bad "tests/ptx/fix.cu: the --fix diff"; indent <"$tmp/fx.log"; }
	for k in fix_literal fix_double; do
		"$bankc" scan tests/ptx/fix.ptx --block 32 --kernel $k >"$tmp/k.txt" 2>&1
		want=$(awk '/^  (loads|stores) / { t += $2 }
			/note: .* takes [0-9]+ wavefronts per block/ { for (i = 1; i < NF; i++) if ($i == "takes") { cur = $(i + 1); break } }
			/padding reaches it \(/ { v = $0; sub(/.*reaches it \(/, "", v); sub(/ .*/, "", v); t += v - cur }
			END { print t + 0 }' "$tmp/k.txt")
		got=$("$bankc" scan "$tmp/fx/fixed.ptx" --block 32 --kernel $k 2>&1 |
			awk '/^  (loads|stores) / { t += $2 } END { print t + 0 }')
		if [ "$want" = "$got" ]; then ok; else bad "$k: the padded kernel takes $got wavefronts, the note promised $want"; fi
	done
	# the swizzle of transpose_naive's note is what transpose_swizzled does
	want=$("$bankc" scan "$ptx/transpose.ptx" --block 32,8 --kernel transpose_naive 2>&1 |
		sed -n "s/.*the best layout .*, swizzle<5,2,5>, takes \([0-9]*\),.*/\1/p")
	got=$("$bankc" scan "$ptx/transpose.ptx" --block 32,8 --kernel transpose_swizzled 2>&1 |
		awk '/^  (loads|stores) / { t += $2 } END { print t + 0 }')
	if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else bad "transpose: the swizzle promised $want, transpose_swizzled takes $got"; fi
else
	skip "the fixes (no nvcc or no patch)"
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

#!/bin/sh
# bankc scan's checks outside the unit tests:
#
#   1. tests/ptx/cases.txt: each line "NAME: ARGS" runs `BANKC scan ARGS`;
#      its exit status, stdout and stderr must be exactly
#      tests/ptx/expected/NAME (rewritten with UPDATE=1; review the diff);
#   2. tests/ptx/bad/*.ptx: broken PTX; the first line of stderr must be
#      the file's first line after "// expect: ", with status 1 and no
#      output;
#   3. the validation kernels (tests/gpu/scan_kernels/, manifest.tsv),
#      compiled to PTX by nvcc in the build (skipped, and counted so,
#      where nvcc is missing): every launch must scan completely, its
#      totals must equal tests/ptx/validation_predicted.tsv (UPDATE=1
#      rewrites it), and --emit-spec's specs must cost what the scan
#      predicted (tests/ptx/roundtrip.sh);
#   4. the counters measured on an H200 (tests/data/scan_h200.tsv, from
#      the PTX that ran there: tests/data/scan_h200/ptx/, launched as its
#      manifest.tsv says): every load, store and atomic wavefront count
#      must equal bankc's prediction, but for the rows of its
#      tolerated.tsv that the scan notes it cannot predict.
#
#     sh tests/run_scan.sh BANKC [BUILD]
#
# Prints a line per failure, then "scan: N passed, M failed, K skipped".
bankc=$1
build=${2:-build}
[ -x "$bankc" ] || { echo "usage: $0 BANKC [BUILD]" >&2; exit 2; }
update=${UPDATE:-0}
pass=0 fail=0 skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 1. cases with their whole output
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	name=${line%%:*}
	args=${line#*: }
	# shellcheck disable=SC2086
	"$bankc" scan $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	{ echo "status: $rc"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; } >"$tmp/got"
	want=tests/ptx/expected/$name
	if [ "$update" = 1 ]; then
		mkdir -p tests/ptx/expected
		cp "$tmp/got" "$want"
		ok
	elif [ -f "$want" ] && cmp -s "$tmp/got" "$want"; then
		ok
	else
		bad "scan $args (case $name)"
		[ -f "$want" ] && diff "$want" "$tmp/got" | head -n 20
	fi
done <tests/ptx/cases.txt

# 1b. --emit-spec: the specs written, byte for byte
for k in transpose_naive ldsm_rowmajor histogram_atom histogram_u64; do
	case $k in transpose*) f=transpose b=32,8 ;; ldsm*) f=ldmatrix b=32 ;; *) f=histogram b=256 ;; esac
	rm -rf "$tmp/spec"
	"$bankc" scan "tests/ptx/$f.ptx" --block $b --kernel $k --emit-spec "$tmp/spec" >/dev/null 2>&1 ||
		bad "scan --emit-spec $k"
	for s in "$tmp"/spec/*.tile; do
		want=tests/ptx/expected/spec_$(basename "$s")
		if [ "$update" = 1 ]; then
			cp "$s" "$want"
			ok
		elif cmp -s "$s" "$want"; then
			ok
		else
			bad "--emit-spec wrote $(basename "$s") unlike $want"
			diff "$want" "$s" | head -n 10
		fi
	done
done

# 1c. specs that `compare` must read and cost as the scan did (row-major):
#     a template's two instances share a plain name, so each gets specs
#     named by its PTX name; a 4-byte cp.async says its width
rm -rf "$tmp/spec"
"$bankc" scan tests/ptx/template.ptx --block 32 --emit-spec "$tmp/spec" >/dev/null 2>&1 ||
	bad "scan --emit-spec of tests/ptx/template.ptx"
"$bankc" scan tests/ptx/cpasync4.ptx --block 64 --emit-spec "$tmp/spec" >/dev/null 2>&1 ||
	bad "scan --emit-spec of tests/ptx/cpasync4.ptx"
for k in _Z6columnILi0EEvPf_tile:64 _Z6columnILi1EEvPf_tile:33 copy4_s:6; do
	s=$tmp/spec/${k%%:*}.tile
	w=$("$bankc" compare "$s" --top 100 2>/dev/null | awk '$1 == "row-major" || $2 == "row-major" { print $(NF - 4); exit }')
	if [ "$w" = "${k#*:}" ]; then
		ok
	else
		bad "--emit-spec wrote $(basename "$s"), which costs '$w' row-major, want ${k#*:}"
	fi
done

# 2. broken PTX
for f in tests/ptx/bad/*.ptx; do
	want=$(sed -n '1s|^// expect: ||p' "$f")
	"$bankc" scan "$f" --block 32 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(head -n 1 "$tmp/err")
	if [ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$got" = "$want" ]; then
		ok
	else
		bad "$f: status $rc, got '$got', want '$want'"
	fi
done

# 3. the validation kernels
if ! command -v nvcc >/dev/null 2>&1; then
	echo "skip: the validation kernels (no nvcc)"
	skip=$((skip + 1))
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
	hdr='# program	kernel	ld	st	atom	red	ideal_ld	ideal_st	ideal_atom	ideal_red'
	want=tests/ptx/validation_predicted.tsv
	if [ "$update" = 1 ]; then
		{ echo "# bankc scan's predicted wavefronts per block of the validation kernels"
		  echo "# (tests/run_scan.sh; UPDATE=1 rewrites this file)"; echo "$hdr"; cat "$tmp/pred.tsv"; } >"$want"
		ok
	elif grep -v '^#' "$want" | cmp -s - "$tmp/pred.tsv"; then
		ok
	else
		bad "predictions differ from $want"
		grep -v '^#' "$want" | diff - "$tmp/pred.tsv" | head -n 20
	fi
	# --emit-spec, then check and compare on the specs
	sh tests/ptx/roundtrip.sh "$bankc" "$bankc" "$ptx" >"$tmp/rt.txt" 2>&1
	grep -E '^(FAIL|skip)' "$tmp/rt.txt"
	set -- $(tail -n 1 "$tmp/rt.txt" | tr -d ',')
	pass=$((pass + $2)) fail=$((fail + $4)) skip=$((skip + $6))
fi

# 4. against the counters measured on an H200, from the PTX that ran there
meas=tests/data/scan_h200.tsv ran=tests/data/scan_h200
if [ -f "$meas" ]; then
	sh tests/gpu/scan_compare.sh "$bankc" "$ran/ptx" "$meas" "$ran/manifest.tsv" \
		"$ran/tolerated.tsv" >"$tmp/cmp.txt" 2>&1
	grep -E "$(printf '\t')DIFFERS\$|^not scanned" "$tmp/cmp.txt"
	# "scan counters: N compared, M differ, T tolerated, K launches not
	# scanned, U measured launches not matched": a tolerated row counts
	# as skipped
	set -- $(tail -n 1 "$tmp/cmp.txt" | tr -d ',')
	pass=$((pass + $3 - $5 - $7)) fail=$((fail + $5 + $9 + ${13})) skip=$((skip + $7))
	[ "${13}" -eq 0 ] || echo "FAIL: ${13} launches of $meas match no launch of $ran/manifest.tsv"
else
	echo "skip: no measured counters ($meas)"
	skip=$((skip + 1))
fi
echo "scan: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

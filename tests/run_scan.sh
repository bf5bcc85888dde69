#!/bin/sh
# bankc scan's outputs, which need bankc alone (the validation kernels and
# the measured counters are tests/run_scan_kernels.sh's):
#
#   1. tests/ptx/cases.txt: each line "NAME: ARGS" runs `BANKC scan ARGS`;
#      its exit status, stdout and stderr, as lib.sh's capture writes
#      them, must be exactly the golden file tests/ptx/expected/NAME;
#   1b. --emit-spec: the specs written, byte for byte the golden files
#      tests/ptx/expected/spec_*.tile; a file of tests/ptx/expected/ that
#      neither writes fails;
#   1c. specs that `compare` must read and cost as the scan did;
#   1d. --fix: the diffs apply with patch to copies of the sources and
#       change the declarations and the indices the notes promised; the
#       spec --emit-spec writes of a fixed array costs, under the layout
#       the note names, what the note says (`compare` solves it as the
#       note did).  tests/run_fix.sh compiles the fixed sources, scans
#       them again and checks every rewrite element by element;
#   2. tests/ptx/bad/*.ptx: broken PTX; the first line of stderr must be
#      the file's first line after "// expect: ", with status 1 and no
#      output.
#
#     sh tests/run_scan.sh BANKC
#
# UPDATE=1 rewrites the golden files (docs/testing.md); review the diff.
# Prints a line per failure, then "scan: N passed, M failed".
. "$(dirname "$0")/lib.sh"
bankc=$1
[ -x "$bankc" ] || { echo "usage: $0 BANKC" >&2; exit 2; }

# 1. cases with their whole output
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	name=${line%%:*}
	args=${line#*: }
	# shellcheck disable=SC2086
	capture "$tmp/got" "$bankc" scan $args
	golden "tests/ptx/expected/$name" "$tmp/got" "bankc scan $args"
	echo "$name" >>"$tmp/goldens"
done <tests/ptx/cases.txt

# 1b. --emit-spec: the specs written, byte for byte
for k in transpose_naive ldsm_rowmajor histogram_atom histogram_u64 fix_narrow fp8_tile; do
	case $k in transpose*) f=transpose b=32,8 ;; ldsm*) f=ldmatrix b=32 ;; fix*) f=fix b=32 ;;
	fp8*) f=ldmatrix_b8 b=128 ;; *) f=histogram b=256 ;; esac
	rm -rf "$tmp/spec"
	"$bankc" scan "tests/ptx/$f.ptx" --block $b --kernel $k --emit-spec "$tmp/spec" \
		--source-dir tests/gpu/scan_kernels >/dev/null 2>&1 || bad "scan --emit-spec $k"
	for s in "$tmp"/spec/*.tile; do
		golden "tests/ptx/expected/spec_${s##*/}" "$s" "the ${s##*/} that --emit-spec wrote for $k"
		echo "spec_${s##*/}" >>"$tmp/goldens"
	done
done
# a golden file no case writes is left over from one renamed or removed
for f in tests/ptx/expected/*; do
	grep -qx "${f##*/}" "$tmp/goldens" || bad "$f: no case of tests/ptx/cases.txt or --emit-spec writes it"
done

# 1c. specs that `compare` must read and cost as the scan did (row-major):
#     a template's two instances share a plain name, so each gets specs
#     named by its PTX name; a 4-byte cp.async says its width
rm -rf "$tmp/spec"
"$bankc" scan tests/ptx/template.ptx --block 32 --emit-spec "$tmp/spec" >/dev/null 2>&1 ||
	bad "scan --emit-spec of tests/ptx/template.ptx"
"$bankc" scan tests/ptx/cpasync4.ptx --block 64 --emit-spec "$tmp/spec" >/dev/null 2>&1 ||
	bad "scan --emit-spec of tests/ptx/cpasync4.ptx"
for k in column_0_tile:64 column_1_tile:33 copy4_s:6; do
	s=$tmp/spec/${k%%:*}.tile
	w=$("$bankc" compare "$s" --top 100 2>/dev/null | awk '$1 == "row-major" || $2 == "row-major" { print $(NF - 4); exit }')
	if [ "$w" = "${k#*:}" ]; then
		ok
	else
		bad "--emit-spec wrote $(basename "$s"), which costs '$w' row-major, want ${k#*:}"
	fi
done

# 1c'. kernels and arrays whose names join alike (conv + in_tile, conv_in
#      + tile; k + the module's a_b, k_a + b): a spec each, never one file
#      written twice, each named by its tile and saying whose it is
rm -rf "$tmp/spec"
"$bankc" scan tests/ptx/joins.ptx --block 32 --emit-spec "$tmp/spec" >/dev/null 2>&1 ||
	bad "scan --emit-spec of tests/ptx/joins.ptx"
if [ "$(ls "$tmp/spec" | wc -l)" -eq 4 ]; then ok
else bad "--emit-spec of tests/ptx/joins.ptx wrote $(ls "$tmp/spec" | tr '\n' ' '), want 4 specs"; fi
for ka in conv:in_tile conv_in:tile k:a_b k_a:b; do
	n=0
	for s in "$tmp/spec"/*.tile; do
		head -n 2 "$s" | tr '\n' ' ' | grep -q "kernel ${ka%%:*}, .* shared array '${ka#*:}'" || continue
		n=$((n + 1))
		t=${s##*/}
		t=${t%.tile}
		case $t in "${ka%%:*}_${ka#*:}_"????????) ;; *) bad "the spec of ${ka%%:*}'s '${ka#*:}' is named $t" ;; esac
		if "$bankc" check "$s" 2>/dev/null && grep -q "^tile $t {" "$s"; then ok
		else bad "$t.tile: not a spec of tile $t"; fi
	done
	[ "$n" -eq 1 ] && ok || bad "kernel ${ka%%:*}, array '${ka#*:}': $n specs"
done

# 1d. the fixes: the diffs apply, the emitted spec agrees with the note
if have patch; then
	mkdir -p "$tmp/fx/tests/ptx" "$tmp/fx/tests/gpu/scan_kernels"
	cp tests/ptx/fix.cu "$tmp/fx/tests/ptx/"
	cp tests/gpu/scan_kernels/transpose.cu "$tmp/fx/tests/gpu/scan_kernels/"
	"$bankc" scan tests/ptx/fix.ptx --block 32 --fix >"$tmp/fx.diff" 2>/dev/null
	"$bankc" scan tests/ptx/transpose.ptx --block 32,8 --fix --source-dir tests/gpu/scan_kernels \
		>>"$tmp/fx.diff" 2>/dev/null
	if (cd "$tmp/fx" && patch -s -p0 <../fx.diff) >"$tmp/patch.log" 2>&1 &&
		grep -q '__shared__ float t\[32\]\[36\];' "$tmp/fx/tests/ptx/fix.cu" &&
		grep -q '__shared__ double d\[N\]\[N + 2\];' "$tmp/fx/tests/ptx/fix.cu" &&
		grep -q '__shared__ float tile\[TILE\]\[TILE + 1\];' "$tmp/fx/tests/gpu/scan_kernels/transpose.cu" &&
		grep -q 'acc += s\[x\]\[(c / 4 ^ ((x >> 1) & 3)) \* 4 + c % 4\] + s\[x + 32\]' "$tmp/fx/tests/ptx/fix.cu" &&
		[ "$(diff tests/ptx/fix.cu "$tmp/fx/tests/ptx/fix.cu" | grep -c '^>')" -eq 4 ]; then
		ok
	else
		bad "the diffs of --fix do not apply, or change other lines"
		indent <"$tmp/patch.log"
	fi
else
	skip "the diffs of --fix (no patch)"
fi
# an index is not rewritten where a use issued no shared-memory access
# on any path (the compiler kept the values in registers: rewritten, it
# may load them); a use on a path the launch does not take is rewritten
"$bankc" scan tests/ptx/kept.ptx --kernel kept_register --block 32 --param off=0 --fix \
	>"$tmp/kr.diff" 2>"$tmp/kr.err"
if [ ! -s "$tmp/kr.diff" ] && grep -q "(no padding: tests/ptx/kept.cu:20: the compiler made no shared-memory access of its use there (it keeps the value in a register)" "$tmp/kr.err"; then
	ok
else
	bad "kept_register: an index rewrite offered where the compiler kept t's values in registers"
fi
"$bankc" scan tests/ptx/kept.ptx --kernel kept_untaken --block 32 --param n=0 --fix \
	>"$tmp/ku.diff" 2>/dev/null
if grep -q '^+		s += t\[(x \* 32 + n % 32) / 32 \* 33 + ((x \* 32 + n % 32) % 32)\];' "$tmp/ku.diff" &&
	grep -q '^+	__shared__ float t\[1056\];' "$tmp/ku.diff"; then
	ok
else
	bad "kept_untaken: the padding's diff does not rewrite the use on the path not taken"
fi
for k in fix_literal:t fix_narrow:s fix_double:d; do
	rm -rf "$tmp/spec"
	"$bankc" scan tests/ptx/fix.ptx --block 32 --kernel "${k%%:*}" --emit-spec "$tmp/spec" \
		>"$tmp/fx.txt" 2>&1
	want=$(sed -n "s/.*note: '${k#*:}' takes [0-9]* wavefronts per block, ideal [0-9]*; the best layout bankc finds for .*, \(.*\), takes \([0-9]*\),.*/\1|\2/p" "$tmp/fx.txt")
	got=$("$bankc" compare "$tmp/spec/${k%%:*}_${k#*:}.tile" 2>/dev/null |
		sed -n 's/^  chosen: \(.*\): \([0-9]*\) weighted wavefronts.*/\1|\2/p')
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok
	else
		bad "${k%%:*}: the note says '$want', compare of its emitted spec '$got'"
	fi
done

# 2. broken PTX
for f in tests/ptx/bad/*.ptx; do
	want=$(sed -n '1s|^// expect: ||p' "$f")
	"$bankc" scan "$f" --block 32 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(grep -v 'note: the PTX has no line information' "$tmp/err" | head -n 1)
	if [ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$got" = "$want" ]; then
		ok
	else
		bad "$f: status $rc, got '$got', want '$want'"
	fi
done
summary scan

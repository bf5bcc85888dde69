#!/bin/sh
# bankc scan --fix, applied: for each kernel of tests/fix/cases.txt,
#   - the scan's fix note and --fix agree: a diff on stdout, or on stderr
#     why there is none (never silent about an array with a fix);
#   - "diff": the diff applies with patch to a copy of the source, the
#     fixed source compiles with nvcc and, scanned again, its array takes
#     the wavefronts the fix promised; and the other arrays of the file
#     (another kernel's of the same name) are untouched;
#   - "none:TEXT": no diff for the array (its text unchanged by the other
#     arrays' diff, if any), and stderr says TEXT;
#   - "nofix:TEXT": no fix at all, and the JSON's "no_fix" says TEXT (a
#     layout fitted to one --data input that saves nothing on others);
#   - every index rewrite, evaluated for each element of the array
#     (tests/fix/check_fix.py), puts each element in a place of its own
#     within the declaration, where the header bankc build writes for the
#     array's spec puts it, and where the CuTe line's Swizzle, built with
#     CUTLASS's headers, puts it.
#
#     sh tests/run_fix.sh BANKC
#
# Needs nvcc, patch, python3 and cc (each missing one a skip; in CI a
# failure); CuTe's check needs CUTLASS 4.7 (tests/lib.sh's cutlass_dir).
# Prints a line per failure, then "fix: N passed, M failed".
. "$(dirname "$0")/lib.sh"
bankc=$1
[ -x "$bankc" ] || { echo "usage: $0 BANKC" >&2; exit 2; }
case $bankc in /*) ;; *) bankc=$PWD/$bankc ;; esac
for t in nvcc patch python3 cc; do
	if ! have $t; then
		missing "$t" "the fixes applied"
		summary fix
		exit $?
	fi
done
if cutlass=$(cutlass_dir); then :; else
	missing "CUTLASS 4.7's headers in $cutlass/include: the CuTe lines"
	cutlass=
fi
check=$PWD/tests/fix/check_fix.py
# CuTe's headers on the host need the toolkit's (and its cccl's)
nv=$(command -v nvcc)
cinc=$(dirname "$nv")/../include
[ -f "$cinc/cuda_runtime_api.h" ] || cinc=/usr/local/cuda/include
cxx="nvcc -x cu"
have g++ && cxx="g++ -x c++ -isystem $cinc -isystem $cinc/cccl"
flags="-ptx -lineinfo -arch=sm_90 -O3"
mkdir -p "$tmp/ptx"
root=$PWD
while read -r file kern block arr expect rest; do
	case $file in '#'* | '') continue ;; esac
	# @ in the scan's arguments: the repository's root
	rest=$(printf '%s' "$rest" | sed "s|@|$root|g")
	src=$file
	dir=$(dirname "$file")
	ptx=$tmp/ptx/$(echo "${file%.cu}" | tr / _).ptx
	if [ ! -f "$ptx" ] && ! nvcc $flags -Iruntime -o "$ptx" "$src" 2>"$tmp/nvcc.log"; then
		bad "$file: nvcc failed"
		indent <"$tmp/nvcc.log"
		continue
	fi
	w=$tmp/$kern
	rm -rf "$w"
	mkdir -p "$w/$dir"
	cp "$src" "$w/$dir/"
	# shellcheck disable=SC2086
	"$bankc" scan "$ptx" --block "$block" --kernel "$kern" --source-dir "$dir" --json $rest \
		>"$w/scan.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$bankc" scan "$ptx" --block "$block" --kernel "$kern" --source-dir "$dir" --fix $rest \
		>"$w/fix.diff" 2>"$w/fix.err"
	promise=$(python3 "$check" promise "$w/scan.json" "$kern" "$arr")
	case $expect in
	diff)
		if [ ! -s "$w/fix.diff" ] || [ -z "$promise" ]; then
			bad "$kern: no diff (promise '$promise')"
			indent <"$w/fix.err"
			continue
		fi
		if ! (cd "$w" && patch -s -p0 <fix.diff) >"$w/patch.log" 2>&1; then
			bad "$kern: the diff does not apply"
			indent <"$w/patch.log"
			continue
		fi
		if ! (cd "$w" && nvcc $flags -I"$root/$dir" -o fixed.ptx "$file") >"$w/nvcc.log" 2>&1; then
			bad "$kern: the fixed source does not compile"
			indent <"$w/nvcc.log"
			continue
		fi
		# shellcheck disable=SC2086
		(cd "$w" && "$bankc" scan fixed.ptx --block "$block" --kernel "$kern" \
			--source-dir "$dir" --json $rest) >"$w/fixed.json" 2>/dev/null
		got=$(python3 "$check" wave "$w/fixed.json" "$kern" "$arr")
		if [ "$got" = "$promise" ]; then
			ok
		else
			bad "$kern: '$arr' takes $got wavefronts once fixed; the fix promised $promise"
		fi
		;;
	nofix:*)
		want=${expect#nofix:}
		if [ -z "$promise" ] && [ ! -s "$w/fix.diff" ] &&
			python3 "$check" nofix "$w/scan.json" "$kern" "$arr" | grep -q "$want"; then
			ok
		else
			bad "$kern: expected no fix, and '$want' in its no_fix"
		fi
		continue
		;;
	none:*)
		want=${expect#none:}
		# another array's diff may be there: this one's text unchanged
		if [ -s "$w/fix.diff" ] && ! (cd "$w" && patch -s -p0 <fix.diff) >"$w/patch.log" 2>&1; then
			bad "$kern: the other arrays' diff does not apply"
			continue
		fi
		if grep -o "\b$arr\[[^]]*]" "$src" >"$w/before.txt" &&
			grep -o "\b$arr\[[^]]*]" "$w/$file" >"$w/after.txt" &&
			cmp -s "$w/before.txt" "$w/after.txt" &&
			grep -q "no diff for '$arr'.*$want" "$w/fix.err"; then
			ok
		else
			bad "$kern: expected no diff and '$want' on stderr"
			indent <"$w/fix.err"
			head -n 5 "$w/fix.diff" | indent
		fi
		;;
	esac
	# the forms, element by element
	rm -rf "$w/spec" "$w/gen"
	mkdir -p "$w/gen"
	# shellcheck disable=SC2086
	"$bankc" scan "$ptx" --block "$block" --kernel "$kern" --source-dir "$dir" \
		--emit-spec "$w/spec" $rest >/dev/null 2>&1
	for s in "$w"/spec/*.tile; do
		[ -f "$s" ] && "$bankc" build "$s" -o "$w/gen" >/dev/null 2>&1
	done
	got=$(python3 "$check" forms "$w/scan.json" "$kern" "$arr" "$w/gen" "$cxx" "$cutlass")
	if [ "$got" = ok ]; then
		ok
	else
		bad "$kern: $got"
	fi
done <tests/fix/cases.txt

# a declaration in a header the .cu includes from another folder, scanned
# from the .cu alone: the files nvcc read are the sources
w=$tmp/incl
mkdir -p "$w/tests/fix/src" "$w/tests/fix/include"
cp tests/fix/src/incl.cu "$w/tests/fix/src/"
cp tests/fix/include/colsum.cuh "$w/tests/fix/include/"
if (cd "$w" && "$bankc" scan tests/fix/src/incl.cu --block 32 --fix -- -Itests/fix/include \
	>fix.diff 2>fix.err && grep -q '^+++ tests/fix/include/colsum.cuh' fix.diff &&
	patch -s -p0 <fix.diff && "$bankc" scan tests/fix/src/incl.cu --block 32 -- \
	-Itests/fix/include >after.txt 2>&1) && grep -q 'loads  *32 wavefronts, ideal 32' "$w/after.txt"; then
	ok
else
	bad "incl.cu: the header's array is not fixed through the .cu"
	indent <"$w/fix.err"
fi
summary fix

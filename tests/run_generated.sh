#!/bin/sh
# bankc build's outputs: deterministic, only rewritten when changed, every
# header valid C11, every header and check program valid CUDA for each
# target architecture, warnings as errors, and a Blackwell tile's check
# program compiled by ptxas for its own sm_100a, sm_103a or sm_120a.
# usage: run_generated.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}

"$bankc" build specs/*.tile -o "$tmp/a" -MD && ok || bad "bankc build"
"$bankc" build specs/*.tile -o "$tmp/b" && ok || bad "bankc build again"
rm -f "$tmp/a/bankc.d"
if diff -r "$tmp/a" "$tmp/b" >/dev/null; then ok; else bad "two builds differ"; fi
# an unchanged output keeps its time stamp
touch -d '2001-01-01' "$tmp/a/transpose_f32.cuh"
"$bankc" build specs/seeds.tile -o "$tmp/a"
if [ "$(find "$tmp/a/transpose_f32.cuh" -newermt 2002-01-01)" = "" ]; then ok
else bad "an unchanged header was rewritten"; fi
# a spec with an error writes nothing
mkdir -p "$tmp/c"
if "$bankc" build specs/seeds.tile tests/bad/row_outside.tile -o "$tmp/c" 2>/dev/null; then
	bad "build of a bad spec succeeded"
elif [ -n "$(ls -A "$tmp/c")" ]; then bad "build of a bad spec wrote files"
else ok; fi

# headers as C
for h in "$tmp"/a/*.cuh; do
	printf '#include "%s"\nint main(void) { return 0; }\n' "$h" >"$tmp/h.c"
	if cc -std=c11 -Wall -Wextra -Werror -pedantic -c "$tmp/h.c" -o "$tmp/h.o" 2>"$tmp/log"; then ok
	else bad "C11: $h"; indent <"$tmp/log" | head -n 10; fi
done
# host test of every header: the layout is a bijection onto its footprint
for h in "$tmp"/a/*.cuh; do
	n=$(basename "$h" .cuh)
	N=$(echo "$n" | tr '[:lower:]' '[:upper:]')
	cat >"$tmp/t.c" <<EOC
#include <stdio.h>
#include <stdlib.h>
#include "$h"
int main(void)
{
	char *seen = calloc(${N}_ELEMS, 1);
	for (int r = 0; r < ${N}_ROWS; r++)
		for (int c = 0; c < ${N}_COLS; c += ${N}_COL_STEP) {
			int k = ${N}_IDX(r, c);
			if (k < 0 || k >= ${N}_ELEMS || seen[k]++ || ${N}_OFF(r, c) != k * ${N}_ELEM_BYTES) {
				printf("(%d, %d) -> %d\n", r, c, k);
				return 1;
			}
		}
	free(seen);
	return ${N}_BYTES >= ${N}_ELEMS * ${N}_ELEM_BYTES ? 0 : 1;
}
EOC
	if cc -std=c11 -Wall -Wextra -Werror -o "$tmp/t" "$tmp/t.c" && "$tmp/t"; then ok
	else bad "layout of $n is not a bijection"; fi
done

# NAME_IDX is a constant expression for every layout: in C (a macro) and
# in C++ (a constexpr function), so static_assert on it keeps compiling
# when the solver's choice changes (C alone where there is no c++)
have c++ || skip "NAME_IDX as a C++ constant expression (no c++)"
for h in "$tmp"/a/*.cuh; do
	n=$(basename "$h" .cuh)
	N=$(echo "$n" | tr '[:lower:]' '[:upper:]')
	printf '#include "%s"
_Static_assert(%s_IDX(%s_ROWS - 1, %s_COLS - 1) < %s_ELEMS, "");
enum { K = %s_OFF(1, 0) };
int main(void) { return K < 0; }
' \
		"$h" "$N" "$N" "$N" "$N" "$N" >"$tmp/s.c"
	printf '#include "%s"
static_assert(%s_IDX(%s_ROWS - 1, %s_COLS - 1) < %s_ELEMS, "");
constexpr int k = %s_SIDX(1, 1, 0);
int main() { return k < 0; }
' \
		"$h" "$N" "$N" "$N" "$N" "$N" >"$tmp/s.cc"
	if cc -std=c11 -Wall -Wextra -Werror -pedantic -o "$tmp/s" "$tmp/s.c" 2>"$tmp/log" &&
	   { ! have c++ || c++ -std=c++14 -Wall -Wextra -Werror -pedantic -o "$tmp/s" "$tmp/s.cc" 2>>"$tmp/log"; }; then ok
	else bad "NAME_IDX of $n is not a constant expression"; indent <"$tmp/log" | head -n 6; fi
done

# CUDA: every check program (which includes its header) per architecture
if ! have nvcc; then
	skip "the check programs and the kernel templates under nvcc (no nvcc; the CUDA toolkit must be on PATH)"
else
	arches=$(nvcc --list-gpu-arch 2>/dev/null | sed 's/compute_/sm_/')
	for arch in sm_70 sm_80 sm_90; do
		if ! printf '%s\n' "$arches" | grep -qx "$arch"; then
			skip "$arch ($(nvcc --version | tail -n 1) has no $arch)"
			continue
		fi
		for src in "$tmp"/a/*_check.cu; do
			echo "$src"
		done | xargs -P "${JOBS:-2}" -I{} sh -c \
			'nvcc -std=c++17 -arch='"$arch"' -Werror all-warnings -Xcompiler -Wall,-Wextra -Iruntime -I"$(dirname {})" -c {} -o {}.'"$arch"'.o >{}.'"$arch"'.log 2>&1 || echo {} >>'"$tmp"'/nvcc_failed'
		for src in "$tmp"/a/*_check.cu; do
			if grep -qx "$src" "$tmp/nvcc_failed" 2>/dev/null; then
				bad "nvcc -arch=$arch $(basename "$src")"
				head -c 2000 "$src.$arch.log" | indent
			else ok; fi
		done
	done
fi
# Blackwell: each check program of an sm_100a, sm_103a or sm_120a tile
# compiled by ptxas for its own target (-cubin: the device code alone),
# warnings as errors; the tcgen05.mma check (bankc_umma.cuh) and the 8-bit
# ldmatrix and stmatrix forms are built only there
if have nvcc; then
	for src in "$tmp"/a/*_check.cu; do
		h=${src%_check.cu}.cuh
		arch=$(sed -n 's/^ \* spec: .*, \(sm_1[0-9][0-9]a\)\(, .*\)\{0,1\}$/\1/p' "$h")
		[ -n "$arch" ] || continue
		if ! printf '%s\n' "$arches" | grep -qx "${arch%a}"; then
			skip "$arch ($(nvcc --version | tail -n 1) has no ${arch%a})"
			continue
		fi
		if nvcc -std=c++17 -arch="$arch" -cubin -Werror all-warnings -Iruntime \
			-I"$tmp/a" -o "$src.$arch.cubin" "$src" >"$src.$arch.log" 2>&1; then ok
		else bad "nvcc -arch=$arch -cubin $(basename "$src")"; head -c 2000 "$src.$arch.log" | indent; fi
	done
fi
# the kernel templates, on the headers generated from specs/templates.tile
# and the kernel library (include/bankc/, its tiles laid out as the build
# lays them out: bankc/tiles/ of specs/templates.tile and templates/gemm_ab.tile)
if have nvcc; then
	"$bankc" build specs/templates.tile templates/gemm_ab.tile -o "$tmp/lib/bankc/tiles" || bad "bankc build of the library's tiles"
	for arch in sm_80 sm_90 sm_90a; do
		for src in templates/*.cu; do
			# wgmma exists only in sm_90a, which the others do not need
			case $src:$arch in
			*_wgmma.cu:sm_90a) ;;
			*_wgmma.cu:* | *:sm_90a) continue ;;
			esac
			gencode="-gencode=arch=compute_${arch#sm_},code=$arch"
			if nvcc -std=c++17 -O3 "$gencode" -Werror all-warnings -Xcompiler -Wall,-Wextra \
				-Iruntime -Iinclude -I"$tmp/lib" -I"$tmp/a" -c "$src" -o "$tmp/t.o" >"$tmp/log" 2>&1; then ok
			else bad "nvcc $gencode $src"; head -c 2000 "$tmp/log" | indent; fi
			# no ptxas note of wgmma it had to order itself (C7519, C7515)
			if grep -q 'C75[0-9][0-9]' "$tmp/log"; then
				bad "ptxas notes on the wgmma of $src"; grep 'C75' "$tmp/log" | head -n 3 | cut -c1-200 | indent
			else ok; fi
		done
	done
fi
summary "generated code"

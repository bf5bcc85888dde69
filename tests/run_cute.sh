#!/bin/sh
# CuTe interop, checked against CuTe: for every tile of specs/ and of
# tests/cute/kinds.tile (one tile per kind of layout), a C++17 program
# compiled against CUTLASS's CuTe headers checks that NAME_cute_layout()
# is a constexpr CuTe layout of ROWS x COLS that CuTe evaluates, at compile
# time and at run time, to NAME_IDX(r, c) for every (r, c), and that a CuTe
# tensor over it writes each element where NAME_IDX says; and nvcc compiles
# every layout in device code.  C++ without BANKC_CUTE needs no CuTe.  Every kind of layout, plain and with the
# axis swap, must be among the tiles checked.  And the tcgen05.mma
# descriptors of every legal (type, major, layout) and of the specs' UMMA
# tiles against CuTe's UMMA::make_umma_desc, bit for bit
# (tests/cute/umma_desc.sh).
#
# The headers are CUTLASS 4.7's in ../shared/vendor/cutlass-4.7 beside the
# repository (never copied into it; CUTLASS_DIR overrides); without them
# every tile counts as skipped, and in CI (CI=true) or with BANKC_REQUIRE_CUTLASS
# set the suite fails.  The programs are built with g++ when CuTe
# compiles on the host with it (it needs the CUDA toolkit's headers, found
# beside nvcc), else with nvcc (CUTE_CXX=nvcc asks for nvcc).
# usage: run_cute.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
root=$(cd "$(dirname "$0")/.." && pwd)
cutlass=$(cutlass_dir)
# bad_log WHAT LOG: a failure, with the start of LOG (a compiler's errors)
bad_log() { bad "$1"; [ -f "$2" ] && head -c 3000 "$2" | indent; }
# The kinds of layout (compare --json's "layout") and their swapped forms.
# A kind the solver gains goes here and gets a tile in tests/cute/kinds.tile.
kinds="row-major pad skew swizzle xor"

# shellcheck disable=SC2086
if ! "$bankc" build specs/*.tile tests/cute/kinds.tile -o "$tmp/gen" >"$tmp/build.log" 2>&1; then
	bad_log "bankc build" "$tmp/build.log"
	summary cute
	exit
fi
ntiles=$(ls "$tmp"/gen/*.cuh | wc -l)
if [ ! -f "$cutlass/include/cute/layout.hpp" ]; then
	# in CI (CI=true, as CI services set it) or with BANKC_REQUIRE_CUTLASS
	# set, a missing CUTLASS is a failure, so that a green run there must
	# have checked the CuTe layouts
	if [ -n "${BANKC_REQUIRE_CUTLASS:-}" ] || [ "${CI:-}" = true ]; then
		why="this is CI (CI=true)"
		[ -n "${BANKC_REQUIRE_CUTLASS:-}" ] && why="BANKC_REQUIRE_CUTLASS is set"
		bad "CuTe's headers are not in $cutlass/include, and $why: give CUTLASS_DIR (CUTLASS 4.7)"
	else
		echo "skip: CuTe's headers are not in $cutlass/include (CUTLASS 4.7 expected there; CUTLASS_DIR names another); $ntiles tiles not checked"
		skipped=$ntiles
	fi
	summary cute
	exit
fi

# The kinds the tiles cover, from the layout each header's comment names
# ("swap + pad +1 (pitch 65)" is swap+pad).
sed -n 's/^ \* layout:  //p' "$tmp"/gen/*.cuh |
	sed 's/^swap + \(.*\)/swap+\1/; s/[ <].*//' | sort -u >"$tmp/kinds"
for k in $kinds; do
	for v in "$k" "swap+$k"; do
		if grep -qx -- "$v" "$tmp/kinds"; then ok
		else bad "no tile of specs/ or tests/cute/kinds.tile is laid out as $v: CuTe's form of it is untested"; fi
	done
done
for v in $(cat "$tmp/kinds"); do
	case " $kinds " in
	*" ${v#swap+} "*) ;;
	*) bad "layout kind '$v' is not in tests/run_cute.sh's list: add it there and a tile that chooses it to tests/cute/kinds.tile" ;;
	esac
done

# The compiler: g++ with a precompiled CuTe header, or nvcc.
# The toolkit's headers: where nvcc itself looks (its --dryrun says), else
# beside the real nvcc (PATH may hold a link to it), CUDA_HOME, CUDA_PATH
# or /usr/local/cuda.
cinc=
nv=$(command -v nvcc 2>/dev/null) && nv=$(readlink -f "$nv" 2>/dev/null || echo "$nv")
dry=$(nvcc --dryrun -x cu -c /dev/null -o /dev/null 2>&1 |
	sed -n 's/^#\$ INCLUDES="-I\([^"]*\)".*/\1/p' | head -n 1)
for d in ${dry:+"$dry"} ${nv:+"$(dirname "$nv")/../include"} ${CUDA_HOME:+"$CUDA_HOME/include"} \
	${CUDA_PATH:+"$CUDA_PATH/include"} /usr/local/cuda/include; do
	if [ -f "$d/cuda_runtime_api.h" ]; then cinc=$d; break; fi
done
[ -n "$cinc" ] || cinc=/usr/local/cuda/include
inc="-isystem $cutlass/include -isystem $cinc"
[ -d "$cinc/cccl" ] && inc="$inc -isystem $cinc/cccl"
printf '#include <cstdio>\n#include <vector>\n#include <cute/tensor.hpp>\n' >"$tmp/cute_all.hpp"
cxx="g++ -std=c++17 -O1 -Wall -Wextra -Werror $inc"
if [ "${CUTE_CXX:-}" != nvcc ] && have g++ &&
	$cxx -x c++-header "$tmp/cute_all.hpp" -o "$tmp/cute_all.hpp.gch" >"$tmp/pch.log" 2>&1; then
	how="g++ (host; the toolkit's headers in $cinc)"
	cxx="$cxx -Winvalid-pch -I$tmp"
elif have nvcc; then
	why=$(grep -m 1 -E 'error|fatal' "$tmp/pch.log" 2>/dev/null || echo "CUTE_CXX=nvcc")
	how="nvcc (g++ cannot compile CuTe here: $why)"
	# CuTe's own headers are system headers: their unused parameters are
	# CUTLASS's, not the generated code's.
	cxx="nvcc -std=c++17 -O1 -x cu -Werror all-warnings -Xcompiler -Wall,-Wextra -isystem $cutlass/include -I$tmp"
else
	if have g++; then
		bad_log "neither g++ nor nvcc can compile CuTe" "$tmp/pch.log"
	else
		echo "skip: no g++ and no nvcc to compile CuTe with; $ntiles tiles not checked"
		skipped=$((skipped + ntiles))
	fi
	summary cute
	exit
fi
echo "compiling with $how"

for h in "$tmp"/gen/*.cuh; do
	n=$(basename "$h" .cuh)
	N=$(echo "$n" | tr '[:lower:]' '[:upper:]')
	cat >"$tmp/$n.cpp" <<EOF
#define BANKC_CUTE
#include "cute_all.hpp"
#include "$h"
/* a sub-byte tile's CuTe layout is by byte column, as NAME_BIDX */
#ifdef ${N}_ELEM_BITS
#define T_COLS (${N}_COLS * ${N}_ELEM_BITS / 8)
#define T_IDX(r, c) ${N}_BIDX(r, c)
#else
#define T_COLS ${N}_COLS
#define T_IDX(r, c) ${N}_IDX(r, c)
#endif

// Evaluated by CuTe while compiling: its size and its last element.
constexpr auto layout = ${n}_cute_layout();
static_assert(cute::size(layout) == ${N}_ROWS * T_COLS, "size is ROWS x COLS");
constexpr int last = layout(${N}_ROWS - 1, T_COLS - 1);

int main()
{
	int bad = 0;
	if (last != T_IDX(${N}_ROWS - 1, T_COLS - 1)) {
		std::printf("compile-time layout(%d, %d) = %d, IDX gives %d\n",
		            ${N}_ROWS - 1, T_COLS - 1, last,
		            T_IDX(${N}_ROWS - 1, T_COLS - 1));
		bad++;
	}
	for (int r = 0; r < ${N}_ROWS; r++)
		for (int c = 0; c < T_COLS; c++)
			if (layout(r, c) != T_IDX(r, c) && bad++ < 5)
				std::printf("layout(%d, %d) = %d, IDX gives %d\n", r, c,
				            (int)layout(r, c), T_IDX(r, c));
	// CuTe tensors over the layout, on a plain pointer and tagged as shared
	// memory, put each element where the header says
	for (int smem = 0; smem < 2; smem++) {
		std::vector<int> mem(${N}_ELEMS, -1);
		auto put = [&](auto t) {
			for (int r = 0; r < ${N}_ROWS; r++)
				for (int c = 0; c < T_COLS; c++)
					t(r, c) = r * T_COLS + c;
		};
		if (smem)
			put(cute::make_tensor(cute::make_smem_ptr(mem.data()), layout));
		else
			put(cute::make_tensor(mem.data(), layout));
		for (int r = 0; r < ${N}_ROWS; r++)
			for (int c = 0; c < T_COLS; c++)
				if (mem[T_IDX(r, c)] != r * T_COLS + c && bad++ < 10)
					std::printf("%s tensor(%d, %d) is not at T_IDX(%d, %d) = %d\n",
					            smem ? "smem" : "plain", r, c, r, c, T_IDX(r, c));
	}
	if (bad) {
		cute::print(layout);
		std::printf("\n${n}: %d mismatches\n", bad);
	}
	return bad != 0;
}
EOF
	echo "$n"
done | xargs -P "${JOBS:-2}" -I{} sh -c \
	"$cxx -o '$tmp/{}' '$tmp/{}.cpp' >'$tmp/{}.log' 2>&1 || echo {} >>'$tmp/failed'"

for h in "$tmp"/gen/*.cuh; do
	n=$(basename "$h" .cuh)
	if grep -qx "$n" "$tmp/failed" 2>/dev/null; then
		bad_log "$n: the C++ program against CuTe does not compile" "$tmp/$n.log"
	elif "$tmp/$n" >"$tmp/$n.out" 2>&1; then
		ok
	else
		bad_log "$n: CuTe's layout differs from ${n}_IDX" "$tmp/$n.out"
	fi
done
# C++ that does not ask for CuTe sees none of it: every header in one
# program, without BANKC_CUTE and without CuTe on the include path.
if have g++; then
	for h in "$tmp"/gen/*.cuh; do echo "#include \"$h\""; done >"$tmp/plain.cpp"
	echo "int main() { return 0; }" >>"$tmp/plain.cpp"
	if g++ -std=c++17 -Wall -Wextra -Werror -pedantic -c "$tmp/plain.cpp" -o "$tmp/plain.o" \
		>"$tmp/plain.log" 2>&1; then ok
	else bad_log "C++ without BANKC_CUTE: the headers need CuTe" "$tmp/plain.log"; fi
else
	skip "C++ without BANKC_CUTE (no g++)"
fi

# Device code: every layout used in one kernel, compiled by nvcc for sm_90.
if have nvcc; then
	{
		echo "#define BANKC_CUTE"
		for h in "$tmp"/gen/*.cuh; do echo "#include \"$h\""; done
		echo "__global__ void every_layout(int *out)"
		echo "{"
		echo "	int i = threadIdx.x, k = 0;"
		for h in "$tmp"/gen/*.cuh; do
			n=$(basename "$h" .cuh)
			N=$(echo "$n" | tr '[:lower:]' '[:upper:]')
			echo "	out[k++] = ${n}_cute_layout()(i % ${N}_ROWS, i % ${N}_COLS);"
		done
		echo "}"
	} >"$tmp/device.cu"
	if nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -isystem "$cutlass/include" -c "$tmp/device.cu" \
		-o "$tmp/device.o" >"$tmp/device.log" 2>&1; then ok
	else bad_log "nvcc: the CuTe layouts in device code" "$tmp/device.log"; fi
else
	skip "the CuTe layouts in device code (no nvcc)"
fi

# tcgen05.mma's descriptors against CuTe's UMMA::make_umma_desc, bit for
# bit (tests/cute/umma_desc.sh): every legal (type, major, layout) of
# tests/wgmma/gen_umma.c and the UMMA tiles of specs/, in one program
ucc="cc -std=c11 -D_POSIX_C_SOURCE=200809L -Icompiler"
if $ucc -o "$tmp/genu" tests/wgmma/gen_umma.c compiler/model/umma.c compiler/model/mma_canon.c \
	compiler/emit/emit_umma.c compiler/base/tables.c && "$tmp/genu" "$tmp/u" >"$tmp/ucases"; then
	for h in "$tmp"/gen/*.cuh; do
		n=$(basename "$h" .cuh)
		N=$(echo "$n" | tr '[:lower:]' '[:upper:]')
		lt=$(sed -n "s/^#define ${N}_UMMA_LAYOUT_TYPE \([0-9]\).*/\1/p" "$h")
		[ -n "$lt" ] || continue
		ty=$(sed -n "s/^ \* spec: .*, tile $n: [0-9]* x [0-9]* \([a-z0-9]*\).*/\1/p" "$h")
		mj=$(sed -n "s/^#define ${N}_UMMA_MAJOR_MN \([01]\)$/\1/p" "$h")
		[ "$mj" = 1 ] && mj=mn || mj=k
		cp "$h" "$tmp/u/"
		echo "$n $ty $mj $lt" >>"$tmp/ucases"
	done
	grep -q '^bw_' "$tmp/ucases" && ok || bad "no UMMA tile of specs/ among the descriptors compared"
	sh tests/cute/umma_desc.sh "$tmp/ucases" >"$tmp/umma_desc.cpp"
	nu=$(wc -l <"$tmp/ucases")
	if $cxx -I"$tmp/u" -o "$tmp/umma_desc" "$tmp/umma_desc.cpp" >"$tmp/umma_desc.log" 2>&1; then
		"$tmp/umma_desc" 2>/dev/null >"$tmp/umma_desc.out"
		rc=$?
		neq=$(grep -c ': equal$' "$tmp/umma_desc.out")
		if [ "$rc" -eq 0 ] && [ "$neq" -eq "$nu" ]; then ok
		else bad_log "tcgen05.mma descriptors: $neq of $nu equal to CuTe's" "$tmp/umma_desc.out"; fi
	else
		bad_log "the descriptor comparison against CuTe does not compile" "$tmp/umma_desc.log"
	fi
else
	bad "gen_umma"
fi

summary cute

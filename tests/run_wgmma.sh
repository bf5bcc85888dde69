#!/bin/sh
# The wgmma check (runtime/bankc_wgmma.cuh) on hand-written tile headers of
# all eight canonical layouts and every operand type (tests/wgmma/
# gen_tiles.c), and on bankc build's outputs for specs/wgmma.tile: each
# hand-written header valid C11
# and a bijection onto its stages; the check compiled by nvcc for sm_90a
# (warnings as errors) and run on the host model of the PTX ISA's
# descriptor rules (--emulate), every tile passing and every corrupted
# descriptor caught; compiled for sm_90 too, where wgmma does not exist;
# a header with a wrong SBO, and one with a wrong swizzle in its layout,
# failing; and the check programs bankc build writes for the specs' wgmma
# tiles (bankc_check.cuh and bankc_wgmma.cuh in one program) compiled and
# passing on the host model.  No compile may draw ptxas's notes on wgmma
# ordering (an injected warpgroup.arrive, serialised wgmma).
# Then the same for tcgen05.mma (runtime/bankc_umma.cuh) on every legal
# (type, major, layout) of tests/wgmma/gen_umma.c: each header valid C11, a
# bijection onto its stages, its K step a sub-block's corner; the check
# compiled for sm_100a (warnings as errors) and for sm_120a, where tcgen05
# does not exist; every tile passing on the host model of the PTX ISA's
# descriptor rules with every corrupted descriptor (the ISA's invalid
# layout codes among them) caught; a header with a wrong SBO and one with
# a wrong swizzle failing; and the check programs bankc build writes for
# the UMMA tiles of specs/blackwell.tile.
# usage: run_wgmma.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
NVFLAGS="-std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra -Iruntime"

if cc -std=c11 -Wall -Wextra -Werror -pedantic -D_POSIX_C_SOURCE=200809L -Icompiler \
	-o "$tmp/gen" tests/wgmma/gen_tiles.c compiler/model/wgmma.c compiler/model/mma_canon.c compiler/emit/emit_wgmma.c compiler/base/tables.c &&
   "$tmp/gen" "$tmp/t" >"$tmp/names"; then ok
else bad "gen_tiles"; summary wgmma; exit; fi
n=$(wc -l <"$tmp/names")
[ "$n" -ge 8 ] && ok || bad "only $n cases"

# every header as C11, and its layout a bijection onto the stages' bytes
while read -r name; do
	N=$(echo "$name" | tr '[:lower:]' '[:upper:]')
	cat >"$tmp/b.c" <<EOC
#include <stdio.h>
#include <stdlib.h>
#include "$tmp/t/$name.cuh"
int main(void)
{
	char *seen = calloc(${N}_STAGES * ${N}_STAGE_ELEMS, 1);
	for (int s = 0; s < ${N}_STAGES; s++)
		for (int r = 0; r < ${N}_ROWS; r++)
			for (int c = 0; c < ${N}_COLS; c++) {
				long k = ${N}_SIDX(s, r, c);
				if (k < 0 || k >= ${N}_STAGES * ${N}_STAGE_ELEMS || seen[k]++ ||
				    ${N}_WGMMA_START(s, r, c) != k * ${N}_ELEM_BYTES)
					return 1;
			}
	free(seen);
	return ${N}_BYTES == ${N}_STAGES * ${N}_STAGE_ELEMS * ${N}_ELEM_BYTES ? 0 : 1;
}
EOC
	if cc -std=c11 -Wall -Wextra -Werror -pedantic -o "$tmp/b" "$tmp/b.c" 2>"$tmp/log" &&
	   "$tmp/b"; then ok
	else bad "$name: not valid C11 or not a bijection"; head -n 5 "$tmp/log"; fi
done <"$tmp/names"

if ! have nvcc; then
	skip "the wgmma check under nvcc and on the host model (no nvcc; the CUDA toolkit must be on PATH)"
	summary wgmma
	exit
fi

# the wrong headers: a halved SBO, and a layout whose swizzle takes one
# row bit too few
cp -r "$tmp/t" "$tmp/w"
sed -i 's/^#define WG_A_BF16_K128_WGMMA_SBO 1024/#define WG_A_BF16_K128_WGMMA_SBO 512/' \
	"$tmp/w/wg_a_bf16_k128.cuh"
sed -i 's/>> 7 & 3) << 4/>> 7 \& 1) << 4/g' "$tmp/w/wg_a_f16_mn64.cuh"
if grep -q 'WGMMA_SBO 512' "$tmp/w/wg_a_bf16_k128.cuh" &&
   grep -q '>> 7 & 1) << 4' "$tmp/w/wg_a_f16_mn64.cuh"; then ok
else bad "the wrong headers were not made"; fi

# bankc build's own outputs for the wgmma tiles of specs/wgmma.tile: the
# header's descriptor and the check program's wgmma part, as emitted
mkdir -p "$tmp/g"
if "$bankc" build specs/wgmma.tile -o "$tmp/g" >"$tmp/g/log" 2>&1; then ok
else bad "bankc build specs/wgmma.tile"; cat "$tmp/g/log"; fi
specs=$(cd "$tmp/g" 2>/dev/null && ls *_check.cu 2>/dev/null | sed 's/_check\.cu$//')
for s in $specs; do
	S=$(echo "$s" | tr '[:lower:]' '[:upper:]')
	if grep -q "^#define ${S}_WGMMA_SBO " "$tmp/g/$s.cuh" &&
	   grep -q "bankc_wgmma_main<${s}_wgmma>" "$tmp/g/${s}_check.cu"; then ok
	else bad "$s: no descriptor in the header or no wgmma check"; fi
done
# five compiles, two at a time
(nvcc $NVFLAGS -gencode=arch=compute_90a,code=sm_90a -I"$tmp/t" -o "$tmp/all" \
	"$tmp/t/all_check.cu" >"$tmp/all.log" 2>&1 || echo all >>"$tmp/nvcc_failed") &
(nvcc $NVFLAGS -arch=sm_90 -I"$tmp/t" -o "$tmp/all90" \
	"$tmp/t/all_check.cu" >"$tmp/all90.log" 2>&1 || echo all90 >>"$tmp/nvcc_failed") &
wait
(nvcc $NVFLAGS -gencode=arch=compute_90a,code=sm_90a -I"$tmp/w" -o "$tmp/sbo" \
	"$tmp/w/wg_a_bf16_k128_check.cu" >"$tmp/sbo.log" 2>&1 || echo sbo >>"$tmp/nvcc_failed") &
(nvcc $NVFLAGS -gencode=arch=compute_90a,code=sm_90a -I"$tmp/w" -o "$tmp/swz" \
	"$tmp/w/wg_a_f16_mn64_check.cu" >"$tmp/swz.log" 2>&1 || echo swz >>"$tmp/nvcc_failed") &
wait
for s in $specs; do
	nvcc $NVFLAGS -gencode=arch=compute_90a,code=sm_90a -I"$tmp/g" -o "$tmp/$s" \
		"$tmp/g/${s}_check.cu" -lcuda >"$tmp/$s.log" 2>&1 || echo "$s" >>"$tmp/nvcc_failed" &
	[ "$(jobs -p | wc -l)" -ge 2 ] && wait -n 2>/dev/null
done
wait
for p in all all90 sbo swz $specs; do
	if grep -qx "$p" "$tmp/nvcc_failed" 2>/dev/null; then
		bad "nvcc ($p)"; grep -v 'ptxas info' "$tmp/$p.log" | head -c 2000 | indent
	else ok; fi
	# and without ptxas's notes of wgmma it had to order itself: an
	# injected warpgroup.arrive (C7519), serialised wgmma (C7515 and kin)
	if grep -q 'C75[0-9][0-9]' "$tmp/$p.log"; then
		bad "ptxas notes on the wgmma of ($p)"; grep 'C75[0-9][0-9]' "$tmp/$p.log" | head -n 3 | cut -c1-200 | indent
	else ok; fi
done

# every case passes on the host model, its corrupted descriptors caught
if [ -x "$tmp/all" ]; then
	"$tmp/all" --emulate >"$tmp/emu.out"
	rc=$?
	[ "$rc" -eq 0 ] && ok || bad "all_check --emulate: status $rc"
	while read -r name; do
		if grep -qx "wgmma $name: ok (host model)" "$tmp/emu.out" &&
		   grep -A8 "^wgmma $name: operand" "$tmp/emu.out" |
		   grep -q "corrupted descriptors caught: \([0-9]*\) of \1\$"; then ok
		else bad "$name on the host model"; grep -A8 "^wgmma $name: operand" "$tmp/emu.out" | indent; fi
	done <"$tmp/names"
	# without a GPU the check says so and fails
	"$tmp/all" >"$tmp/nogpu.out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q ": NOT RUN (no CUDA device" "$tmp/nogpu.out"; then ok
	else bad "all_check without a GPU: status $rc"; fi
	# --count (the counters' run) does nothing
	if [ -z "$("$tmp/all" --count)" ]; then ok; else bad "all_check --count printed"; fi
fi
# built for sm_90, the same host side
if [ -x "$tmp/all90" ]; then
	if "$tmp/all90" --emulate | grep -c ': ok (host model)$' | grep -qx "$n"; then ok
	else bad "the sm_90 build on the host model"; fi
fi
# bankc build's check programs on the host model
for s in $specs; do
	[ -x "$tmp/$s" ] || continue
	"$tmp/$s" --emulate >"$tmp/$s.out"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -qx "wgmma $s: ok (host model)" "$tmp/$s.out" &&
	   grep -q "corrupted descriptors caught: \([0-9]*\) of \1\$" "$tmp/$s.out"; then ok
	else bad "$s (bankc build) on the host model: status $rc"; indent <"$tmp/$s.out"; fi
done
# the wrong headers fail
for p in sbo swz; do
	[ -x "$tmp/$p" ] || continue
	"$tmp/$p" --emulate >"$tmp/$p.out"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q ': FAILED (host model)$' "$tmp/$p.out"; then ok
	else bad "the wrong header ($p) passed: status $rc"; indent <"$tmp/$p.out"; fi
done

# ---- tcgen05.mma ---------------------------------------------------------------
if cc -std=c11 -Wall -Wextra -Werror -pedantic -D_POSIX_C_SOURCE=200809L -Icompiler \
	-o "$tmp/genu" tests/wgmma/gen_umma.c compiler/model/umma.c compiler/model/mma_canon.c \
	compiler/emit/emit_umma.c compiler/base/tables.c &&
   "$tmp/genu" "$tmp/u" >"$tmp/ucases"; then ok
else bad "gen_umma"; summary wgmma; exit; fi
cut -d' ' -f1 "$tmp/ucases" >"$tmp/unames"
nu=$(wc -l <"$tmp/unames")
# every type, both majors, every layout code (1: MN-major tf32's)
if [ "$nu" -ge 100 ] && [ "$(cut -d' ' -f2 "$tmp/ucases" | sort -u | wc -l)" -eq 8 ] &&
   [ "$(cut -d' ' -f4 "$tmp/ucases" | sort -u | tr '\n' ' ')" = "0 1 2 4 6 " ]; then ok
else bad "gen_umma: $nu cases, not every type and layout"; fi
# the headers as C11, in one program: a bijection onto the stages, and the
# K step of (mn, kk) the byte offset of its corner
{
	echo "#include <stdlib.h>"
	while read -r name; do echo "#include \"$tmp/u/$name.cuh\""; done <"$tmp/unames"
	echo "#define CHECK(N, n) do { \\"
	echo "	char *seen = calloc(N##_STAGES * N##_STAGE_ELEMS, 1); \\"
	echo "	for (int s = 0; s < N##_STAGES; s++) \\"
	echo "		for (int r = 0; r < N##_ROWS; r++) \\"
	echo "			for (int c = 0; c < N##_COLS; c += N##_ELEM_BYTES == 1 && N##_ROWS * N##_COLS > N##_STAGE_ELEMS ? 2 : 1) { \\"
	echo "				long k = N##_SIDX(s, r, c); \\"
	echo "				if (k < 0 || k >= N##_STAGES * N##_STAGE_ELEMS || seen[k]++) bad++; \\"
	echo "			} \\"
	echo "	if (N##_UMMA_MAJOR_MN ? N##_UMMA_KSTEP(0, 8, 1) != N##_UMMA_START(0, N##_UMMA_K, 8) \\"
	echo "	                      : N##_UMMA_KSTEP(0, 8, 1) != N##_UMMA_START(0, 8, N##_UMMA_K)) bad++; \\"
	echo "	(void)n##_umma_desc(0, 0); free(seen); } while (0)"
	echo "int main(void)"
	echo "{"
	echo "	int bad = 0;"
	while read -r name; do
		echo "	CHECK($(echo "$name" | tr '[:lower:]' '[:upper:]'), $name);"
	done <"$tmp/unames"
	echo "	return bad != 0;"
	echo "}"
} >"$tmp/ub.c"
if cc -std=c11 -Wall -Wextra -Werror -pedantic -o "$tmp/ub" "$tmp/ub.c" 2>"$tmp/ub.log" && "$tmp/ub"; then ok
else bad "the UMMA headers: not valid C11, not a bijection, or a K step off its corner"; head -n 5 "$tmp/ub.log" | indent; fi

if ! have nvcc; then
	skip "the tcgen05.mma check under nvcc and on the host model (no nvcc)"
	summary wgmma
	exit
fi
cp -r "$tmp/u" "$tmp/uw"
sed -i 's/^#define UM_A_BF16_K_S128_128X64_UMMA_SBO 1024/#define UM_A_BF16_K_S128_128X64_UMMA_SBO 512/' \
	"$tmp/uw/um_a_bf16_k_s128_128x64.cuh"
sed -i 's/>> 7 & 3) << 5/>> 7 \& 1) << 5/g' "$tmp/uw/um_b_tf32_mn_a32_8x256.cuh"
if grep -q 'UMMA_SBO 512' "$tmp/uw/um_a_bf16_k_s128_128x64.cuh" &&
   grep -q '>> 7 & 1) << 5' "$tmp/uw/um_b_tf32_mn_a32_8x256.cuh"; then ok
else bad "the wrong UMMA headers were not made"; fi
mkdir -p "$tmp/ug"
"$bankc" build specs/blackwell.tile -o "$tmp/ug" >"$tmp/ug/log" 2>&1 && ok || { bad "bankc build specs/blackwell.tile"; cat "$tmp/ug/log"; }
uspecs=$(cd "$tmp/ug" && grep -l 'bankc_umma_main<' *_check.cu 2>/dev/null | sed 's/_check\.cu$//')
[ -n "$uspecs" ] && ok || bad "no UMMA check program in specs/blackwell.tile's outputs"
UF="-gencode=arch=compute_100a,code=sm_100a"
(nvcc $NVFLAGS $UF -I"$tmp/u" -o "$tmp/uall" "$tmp/u/all_check.cu" >"$tmp/uall.log" 2>&1 ||
	echo uall >>"$tmp/unvcc_failed") &
(nvcc $NVFLAGS -arch=sm_120a -I"$tmp/u" -o "$tmp/uall120" "$tmp/u/all_check.cu" >"$tmp/uall120.log" 2>&1 ||
	echo uall120 >>"$tmp/unvcc_failed") &
wait
(nvcc $NVFLAGS $UF -I"$tmp/uw" -o "$tmp/usbo" "$tmp/uw/um_a_bf16_k_s128_128x64_check.cu" \
	>"$tmp/usbo.log" 2>&1 || echo usbo >>"$tmp/unvcc_failed") &
(nvcc $NVFLAGS $UF -I"$tmp/uw" -o "$tmp/uswz" "$tmp/uw/um_b_tf32_mn_a32_8x256_check.cu" \
	>"$tmp/uswz.log" 2>&1 || echo uswz >>"$tmp/unvcc_failed") &
wait
for s in $uspecs; do
	nvcc $NVFLAGS $UF -I"$tmp/ug" -o "$tmp/u_$s" "$tmp/ug/${s}_check.cu" -lcuda \
		>"$tmp/u_$s.log" 2>&1 || echo "u_$s" >>"$tmp/unvcc_failed" &
	[ "$(jobs -p | wc -l)" -ge 2 ] && wait -n 2>/dev/null
done
wait
for p in uall uall120 usbo uswz $(for s in $uspecs; do echo "u_$s"; done); do
	if grep -qx "$p" "$tmp/unvcc_failed" 2>/dev/null; then
		bad "nvcc ($p)"; grep -v 'ptxas info' "$tmp/$p.log" | head -c 2000 | indent
	else ok; fi
done
if [ -x "$tmp/uall" ]; then
	"$tmp/uall" --emulate >"$tmp/uemu.out"
	rc=$?
	[ "$rc" -eq 0 ] && ok || bad "umma all_check --emulate: status $rc"
	nok=$(grep -c ': ok (host model)$' "$tmp/uemu.out")
	ncaught=$(grep -c 'corrupted descriptors caught: \([0-9]*\) of \1$' "$tmp/uemu.out")
	if [ "$nok" -eq "$nu" ] && [ "$ncaught" -eq "$nu" ]; then ok
	else bad "umma on the host model: $nok of $nu ok, $ncaught with every corruption caught"
		grep -B3 'FAILED\|NOT caught' "$tmp/uemu.out" | head -n 12 | indent; fi
	"$tmp/uall" >"$tmp/unogpu.out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q ": NOT RUN (no CUDA device" "$tmp/unogpu.out"; then ok
	else bad "umma all_check without a GPU: status $rc"; fi
	if [ -z "$("$tmp/uall" --count)" ]; then ok; else bad "umma all_check --count printed"; fi
fi
if [ -x "$tmp/uall120" ]; then
	if "$tmp/uall120" --emulate | grep -c ': ok (host model)$' | grep -qx "$nu"; then ok
	else bad "the sm_120a build on the host model"; fi
fi
for s in $uspecs; do
	[ -x "$tmp/u_$s" ] || continue
	"$tmp/u_$s" --emulate >"$tmp/u_$s.out"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -qx "umma $s: ok (host model)" "$tmp/u_$s.out" &&
	   grep -q "corrupted descriptors caught: \([0-9]*\) of \1\$" "$tmp/u_$s.out"; then ok
	else bad "$s (bankc build) on the host model: status $rc"; indent <"$tmp/u_$s.out"; fi
done
for p in usbo uswz; do
	[ -x "$tmp/$p" ] || continue
	"$tmp/$p" --emulate >"$tmp/$p.out"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q ': FAILED (host model)$' "$tmp/$p.out"; then ok
	else bad "the wrong UMMA header ($p) passed: status $rc"; indent <"$tmp/$p.out"; fi
done
summary wgmma

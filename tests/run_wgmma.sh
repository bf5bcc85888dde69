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
# usage: run_wgmma.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
NVFLAGS="-std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra -Iruntime"

if cc -std=c11 -Wall -Wextra -Werror -pedantic -D_POSIX_C_SOURCE=200809L -Icompiler \
	-o "$tmp/gen" tests/wgmma/gen_tiles.c compiler/model/wgmma.c compiler/emit/emit_wgmma.c compiler/base/tables.c &&
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
summary wgmma

#!/bin/sh
# CUDA sources must compile with nvcc for every architecture bankc targets,
# warnings as errors, on machines without a GPU too:
#   - the probe (tests/gpu/probe.cu; Blackwell's "a" targets, whose 8-bit
#     matrix forms the probe has, among them) and tests/gpu/fix_run.cu;
#   - the kernel library (include/bankc/, its tiles laid out by the build
#     in BUILD/include/bankc/tiles): every public function instantiated
#     (tests/templates/test_library.cu) for sm_75, sm_80, sm_90 and
#     sm_90a, with no ptxas note of wgmma it had to order itself; built
#     for sm_90a the GEMM kernels hold wgmma and allow 384 threads a
#     block, built for any other target they are stubs that allow 32 (the
#     mark by which the library refuses to launch them);
#   - the library's host logic, run on the host (test_library: the plans,
#     every transpose tile emulated block by block, the GEMM's tile order,
#     the public functions' refusals);
#   - the GEMM's MN-major operand tile (hgw_bn): bankc's check program
#     for it on the host model of wgmma's descriptors (--emulate).
# usage: run_nvcc.sh [BUILD]   (BUILD: the build folder, default build)
. "$(dirname "$0")/lib.sh"
build=${1:-build}
if ! have nvcc; then
	skip "the CUDA sources (no nvcc; install the CUDA toolkit and put nvcc on PATH)"
	summary nvcc
	exit
fi
# CUDA 13 dropped sm_70: an architecture this nvcc lacks is reported and
# skipped, sm_75 standing in as the oldest.
arches=$(nvcc --list-gpu-arch 2>/dev/null | sed 's/compute_/sm_/')
for src in tests/gpu/probe.cu tests/gpu/fix_run.cu; do
	for arch in sm_70 sm_75 sm_80 sm_90 sm_100a sm_120a; do
		if ! printf '%s\n' "$arches" | grep -qx "${arch%a}"; then
			skip "$src for $arch ($(nvcc --version | tail -n 1) has no $arch)"
		elif nvcc -std=c++17 -arch="$arch" -Werror all-warnings -Xcompiler -Wall \
			-c "$src" -o "$tmp/obj.o" >"$tmp/log" 2>&1; then
			ok
		else
			bad "nvcc -arch=$arch $src"
			indent <"$tmp/log" | head -n 20
		fi
	done
done

# The kernel library.
tiles=$build/include/bankc/tiles
if [ ! -f "$tiles/tp_f32.cuh" ] || [ ! -f "$tiles/hgw_bn.cuh" ]; then
	bad "no library tiles in $tiles (make tiles)"
	summary nvcc
	exit
fi
lib="-std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra -Iinclude -I$build/include"
t=tests/templates/test_library.cu
# ENTRY (a regex of a mangled name) in PTX: its .maxntid, and whether its
# body holds wgmma
maxntid() { awk -v re="$1" '$0 ~ "\\.entry " re { on = 1 } on && /\.maxntid/ { print $2; exit }' "$2" | tr -d ','; }
for arch in sm_75 sm_80 sm_90 sm_90a; do
	if ! printf '%s\n' "$arches" | grep -qx "${arch%a}"; then
		skip "the library for $arch ($(nvcc --version | tail -n 1) has no $arch)"
		continue
	fi
	code=$arch
	# shellcheck disable=SC2086
	if nvcc $lib -gencode=arch=compute_${arch#sm_},code=$code -Xptxas -v -c "$t" -o "$tmp/lib.o" >"$tmp/lib.log" 2>&1 &&
	   nvcc $lib -arch=compute_${arch#sm_} -ptx "$t" -o "$tmp/lib.ptx" >>"$tmp/lib.log" 2>&1; then ok
	else bad "the library for $arch ($t)"; head -c 3000 "$tmp/lib.log" | indent; continue; fi
	if grep -q 'C75[0-9][0-9]' "$tmp/lib.log"; then
		bad "ptxas notes on the library's wgmma for $arch"; grep 'C75' "$tmp/lib.log" | head -n 3 | cut -c1-200 | indent
	else ok; fi
	n=$(grep -c '\.entry .*gemm_sm90_tile' "$tmp/lib.ptx")
	want=32 wg=0
	if [ "$arch" = sm_90a ]; then want=384 wg=1; fi
	bounds=$(grep '\.entry .*gemm_sm90_tile' "$tmp/lib.ptx" | sed 's/.*\.entry \([^(]*\)(.*/\1/' |
		while read -r k; do maxntid "$k" "$tmp/lib.ptx"; done | sort -u | tr '\n' ' ')
	# five inputs (f16, bf16, e4m3; f16 and bf16 with B row-major), each
	# with a 16-bit C through TMA, a 16-bit C stored by the threads (N not
	# a multiple of 8) and an f32 C
	if [ "$n" -eq 15 ] && [ "$bounds" = "$want " ]; then ok
	else bad "$arch: $n GEMM kernels (15 expected), .maxntid '$bounds' (all $want expected)"; fi
	# the whole tiles' transposes store 16-byte vectors only: a uint4
	# store that reached the PTX as four 4-byte ones ran the f32 and f16
	# transposes at 0.63 of the copy on the H200
	st=$(awk '/\.entry .*transpose_full_kernel/ { k = 1 } k && /^}/ { k = 0 }
		k && /st\.global/ { n++; if ($0 !~ /st\.global(\.wb)?\.v4\.u32/) bad++ }
		END { print n + 0, bad + 0 }' "$tmp/lib.ptx")
	if [ "${st#* }" = 0 ] && [ "${st% *}" -gt 0 ]; then ok
	else bad "$arch: the whole-tile transposes' global stores (all, not 16-byte): $st"; fi
	if [ "$wg" -eq 1 ] && grep -q 'wgmma.mma_async' "$tmp/lib.ptx" || { [ "$wg" -eq 0 ] && ! grep -q 'wgmma' "$tmp/lib.ptx"; }; then ok
	else bad "$arch: wgmma should be in the PTX only for sm_90a"; fi
done
# shellcheck disable=SC2086
if nvcc $lib -O2 -o "$tmp/test_library" "$t" -lcmocka >"$tmp/host.log" 2>&1; then
	if "$tmp/test_library" >"$tmp/host.out" 2>&1; then ok
	else bad "test_library (the library's host logic)"; grep -E 'FAILED|ERROR|LINE|error' "$tmp/host.out" | head -n 20 | indent; fi
else
	bad "nvcc test_library"; head -c 3000 "$tmp/host.log" | indent
fi
# hgw_bn's descriptor and layout on the host model of wgmma
if [ -f "$tiles/hgw_bn_check.cu" ] &&
	nvcc -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra -Iruntime -I"$tiles" \
		-gencode=arch=compute_90a,code=sm_90a -o "$tmp/hgw_bn_check" "$tiles/hgw_bn_check.cu" >"$tmp/bn.log" 2>&1 &&
	"$tmp/hgw_bn_check" --emulate >"$tmp/bn.out" 2>&1 && grep -qx "wgmma hgw_bn: ok (host model)" "$tmp/bn.out" &&
	grep -q "corrupted descriptors caught: \([0-9]*\) of \1\$" "$tmp/bn.out"; then ok
else bad "hgw_bn's wgmma check on the host model"; tail -n 12 "$tmp/bn.out" "$tmp/bn.log" 2>/dev/null | indent; fi
summary nvcc

#!/bin/sh
# CUDA sources must compile with nvcc for every architecture bankc targets,
# warnings as errors, on machines without a GPU too (Blackwell's "a"
# targets, whose 8-bit matrix forms the probe has, among them).
# usage: run_nvcc.sh
. "$(dirname "$0")/lib.sh"
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
summary nvcc

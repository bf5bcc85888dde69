#!/bin/sh
# CUDA sources must compile with nvcc for every architecture bankc targets,
# warnings as errors, on machines without a GPU too.
# usage: run_nvcc.sh
pass=0 fail=0 skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v nvcc >/dev/null 2>&1; then
	echo "error: nvcc not found; install the CUDA toolkit and put nvcc on PATH" >&2
	echo "nvcc: 0 passed, 1 failed"
	exit 1
fi
# CUDA 13 dropped sm_70: an architecture this nvcc lacks is reported and
# skipped, sm_75 standing in as the oldest.
have=$(nvcc --list-gpu-arch 2>/dev/null | sed 's/compute_/sm_/')
for src in tests/gpu/probe.cu; do
	for arch in sm_70 sm_75 sm_80 sm_90; do
		if ! printf '%s\n' "$have" | grep -qx "$arch"; then
			echo "skip: $src for $arch ($(nvcc --version | tail -n 1) has no $arch)"
			skip=$((skip + 1))
		elif nvcc -std=c++17 -arch="$arch" -Werror all-warnings -Xcompiler -Wall \
			-c "$src" -o "$tmp/obj.o" >"$tmp/log" 2>&1; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: nvcc -arch=$arch $src"
			sed 's/^/    /' "$tmp/log" | head -n 20
		fi
	done
done
echo "nvcc: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

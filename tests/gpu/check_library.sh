#!/bin/sh
# check_library.sh [OUTDIR]
#
# On a machine with a GPU, nvcc and cuBLAS: the kernel library checked
# through its public API, as a user builds against it.  Installs this tree
# (make install) into OUTDIR/prefix, compiles tests/gpu/library_check.cu
# against that prefix alone (pkg-config --cflags bankc-templates; sm_90a
# and sm_80 code in one binary) and runs it: every element type on 30
# shapes of transposes bit for bit, the GEMMs (f16, bf16, e4m3; C in the
# input's type and in f32; C = A B for the 16-bit types; e4m3 with scales)
# on 30 shapes against cublasGemmEx element by element, K = 0, empty
# shapes, and the refusals.  On a GPU without sm_90a the GEMMs must all
# answer cudaErrorNotSupported.
#
# Writes into OUTDIR (default out/check-library; $OUT when set): env.txt
# (GPU, driver, tools, date, command), build.log, check.log (every check
# and the summary line "library check: N passed, M failed ..."),
# check.tsv.  Exits non-zero if the build or a check failed.
#
# Environment: PREFIX (an installed tree to use instead of installing
# this one), NVCC, RUN_TIMEOUT (seconds for the checks, default 1800).
set -u
die() { echo "check_library.sh: $*" >&2; exit 1; }
[ $# -le 1 ] || { echo "usage: check_library.sh [OUTDIR]" >&2; exit 2; }
cd "$(dirname "$0")/../.." || die "no repository root"
out=${1:-${OUT:-out/check-library}}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || die "$nvcc not found"
command -v pkg-config >/dev/null || die "pkg-config not found"
rm -f "$out"/env.txt "$out"/build.log "$out"/check.log "$out"/check.tsv "$out"/library_check
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/check_library.sh $*"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm --format=csv 2>&1
	"$nvcc" --version | tail -n 2
} >"$out/env.txt"
cat "$out/env.txt"

. tests/gpu/library_prefix.sh
library_prefix "$out/build.log"
echo "== nvcc, with $lib_cflags" >>"$out/build.log"
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_80,code=sm_80 $lib_cflags \
	-o "$out/library_check" tests/gpu/library_check.cu -lcublas >>"$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log"; die "nvcc failed (build.log)"; }

timeout "${RUN_TIMEOUT:-1800}" "$out/library_check" "$out/check.tsv" >"$out/check.log" 2>&1
rc=$?
grep -v '^ok ' "$out/check.log" | tail -n 40
[ "$rc" -ne 124 ] || echo "check_library.sh: the checks ran out of time (RUN_TIMEOUT=${RUN_TIMEOUT:-1800})"
echo "== results in $out"
exit "$rc"

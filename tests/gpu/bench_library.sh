#!/usr/bin/env bash
# bench_library.sh [--repeat N] [OUTDIR]
#
# On a machine with a GPU (H200 or H100), nvcc, cuBLAS and Nsight Compute:
# the kernel library's benchmarks through its public API, built as a user
# builds against it.  Installs this tree (make install) into
# OUTDIR/prefix, then runs tests/gpu/bench_templates.sh on the programs
# that call the library (TEMPLATES="transpose hgemm_wgmma fp8gemm_wgmma"),
# compiled with that prefix's `pkg-config --cflags bankc-templates`, N
# times each (--repeat, default 5; medians and ranges in
# OUTDIR/bench/summary.md):
#   - bankc::transpose against the device copy (bytes read and written)
#     at 8192^2 and 16384^2 for f32 (also 4096^2, and against
#     cublasSgeam), f64, f16 and i8, beside the first kernel on every tile
#     it was chosen from;
#   - bankc::gemm and bankc::gemm_ab against cublasGemmEx (f16, bf16; C in
#     the input's type and in f32) and against cublasLtMatmul (e4m3) at
#     4096^3, 8192^3, 4097^3 and 1000 x 999 x 136;
# then (where TEMPLATES has transpose) Nsight Compute (ncu
# --clock-control none) on one launch each of the library's transposes
# and of the copy kernel at 8192^2 and 16384^2: DRAM bytes read and
# written, duration and DRAM throughput, so that what holds a transpose
# below the copy shows beside the copy's own (OUTDIR/dram.md).
#
# Writes into OUTDIR (default out/bench-library; $OUT when set):
# install.log, bench/ (bench_templates.sh's outputs: env.txt, build.log,
# the runs' logs and CSVs, summary.md, ncu.tsv), dram.csv (ncu's raw
# CSV), dram.md.  Exits non-zero if anything failed.
#
# Environment: PREFIX (an installed tree to use instead of installing
# this one), TEMPLATES (the programs, default all three), NCU, and what bench_templates.sh reads (RUN_TIMEOUT,
# DEADLINE, ...).
set -uo pipefail
die() { echo "bench_library.sh: $*" >&2; exit 1; }
usage() { echo "usage: bench_library.sh [--repeat N] [OUTDIR]" >&2; exit 2; }
repeat=5
out=
while [ $# -gt 0 ]; do
	case $1 in
	--repeat)
		[ $# -ge 2 ] || usage
		case $2 in '' | *[!0-9]* | 0*) usage ;; esac
		repeat=$2
		shift 2
		;;
	-*) usage ;;
	*) [ -z "$out" ] || usage; out=$1; shift ;;
	esac
done
cd "$(dirname "$0")/../.." || die "no repository root"
out=${out:-${OUT:-out/bench-library}}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
ncu=${NCU:-ncu}
command -v pkg-config >/dev/null || die "pkg-config not found"
fail=0

. tests/gpu/library_prefix.sh
library_prefix "$out/install.log"

TEMPLATES="${TEMPLATES:-transpose hgemm_wgmma fp8gemm_wgmma}" LIB_CFLAGS=$lib_cflags \
	bash tests/gpu/bench_templates.sh --repeat "$repeat" "$out/bench" || fail=1

# DRAM traffic of the library's transposes and of the copy kernel, one
# launch each (transpose --profile runs each kernel once at --size N).
bin=out/templates-bin/transpose
m=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
case " ${TEMPLATES:-transpose} " in *" transpose "*) tp=1 ;; *) tp=0 ;; esac
if [ "$tp" -eq 0 ]; then
	echo "no transpose among TEMPLATES: no DRAM counters" | tee "$out/dram.md"
elif ! command -v "$ncu" >/dev/null; then
	echo "ncu not found: no DRAM counters" | tee "$out/dram.md"
	fail=1
elif [ ! -x "$bin" ]; then
	echo "no $bin: no DRAM counters" | tee "$out/dram.md"
	fail=1
else
	: >"$out/dram.csv"
	for n in 8192 16384; do
		if timeout 300 "$ncu" --clock-control none --kernel-name-base demangled \
			-k 'regex:transpose_full_kernel|copy_kernel' --metrics "$m" --csv --print-units base \
			"$bin" --profile --size "$n" >"$out/ncu.$n.out" 2>&1; then
			grep '^"' "$out/ncu.$n.out" | sed "s/^/$n|/" >>"$out/dram.csv"
		else
			echo "ncu failed at $n (ncu.$n.out)"
			fail=1
		fi
	done
	python3 - "$out/dram.csv" >"$out/dram.md" <<'EOF' || fail=1
import csv, sys
rows, cols = {}, None
for line in open(sys.argv[1]):
    n, rest = line.rstrip("\n").split("|", 1)
    r = next(csv.reader([rest]))
    if r[0] == "ID":
        cols = {k: i for i, k in enumerate(r)}
        continue
    k = (int(n), r[cols["ID"]], r[cols["Kernel Name"]])
    rows.setdefault(k, {})[r[cols["Metric Name"]]] = float(r[cols["Metric Value"]].replace(",", ""))
print("| size | kernel | DRAM read GB | DRAM written GB | time ms | GB/s | DRAM throughput % of peak |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for (n, _, name), v in sorted(rows.items(), key=lambda x: (x[0][0], int(x[0][1]))):
    rd, wr = v.get("dram__bytes_read.sum", 0), v.get("dram__bytes_write.sum", 0)
    t = v.get("gpu__time_duration.sum", 0)
    gbs = (rd + wr) / t if t else 0
    short = name.split("(")[0].replace("bankc::detail::", "")
    print(f"| {n}^2 | `{short}` | {rd / 1e9:.3f} | {wr / 1e9:.3f} | {t / 1e6:.4f} | {gbs:.1f} | "
          f"{v.get('dram__throughput.avg.pct_of_peak_sustained_elapsed', 0):.1f} |")
EOF
	cat "$out/dram.md"
fi
echo "== results in $out"
[ "$fail" -eq 0 ]

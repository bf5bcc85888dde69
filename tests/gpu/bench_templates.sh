#!/usr/bin/env bash
# bench_templates.sh [OUTDIR]
#
# On a machine with a GPU (sm_90), nvcc and cuBLAS: builds the template
# tiles with bankc (specs/templates.tile -> out/templates-gen), compiles
# templates/{transpose,sgemm,hgemm,hgemm_wgmma}.cu (the last for sm_90a),
# runs each benchmark (checks against
# the host / cuBLAS, then timings beside cudaMemcpy, cublasSgeam,
# cublasSgemm and cublasGemmEx) and, where Nsight Compute is installed,
# profiles each template kernel once on a small size and sets its
# shared-memory wavefronts beside the ideal and bankc's prediction.
#
# Writes into OUTDIR (default out/bench-templates): env.txt (GPU, driver,
# tools, date, command), build.log, NAME.log and NAME.csv per benchmark,
# dmon.log (clocks and power), ncu.tsv and ncu.log.  Exits non-zero if a
# build, check or run failed.
#
# Environment: BANKC (default ./bankc), NVCC, NCU, ARCH (default sm_90),
# RUN_TIMEOUT (seconds per benchmark program, default 300),
# TEMPLATES (default "transpose sgemm hgemm hgemm_wgmma": which to build
# and run),
# NCU_DETAIL=1 (also Nsight Compute's speed-of-light, warp-state, compute
# and occupancy sections for each GEMM kernel at 4096^3: ncu-detail.log).
set -uo pipefail

die() { echo "bench_templates.sh: $*" >&2; exit 1; }
[ $# -le 1 ] || { echo "usage: bench_templates.sh [OUTDIR]" >&2; exit 2; }
cd "$(dirname "$0")/../.." || die "no repository root"
out=${1:-out/bench-templates}
bankc=${BANKC:-./bankc}
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
arch=${ARCH:-sm_90}
gen=out/templates-gen
bin=out/templates-bin
mkdir -p "$out" "$gen" "$bin" || die "cannot create $out"
command -v "$nvcc" >/dev/null || die "$nvcc not found"
fail=0
# What an earlier run left in OUTDIR would read as this run's.
rm -f "$out"/{env.txt,build.log,dmon.log,ncu.csv,ncu.log,ncu.tsv,ncu-detail.log} \
	"$out"/{transpose,sgemm,hgemm,hgemm_wgmma}.{csv,log}

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/bench_templates.sh $*"
	echo "environment: TEMPLATES=${TEMPLATES:-} RUN_TIMEOUT=${RUN_TIMEOUT:-} NCU_DETAIL=${NCU_DETAIL:-} ARCH=${ARCH:-}"
	echo "host: $(uname -srm)"
	nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
		--format=csv 2>&1
	"$nvcc" --version | tail -n 2
	command -v "$ncu" >/dev/null && "$ncu" --version | tail -n 1
	echo "bankc: $("$bankc" --version 2>&1)"
} >"$out/env.txt"
cat "$out/env.txt"

# Tiles, then the programs, built in parallel.
"$bankc" build specs/templates.tile -o "$gen" >"$out/build.log" 2>&1 || die "bankc build failed"
"$bankc" compare specs/templates.tile >>"$out/build.log" 2>&1
templates=${TEMPLATES:-transpose sgemm hgemm hgemm_wgmma}
flags=(-std=c++17 -O3 -Iruntime -I"$gen" -Xptxas -v)
# wgmma and setmaxnreg exist only in the architecture-specific sm_90a.
target() { if [ "$1" = hgemm_wgmma ]; then echo "-gencode=arch=compute_90a,code=sm_90a"; else echo "-arch=$arch"; fi; }
rm -f "$bin/failed"
for t in $templates; do
	("$nvcc" "${flags[@]}" "$(target "$t")" -o "$bin/$t" "templates/$t.cu" -lcublas >"$bin/$t.build.log" 2>&1 ||
		echo "$t" >>"$bin/failed") &
done
wait
for t in $templates; do
	echo "== nvcc $t" >>"$out/build.log"
	grep -E "Compiling entry|registers|spill" "$bin/$t.build.log" >>"$out/build.log"
done
if [ -f "$bin/failed" ]; then
	while read -r t; do cat "$bin/$t.build.log" >&2; done <"$bin/failed"
	die "nvcc failed"
fi
# What the machine code uses: 16-byte shared loads, ldmatrix, mma.
if command -v cuobjdump >/dev/null; then
	for t in $templates; do
		echo "== sass $t: $(cuobjdump -sass "$bin/$t" | grep -oE '\b(LDS(\.[A-Z0-9]+)*|STS(\.[A-Z0-9]+)*|LDSM(\.[A-Z0-9]+)*|HMMA(\.[A-Z0-9]+)*|HGMMA(\.[A-Za-z0-9]+)*|FFMA|LDL|STL|LDGSTS(\.[A-Z0-9]+)*|UTMALDG(\.[A-Z0-9]+)*)\b' |
			sort | uniq -c | sort -rn | awk '{printf "%s %s; ", $2, $1}')" >>"$out/build.log"
	done
fi

# Clocks and power once a second while the benchmarks run.
dmon=
if command -v nvidia-smi >/dev/null; then
	nvidia-smi dmon -s pc -d 1 >"$out/dmon.log" 2>&1 &
	dmon=$!
fi
# A program that ran out of time is not profiled: it would hang there too.
ran=
for t in $templates; do
	echo "== $t"
	timeout "${RUN_TIMEOUT:-300}" "$bin/$t" --csv "$out/$t.csv" 2>&1 | tee "$out/$t.log"
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || { echo "$t: exit status $rc" | tee -a "$out/$t.log"; fail=1; }
	[ "$rc" -eq 124 ] || ran="$ran $t"
done

[ -n "$dmon" ] && kill "$dmon" 2>/dev/null

# Nsight Compute: each template kernel once (--profile: small sizes).
# The wgmma kernel is not in this list: TMA writes its tiles and wgmma
# reads them outside the LSU pipe these counters watch; its layout is
# checked by the program itself (TMA boxes against HGW_*_IDX).
# kernel regex (demangled name), binary, tiles, blocks, rounds per block
kernels='TpF32 transpose tp_f32 256 1
TpF64 transpose tp_f64 1024 1
TpF16 transpose tp_f16 256 1
TpI8 transpose tp_i8 64 1
sgemm_tile sgemm sg8_a,sg8_b 16 64
hgemm_tile hgemm hg128k32_a,hg128k32_b 16 16'
detail="$kernels
hgemm_wgmma_tile hgemm_wgmma hgw_a,hgw_b 8 8"
m=l1tex__data_pipe_lsu_wavefronts_mem_shared
c=l1tex__data_bank_conflicts_pipe_lsu_mem_shared
metrics=${m}_op_ld.sum,${m}_op_st.sum,${c}_op_ld.sum,${c}_op_st.sum
if command -v "$ncu" >/dev/null; then
	: >"$out/ncu.log"
	: >"$out/ncu.csv"
	while read -r re prog tiles blocks rounds; do
		case " $ran " in *" $prog "*) ;; *) continue ;; esac
		echo "== ncu $re ($prog)" >>"$out/ncu.log"
		if timeout 120 "$ncu" --clock-control none --kernel-name-base demangled -k "regex:$re" -c 1 \
			--metrics "$metrics" --csv --print-units base "$bin/$prog" --profile >"$bin/ncu.out" 2>>"$out/ncu.log"; then
			grep '^"' "$bin/ncu.out" | sed "s/^/$re|$tiles|$blocks|$rounds|/" >>"$out/ncu.csv"
		else
			echo "ncu failed on $re" | tee -a "$out/ncu.log"
			fail=1
		fi
		grep -v '^"' "$bin/ncu.out" >>"$out/ncu.log"
	done <<<"$kernels"
	if [ -s "$out/ncu.csv" ]; then
		python3 templates/ncu_summary.py "$out/ncu.csv" "$gen" | tee "$out/ncu.tsv" || fail=1
	fi
	# NCU_DETAIL=1: where the GEMM kernels spend their time, at 4096^3.
	if [ -n "${NCU_DETAIL:-}" ]; then
		: >"$out/ncu-detail.log"
		while read -r re prog _; do
			case $prog in sgemm | hgemm | hgemm_wgmma) ;; *) continue ;; esac
			case " $ran " in *" $prog "*) ;; *) continue ;; esac
			echo "== ncu detail $re ($prog)" >>"$out/ncu-detail.log"
			timeout 120 "$ncu" --clock-control none --kernel-name-base demangled -k "regex:$re" -c 1 \
				--section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
				--section Occupancy "$bin/$prog" --profile --size 4096 >>"$out/ncu-detail.log" 2>&1
		done <<<"$detail"
	fi
else
	echo "ncu not found: no counters" | tee "$out/ncu.tsv"
fi

echo "== results in $out"
[ "$fail" -eq 0 ]

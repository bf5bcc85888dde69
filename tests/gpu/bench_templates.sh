#!/usr/bin/env bash
# bench_templates.sh [--repeat N] [--explore] [--quick] [--pack] [OUTDIR]
#
# On a machine with a GPU (sm_90), nvcc and cuBLAS: builds the template
# tiles with bankc (specs/templates.tile -> out/templates-gen) and the
# kernel library's (specs/templates.tile and templates/gemm_ab.tile ->
# out/templates-lib/bankc/tiles), compiles the programs of templates/
# (the *_wgmma ones for sm_90a; transpose, hgemm_wgmma and fp8gemm_wgmma
# call the library, include/bankc/), runs each
# benchmark N times (--repeat, default 5), each run a fresh process with
# fresh random inputs that checks every result against the host or cuBLAS
# before it times it, and merges the runs into medians and ranges
# (templates/bench_summary.py).  Where Nsight Compute is installed, it then
# profiles each template kernel once on a small size and sets its
# shared-memory wavefronts beside the ideal and bankc's prediction.
#
# --explore also runs the variants each program keeps beside its template
# (other tile shapes, stage counts, cluster and persistent on and off);
# --quick runs small sizes only.
#
# Writes into OUTDIR (default out/bench-templates): env.txt (GPU, driver,
# tools, date, command), build.log, NAME.rK.log and NAME.rK.csv for run K
# of each program, NAME.csv (medians, ranges) and summary.md (their
# tables, printed last), dmon.log (clocks and power), ncu.tsv and ncu.log.
# --pack then moves everything but env.txt, summary.md and ncu.tsv into
# OUTDIR/raw.tgz (four files to copy back).  Exits non-zero if a build,
# check or run failed.
#
# Environment: BANKC (default ./bankc), NVCC, NCU, ARCH (default sm_90),
# LIB_CFLAGS (how the programs find the library: default -Iinclude
# -Iout/templates-lib; tests/gpu/bench_library.sh gives an installed
# prefix's `pkg-config --cflags bankc-templates`),
# RUN_TIMEOUT (seconds per run of a program, default 300),
# DEADLINE (seconds from the start after which no run of a program
# starts; the counters still run; summary.md says how many runs each
# program got; default none),
# TEMPLATES (default "transpose sgemm hgemm hgemm_wgmma fp8gemm_wgmma":
# which to build and run),
# NCU_DETAIL=1 (also Nsight Compute's speed-of-light, warp-state, compute
# and occupancy sections for each GEMM kernel at 4096^3: ncu-detail.log;
# unset or 0: not), NCU_KERNELS (an extended regex: only the kernels of
# the counter list whose regex it matches), SASS_DUMP=1 (the whole
# disassembly of each *_wgmma program: sass-NAME.txt).
set -uo pipefail

die() { echo "bench_templates.sh: $*" >&2; exit 1; }
usage() { echo "usage: bench_templates.sh [--repeat N] [--explore] [--quick] [--pack] [OUTDIR]" >&2; exit 2; }
args="$*"
repeat=5
pack=0
progargs=()
out=
while [ $# -gt 0 ]; do
	case $1 in
	--repeat)
		[ $# -ge 2 ] || usage
		case $2 in '' | *[!0-9]* | 0*) usage ;; esac
		repeat=$2
		shift 2
		;;
	--explore | --quick) progargs+=("$1"); shift ;;
	--pack) pack=1; shift ;;
	-*) usage ;;
	*) [ -z "$out" ] || usage; out=$1; shift ;;
	esac
done
cd "$(dirname "$0")/../.." || die "no repository root"
start=$(date +%s)
deadline=${DEADLINE:-}
case $deadline in '' | *[!0-9]*) [ -z "$deadline" ] || die "DEADLINE must be a number of seconds" ;; esac
# Whether DEADLINE seconds have gone by (never, without one).
past_deadline() { [ -n "$deadline" ] && [ $(($(date +%s) - start)) -ge "$deadline" ]; }
out=${out:-out/bench-templates}
bankc=${BANKC:-./bankc}
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
arch=${ARCH:-sm_90}
gen=out/templates-gen
libgen=out/templates-lib
bin=out/templates-bin
mkdir -p "$out" "$gen" "$bin" || die "cannot create $out"
command -v "$nvcc" >/dev/null || die "$nvcc not found"
fail=0
# What an earlier run left in OUTDIR would read as this run's.
rm -f "$out"/{env.txt,build.log,dmon.log,ncu.csv,ncu.log,ncu.tsv,ncu-detail.log,summary.md,raw.tgz} \
	"$out"/*.r[0-9]*.{csv,log} "$out"/{transpose,sgemm,hgemm,hgemm_wgmma,fp8gemm_wgmma}.{csv,log} "$out"/sass-*.txt

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/bench_templates.sh $args"
	echo "environment: TEMPLATES=${TEMPLATES:-} RUN_TIMEOUT=${RUN_TIMEOUT:-} DEADLINE=${DEADLINE:-} NCU_DETAIL=${NCU_DETAIL:-} NCU_KERNELS=${NCU_KERNELS:-} SASS_DUMP=${SASS_DUMP:-} ARCH=${ARCH:-} LIB_CFLAGS=${LIB_CFLAGS:-}"
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
if [ -z "${LIB_CFLAGS:-}" ]; then
	"$bankc" build specs/templates.tile templates/gemm_ab.tile -o "$libgen/bankc/tiles" >>"$out/build.log" 2>&1 ||
		die "bankc build of the library's tiles failed"
	LIB_CFLAGS="-Iinclude -I$libgen"
fi
echo "library: $LIB_CFLAGS" >>"$out/build.log"
templates=${TEMPLATES:-transpose sgemm hgemm hgemm_wgmma fp8gemm_wgmma}
# shellcheck disable=SC2206
flags=(-std=c++17 -O3 -Iruntime $LIB_CFLAGS -I"$gen" -Xptxas -v)
# wgmma and setmaxnreg exist only in the architecture-specific sm_90a.
target() { case $1 in *_wgmma) echo "-gencode=arch=compute_90a,code=sm_90a" ;; *) echo "-arch=$arch" ;; esac; }
libs() { case $1 in fp8gemm_wgmma) echo "-lcublasLt -lcublas" ;; *) echo "-lcublas" ;; esac; }
rm -f "$bin/failed"
for t in $templates; do
	# shellcheck disable=SC2046
	("$nvcc" "${flags[@]}" "$(target "$t")" -o "$bin/$t" "templates/$t.cu" $(libs "$t") >"$bin/$t.build.log" 2>&1 ||
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
# What the machine code uses: 16-byte shared loads, ldmatrix, mma, fences
# (a GPU-scope MEMBAR in a mainloop costs the cluster GEMM dearly).
if command -v cuobjdump >/dev/null; then
	for t in $templates; do
		echo "== sass $t: $(cuobjdump -sass "$bin/$t" | grep -oE '\b(LDS(\.[A-Z0-9]+)*|STS(\.[A-Z0-9]+)*|LDSM(\.[A-Z0-9]+)*|HMMA(\.[A-Z0-9]+)*|HGMMA(\.[A-Za-z0-9]+)*|FFMA|LDL|STL|LDGSTS(\.[A-Z0-9]+)*|UTMALDG(\.[A-Z0-9]+)*|UTMASTG(\.[A-Z0-9]+)*|STSM(\.[A-Z0-9]+)*|QGMMA(\.[A-Za-z0-9]+)*|SYNCS(\.[A-Z0-9]+)*|USETMAXREG(\.[A-Z0-9]+)*|MEMBAR(\.[A-Z]+)*|PRMT)\b' |
			sort | uniq -c | sort -rn | awk '{printf "%s %s; ", $2, $1}')" >>"$out/build.log"
		# GPU-scope fences, kernel by kernel.
		[ "${t%_wgmma}" = "$t" ] || cuobjdump -sass "$bin/$t" |
			awk '/Function :/ { f = $3 } /MEMBAR\.ALL\.GPU/ { n[f]++ }
				END { for (k in n) print "== sass " k ": MEMBAR.ALL.GPU " n[k] }' | sort >>"$out/build.log"
		if [ "${SASS_DUMP:-0}" != 0 ] && [ "${t%_wgmma}" != "$t" ]; then
			cuobjdump -sass "$bin/$t" >"$out/sass-$t.txt" 2>&1
		fi
	done
fi

# Clocks and power once a second while the benchmarks run.
dmon=
if command -v nvidia-smi >/dev/null; then
	nvidia-smi dmon -s pc -d 1 >"$out/dmon.log" 2>&1 &
	dmon=$!
fi
# Run k of every program, then run k + 1: the runs of one program are
# spread over the whole session, not taken back to back.  A program that
# ran out of time is neither run again nor profiled: it would hang there too.
ran=" $templates "
declare -A started=() cut=()
for k in $(seq 1 "$repeat"); do
	for t in $templates; do
		case $ran in *" $t "*) ;; *) continue ;; esac
		if past_deadline; then
			echo "== DEADLINE of $deadline s: no run $k of $t"
			cut[$t]=1
			continue
		fi
		started[$t]=$((${started[$t]:-0} + 1))
		echo "== $t, run $k of $repeat"
		timeout "${RUN_TIMEOUT:-300}" "$bin/$t" --csv "$out/$t.r$k.csv" "${progargs[@]}" >"$out/$t.r$k.log" 2>&1
		rc=$?
		# The table once, from the first run; later runs only say how they ended.
		if [ "$k" -eq 1 ]; then cat "$out/$t.r$k.log"; fi
		[ "$rc" -eq 0 ] || { echo "$t: exit status $rc" | tee -a "$out/$t.r$k.log"; fail=1; }
		[ "$rc" -ne 124 ] || ran=${ran/ $t / }
	done
done
[ -n "$dmon" ] && kill "$dmon" 2>/dev/null

# Medians and ranges over the runs, program by program.
: >"$out/summary.md"
for t in $templates; do
	runs=()
	for k in $(seq 1 "$repeat"); do [ -f "$out/$t.r$k.csv" ] && runs+=("$out/$t.r$k.csv"); done
	echo "## $t" >>"$out/summary.md"
	if [ ${#runs[@]} -eq 0 ]; then
		echo "no run of $t wrote its table" >>"$out/summary.md"
		fail=1
	elif ! python3 templates/bench_summary.py "$out/$t.csv" "${runs[@]}" >>"$out/summary.md"; then
		fail=1
	fi
	# Runs that DEADLINE left out are a bound the caller chose, said here;
	# runs that started and wrote no table are failures.
	n=${started[$t]:-0}
	[ -z "${cut[$t]:-}" ] || echo "$n of $repeat runs of $t started before the DEADLINE of $deadline s" >>"$out/summary.md"
	want=$repeat
	[ -z "${cut[$t]:-}" ] || want=$n
	[ ${#runs[@]} -eq "$want" ] || { echo "only ${#runs[@]} of $want runs of $t wrote their table" >>"$out/summary.md"; fail=1; }
	echo >>"$out/summary.md"
done

# Nsight Compute: each template kernel once (--profile: small sizes).
# In the wgmma kernels TMA writes the operand tiles and wgmma reads them
# outside the LSU pipe these counters watch (their layouts are checked by
# the programs themselves, TMA boxes against NAME_IDX); what the LSU pipe
# sees there is the epilogue's stmatrix into the staging tile.
# kernel regex (demangled name), binary, tiles, blocks (or output tiles),
# rounds per block
kernels='transpose_full_kernel<bankc::detail::TpLibF32, transpose tp_f32 256 1
transpose_full_kernel<bankc::detail::TpLibF64, transpose tp_f64 1024 1
transpose_full_kernel<bankc::detail::TpLibF16L, transpose tp_f16l 64 1
transpose_full_kernel<bankc::detail::TpLibI8L, transpose tp_i8l 16 1
TpF32, transpose tp_f32 256 1
TpF64, transpose tp_f64 1024 1
TpF16, transpose tp_f16 256 1
TpI8, transpose tp_i8 64 1
TpF32W, transpose tp_f32w 256 1
TpF16W, transpose tp_f16w 256 1
TpI8W, transpose tp_i8w 64 1
TpF32LW, transpose tp_f32lw 64 1
TpF16L, transpose tp_f16l 64 1
TpI8L, transpose tp_i8l 16 1
sgemm_tile sgemm sg8_a,sg8_b 16 64
hgemm_tile hgemm hg128k32_a,hg128k32_b 16 16
gemm_sm90_tile<bankc::detail::gemm90::InF16, hgemm_wgmma hgw_c128 8 1
gemm_sm90_tile<bankc::detail::gemm90::InE4M3, fp8gemm_wgmma hgw_c128 8 1'
detail="$kernels
hgemm_wgmma_tile hgemm_wgmma - 8 8"
m=l1tex__data_pipe_lsu_wavefronts_mem_shared
c=l1tex__data_bank_conflicts_pipe_lsu_mem_shared
metrics=${m}_op_ld.sum,${m}_op_st.sum,${c}_op_ld.sum,${c}_op_st.sum
if command -v "$ncu" >/dev/null; then
	: >"$out/ncu.log"
	: >"$out/ncu.csv"
	while read -r re prog tiles blocks rounds; do
		case " $ran " in *" $prog "*) ;; *) continue ;; esac
		[ -z "${NCU_KERNELS:-}" ] || printf '%s\n' "$re" | grep -Eq "$NCU_KERNELS" || continue
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
	if [ "${NCU_DETAIL:-0}" != 0 ]; then
		: >"$out/ncu-detail.log"
		while read -r re prog _; do
			case $prog in sgemm | hgemm | hgemm_wgmma | fp8gemm_wgmma) ;; *) continue ;; esac
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

# The tables last: the end of a log is what gets read.
cat "$out/summary.md"
if [ "$pack" -eq 1 ]; then
	(cd "$out" && find . -maxdepth 1 -type f ! -name env.txt ! -name summary.md ! -name ncu.tsv ! -name raw.tgz ! -name .packed \
		-printf '%P\n' | sort >.packed && tar czf raw.tgz -T .packed && xargs rm -f <.packed && rm -f .packed) ||
		{ echo "bench_templates.sh: packing $out failed" >&2; fail=1; }
fi
echo "== results in $out ($(($(date +%s) - start)) s)"
[ "$fail" -eq 0 ]

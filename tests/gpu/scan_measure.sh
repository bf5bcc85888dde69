#!/usr/bin/env bash
# scan_measure.sh BANKC OUTDIR
#
# On a machine with a GPU (sm_90), nvcc and Nsight Compute: compiles every
# validation program of tests/gpu/scan_kernels/ (each launches each of its
# kernels once, with one block), runs each once under Nsight Compute and
# writes the shared-memory counters of every launch, so that `bankc scan`'s
# per-block predictions can be compared with them offline.
#
# Writes into OUTDIR:
#   scan_counters.tsv  one row per launch: program, kernel (mangled), block,
#                      grid, then each metric (NA where this ncu lacks it);
#                      '#' header lines name the GPU, tools, date, command
#   manifest.tsv       the launches (tests/gpu/scan_kernels/manifest.tsv)
#   ptx/NAME.ptx       the PTX of each program, compiled with the same flags
#                      as the binary (what `bankc scan` reads)
#   sass/NAME.txt      the shared-memory instructions of each kernel's SASS
#   csv/NAME.csv       ncu's CSV of each program, as it printed it
#   scan_compare.tsv, scan_validation.md, scan_compare_novec.tsv
#                      bankc scan's predictions from ptx/ beside the counters
#                      (when BANKC has scan), as TSV and as a Markdown table,
#                      and with --no-vectorize
#   env.txt, build.log, ncu.log
# BANKC builds the template tiles (specs/templates.tile) that the tpl_*
# programs include.  Exits non-zero if a build, a run or a profile failed.
#
# `make check` compares bankc's predictions with the measurement committed
# as tests/data/scan_h200.tsv (scan_counters.tsv) and tests/data/scan_h200/
# (manifest.tsv, ptx/, sass/; tolerated.tsv is kept by hand): copy them
# there to adopt a new run, and write its result into docs/validation.md.
#
# Environment: NVCC, NCU, ARCH (default sm_90), JOBS (parallel builds).
set -uo pipefail

die() { echo "scan_measure.sh: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: scan_measure.sh BANKC OUTDIR" >&2; exit 2; }
bankc=$1 out=$2
cd "$(dirname "$0")/../.." || die "no repository root"
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
arch=${ARCH:-sm_90}
src=tests/gpu/scan_kernels
command -v "$nvcc" >/dev/null || die "$nvcc not found"
command -v "$ncu" >/dev/null || die "$ncu (Nsight Compute) not found"
mkdir -p "$out/ptx" "$out/sass" || die "cannot create $out"
rm -f "$out"/{scan_counters.tsv,manifest.tsv,env.txt,build.log,ncu.log} "$out"/ptx/*.ptx "$out"/sass/*.txt
# the launches as measured, beside the PTX that ran
cp "$src/manifest.tsv" "$out/manifest.tsv" || die "cannot copy the manifest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/scan_measure.sh $*"
	echo "host: $(uname -srm)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
	"$nvcc" --version | tail -n 2
	"$ncu" --version | tail -n 1
} >"$out/env.txt"
cat "$out/env.txt"

# The template programs include the generated tiles of specs/templates.tile.
"$bankc" build specs/templates.tile -o "$tmp/gen" >"$out/build.log" 2>&1 || die "bankc build failed (build.log)"

# Binary and PTX from the same flags, every program in parallel.
flags=(-std=c++17 -O3 -lineinfo -arch="$arch" -Iruntime -I"$tmp/gen")
progs=$(cd "$src" && ls *.cu | sed 's/\.cu$//')
for p in $progs; do
	libs=
	case $p in tpl_*) libs=-lcublas ;; esac
	( { "$nvcc" "${flags[@]}" -o "$tmp/$p" "$src/$p.cu" $libs &&
	    "$nvcc" "${flags[@]}" -ptx -o "$out/ptx/$p.ptx" "$src/$p.cu"; } >"$tmp/$p.build.log" 2>&1 ||
	  echo "$p" >>"$tmp/failed" ) &
	while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-8}" ]; do sleep 0.2; done
done
wait
for p in $progs; do
	echo "== nvcc $p" >>"$out/build.log"
	cat "$tmp/$p.build.log" >>"$out/build.log"
done
[ -f "$tmp/failed" ] && die "nvcc failed for: $(tr '\n' ' ' <"$tmp/failed") (build.log)"

# Metrics: wavefronts by operation (the comparison), then what helps to
# explain a difference; each kept only where this ncu knows it.
m=l1tex__data_pipe_lsu_wavefronts_mem_shared
c=l1tex__data_bank_conflicts_pipe_lsu_mem_shared
i=smsp__inst_executed_op
core="${m}_op_ld ${m}_op_st"
optional="${m}_op_atom ${m}_op_red $m ${c}_op_ld ${c}_op_st ${c}_op_atom ${c}_op_red
	${i}_shared_ld ${i}_shared_st ${i}_shared_atom ${i}_shared_red ${i}_ldsm ${i}_stsm
	${i}_ldgsts ${i}_generic_ld ${i}_generic_st"
launch="launch__block_size launch__grid_size launch__shared_mem_per_block_static
	launch__shared_mem_per_block_dynamic launch__registers_per_thread"
"$ncu" --query-metrics >"$tmp/known.txt" 2>&1 || true
names=$core
for x in $optional; do
	grep -qw "$x" "$tmp/known.txt" && names="$names $x"
done
metrics=
for x in $names; do metrics="$metrics,$x.sum"; done
for x in $launch; do
	grep -qw "$x" "$tmp/known.txt" && metrics="$metrics,$x"
done
metrics=${metrics#,}
echo "metrics: $metrics" >>"$out/env.txt"

# One profile per program, its CSV straight from ncu (kernels under the
# names ncu prints; scan_compare.sh matches demangled names too); a metric
# list this ncu refuses falls back to the two counters the comparison
# needs.  Each program's CSV is kept in csv/.
fail=0
: >"$out/ncu.log"
: >"$tmp/all.csv"
mkdir -p "$out/csv"
for p in $progs; do
	echo "== ncu $p" >>"$out/ncu.log"
	ok=0
	for list in "$metrics" "${m}_op_ld.sum,${m}_op_st.sum"; do
		if timeout 120 "$ncu" --clock-control none --metrics "$list" \
			--csv --print-units base "$tmp/$p" >"$tmp/ncu.out" 2>>"$out/ncu.log" &&
			grep -q '^"ID"' "$tmp/ncu.out"; then
			ok=1
			break
		fi
		echo "ncu failed on $p with metrics $list" >>"$out/ncu.log"
	done
	grep -v '^"' "$tmp/ncu.out" >>"$out/ncu.log"
	if [ "$ok" -eq 0 ]; then
		echo "ncu failed on $p" | tee -a "$out/ncu.log"
		fail=1
		continue
	fi
	grep '^"' "$tmp/ncu.out" | sed "s/^/$p|/" >>"$tmp/all.csv"
	grep '^"' "$tmp/ncu.out" >"$out/csv/$p.csv"
	if command -v cuobjdump >/dev/null; then
		cuobjdump -sass "$tmp/$p" | awk '
			/Function :/ { fn = $3 }
			/(LDS|STS|ATOMS|LDSM|STSM|LDGSTS|LD\.|ST\.|ATOM\.|RED\.)/ && fn != "" {
				gsub(/^[ \t]*\/\*[0-9a-f]*\*\/[ \t]*/, ""); sub(/;.*/, ""); print fn "\t" $0 }' \
			>"$out/sass/$p.txt"
	fi
done

# One row per launch, the metrics in a fixed order (NA where missing).
cols="$(for x in $core $optional; do echo "$x.sum"; done) $(echo $launch)"
{
	echo "# Measured by tests/gpu/scan_measure.sh with Nsight Compute (--clock-control none), one block per launch"
	sed 's/^/# /' "$out/env.txt"
	printf 'program\tkernel\tblock\tgrid'
	for x in $cols; do printf '\t%s' "$x"; done
	printf '\n'
	awk -v cols="$cols" '
	function csv(line, f) {
		sub(/\r$/, "", line)
		if (line !~ /^".*"$/) return 0
		return split(substr(line, 2, length(line) - 2), f, /","/)
	}
	BEGIN { nc = split(cols, want, /[ \t\n]+/) }
	{
		bar = index($0, "|"); prog = substr($0, 1, bar - 1); n = csv(substr($0, bar + 1), f)
		if (n == 0) next
		if (f[1] == "ID") { for (k = 1; k <= n; k++) col[f[k]] = k; next }
		key = prog SUBSEP f[1]
		if (!(key in seen)) { seen[key] = 1; order[++nl] = key; pname[key] = prog
			kname[key] = f[col["Kernel Name"]]
			blk[key] = ("Block Size" in col) ? f[col["Block Size"]] : "NA"
			grd[key] = ("Grid Size" in col) ? f[col["Grid Size"]] : "NA" }
		v = f[col["Metric Value"]]; gsub(/,/, "", v)
		val[key, f[col["Metric Name"]]] = v
	}
	END {
		for (r = 1; r <= nl; r++) {
			key = order[r]; b = blk[key]; g = grd[key]
			gsub(/[() ]/, "", b); gsub(/[() ]/, "", g)
			printf "%s\t%s\t%s\t%s", pname[key], kname[key], b, g
			for (k = 1; k <= nc; k++) if (want[k] != "") printf "\t%s", ((key, want[k]) in val) ? val[key, want[k]] : "NA"
			printf "\n"
		}
	}' "$tmp/all.csv"
} >"$out/scan_counters.tsv"

rows=$(grep -vc '^#' "$out/scan_counters.tsv")
echo "== $((rows - 1)) launches measured, $(echo $progs | wc -w) programs; results in $out"
cut -f 1-6 "$out/scan_counters.tsv" | grep -v '^#' | column -t -s "$(printf '\t')" 2>/dev/null ||
	cut -f 1-6 "$out/scan_counters.tsv" | grep -v '^#'
# The predictions beside the counters, where this bankc has scan.
if "$bankc" --help 2>/dev/null | grep -q '^  scan '; then
	echo "== bankc scan's predictions against the counters (scan_compare.tsv)"
	sh tests/gpu/scan_compare.sh "$bankc" "$out/ptx" "$out/scan_counters.tsv" "$out/manifest.tsv" \
		tests/data/scan_h200/tolerated.tsv >"$out/scan_compare.tsv"
	grep -v equal "$out/scan_compare.tsv"
	# and without the model of ptxas's vectorization, to tell which holds
	SCAN_FLAGS=--no-vectorize sh tests/gpu/scan_compare.sh "$bankc" "$out/ptx" \
		"$out/scan_counters.tsv" "$out/manifest.tsv" tests/data/scan_h200/tolerated.tsv \
		>"$out/scan_compare_novec.tsv"
	echo "== the same with --no-vectorize (scan_compare_novec.tsv): $(tail -n 1 "$out/scan_compare_novec.tsv")"
	# the same as a Markdown table for docs/validation.md
	awk -F '\t' 'NR == 1 { print "| program | kernel | counter | predicted | measured | |"; print "| --- | --- | --- | ---: | ---: | --- |"; next }
		/^scan counters/ { print ""; print $0; next }
		{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' \
		"$out/scan_compare.tsv" >"$out/scan_validation.md"
else
	echo "== this bankc has no scan command: no predictions compared"
fi
[ "$fail" -eq 0 ]

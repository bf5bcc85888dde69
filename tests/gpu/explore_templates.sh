#!/usr/bin/env bash
# explore_templates.sh DEST
#
# One short GPU call's worth of exploration: tests/gpu/bench_templates.sh
# with --explore (every variant kept beside each template, as its own row)
# and --repeat 1, Nsight Compute's counters for the kernels that are new or
# changed only (NCU_KERNELS), the disassembly of the wgmma programs (and
# their GPU-scope fences, kernel by kernel, in build.log), then one plain
# run of hgemm_wgmma: the template over the shapes of the full run.  Every
# kernel's result is checked before it is timed, as in the full run.
# Bounded: RUN_TIMEOUT (default 45) seconds per program, EXPLORE_TIMEOUT
# (default 140) seconds for the benchmark run, and what is left of
# LIMIT (default 175) seconds for the runs after it.
#
# The run's folder (out/explore) goes to DEST/explore.tgz; DEST/summary.md
# is its tables; the last thing printed is a short table of every row
# (kernel, size, rate, ratio, check).  Exits non-zero if anything failed.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: explore_templates.sh DEST" >&2; exit 2; }
dest=$1
mkdir -p "$dest" || exit 1
dest=$(cd "$dest" && pwd)
cd "$(dirname "$0")/../.." || exit 1
work=out/explore
rm -rf "$work"
mkdir -p "$work"
start=$(date +%s)
limit=${LIMIT:-175}
SASS_DUMP=1 RUN_TIMEOUT=${RUN_TIMEOUT:-45} NCU_KERNELS=${NCU_KERNELS:-'TpF32L|TpF16L|TpI8L|sgemm_tile|gemm_sm90'} \
	timeout "${EXPLORE_TIMEOUT:-140}" bash tests/gpu/bench_templates.sh --explore --repeat 1 "$work" >"$work/console.log" 2>&1
rc=$?
echo "explore: bench_templates.sh exit status $rc after $(($(date +%s) - start)) s" | tee -a "$work/console.log"
# A wgmma program that faulted or hung lost its later rows: once more with
# the cluster-1 variants only, which do not depend on the cluster code.
for t in hgemm_wgmma fp8gemm_wgmma; do
	[ -f "$work/$t.r1.csv" ] || [ ! -x "out/templates-bin/$t" ] && continue
	left=$((limit - ($(date +%s) - start)))
	[ "$left" -gt 10 ] || { echo "explore: no time left to run $t again" | tee -a "$work/console.log"; continue; }
	echo "explore: $t again, cluster 1 only" | tee -a "$work/console.log"
	timeout "$left" "out/templates-bin/$t" --explore --only "cluster 1" --csv "$work/$t.cluster1.csv" \
		>"$work/$t.cluster1.log" 2>&1
	echo "explore: $t, cluster 1 only: exit status $?" | tee -a "$work/console.log"
done
# The template over the full run's shapes (M = N = 4096 over K, a tall and
# a flat one), which --explore leaves out.
t=hgemm_wgmma
left=$((limit - ($(date +%s) - start)))
if [ ! -x "out/templates-bin/$t" ]; then
	echo "explore: no $t to run over the shapes" | tee -a "$work/console.log"
elif [ "$left" -le 20 ]; then
	echo "explore: no time left for the shapes" | tee -a "$work/console.log"
else
	timeout "$left" "out/templates-bin/$t" --csv "$work/$t.shapes.csv" >"$work/$t.shapes.log" 2>&1
	src=$?
	echo "explore: $t over the shapes: exit status $src after $(($(date +%s) - start)) s" | tee -a "$work/console.log"
	[ "$src" -eq 0 ] || rc=1
	grep -h "elements off" "$work/$t.shapes.log" | head -n 5
fi
tar czf "$dest/explore.tgz" -C out explore
cp "$work/summary.md" "$dest/summary.md" 2>/dev/null
# What went wrong, if anything, before the table.
grep -hiE "error|fail|exit status|timed out|elements off|elements differ" "$work/console.log" | grep -v "^| " | head -n 40
[ -f "$work/ncu.tsv" ] && cat "$work/ncu.tsv"
# The short table: every row of every program's merged CSV.
for f in "$work"/*.csv; do
	[ -e "$f" ] || continue
	case $f in *.r[0-9]*.csv | */ncu.csv) continue ;; esac
	echo "== ${f##*/}"
	python3 - "$f" <<'PY'
import csv, sys
# A merged CSV (bench_summary.py) or one run's (the programs' --csv).
for r in csv.DictReader(open(sys.argv[1])):
    v, rate, err = (r["vs_ref_median"], r["rate_median"], r["err_max"]) if "vs_ref_median" in r else \
        (r["vs_ref"] if r["ref"] else "", r["rate"], r["err"])
    ratio = f"{float(v):.3f}" if v else "-"
    rate = f"{float(rate):.1f}" if r["unit"] != "-" else "-"
    k = r["kernel"].replace("bankc ", "").replace("wgmma ", "").replace("persistent", "pers")
    print(f"{k[:60]:60} {r['size']:>14} {rate:>7} {ratio:>5} {r['check']}" + (f" {err}" if r["check"] != "ok" else ""))
PY
done
exit "$rc"

#!/usr/bin/env bash
# probe.sh PATTERNS.tsv OUT.tsv
#
# Builds probe.cu, runs it under Nsight Compute and writes OUT.tsv: the rows
# of PATTERNS.tsv with the measured shared-memory wavefronts of each row's
# instruction as last column (NA where the probe could not run the row).
# Comments are kept.
#
# Environment: PROBE_ARCH (nvcc -arch; default this GPU's own, sm_100a on a
# B200, sm_120a on an RTX 50, as nvidia-smi names it, else sm_90), NVCC,
# NCU, and PROBE_KEEP=1 to keep the build, ncu report and CSV (path
# printed).
set -euo pipefail

die() { echo "probe.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || { echo "usage: probe.sh PATTERNS.tsv OUT.tsv" >&2; exit 2; }
in=$1
out=$2
[ -r "$in" ] || die "cannot read $in"

here=$(cd "$(dirname "$0")" && pwd)
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ') || cap=
case $cap in [0-9][0-9] | [0-9][0-9][0-9]) ;; *) cap=90 ;; esac
# Blackwell's "a" targets have the 8-bit ldmatrix and stmatrix forms
[ "$cap" -ge 100 ] && cap=${cap}a
arch=${PROBE_ARCH:-sm_$cap}
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
metric=l1tex__data_pipe_lsu_wavefronts_mem_shared
metrics=$metric.sum,${metric}_op_ld.sum,${metric}_op_st.sum

command -v "$nvcc" >/dev/null || die "$nvcc not found"
command -v "$ncu" >/dev/null || die "$ncu (Nsight Compute) not found"

tmp=$(mktemp -d)
if [ -n "${PROBE_KEEP:-}" ]; then
    echo "probe.sh: keeping $tmp" >&2
else
    trap 'rm -rf "$tmp"' EXIT
fi

"$nvcc" -std=c++17 -O2 -arch="$arch" -o "$tmp/probe" "$here/probe.cu" \
    || die "nvcc -arch=$arch failed (set PROBE_ARCH for this GPU)"

# A plain run first: bad rows and CUDA errors show up without the profiler
# in the way, and skipped rows are reported once, here.
"$tmp/probe" "$in" || die "probe failed on $in"

# Every shared-memory wavefront and bank-conflict counter this ncu knows,
# per operation, and the shared instruction counts, go to OUT.metrics.tsv;
# the wavefronts column is op_ld + op_st + op_atom (+ op_red where it
# exists).  op_misc holds the per-launch wavefront that is no instruction;
# op_gmma, op_ldgsts and op_ipa are other pipes.
if "$ncu" --query-metrics >"$tmp/query.txt" 2>/dev/null; then
    extra=$( (grep -oE '^(l1tex__data_pipe_lsu_wavefronts_mem_shared|l1tex__data_bank_conflicts_pipe_lsu_mem_shared)(_op_[a-z]+)?\b' "$tmp/query.txt"
              grep -oE '^(l1tex__[a-z_]*mem_shared_op_(atom|red)|smsp__(sass_)?inst_executed_op_shared[a-z_]*)\b' "$tmp/query.txt") |
            sort -u | sed 's/$/.sum/' | paste -sd, -)
    [ -n "$extra" ] && metrics=$metrics,$extra
    metrics=$(echo "$metrics" | tr , '\n' | sort -u | paste -sd, -)
fi

# Profile into a report, then export it: the export holds only CSV, while
# the profiling run's own messages and the probe's stderr go to a log.
# --clock-control none: leave the clocks alone; counts do not depend on them.
if ! "$ncu" --clock-control none --metrics "$metrics" -f -o "$tmp/report" \
        "$tmp/probe" "$in" >"$tmp/ncu.log" 2>&1; then
    grep -E '==(ERROR|WARNING)==' "$tmp/ncu.log" >&2 || tail -n 20 "$tmp/ncu.log" >&2
    die "ncu failed (messages above; ERR_NVGPUCTRPERM means no access to the GPU counters)"
fi
if grep -q '==ERROR==' "$tmp/ncu.log"; then
    grep '==ERROR==' "$tmp/ncu.log" >&2
    die "ncu reported errors"
fi
[ -f "$tmp/report.ncu-rep" ] || { cat "$tmp/ncu.log" >&2; die "ncu wrote no report"; }

# Details page: one CSV row per (launch, metric), with columns "ID" (launch
# number in launch order, from 0), "Kernel Name", "Metric Name", "Metric
# Value". Base units keep counts unscaled.
"$ncu" --import "$tmp/report.ncu-rep" --csv --page details --print-units base \
    >"$tmp/ncu.csv" 2>"$tmp/import.log" \
    || { cat "$tmp/import.log" >&2; die "ncu --import failed"; }

[ -s "$tmp/ncu.csv" ] || die "ncu exported no CSV"

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null \
      | paste -sd';' -) || true
dev=$("$tmp/probe" --info 2>/dev/null) || true
cuda=$("$nvcc" --version | grep -i release | sed 's/.*release/release/') || true
ncuv=$("$ncu" --version | tail -n 1) || true

# Pair the i-th pattern row with launch ID i; each launch's kernel name must
# be the one probe.cu uses for the row's op (or probe_skipped). The
# wavefronts written are op_ld + op_st: the total .sum also counts some
# shared-memory work of every launch that is not the instruction (one
# wavefront on an H200); the header records that baseline, and rows whose
# excess differs from it are reported.
awk -v metric="$metric" -v out="$tmp/out.tsv" \
    -v hdr1="# Measured by tests/gpu/probe.sh with Nsight Compute: wavefronts = $metric""_op_ld.sum + _op_st.sum + _op_atom.sum" \
    -v hdr2="# gpu: ${gpu:-unknown} (nvidia-smi); device 0: ${dev:-unknown}" \
    -v hdr3="# cuda: ${cuda:-unknown}; ncu: ${ncuv:-unknown}; built with -arch=$arch" \
    -v hdr4="# date: $(date -u +%Y-%m-%dT%H:%M:%SZ); command: probe.sh $in $out" '
function fail(msg) { print "probe.sh: " msg > "/dev/stderr"; bad = 1; exit 1 }
# ncu quotes every CSV field; kernel names may hold commas, so split on
# the quote-comma-quote between fields rather than on commas.
function csv(line, f,   n) {
    sub(/\r$/, "", line)
    if (line !~ /^".*"$/) return 0
    line = substr(line, 2, length(line) - 2)
    n = split(line, f, /","/)
    return n
}
function kernel_of(op, w,   v, k) {
    if (op == "load" || op == "store") {
        v = (w == 1) ? "u8" : (w == 2) ? "u16" : (w == 4) ? "u32" : (w == 8) ? "v2" : "v4"
        return "probe_" (op == "load" ? "ld" : "st") "_" v
    }
    if (op ~ /^(ld|st)matrix\.x[124](\.trans)?$/) {
        k = "probe_" substr(op, 1, 2) "sm_" substr(op, 10)
        gsub(/\./, "_", k)
        return k
    }
    if (op == "cp.async" || op == "cp.async.ca") return "probe_cpasync_ca" w
    if (op == "cp.async.cg") return "probe_cpasync_cg" w
    if (op ~ /^(atom|red)\./) {
        k = op; sub(/\.f32$/, "f", k); gsub(/\./, "_", k)
        return "probe_" k (w * 8)
    }
    return "?"
}
BEGIN { row = 0; launches = 0 }
FILENAME == ARGV[1] {
    n = csv($0, f)
    if (!have_hdr) {
        if (n > 0 && f[1] == "ID") {
            for (i = 1; i <= n; i++) col[f[i]] = i
            if (!("Kernel Name" in col) || !("Metric Name" in col) || !("Metric Value" in col))
                fail("ncu CSV header lacks Kernel Name / Metric Name / Metric Value")
            have_hdr = 1
        }
        next
    }
    if (n == 0) next
    m = f[col["Metric Name"]]
    id = f[1]
    if (id ~ /^[0-9]+$/) {
        val = f[col["Metric Value"]]; gsub(/,/, "", val)
        allm[id] = allm[id] " " m "=" val
    }
    if (m == metric ".sum") k = "total"
    else if (m == metric "_op_ld.sum") k = "ld"
    else if (m == metric "_op_st.sum") k = "st"
    else if (m ~ ("^" metric "_op_(atom|red)\\.sum$")) k = "op"
    else next
    if (id !~ /^[0-9]+$/) fail("ncu CSV: bad launch ID " id)
    name = f[col["Kernel Name"]]
    sub(/^void /, "", name); sub(/\(.*$/, "", name)
    val = f[col["Metric Value"]]
    gsub(/,/, "", val)
    if (val !~ /^[0-9]+(\.0*)?$/) fail("ncu CSV: launch " id ": " m " = " val)
    kname[id] = name
    if (k == "op") { v[id, "ops"] += val + 0; next }
    v[id, k] = val + 0; got[id, k] = 1
    if (id + 1 > launches) launches = id + 1
    next
}
FNR == 1 && FILENAME == ARGV[2] {
    if (!have_hdr) fail("no CSV header in ncu output")
    for (id = 0; id < launches; id++) {
        if (!got[id, "total"] || !got[id, "ld"] || !got[id, "st"])
            fail("ncu CSV: launch " id " lacks one of the three metrics")
        extra[id] = v[id, "total"] - v[id, "ld"] - v[id, "st"] - v[id, "ops"]
        if (kname[id] != "probe_skipped") seen[extra[id]]++
    }
    base = "?"
    for (e in seen) if (base == "?" || seen[e] > seen[base]) base = e
    print hdr1 > out; print hdr2 > out; print hdr3 > out; print hdr4 > out
    print "# the total " metric ".sum exceeded op_ld + op_st by " base \
          " on " seen[base] " of " launches " launches (per-launch work, not the instruction)" > out
}
{ sub(/\r$/, "") }
/^[ \t]*$/ || /^#/ { print > out; next }
/^name\t/ { print "name\top\twidth\tmask\toffsets\twavefronts" > out; next }
{
    split($0, c, "\t")
    if (!(row in kname)) fail(FILENAME ":" FNR ": no profiled launch for row " row " (" c[1] ")")
    want = kernel_of(c[2], c[3])
    if (kname[row] == "probe_skipped") w = "NA"
    else if (kname[row] == want) w = v[row, "ld"] + v[row, "st"] + v[row, "ops"]
    else fail(FILENAME ":" FNR ": launch " row " is " kname[row] ", expected " want)
    # Kept as a comment too: cp.async, for one, shows up in the total only.
    if (w != "NA" && extra[row] != base) {
        note = sprintf("%s: total %d = op_ld %d + op_st %d + %d (baseline %s)",
            c[1], v[row, "total"], v[row, "ld"], v[row, "st"], extra[row], base)
        print "probe.sh: " FILENAME ":" FNR ": " note > "/dev/stderr"
        print "# " note > out
    }
    print c[1] "\t" c[2] "\t" c[3] "\t" c[4] "\t" c[5] "\t" w > out
    print c[1] "\t" allm[row] > (out ".metrics")
    row++
}
END {
    if (bad) exit 1
    if (row != launches) {
        print "probe.sh: " launches " launches profiled for " row " rows" > "/dev/stderr"
        exit 1
    }
}' "$tmp/ncu.csv" "$in" || die "could not pair ncu results with the rows of $in"

mv "$tmp/out.tsv" "$out.tmp" && mv "$out.tmp" "$out"
mv "$tmp/out.tsv.metrics" "$out.metrics.tsv"
# Timing of the atomic rows (32 warps in a loop): same-address
# serialisation shows in cycles even where no counter shows it.
"$tmp/probe" --time "$in" >"$out.time.tsv" || die "probe --time failed"
echo "probe.sh: wrote $out" >&2

#!/usr/bin/env bash
# triton_measure.sh BANKC OUTDIR
#
# On a machine with a GPU (sm_90), PyTorch, Triton and Nsight Compute:
# compiles and runs every configuration of triton_kernels.py (one program,
# one block, each), profiles each launch once (ncu --clock-control none)
# and compares bankc scan's predictions from the PTX Triton wrote with
# the counters.  Writes into OUTDIR: ptx/NAME.ptx (and .cubin), sass/NAME.txt
# (the shared-memory instructions of its SASS), launches.tsv, manifest.tsv,
# counters.tsv (scan_measure.sh's format), compare.tsv (scan_compare.sh's),
# env.txt, ncu.log.  Environment: NCU, PYTHON.
set -uo pipefail
die() { echo "triton_measure.sh: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: triton_measure.sh BANKC OUTDIR" >&2; exit 2; }
bankc=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
ncu=${NCU:-ncu}
py=${PYTHON:-python3}
mkdir -p "$out/sass" || die "cannot create $out"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/triton/triton_measure.sh $*"
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
	"$py" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
	"$ncu" --version | tail -n 1
} >"$out/env.txt"
cat "$out/env.txt"
"$py" "$here/triton_kernels.py" "$out" || die "the Triton kernels failed"
m=l1tex__data_pipe_lsu_wavefronts_mem_shared
names=$(grep -v '^#' "$out/launches.tsv" | cut -f 4 | sort -u | paste -sd '|')
"$ncu" --clock-control none --metrics "${m}_op_ld.sum,${m}_op_st.sum,${m}_op_atom.sum,${m}_op_red.sum" \
	-k "regex:^($names)\$" --csv --print-units base "$py" "$here/triton_kernels.py" --run \
	>"$out/ncu.csv" 2>"$out/ncu.log" || die "ncu failed (ncu.log)"
# the k-th profiled launch is the k-th configuration of launches.tsv
grep -v '^#' "$out/launches.tsv" | awk -F '\t' '{ print $1 "\t" $2 "\t" $3 "\t" }' >"$out/manifest.tsv"
awk -v m="$m" '
function csv(line, f) {
	sub(/\r$/, "", line)
	if (line !~ /^".*"$/) return 0
	return split(substr(line, 2, length(line) - 2), f, /","/)
}
FILENAME == ARGV[1] { split($0, t, "\t"); prog[++n] = t[1]; kern[n] = t[2]; blk[n] = t[3]; next }
{
	k = csv($0, f)
	if (!k) next
	if (!hdr) { if (f[1] == "ID") { for (i = 1; i <= k; i++) col[f[i]] = i; hdr = 1 } next }
	id = f[col["ID"]] + 1
	v = f[col["Metric Value"]]; gsub(/,/, "", v)
	val[id, f[col["Metric Name"]]] = v
	if (id > nid) nid = id
}
END {
	printf "program\tkernel\tblock\tgrid\t%s_op_ld.sum\t%s_op_st.sum\t%s_op_atom.sum\t%s_op_red.sum\n", m, m, m, m
	for (i = 1; i <= n; i++) {
		printf "%s\t%s\t%s\t1,1,1", prog[i], kern[i], blk[i]
		split("ld st atom red", c, " ")
		for (j = 1; j <= 4; j++) { x = val[i, m "_op_" c[j] ".sum"]; printf "\t%s", x == "" || x == "n/a" ? "NA" : x }
		printf "\n"
	}
	if (nid != n) printf "triton_measure.sh: %d launches profiled, %d configurations\n", nid, n > "/dev/stderr"
}' "$out/manifest.tsv" "$out/ncu.csv" >"$out/counters.tsv"
for c in "$out"/ptx/*.cubin; do
	cuobjdump -sass "$c" 2>/dev/null | grep -E 'LDS|STS|ATOMS|LDSM|STSM|LDGSTS|REDS|UTMA|HGMMA|WGMMA|SYNCS' \
		>"$out/sass/$(basename "$c" .cubin).txt"
done
sh "$here/../scan_compare.sh" "$bankc" "$out/ptx" "$out/counters.tsv" "$out/manifest.tsv" >"$out/compare.tsv" 2>"$out/compare.err"
grep -v equal "$out/compare.tsv"
cat "$out/compare.err"

#!/bin/sh
# scan_compare.sh BANKC PTXDIR COUNTERS.tsv
#
# bankc scan's per-block predictions for every launch of
# tests/gpu/scan_kernels/manifest.tsv (scanning PTXDIR/PROGRAM.ptx) beside
# the counters scan_measure.sh wrote.  Prints one TSV row per launch and
# counter (program, kernel, counter, predicted, measured, verdict), then
#     scan counters: N compared, M differ, K launches not scanned
# Exit status: 0 when every counter measured equals its prediction.
# SCAN_FLAGS (environment) adds options to every scan (--no-vectorize).
[ $# -eq 3 ] || { echo "usage: scan_compare.sh BANKC PTXDIR COUNTERS.tsv" >&2; exit 2; }
bankc=$1 ptx=$2 meas=$3
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/pred.tsv"
unscanned=0
grep -v '^#' "$here/scan_kernels/manifest.tsv" >"$tmp/manifest"
while IFS="$(printf '\t')" read -r prog kern block opts; do
	# shellcheck disable=SC2086
	if "$bankc" scan "$ptx/$prog.ptx" --kernel "$kern" --block "$block" $opts ${SCAN_FLAGS:-} >"$tmp/k.out" 2>"$tmp/k.err"; then
		awk -v p="$prog" -v k="$kern" '
		$1 == "loads" { w["ld"] = $2 } $1 == "stores" { w["st"] = $2 }
		$1 == "atomics" { w["atom"] = $2 } $1 == "reductions" { w["red"] = $2 }
		END { printf "%s\t%s\t%d\t%d\t%d\t%d\n", p, k, w["ld"], w["st"], w["atom"], w["red"] }' \
			"$tmp/k.out" >>"$tmp/pred.tsv"
	else
		echo "not scanned: $prog $kern: $(head -n 1 "$tmp/k.err")" >&2
		unscanned=$((unscanned + 1))
	fi
done <"$tmp/manifest"
printf 'program\tkernel\tcounter\tpredicted\tmeasured\tverdict\n'
awk -F '\t' -v unscanned="$unscanned" '
FILENAME == ARGV[1] {
	if ($0 ~ /^#/) next
	if (!hdr) { for (j = 1; j <= NF; j++) col[$j] = j; hdr = 1; next }
	row[$1 "\t" $2] = $0
	next
}
{
	key = $1 "\t" $2
	if (!(key in row)) next
	split(row[key], r, "\t")
	n = split("ld st atom red", c, " ")
	for (j = 1; j <= n; j++) {
		m = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" c[j] ".sum"
		if (!(m in col) || r[col[m]] == "NA" || r[col[m]] == "") continue
		cmp++
		v = r[col[m]] + 0
		ok = v == $(2 + j) + 0
		if (!ok) diffs++
		printf "%s\t%s\t%s\t%d\t%d\t%s\n", $1, $2, c[j], $(2 + j), v, ok ? "equal" : "DIFFERS"
	}
}
END {
	printf "scan counters: %d compared, %d differ, %d launches not scanned\n", cmp, diffs, unscanned
	exit (diffs > 0 || unscanned > 0)
}' "$meas" "$tmp/pred.tsv"

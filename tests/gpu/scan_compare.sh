#!/bin/sh
# scan_compare.sh BANKC PTXDIR COUNTERS.tsv [MANIFEST [TOLERATED]]
#
# bankc scan's per-block predictions for every launch of MANIFEST (default
# tests/gpu/scan_kernels/manifest.tsv; scanning PTXDIR/PROGRAM.ptx) beside
# the counters scan_measure.sh wrote.  A measured kernel is matched by its
# PTX (mangled) name, or, in a table that names it as Nsight Compute
# demangles it ("void f<A>(int)"), by c++filt's demangling up to the '('.
# TOLERATED lists the rows (program, kernel, counter) that bankc cannot
# predict from the PTX (docs/validation.md): such a row may differ when
# the scan says so at the line (a loop whose trips depend on timing), or,
# where its fourth field is "varies", when the counter was measured to
# change from run to run of the same binary.
# Prints one TSV row per launch and counter (program, kernel, counter,
# predicted, measured, verdict: equal, DIFFERS, tolerated, or "in range"
# where the scan predicts a range LO..HI, for accesses that depend on
# data, and the counter is within it), then
#     scan counters: N compared, M differ, T tolerated, R within a predicted range, K launches not scanned, U measured launches not matched
# Exit status: 0 when no counter differs and every launch was scanned and
# matched.  SCAN_FLAGS (environment) adds options to every scan
# (--no-vectorize).
[ $# -ge 3 ] && [ $# -le 5 ] ||
	{ echo "usage: scan_compare.sh BANKC PTXDIR COUNTERS.tsv [MANIFEST [TOLERATED]]" >&2; exit 2; }
bankc=$1 ptx=$2 meas=$3
here=$(dirname "$0")
manifest=${4:-$here/scan_kernels/manifest.tsv}
tolerated=${5:-/dev/null}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/pred.tsv"
unscanned=0
grep -v '^#' "$manifest" >"$tmp/manifest"
tab=$(printf '\t')
while IFS="$tab" read -r prog kern block opts; do
	# shellcheck disable=SC2086
	if "$bankc" scan "$ptx/$prog.ptx" --kernel "$kern" --block "$block" $opts ${SCAN_FLAGS:-} >"$tmp/k.out" 2>"$tmp/k.err"; then
		dem=$(c++filt "$kern" 2>/dev/null | sed 's/(.*//')
		timing=0
		# the notes are diagnostics: on stderr
		grep -q 'whose trips depend on timing\|cannot tell how often this loop runs' \
			"$tmp/k.out" "$tmp/k.err" && timing=1
		# a counter's exact part, and the range of its accesses that
		# depend on data ("and up to N data-dependent instructions: LO to HI",
		# or "...: W wavefronts" where LO and HI are one)
		awk -v p="$prog" -v k="$kern" -v d="${dem:-$kern}" -v t="$timing" '
		$1 == "loads" { c = "ld" } $1 == "stores" { c = "st" }
		$1 == "atomics" { c = "atom" } $1 == "reductions" { c = "red" }
		$1 == "loads" || $1 == "stores" || $1 == "atomics" || $1 == "reductions" { w[c] = $2 }
		$1 == "and" && $2 == "up" { for (j = 1; j < NF; j++) if ($j ~ /^instructions?:$/) { lo[c] = $(j + 1); hi[c] = $(j + 2) == "to" ? $(j + 3) : $(j + 1) } }
		END { printf "%s\t%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", p, k, w["ld"], w["st"], w["atom"], w["red"], d, t,
		      lo["ld"], hi["ld"], lo["st"], hi["st"], lo["atom"], hi["atom"], lo["red"], hi["red"] }' \
			"$tmp/k.out" >>"$tmp/pred.tsv"
	else
		echo "not scanned: $prog $kern: $(head -n 1 "$tmp/k.err")" >&2
		unscanned=$((unscanned + 1))
	fi
done <"$tmp/manifest"
printf 'program\tkernel\tcounter\tpredicted\tmeasured\tverdict\n'
awk -F '\t' -v unscanned="$unscanned" '
FILENAME == ARGV[1] {
	if ($0 !~ /^#/ && NF >= 3) tol[$1 "\t" $2 "\t" $3] = $4 == "varies" ? 2 : 1
	next
}
FILENAME == ARGV[2] {
	if ($0 ~ /^#/) next
	if (!hdr) { for (j = 1; j <= NF; j++) col[$j] = j; hdr = 1; next }
	name = $2
	if (name !~ /^_Z/ && index(name, "(")) name = substr(name, 1, index(name, "(") - 1)
	row[$1 "\t" name] = $0
	nmeas++
	next
}
{
	key = $1 "\t" $2
	if (!(key in row)) key = $1 "\t" $7
	if (!(key in row)) next
	if (!(key in used)) { used[key] = 1; matched++ }
	split(row[key], r, "\t")
	n = split("ld st atom red", c, " ")
	for (j = 1; j <= n; j++) {
		m = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" c[j] ".sum"
		if (!(m in col) || r[col[m]] == "NA" || r[col[m]] == "") continue
		cmp++
		v = r[col[m]] + 0
		lo = $(2 + j) + $(7 + 2 * j); hi = $(2 + j) + $(8 + 2 * j)
		pred = lo == hi ? lo : lo ".." hi
		verdict = v == lo && lo == hi ? "equal" : v >= lo && v <= hi ? "in range" : "DIFFERS"
		if (verdict == "in range")
			ranged++
		t = $1 "\t" $2 "\t" c[j]
		if (verdict == "DIFFERS" && t in tol && ($8 == 1 || tol[t] == 2)) {
			verdict = "tolerated"
			tols++
		} else if (verdict == "DIFFERS") {
			diffs++
		}
		printf "%s\t%s\t%s\t%s\t%d\t%s\n", $1, $2, c[j], pred, v, verdict
	}
}
END {
	unmatched = nmeas - matched
	printf "scan counters: %d compared, %d differ, %d tolerated, %d within a predicted range, %d launches not scanned, %d measured launches not matched\n", cmp, diffs, tols, ranged, unscanned, unmatched
	exit (diffs > 0 || unscanned > 0 || unmatched > 0)
}' "$tolerated" "$meas" "$tmp/pred.tsv"

#!/usr/bin/env bash
# fix_validate.sh BANKC OUTDIR
#
# Do bankc scan's fixes hold?  For every launch of the validation
# kernels (tests/gpu/scan_kernels/manifest.tsv), scans its PTX with --fix;
# where that prints a diff (a padded declaration, or every indexing of an
# array rewritten), the diffs of the
# program are applied with patch to a copy of its source, the fixed
# program compiled again, and each fixed launch
#   - scanned again: its total (loads + stores + atomics + reductions,
#     wavefronts per block) must equal the promise, the unfixed total with
#     each fixed array's wavefronts replaced by what its note promised;
#   - with MEASURE=1 (the default where ncu is found), run once under
#     Nsight Compute (--clock-control none) as scan_measure.sh does: the
#     counters' sum must equal the promise too.
# Needs nvcc and patch; BANKC may be a prebuilt binary (no re2c, cmocka or
# make needed here).  Writes into OUTDIR:
#   fix_validation.tsv  program, kernel, block, before, promised, scanned,
#                       measured (NA unmeasured), verdict
#   fix_validation.md   the same as a Markdown table (docs/validation.md)
#   diffs/PROGRAM.diff  the diffs applied; fixed/ the fixed sources;
#   build.log, ncu.log, env.txt
# Exits non-zero when a row differs, or a build, a patch or a run failed.
# Environment: NVCC, NCU, ARCH (default sm_90), MEASURE (0 or 1), PTXDIR
# (the unfixed programs' PTX, compiled with the same flags, where a test
# has it already: only the fixed ones are compiled then).
set -uo pipefail

die() { echo "fix_validate.sh: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: fix_validate.sh BANKC OUTDIR" >&2; exit 2; }
bankc=$1 out=$2
case $bankc in /*) ;; *) bankc=$PWD/$bankc ;; esac
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.." || die "no repository root"
nvcc=${NVCC:-nvcc}
ncu=${NCU:-ncu}
arch=${ARCH:-sm_90}
src=tests/gpu/scan_kernels
command -v "$nvcc" >/dev/null || die "$nvcc not found"
command -v patch >/dev/null || die "patch not found"
[ -x "$bankc" ] || die "$bankc is no program"
if [ -z "${MEASURE:-}" ]; then
	MEASURE=0
	command -v "$ncu" >/dev/null && MEASURE=1
fi
[ "$MEASURE" = 1 ] && { command -v "$ncu" >/dev/null || die "$ncu (Nsight Compute) not found"; }
rm -rf "$out/diffs" "$out/fixed"
mkdir -p "$out/diffs" "$out/fixed/$src" || die "cannot create $out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "command: tests/gpu/fix_validate.sh $*"
	echo "bankc: $("$bankc" --version 2>&1 | head -n 1)"
	"$nvcc" --version | tail -n 1
	if [ "$MEASURE" = 1 ]; then
		nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
		"$ncu" --version | tail -n 1
	fi
} >"$out/env.txt"
: >"$out/build.log"
: >"$out/ncu.log"
"$bankc" build specs/templates.tile -o "$tmp/gen" >>"$out/build.log" 2>&1 || die "bankc build failed (build.log)"
flags=(-std=c++17 -O3 -lineinfo -arch="$arch" -Iruntime -I"$tmp/gen")

# The promise of one scan's text: its totals, each fixed array's
# wavefronts replaced by what the form --fix applies promised (a
# padding's own count; a rewrite's own count where it says one, else the
# best layout's).
promise() {
	awk '
	/^  (loads|stores|atomics|reductions) / { total += $2 }
	/note: .* takes [0-9]+ wavefronts per block/ {
		for (i = 1; i < NF; i++) if ($i == "takes") { cur = $(i + 1); break }
		v = $0; sub(/.*, takes /, "", v); sub(/,.*/, "", v); best = v }
	/bankc scan --fix prints the diff/ {
		v = best
		if ($0 ~ /note: padding (reaches it|helps) \(/) { v = $0; sub(/.*padding (reaches it|helps) \(/, "", v); sub(/ .*/, "", v) }
		else if ($0 ~ /\([0-9]+ wavefronts, /) { v = $0; sub(/[^(]*\(/, "", v); sub(/ .*/, "", v) }
		delta += v - cur }
	END { printf "%d %d\n", total, total + delta }' "$1"
}
total_of() { awk '/^  (loads|stores|atomics|reductions) / { t += $2 } END { print t + 0 }' "$1"; }

fail=0
tab=$(printf '\t')
grep -v '^#' "$src/manifest.tsv" >"$tmp/manifest"
: >"$tmp/rows"
for p in $(cut -f 1 "$tmp/manifest" | sort -u); do
	if [ -n "${PTXDIR:-}" ] && [ -f "$PTXDIR/$p.ptx" ]; then
		cp "$PTXDIR/$p.ptx" "$tmp/$p.ptx"
	else
		"$nvcc" "${flags[@]}" -ptx -o "$tmp/$p.ptx" "$src/$p.cu" >>"$out/build.log" 2>&1 ||
			{ echo "nvcc failed on $p (build.log)"; fail=1; continue; }
	fi
	: >"$tmp/$p.diff"
	: >"$tmp/$p.launches"
	while IFS="$tab" read -r prog kern block opts; do
		[ "$prog" = "$p" ] || continue
		# shellcheck disable=SC2086
		"$bankc" scan "$tmp/$p.ptx" --kernel "$kern" --block "$block" $opts --fix --source-dir "$src" \
			>"$tmp/d" 2>"$tmp/t" || continue
		[ -s "$tmp/d" ] || continue
		cat "$tmp/d" >>"$tmp/$p.diff"
		printf '%s\t%s\t%s\t%s\n' "$kern" "$block" "$(promise "$tmp/t")" "$opts" >>"$tmp/$p.launches"
	done <"$tmp/manifest"
	[ -s "$tmp/$p.diff" ] || continue
	# the diffs name the sources as scanned from here: tests/gpu/...
	if grep '^[-+][-+][-+] ' "$tmp/$p.diff" | grep -qv "^[-+][-+][-+] $src/"; then
		echo "the diff of $p names a file outside $src"
		fail=1
		continue
	fi
	cp "$tmp/$p.diff" "$out/diffs/$p.diff"
	cp "$src"/*.cu "$src"/*.cuh "$out/fixed/$src/"
	if ! (cd "$out/fixed" && patch -s -p0 <"$out/diffs/$p.diff") >>"$out/build.log" 2>&1; then
		echo "the diff of $p does not apply (build.log)"
		fail=1
		continue
	fi
	fixed=$out/fixed/$src/$p.cu
	"$nvcc" "${flags[@]}" -ptx -o "$tmp/$p.fixed.ptx" "$fixed" >>"$out/build.log" 2>&1 &&
		{ [ "$MEASURE" != 1 ] || "$nvcc" "${flags[@]}" -o "$tmp/$p.fixed" "$fixed" >>"$out/build.log" 2>&1; } ||
		{ echo "nvcc failed on the fixed $p (build.log)"; fail=1; continue; }
	if [ "$MEASURE" = 1 ]; then
		m=l1tex__data_pipe_lsu_wavefronts_mem_shared_op
		echo "== ncu $p (fixed)" >>"$out/ncu.log"
		timeout 120 "$ncu" --clock-control none --csv --print-units base \
			--metrics "${m}_ld.sum,${m}_st.sum" "$tmp/$p.fixed" >"$tmp/ncu.csv" 2>>"$out/ncu.log" ||
			{ echo "ncu failed on the fixed $p (ncu.log)"; fail=1; }
		grep -v '^"' "$tmp/ncu.csv" >>"$out/ncu.log"
		# per kernel (as ncu names it): the sum of the two counters
		awk -F '","' '
		{ sub(/^"/, ""); sub(/"\r?$/, "") }
		$1 == "ID" { for (k = 1; k <= NF; k++) col[$k] = k; next }
		"Kernel Name" in col { v = $col["Metric Value"]; gsub(/,/, "", v); sum[$col["Kernel Name"]] += v }
		END { for (k in sum) printf "%s\t%d\n", k, sum[k] }' "$tmp/ncu.csv" >"$tmp/$p.measured"
	fi
	while IFS="$tab" read -r kern block nums opts; do
		set -- $nums
		before=$1 promised=$2
		# shellcheck disable=SC2086
		# a partial total (a path that ran out of --max-steps) is no total
		if "$bankc" scan "$tmp/$p.fixed.ptx" --kernel "$kern" --block "$block" $opts \
			--source-dir "$out/fixed" >"$tmp/s" 2>&1; then
			scanned=$(total_of "$tmp/s")
		else
			scanned=unfinished
		fi
		measured=NA
		if [ "$MEASURE" = 1 ]; then
			dem=$(c++filt "$kern" 2>/dev/null | sed 's/(.*//')
			measured=$(awk -F '\t' -v k="$kern" -v d="${dem:-$kern}" '
				{ n = $1; if (n !~ /^_Z/ && index(n, "(")) n = substr(n, 1, index(n, "(") - 1)
				  sub(/^void /, "", n) }
				n == k || n == d { print $2; found = 1; exit }
				END { if (!found) print "NA" }' "$tmp/$p.measured")
		fi
		verdict=holds
		[ "$scanned" = "$promised" ] || verdict=DIFFERS
		[ "$measured" = NA ] || [ "$measured" = "$promised" ] || verdict=DIFFERS
		[ "$MEASURE" = 1 ] && [ "$measured" = NA ] && verdict=UNMEASURED
		[ "$verdict" = holds ] || fail=1
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$kern" "$block" "$before" "$promised" \
			"$scanned" "$measured" "$verdict" >>"$tmp/rows"
	done <"$tmp/$p.launches"
done
{
	printf 'program\tkernel\tblock\tbefore\tpromised\tscanned\tmeasured\tverdict\n'
	cat "$tmp/rows"
} >"$out/fix_validation.tsv"
awk -F '\t' 'NR == 1 { print "| program | kernel | block | before | promised | scanned after the diff | measured after the diff | |"
	print "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |"; next }
	{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
	"$out/fix_validation.tsv" >"$out/fix_validation.md"
column -t -s "$tab" "$out/fix_validation.tsv" 2>/dev/null || cat "$out/fix_validation.tsv"
rows=$(($(wc -l <"$out/fix_validation.tsv") - 1))
echo "== $rows fixed launches; results in $out"
[ "$rows" -gt 0 ] || { echo "no launch got a fix"; fail=1; }
[ "$fail" -eq 0 ]

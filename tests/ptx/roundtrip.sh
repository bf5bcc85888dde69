#!/bin/sh
# roundtrip.sh SCAN_BANKC SPEC_BANKC PTXDIR
#
# --emit-spec and compare, on every validation launch the scan predicts
# conflicts for: SCAN_BANKC scans PTXDIR/PROGRAM.ptx and writes a spec per
# shared array; SPEC_BANKC compares each.  The specs' row-major costs,
# summed over the kernel's arrays, must be the scan's predicted wavefronts
# (launches with cp.async, which compare costs as segments, are left out).
# Prints a line per array (row-major, chosen layout, its wavefronts, the
# bound, optimal or not), then "roundtrip: N passed, M failed[, K skipped]".
. "$(dirname "$0")/../lib.sh"
[ $# -eq 3 ] || { echo "usage: roundtrip.sh SCAN_BANKC SPEC_BANKC PTXDIR" >&2; exit 2; }
scan=$1 spec=$2 ptx=$3
if ! have python3; then
	skip "the round trip (python3 reads compare's JSON)"
	summary roundtrip
	exit
fi
grep -v '^#' tests/gpu/scan_kernels/manifest.tsv >"$tmp/manifest"
while IFS="$(printf '\t')" read -r prog kern block opts; do
	d=$tmp/$prog.$kern
	# shellcheck disable=SC2086
	"$scan" scan "$ptx/$prog.ptx" --kernel "$kern" --block "$block" $opts --json \
		--emit-spec "$d" >"$d.json" 2>"$d.err" || { bad "scan $prog $kern"; continue; }
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["kernels"][0]["totals"]
print(sum(t[c]["wavefronts"] for c in ("ld", "st", "atom", "red")),
      sum(t[c]["ideal"] for c in ("ld", "st", "atom", "red")), t["cp.async"]["instructions"])' \
		"$d.json" >"$d.tot"
	read -r pred ideal cpa <"$d.tot"
	if [ "$pred" -eq "$ideal" ] || [ "$cpa" -gt 0 ]; then
		continue    # conflict-free, or cp.async: not compared
	fi
	if ! "$spec" check "$d"/*.tile >"$d.check" 2>&1; then
		if grep -q "table\|let" "$d.check"; then
			skip "this bankc's spec language has no tables or lets"
			break
		fi
		bad "check of the specs of $kern"; head -n 5 "$d.check"
		continue
	fi
	"$spec" compare --json --top 1 "$d"/*.tile >"$d.cmp" 2>"$d.cmperr" ||
		{ bad "compare of the specs of $kern"; head -n 5 "$d.cmperr"; continue; }
	python3 -c '
import json, sys
rm = 0
for t in json.load(open(sys.argv[1]))["tiles"]:
    r = [b for b in t["baselines"] if b["name"] == "row-major"][0]["wavefronts"]
    c = t["chosen"]
    rm += r
    print("  %s: row-major %d, chosen %s %d, bound %d%s" % (t["name"], r, c["describe"],
          c["wavefronts"], t["aligned_bound"], ", optimal" if c["optimal"] else ", best found"))
print(rm)' "$d.cmp" >"$d.res"
	sed '$d' "$d.res"
	rm=$(tail -n 1 "$d.res")
	if [ "$rm" -eq "$pred" ]; then
		ok
	else
		bad "$kern: the specs cost $rm row-major, the scan predicted $pred"
	fi
done <"$tmp/manifest"
summary roundtrip

#!/bin/sh
# The bank model against every measured table in tests/data: each row's
# predicted wavefronts must equal the GPU's counters.  (scan_*.tsv are
# the counters of whole kernels, which tests/run_scan_kernels.sh compares.)
# usage: run_sim.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
for t in tests/data/*.tsv; do
	case ${t##*/} in scan_*) continue ;; esac
	if out=$("$bankc" sim --table "$t" 2>&1); then
		ok
		echo "$t: $(printf '%s\n' "$out" | tail -n 1)"
	else
		printf '%s\n' "$out" | grep -v ' ok$'
		bad "$t"
	fi
done
summary "measured tables"

#!/bin/sh
# The bank model against every measured table in tests/data: each row's
# predicted wavefronts must equal the GPU's counters.  (scan_*.tsv are
# the counters of whole kernels, which tests/run_scan.sh compares.)
# usage: run_sim.sh BANKC
bankc=${1:-./bankc}
pass=0 fail=0
for t in tests/data/*.tsv; do
	case ${t##*/} in scan_*) continue ;; esac
	if out=$("$bankc" sim --table "$t" 2>&1); then
		pass=$((pass + 1))
		echo "$t: $(printf '%s\n' "$out" | tail -n 1)"
	else
		fail=$((fail + 1))
		printf '%s\n' "$out" | grep -v ' ok$'
		echo "FAIL: $t"
	fi
done
echo "measured tables: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

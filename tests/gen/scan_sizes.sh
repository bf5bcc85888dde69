#!/bin/sh
# The time and memory of `bankc scan` on its worst inputs within its limits
# and on real kernels at their programs' sizes, for the tables of
# docs/scan.md and docs/robustness.md:
#
#     sh tests/gen/scan_sizes.sh BANKC [BEFORE [RUNS]]
#
# Each case runs RUNS times (default 5) under GNU time, BANKC and BEFORE
# (another bankc, e.g. one built from an older commit) alternating, and
# prints a Markdown row: the case, the scan's options, then per bankc the
# median of user + system CPU seconds with its range and the median max
# RSS; a scan that fails says so (its first error).  The validation
# kernels need nvcc (their cases are left out without it).
bankc=$1 before=${2:-} runs=${3:-5}
[ -x "$bankc" ] || { echo "usage: $0 BANKC [BEFORE [RUNS]]" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }
here=$PWD
case $bankc in /*) ;; *) bankc=$here/$bankc ;; esac
case $before in /* | '') ;; *) before=$here/$before ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
gen="sh $here/tests/gen/worst_scan.sh"
$gen insts 1048570 >"$tmp/insts.ptx"
$gen regs 1000 >"$tmp/regs.ptx"
$gen loop 1048575 >"$tmp/loop1m.ptx"
$gen loop 4000000 >"$tmp/loop4m.ptx"
$gen loop 100000000 >"$tmp/loopmax.ptx"
$gen branchy 100000000 >"$tmp/branchy.ptx"
$gen calls >"$tmp/calls.ptx"
$gen kernels 20 8192 >"$tmp/kernels.ptx"
$gen dense 100000000 >"$tmp/dense.ptx"
$gen barriers 100000000 >"$tmp/barriers.ptx"
$gen apart 900000 >"$tmp/apart.ptx"
$gen wide 60000 >"$tmp/wide.ptx"
cases="insts|insts.ptx --block 16
insts, JSON|insts.ptx --block 16 --no-vectorize --json
regs 1000|regs.ptx
loop 1048575|loop1m.ptx --block 1 --max-steps 1099511627776 --emit-spec $tmp/spec
loop 4000000|loop4m.ptx --block 1 --max-steps 1099511627776 --emit-spec $tmp/spec
loop 100000000|loopmax.ptx --block 1
branchy 100000000|branchy.ptx --block 1
branchy 100000000, 1024 threads|branchy.ptx --block 1024
calls|calls.ptx
kernels 20 8192|kernels.ptx --block 16 --no-vectorize --json
dense|dense.ptx --block 1024
barriers|barriers.ptx --block 1024
apart 900000|apart.ptx --block 32
wide 60000|wide.ptx --block 1024"
if command -v nvcc >/dev/null 2>&1; then
	"$bankc" build specs/templates.tile -o "$tmp/gen" >/dev/null 2>&1
	for p in sgemm_regblock attention tpl_sgemm; do
		nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -Iruntime -I"$tmp/gen" -ptx \
			-o "$tmp/$p.ptx" "tests/gpu/scan_kernels/$p.cu" >/dev/null 2>&1 ||
			echo "$0: nvcc failed on $p" >&2
	done
	cases="$cases
sgemm_regblock, K = 1024|sgemm_regblock.ptx --block 256 --param 2=1024
sgemm_regblock, K = 4096|sgemm_regblock.ptx --block 256 --param 2=4096
attention_row, n = 256|attention.ptx --block 32 --param 3=256
attention_row, n = 8192|attention.ptx --block 32 --param 3=8192
sgemm_tile<Sg8, 0>, 4096^3|tpl_sgemm.ptx --kernel _Z10sgemm_tileI3Sg8Li0EEviiiPKfS2_Pf --block 256 --param 0=4096 --param 1=4096 --param 2=4096"
fi

# one run: "CPU RSS" and, where the scan stopped or was refused, why
run1() {
	_b=$1
	shift
	# shellcheck disable=SC2086
	(cd "$tmp" && /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$_b" scan "$@" >"$tmp/out" 2>"$tmp/err")
	_rc=$?
	_why=
	if grep -q 'error: thread .* ran past' "$tmp/err"; then _why="stopped at --max-steps"
	elif [ $_rc != 0 ]; then _why="refused: $(grep -m 1 'error' "$tmp/err" | sed 's/^.*error: //' | cut -c1-48)"
	fi
	# GNU time writes "Command exited with non-zero status N" first
	tail -n 1 "$tmp/time" | awk -v w="$_why" '{ printf "%.2f %d %s\n", $1 + $2, $3, w }' 
}

# the median, least and most of the numbers on standard input
stats() {
	sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s %s %s", m, v[1], v[NR] }'
}

cell() {    # cell FILE: "median s [min, max], median RSS MiB" of its runs
	_why=$(head -n 1 "$1" | cut -d' ' -f3-)
	set -- $(cut -d' ' -f1 "$1" | stats) $(cut -d' ' -f2 "$1" | stats)
	awk -v m="$1" -v lo="$2" -v hi="$3" -v r="$4" -v w="$_why" \
		'BEGIN { printf "%.2f s [%.2f, %.2f], %.0f MiB%s", m, lo, hi, r / 1024, w == "" ? "" : " (" w ")" }'
}

if [ -n "$before" ]; then
	echo "| case | options | before | after |"
	echo "|---|---|---|---|"
else
	echo "| case | options | CPU, max RSS |"
	echo "|---|---|---|"
fi
echo "$cases" | while IFS='|' read -r name args; do
	: >"$tmp/a" && : >"$tmp/b"
	i=0
	while [ $i -lt "$runs" ]; do
		# shellcheck disable=SC2086
		[ -n "$before" ] && run1 "$before" $args >>"$tmp/b"
		# shellcheck disable=SC2086
		run1 "$bankc" $args >>"$tmp/a"
		i=$((i + 1))
	done
	shown=$(echo "$args" | sed "s|$tmp/||g")
	if [ -n "$before" ]; then
		echo "| $name | \`$shown\` | $(cell "$tmp/b") | $(cell "$tmp/a") |"
	else
		echo "| $name | \`$shown\` | $(cell "$tmp/a") |"
	fi
done

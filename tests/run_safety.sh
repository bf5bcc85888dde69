#!/bin/sh
# bankc scan's shared-memory correctness findings:
#
#   1. the planted bugs of tests/safety/*.cu, compiled with nvcc -ptx
#      -lineinfo into BUILD/safety (skipped where nvcc is missing, a
#      failure in CI): each file's "// scan: ARGS" scans it, and its
#      findings (errors and warnings of -Wshared-race, -Wshared-bounds,
#      -Wshared-align, -Wbarrier-divergence: "LINE FLAG LEVEL [OTHER]",
#      OTHER the line of the note "the other access/barrier is here") must
#      be exactly its "// expect: KERNEL LINE FLAG LEVEL [OTHER]" lines:
#      every bug at its line, and no finding on the fixed kernels beside
#      them (nor on one whose finding `bankc: allow` accepts);
#   2. -Wno-NAME and --baseline accept them (status 0), --json lists them
#      as "findings", --dynamic-shared is checked;
#   3. no finding on the validation kernels (tests/gpu/scan_kernels/, as
#      manifest.tsv launches them): correct kernels stay silent;
#   4. tests/gpu/sanitize_check.sh parses (it runs on a GPU only).
#
#     sh tests/run_safety.sh BANKC [BUILD]
#
# Prints a line per failure, then "safety: N passed, M failed[, K skipped]".
. "$(dirname "$0")/lib.sh"
bankc=$1
build=${2:-build}
[ -x "$bankc" ] || { echo "usage: $0 BANKC [BUILD]" >&2; exit 2; }

findings() {    # findings STDERR: "LINE FLAG LEVEL [OTHER]" per finding, sorted
	awk '
	function flush() { if (cur != "") print cur (other != "" ? " " other : ""); cur = ""; other = "" }
	/^[^ ].*:[0-9]+:[0-9]+: (error|warning): .*\[-W(shared-race|shared-bounds|shared-align|barrier-divergence)\]$/ {
		flush()
		n = split($0, p, ":")
		lvl = $0; sub(/^[^ ]*:[0-9]+:[0-9]+: /, "", lvl); sub(/:.*/, "", lvl)
		fl = $0; sub(/.*\[-W/, "", fl); sub(/\]$/, "", fl)
		cur = p[2] " " fl " " lvl
		next
	}
	/^[^ ].*:[0-9]+:[0-9]+: note: the other (access|barrier) is here$/ {
		if (cur != "" && other == "") { split($0, p, ":"); other = p[2] }
		next
	}
	/^[^ ].*:[0-9]+:[0-9]+: (error|warning): / { flush() }
	END { flush() }' "$1" | sort
}

if ! have nvcc; then
	missing "the planted bugs (no nvcc)"
else
	out=$build/safety
	mkdir -p "$out"
	for cu in tests/safety/*.cu; do
		p=$(basename "$cu" .cu)
		ptx=$out/$p.ptx
		if [ ! -f "$ptx" ] || [ "$cu" -nt "$ptx" ] || [ tests/safety/safety.cuh -nt "$ptx" ]; then
			nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -ptx -o "$ptx.tmp" "$cu" >"$tmp/nvcc.log" 2>&1 &&
				mv "$ptx.tmp" "$ptx" || { bad "nvcc -ptx $cu"; indent <"$tmp/nvcc.log"; continue; }
		fi
		args=$(sed -n 's|^// scan: ||p' "$cu")
		# shellcheck disable=SC2086
		"$bankc" scan "$ptx" $args --source-dir tests/safety >"$tmp/out" 2>"$tmp/err"
		st=$?
		findings "$tmp/err" >"$tmp/got"
		sed -n 's|^// expect: [^ ]* ||p' "$cu" | sort >"$tmp/want"
		if [ ! -s "$tmp/want" ]; then
			bad "$cu expects no finding: a planted-bug file without its expect lines"
		elif cmp -s "$tmp/want" "$tmp/got"; then
			ok
		else
			bad "$cu: the findings differ from its expect lines (- expected, + found)"
			diff "$tmp/want" "$tmp/got" | grep '^[<>]' | sed 's/^</-/; s/^>/+/' | indent
		fi
		# errors fail the scan
		if grep -q ' error' "$tmp/want"; then
			[ "$st" -eq 1 ] && ok || bad "$cu: status $st with errors found, not 1"
		fi
	done

	# 2. flags, JSON, options
	r=$out/races.ptx
	if [ -f "$r" ]; then
		"$bankc" scan "$r" --block 128 --source-dir tests/safety -Wno-shared-race >"$tmp/out" 2>"$tmp/err"
		st=$?
		if [ "$st" -eq 0 ] && ! grep -q 'shared-race' "$tmp/err"; then ok; else
			bad "-Wno-shared-race: status $st, or a race still said"; head -n 3 "$tmp/err" | indent; fi
		# --baseline: an earlier run's errors are known by file, line and flag
		"$bankc" scan "$r" --block 128 --source-dir tests/safety >/dev/null 2>"$tmp/known"
		"$bankc" scan "$r" --block 128 --source-dir tests/safety --baseline "$tmp/known" \
			>"$tmp/out" 2>"$tmp/err"
		st=$?
		if [ "$st" -eq 0 ] && grep -q 'shared-race' "$tmp/known" && ! grep -q 'shared-race' "$tmp/err"; then
			ok
		else
			bad "--baseline: status $st, or a known race said again"
		fi
		"$bankc" scan "$r" --block 128 --kernel missing_sync_bug --json >"$tmp/j" 2>/dev/null
		if grep -q '"findings": \[' "$tmp/j" && grep -q '"kind": "shared-race"' "$tmp/j" &&
			grep -q '"level": "error"' "$tmp/j" && grep -q '"other_thread": 32' "$tmp/j"; then ok; else
			bad "--json: no findings array with the race of missing_sync_bug"; fi
		"$bankc" scan "$r" --block 128 --kernel missing_sync_fixed --json >"$tmp/j" 2>/dev/null
		if grep -q '"findings": \[\]' "$tmp/j"; then ok; else bad "--json: findings on missing_sync_fixed"; fi
	fi
	"$bankc" scan "$out/bounds.ptx" --block 32,8 --dynamic-shared x >"$tmp/out" 2>"$tmp/err"
	if [ $? -eq 2 ] && grep -q -- '--dynamic-shared takes' "$tmp/err"; then ok; else
		bad "--dynamic-shared x: not a usage error"; fi
	# without --dynamic-shared an extern array's end is the launch's: not known, not said
	"$bankc" scan "$out/bounds.ptx" --block 32,8 --kernel dynamic_past_bug >"$tmp/out" 2>"$tmp/err"
	if ! grep -q 'shared-bounds' "$tmp/err"; then ok; else
		bad "an extern array checked without --dynamic-shared"; fi

	# 3. the validation kernels: no finding
	gen=$build/scan-gen ptx=$build/scan-ptx
	mkdir -p "$gen" "$ptx"
	[ -f "$gen/.built" ] || { "$bankc" build specs/templates.tile -o "$gen" >/dev/null 2>&1 && : >"$gen/.built"; }
	for cu in tests/gpu/scan_kernels/*.cu; do
		p=$(basename "$cu" .cu)
		o=$ptx/$p.ptx
		if [ ! -f "$o" ] || [ "$cu" -nt "$o" ] || [ tests/gpu/scan_kernels/scan_kernel.cuh -nt "$o" ]; then
			nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -Iruntime -I"$gen" -ptx -o "$o.tmp" "$cu" \
				>"$tmp/nvcc.log" 2>&1 && mv "$o.tmp" "$o" || { bad "nvcc -ptx $cu"; indent <"$tmp/nvcc.log"; }
		fi
	done
	grep -v '^#' tests/gpu/scan_kernels/manifest.tsv | while IFS="$(printf '\t')" read -r prog kern block opts; do
		# shellcheck disable=SC2086
		"$bankc" scan "$ptx/$prog.ptx" --kernel "$kern" --block "$block" $opts >/dev/null 2>"$tmp/k.err"
		findings "$tmp/k.err" | sed "s|^|$prog $kern: |"
	done >"$tmp/kern.txt"
	if [ -s "$tmp/kern.txt" ]; then
		bad "findings on the validation kernels, which are correct (a false positive, or a bug to fix):"
		indent <"$tmp/kern.txt"
	else
		ok
	fi
fi
# the GPU script (tests/gpu/sanitize_check.sh) at least parses
if have bash && bash -n tests/gpu/sanitize_check.sh; then ok; else bad "tests/gpu/sanitize_check.sh does not parse"; fi
summary safety

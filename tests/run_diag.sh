#!/bin/sh
# Diagnostics as compilers give them: more than one error a file, the
# error limit (-fmax-errors), colour (-fdiagnostics-color, NO_COLOR) and
# the SARIF log (--sarif FILE), validated against the project's schema of
# the SARIF 2.1.0 it writes (docs/schema/sarif.json) with python3's
# jsonschema.
# usage: run_diag.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
multi=tests/bad/multi_errors.tile
esc=$(printf '\033')

# same WANT GOT WHAT: the two files are the same
same() {
	if cmp -s "$1" "$2"; then ok; else bad "$3 differ:"; diff -u "$1" "$2" | head -n 20 | indent; fi
}

# count N PATTERN FILE: FILE has N lines matching PATTERN
count() {
	n=$(grep -c -- "$2" "$3")
	[ "$n" -eq "$1" ] && ok || bad "$3: $n lines of '$2', expected $1"
}

# ---- more than one error, and the limit
"$bankc" check "$multi" 2>"$tmp/all"; st=$?
[ $st -eq 1 ] && ok || bad "check $multi: status $st"
count 7 ": error: " "$tmp/all"
"$bankc" check -fmax-errors=3 "$multi" 2>"$tmp/three"; st=$?
[ $st -eq 1 ] && ok || bad "-fmax-errors=3: status $st"
count 3 ": error: " "$tmp/three"
count 1 "^bankc: compilation terminated due to -fmax-errors=3\.$" "$tmp/three"
"$bankc" check -fmax-errors=0 "$multi" 2>"$tmp/nolimit"
cmp -s "$tmp/all" "$tmp/nolimit" && ok || bad "-fmax-errors=0 is not 'no limit'"
# the limit is a file's: the next file is read afresh
"$bankc" check -fmax-errors=2 "$multi" tests/bad/row_outside.tile 2>"$tmp/two"
count 3 ": error: " "$tmp/two"
count 1 "^tests/bad/row_outside.tile:6:15: error:" "$tmp/two"
"$bankc" check -fmax-errors=x "$multi" 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "fmax-errors takes 0 (no limit) to 1000000, not 'x'" "$tmp/err" &&
	ok || bad "-fmax-errors=x: status $st, $(head -n 1 "$tmp/err")"

# ---- colour: gcc's escapes, only where asked for or on a terminal
"$bankc" check -fdiagnostics-color=always tests/bad/row_outside.tile 2>"$tmp/c"
grep -q "^${esc}\[01m${esc}\[Ktests/bad/row_outside.tile:6:15:${esc}\[m${esc}\[K ${esc}\[01;31m${esc}\[Kerror:${esc}\[m${esc}\[K access" "$tmp/c" &&
	ok || bad "-fdiagnostics-color=always: no colour: $(head -n 1 "$tmp/c" | od -c | head -n 2)"
grep -q "${esc}\[01;32m${esc}\[K^" "$tmp/c" && ok || bad "the caret is not green"
"$bankc" check -fdiagnostics-color tests/bad/row_outside.tile 2>"$tmp/c2"
cmp -s "$tmp/c" "$tmp/c2" && ok || bad "-fdiagnostics-color is not =always"
for opt in -fdiagnostics-color=never -fno-diagnostics-color -fdiagnostics-color=auto; do
	"$bankc" check $opt tests/bad/row_outside.tile 2>"$tmp/n"
	cmp -s "$tmp/n" tests/bad/row_outside.err && ok || bad "$opt: not plain text"
done
"$bankc" check -fdiagnostics-color=sometimes x.tile 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "takes auto, always or never, not 'sometimes'" "$tmp/err" &&
	ok || bad "-fdiagnostics-color=sometimes: status $st"
"$bankc" check -fcolour x.tile 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "unknown option '-fcolour' for check" "$tmp/err" &&
	ok || bad "-fcolour: status $st, $(head -n 1 "$tmp/err")"
# auto on a terminal (script(1) gives one): colour, unless NO_COLOR or
# TERM=dumb
if have script; then
	tty_run() { script -qec "$*" /dev/null </dev/null >"$tmp/tty" 2>&1; }
	TERM=xterm tty_run "$bankc" check tests/bad/row_outside.tile
	grep -q "${esc}\[01;31m" "$tmp/tty" && ok || bad "auto on a terminal: no colour"
	NO_COLOR=1 TERM=xterm tty_run "$bankc" check tests/bad/row_outside.tile
	grep -q "$esc" "$tmp/tty" && bad "NO_COLOR: coloured" || ok
	TERM=dumb tty_run "$bankc" check tests/bad/row_outside.tile
	grep -q "$esc" "$tmp/tty" && bad "TERM=dumb: coloured" || ok
	NO_COLOR=1 TERM=xterm tty_run "$bankc" check -fdiagnostics-color=always tests/bad/row_outside.tile
	grep -q "${esc}\[01;31m" "$tmp/tty" && ok || bad "NO_COLOR overrode =always"
else
	skip "colour on a terminal (no script(1))"
fi
# scan's warnings and notes are coloured the same way
"$bankc" scan -fdiagnostics-color=always tests/ptx/transpose.ptx --block 32,8 \
	>"$tmp/scan" 2>&1
grep -q "${esc}\[01;35m${esc}\[Kwarning:" "$tmp/scan" && ok || bad "scan: warning not coloured"

# ---- --sarif FILE: each diagnostic a result at its place
# results SARIF: "LEVEL RULE URI:LINE:COL" per result, then the rules
results() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0"
run = d["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
for r in run["results"]:
    assert rules[r["ruleIndex"]] == r["ruleId"], r
    loc = r.get("locations", [{}])[0].get("physicalLocation", {})
    reg = loc.get("region", {})
    print(r["level"], r["ruleId"], "%s:%s:%s" % (loc.get("artifactLocation", {}).get("uri"),
          reg.get("startLine"), reg.get("startColumn")))
print("rules", " ".join(rules), "exit", run["invocations"][0]["exitCode"])' "$1"
}
if have python3; then
	"$bankc" check --sarif "$tmp/m.sarif" "$multi" 2>"$tmp/err"
	results "$tmp/m.sarif" >"$tmp/got"
	sed -n 's/^\([^ ]*\):\([0-9]*\):\([0-9]*\): error: .*/error spec-error \1:\2:\3/p' "$tmp/err" >"$tmp/want"
	echo "rules spec-error exit 1" >>"$tmp/want"
	same "$tmp/want" "$tmp/got" "check --sarif: the results and the errors"
	# scan's warnings at their source lines; a build gate; no layout
	"$bankc" scan --sarif "$tmp/s.sarif" tests/ptx/transpose.ptx --block 32,8 \
		--source-dir tests/gpu/scan_kernels >"$tmp/out" 2>&1
	results "$tmp/s.sarif" >"$tmp/got"
	sed -n 's/^\([^ ]*\):\([0-9]*\):\([0-9]*\): warning: .*/warning bank-conflict \1:\2:\3/p' "$tmp/out" >"$tmp/want"
	echo "rules bank-conflict exit 0" >>"$tmp/want"
	[ "$(wc -l <"$tmp/want")" -gt 1 ] && ok || bad "scan printed no warning"
	same "$tmp/want" "$tmp/got" "scan --sarif: the results and the warnings"
	"$bankc" build --sarif "$tmp/g.sarif" --search-budget 1 --require-optimal specs/kernels.tile -o "$tmp/gate" 2>/dev/null
	results "$tmp/g.sarif" >"$tmp/r"; grep -q "^error build-gate specs/kernels.tile:[0-9]*:[0-9]*$" "$tmp/r" && ok ||
		bad "build's gate: no build-gate result"
	"$bankc" compare --sarif "$tmp/n.sarif" tests/data/no_layout.tile >/dev/null 2>&1
	results "$tmp/n.sarif" >"$tmp/r"; grep -q "^error no-layout tests/data/no_layout.tile:3:6$" "$tmp/r" && ok ||
		bad "compare: no no-layout result"
	# names percent-encoded, relative to the working folder; standard
	# input a place of its own ("<stdin>"); a clean run has no results
	cp tests/bad/row_outside.tile "$tmp/a b%.tile"
	(cd "$tmp" && "$OLDPWD/$bankc" check --sarif s.sarif "$tmp/a b%.tile" 2>/dev/null)
	results "$tmp/s.sarif" >"$tmp/r"; grep -q "^error spec-error a%20b%25.tile:6:15$" "$tmp/r" && ok ||
		bad "a file name in a URI: $(results "$tmp/s.sarif" | head -n 1)"
	"$bankc" check --sarif "$tmp/i.sarif" - <tests/bad/row_outside.tile 2>/dev/null
	results "$tmp/i.sarif" >"$tmp/r"; grep -q "^error spec-error %3Cstdin%3E:6:15$" "$tmp/r" && ok ||
		bad "standard input: $(results "$tmp/i.sarif" | head -n 1)"
	"$bankc" check --sarif "$tmp/c.sarif" specs/seeds.tile
	[ "$(results "$tmp/c.sarif")" = "rules  exit 0" ] && ok || bad "a clean run: $(results "$tmp/c.sarif")"
	# --- what GitHub code scanning needs of each result (tests/sarif_github.py
	# checks the rules; run_schema.sh over every log)
	# fld SARIF EXPR: a python expression over r (each result), one line each
	fld() {
		python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    print(eval(sys.argv[2]))' "$1" "$2"
	}
	kern="tests/ptx/transpose.ptx --block 32,8 --source-dir tests/gpu/scan_kernels"
	# a name of any bytes: each byte not unreserved percent-encoded, a
	# Latin-1 one as %XX, UTF-8 as its bytes
	name=$(printf '\351t\303\251.tile')
	cp tests/bad/row_outside.tile "$tmp/$name"
	(cd "$tmp" && "$OLDPWD/$bankc" check --sarif l1.sarif "$name" 2>/dev/null)
	[ "$(fld "$tmp/l1.sarif" 'r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]')" = \
		"%E9t%C3%A9.tile" ] && ok || bad "a Latin-1 name's URI: $(fld "$tmp/l1.sarif" 'r["locations"]')"
	# the gate's error at the kernel's line, with a region
	"$bankc" scan --sarif "$tmp/gate.sarif" $kern --max-excess 0 >/dev/null 2>&1
	fld "$tmp/gate.sarif" 'r["ruleId"], r["locations"][0]["physicalLocation"]["region"].get("startLine"), r["locations"][0]["physicalLocation"]["region"].get("startColumn")' >"$tmp/r"
	grep -q "^('scan-gate', 9, 28)$" "$tmp/r" && ok ||
		bad "scan-gate: not at the kernel's line: $(head -n 1 "$tmp/r")"
	# the declaration as a related location of the bank conflict
	fld "$tmp/gate.sarif" 'r["ruleId"], [(l["physicalLocation"]["region"]["startLine"], l["message"]["text"]) for l in r.get("relatedLocations", [])]' >"$tmp/r"
	grep -q "^('bank-conflict', \[(11, \"'tile' (4096 bytes) is declared here\")\])$" "$tmp/r" && ok ||
		bad "bank-conflict: no declaration among its related locations: $(cat "$tmp/r")"
	# a launch refused: at the kernel's line too
	"$bankc" scan --sarif "$tmp/l.sarif" tests/ptx/transpose.ptx --source-dir tests/gpu/scan_kernels >/dev/null 2>&1
	fld "$tmp/l.sarif" 'r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]' | sort -u >"$tmp/r"
	grep -q "^('scan-launch', 9)$" "$tmp/r" && ok || bad "scan-launch: $(cat "$tmp/r")"
	# the fix: its replacements make what --fix's diff makes (patch -p0)
	if have patch; then
		for args in "$kern --kernel transpose_naive" "tests/ptx/fix.ptx --block 32"; do
			# shellcheck disable=SC2086
			"$bankc" scan --sarif "$tmp/f.sarif" $args --fix >"$tmp/f.diff" 2>/dev/null
			python3 tests/sarif_fix_apply.py "$tmp/f.sarif" "$tmp/f.diff" >"$tmp/r" 2>&1 && ok ||
				bad "scan $args: $(cat "$tmp/r")"
		done
	else
		skip "SARIF fixes against --fix's diff (no patch)"
	fi
	# accepted warnings: suppressed in the log with --sarif-suppressed
	# (inSource for the comment, external for -Wno and the baseline),
	# left out without it (GitHub code scanning shows suppressed results
	# as alerts: docs/sarif.md)
	sup() {
		# shellcheck disable=SC2086
		"$bankc" scan --sarif "$tmp/x.sarif" --sarif-suppressed $2 >/dev/null 2>&1
		fld "$tmp/x.sarif" '[s["kind"] for s in r.get("suppressions", [])]' | sort | uniq -c |
			awk '{$1 = $1; print}' | tr '\n' ';' >"$tmp/r"
		[ "$(cat "$tmp/r")" = "$1" ] && ok || bad "suppressions of scan $2: $(cat "$tmp/r"), expected $1"
		# shellcheck disable=SC2086
		"$bankc" scan --sarif "$tmp/y.sarif" $2 >/dev/null 2>&1
		[ "$(fld "$tmp/y.sarif" '"suppressions" in r' | grep -c True)" -eq 0 ] && ok ||
			bad "scan $2 without --sarif-suppressed: suppressed results"
	}
	sup "1 ['external'];" "$kern -Wno-bank-conflict"
	sup "1 ['inSource'];2 [];" "tests/ptx/allow.ptx --block 32,8 --max-excess 0"
	sup "1 ['external'];" "$kern --baseline tests/ptx/transpose.baseline"
	"$bankc" build --sarif "$tmp/u.sarif" --sarif-suppressed -Wno-unproven --search-budget 1 \
		specs/kernels.tile -o "$tmp/u" 2>"$tmp/err"
	fld "$tmp/u.sarif" 'r["ruleId"], r["suppressions"][0]["justification"]' | sort -u >"$tmp/r"
	[ "$(cat "$tmp/r")" = "('unproven', '-Wno-unproven on the command line')" ] &&
		! grep -q "warning:" "$tmp/err" && ok || bad "build -Wno-unproven: $(cat "$tmp/r")"
	# fingerprints: the same results a line down (the spec with a line
	# more at its top) keep theirs; so does a file named ./k.tile; two
	# results never share one
	mkdir -p "$tmp/fa" "$tmp/fb"
	cp "$multi" "$tmp/fa/k.tile"
	{ echo "# a line more"; cat "$multi"; } >"$tmp/fb/k.tile"
	(cd "$tmp/fa" && "$OLDPWD/$bankc" check --sarif ../o.sarif k.tile 2>/dev/null
	 "$OLDPWD/$bankc" check --sarif ../d.sarif ./k.tile 2>/dev/null)
	(cd "$tmp/fb" && "$OLDPWD/$bankc" check --sarif ../s.sarif k.tile 2>/dev/null)
	for f in o d s; do
		fld "$tmp/$f.sarif" 'r["partialFingerprints"]["bankc/v1"]' >"$tmp/f$f"
		fld "$tmp/$f.sarif" 'r["locations"][0]["physicalLocation"]["region"]["startLine"]' >"$tmp/l$f"
	done
	[ "$(wc -l <"$tmp/fo")" -gt 1 ] && [ "$(sort -u "$tmp/fo" | wc -l)" -eq "$(wc -l <"$tmp/fo")" ] &&
		ok || bad "two results, one fingerprint: $(cat "$tmp/fo")"
	awk '{ print $1 + 1 }' "$tmp/lo" | cmp -s - "$tmp/ls" && ok ||
		bad "the shifted spec's results are not one line down"
	cmp -s "$tmp/fo" "$tmp/fs" && ok || bad "fingerprints change with the lines: $(paste "$tmp/fo" "$tmp/fs")"
	cmp -s "$tmp/fo" "$tmp/fd" && ok || bad "fingerprints of k.tile and ./k.tile differ"
	# URIs: no ".." under %SRCROOT%; outside the working folder a file: URI
	(cd tests && "../$bankc" check --sarif "$tmp/p.sarif" ../tests/bad/row_outside.tile 2>/dev/null)
	fld "$tmp/p.sarif" 'r["locations"][0]["physicalLocation"]["artifactLocation"]' >"$tmp/r"
	[ "$(cat "$tmp/r")" = "{'uri': 'bad/row_outside.tile', 'uriBaseId': '%SRCROOT%'}" ] && ok ||
		bad "a path with .. under the working folder: $(cat "$tmp/r")"
	(cd tests/ptx && "../../$bankc" check --sarif "$tmp/p.sarif" ../bad/row_outside.tile 2>/dev/null)
	fld "$tmp/p.sarif" 'r["locations"][0]["physicalLocation"]["artifactLocation"]' >"$tmp/r"
	[ "$(cat "$tmp/r")" = "{'uri': 'file://$(pwd)/tests/bad/row_outside.tile'}" ] && ok ||
		bad "a path outside the working folder: $(cat "$tmp/r")"
else
	missing "the SARIF results (no python3)"
fi
# --sarif never replaces a file the command read or wrote (as -MF is
# refused): an input, by any name, or a build's output
cp tests/bad/row_outside.tile "$tmp/in.tile"
ln -s in.tile "$tmp/link.tile"
for target in "$tmp/in.tile" "$tmp/link.tile"; do
	"$bankc" check --sarif "$target" "$tmp/in.tile" 2>"$tmp/err"; st=$?
	[ $st -eq 1 ] && cmp -s "$tmp/in.tile" tests/bad/row_outside.tile &&
		grep -q "would replace a file the command read or wrote" "$tmp/err" && ok ||
		bad "--sarif $target over the input: status $st"
done
"$bankc" build specs/seeds.tile -o "$tmp/bout" 2>/dev/null
out=$(ls "$tmp"/bout/*.cuh | head -n 1)
cp "$out" "$tmp/before.cuh"
"$bankc" build --sarif "$out" specs/seeds.tile -o "$tmp/bout" 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && cmp -s "$out" "$tmp/before.cuh" && ok || bad "--sarif over a build's output: status $st"
cp tests/ptx/transpose.ptx "$tmp/t.ptx"
"$bankc" scan --sarif "$tmp/t.ptx" "$tmp/t.ptx" --block 32,8 >/dev/null 2>&1; st=$?
[ $st -eq 1 ] && cmp -s "$tmp/t.ptx" tests/ptx/transpose.ptx && ok || bad "--sarif over scan's PTX: status $st"
# --sarif written whole or not at all: a target that cannot be replaced
# (a folder) leaves it as it was and no temporary beside it
mkdir -p "$tmp/dir.sarif"
"$bankc" check --sarif "$tmp/dir.sarif" tests/bad/row_outside.tile 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && [ -d "$tmp/dir.sarif" ] && ! ls "$tmp"/dir.sarif.tmp.* >/dev/null 2>&1 &&
	grep -q "cannot write '$tmp/dir.sarif'" "$tmp/err" && ok || bad "--sarif onto a folder: status $st"
"$bankc" check --sarif "$tmp/no/such/dir.sarif" specs/seeds.tile 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && grep -q "cannot write '$tmp/no/such/dir.sarif'" "$tmp/err" && ok ||
	bad "an unwritable --sarif: status $st"

summary diag

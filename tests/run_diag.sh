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

summary diag

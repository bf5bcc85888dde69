#!/bin/sh
# The docs against the program, so that they cannot drift apart:
#   - the commands of `bankc --help` are the man page's (SYNOPSIS and
#     COMMANDS) and the README's (its Commands block), and no others;
#   - the options of --help and of each `bankc COMMAND --help` are the man
#     page's (SYNOPSIS, and the entries of COMMANDS and OPTIONS), and no
#     others; the README's Commands section has those of --help and none
#     the commands lack; each command's options on its line of --help are
#     on its SYNOPSIS line;
#   - every word of the spec language, as the program lists it (the hidden
#     `bankc words`: keys, element types, architectures, transforms,
#     operations, statements, ...), is in the language reference, the man
#     page's THE SPEC LANGUAGE; and the lists of element types,
#     architectures and operations there are exactly the program's;
#   - the example tiles of the man page and of the README's short
#     overview (The spec language) are specs `bankc check` accepts, and
#     every word the overview gives as code is one of the language's (a
#     word of `bankc words`, or one its example uses); a span that is a
#     command (`man ...`, `make ...`, `bankc ...`) is not words;
#   - the comparison table of docs/solver.md is `bankc compare --json
#     specs/*.tile` rendered (tests/docs/comparison_table.c);
#   - the man page renders without a warning.
# usage: run_docs.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
man=docs/bankc.1
readme=README.md
solver=docs/solver.md

# roff source as plain text: font escapes, \- and the like resolved,
# request names and quotes dropped.
roff_text() {
	sed -e 's/\\f[BIRP]//g; s/\\-/-/g; s/\\(aq/'"'"'/g; s/\\(dq/"/g; s/\\&//g' \
		-e 's/^\.[A-Z][A-Z]* *//; s/"//g' "$@"
}
# man_section NAME: the roff lines of section NAME, up to the next .SH
man_section() {
	awk -v want="$1" '/^\.SH/ { s = $0; sub(/^\.SH +/, "", s); gsub(/"/, "", s); on = (s == want); next } on' "$man"
}
# tags: the line after each .TP (an entry's tag) of roff on stdin
tags() { awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }'; }
# readme_section TITLE: the lines under "## TITLE", up to the next "## "
readme_section() {
	awk -v want="## $1" '/^## / { on = ($0 == want); next } on' "$readme"
}
# options: every -x / --xyz of the text on stdin, one a line (-oDIR, a
# short option with its value glued on, is -o)
options() {
	grep -oE '(^|[][ |,(`])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[^-]*//' |
		sed 's/^\(-[a-z]\)[A-Z][A-Z]*$/\1/' | sort -u
}
# same WHAT A B: the lines of files A and B are the same set
same() {
	if cmp -s "$2" "$3"; then ok; return; fi
	missing=$(comm -23 "$2" "$3" | tr '\n' ' ')
	extra=$(comm -13 "$2" "$3" | tr '\n' ' ')
	bad "$1: ${missing:+missing: $missing}${extra:+ not in the program: $extra}"
}

if ! "$bankc" --help >"$tmp/help" 2>&1; then
	bad "bankc --help"
fi

# ---- commands
awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' \
	"$tmp/help" | sort -u >"$tmp/cmd.help"
[ -s "$tmp/cmd.help" ] || bad "no commands found in bankc --help"
man_section SYNOPSIS | roff_text | awk '$1 == "bankc" && $2 != "" && $2 !~ /^-/ { print $2 }' | sort -u >"$tmp/cmd.syn"
man_section COMMANDS | tags | roff_text | awk '{ print $1 }' | grep -v '^-' | grep -v '^\.' |
	grep -E '^[a-z]+$' | sort -u >"$tmp/cmd.man"
readme_section Commands | awk '$1 == "bankc" && $2 != "" && $2 !~ /^-/ { print $2 }' | sort -u >"$tmp/cmd.readme"
same "commands: man page SYNOPSIS against --help" "$tmp/cmd.help" "$tmp/cmd.syn"
same "commands: man page COMMANDS against --help" "$tmp/cmd.help" "$tmp/cmd.man"
same "commands: README's Commands against --help" "$tmp/cmd.help" "$tmp/cmd.readme"

# ---- options: those of --help and of each command's own help, where the
# commands have one (bankc COMMAND --help)
for c in $(cat "$tmp/cmd.help"); do
	"$bankc" "$c" --help >"$tmp/help.$c" 2>/dev/null || rm -f "$tmp/help.$c"
done
cat "$tmp/help" "$tmp"/help.* 2>/dev/null | options >"$tmp/opt.help"
options <"$tmp/help" >"$tmp/opt.mainhelp"
[ -s "$tmp/opt.help" ] || bad "no options found in bankc --help"
{ man_section SYNOPSIS | roff_text; man_section COMMANDS | tags | roff_text
  man_section OPTIONS | tags | roff_text; } | options >"$tmp/opt.man"
readme_section Commands | options >"$tmp/opt.readme"
same "options: man page (SYNOPSIS, COMMANDS, OPTIONS) against --help" "$tmp/opt.help" "$tmp/opt.man"
# the README's summary: every option of --help, and none the commands lack
missing=$(comm -23 "$tmp/opt.mainhelp" "$tmp/opt.readme" | tr '\n' ' ')
extra=$(comm -13 "$tmp/opt.help" "$tmp/opt.readme" | tr '\n' ' ')
if [ -z "$missing$extra" ]; then ok
else bad "options: README's Commands against --help: ${missing:+missing: $missing}${extra:+ not in the program: $extra}"; fi

# each command's options in --help (its usage lines) on its SYNOPSIS lines
for c in $(cat "$tmp/cmd.help"); do
	awk -v c="$c" '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 }
		on && /^  [a-z]/ { cur = $1 }
		on && cur == c && (/^  [a-z]/ || /^        [^ ]/) { sub(/^ +/, ""); sub(/  +[a-z].*$/, ""); print }' "$tmp/help" | options >"$tmp/o1"
	man_section SYNOPSIS | awk -v c="$c" '/^\.br/ { on = 0 } /^\.B "?bankc / { w = $3; gsub(/"/, "", w); on = (w == c) } on' |
		roff_text | options >"$tmp/o2"
	miss=$(comm -23 "$tmp/o1" "$tmp/o2" | tr '\n' ' ')
	if [ -z "$miss" ]; then ok; else bad "bankc $c: --help gives it $miss, its SYNOPSIS does not"; fi
done

# ---- the language's words, against the man page: the one reference
if ! "$bankc" words >"$tmp/words" 2>"$tmp/words.err" || [ ! -s "$tmp/words" ]; then
	bad "bankc words: $(cat "$tmp/words.err")"
fi
man_section "THE SPEC LANGUAGE" >"$tmp/lang.roff"
[ -s "$tmp/lang.roff" ] || bad "the man page has no section THE SPEC LANGUAGE"
roff_text "$tmp/lang.roff" | tr -cs 'A-Za-z0-9_.' '\n' | sort -u >"$tmp/lang.man"
# the man page's lists: the words of each .B line
sed -n 's/^\.B  *//p' "$tmp/lang.roff" | roff_text >"$tmp/spans.man"

for cls in $(awk '{ print $1 }' "$tmp/words" | sort -u); do
	awk -v c="$cls" '$1 == c { print $2 }' "$tmp/words" | sort -u >"$tmp/cls"
	m=$(comm -23 "$tmp/cls" "$tmp/lang.man" | tr '\n' ' ')
	if [ -z "$m" ]; then ok; else bad "$cls: the man page's THE SPEC LANGUAGE does not name $m"; fi
	case $cls in
	dtype | arch | operation) ;;
	*) continue ;;
	esac
	# the one list that names most of the class: exactly the class
	best=$(awk 'NR == FNR { w[$1] = 1; next }
		{ n = 0; split($0, t, /[^A-Za-z0-9_.]+/); for (i in t) if (t[i] in w) n++
		  if (n > bn) { bn = n; b = $0 } }
		END { print b }' "$tmp/cls" "$tmp/spans.man" | tr -cs 'A-Za-z0-9_.' '\n' | sed '/^$/d' | sort -u)
	printf '%s\n' "$best" >"$tmp/best"
	same "$cls: the list in the man page (\"$(echo $best)\")" "$tmp/cls" "$tmp/best"
done

# ---- the example tiles: the man page's (each .nf block that starts with
# "tile ") and the README overview's (its indented code blocks)
awk -v dir="$tmp" '/^\.nf/ { on = 1; n++; next } /^\.fi/ { on = 0; next }
	on { print > (dir "/man_ex." n) }' "$man"
nex=0
for f in "$tmp"/man_ex.*; do
	[ -e "$f" ] || continue
	roff_text "$f" >"$f.tile"
	grep -q '^tile ' "$f.tile" || continue
	nex=$((nex + 1))
	if "$bankc" check - <"$f.tile" >"$f.log" 2>&1; then ok
	else bad "the man page's example tile $(sed -n 's/^tile \([A-Za-z0-9_]*\).*/\1/p' "$f.tile" | head -n 1): $(head -n 3 "$f.log")"; fi
done
[ "$nex" -gt 0 ] || bad "no example tile found in the man page"
readme_section "The spec language" >"$tmp/lang.md"
if [ ! -s "$tmp/lang.md" ]; then
	bad "the README has no section The spec language"
else
	# the overview's code blocks (4 spaces in) make one spec file
	awk '/^    / { print substr($0, 5); next } /^$/ { print }' "$tmp/lang.md" >"$tmp/lang.tile"
	if ! grep -q '^tile ' "$tmp/lang.tile"; then bad "the README's The spec language has no example tile"
	elif "$bankc" check - <"$tmp/lang.tile" >"$tmp/lang.log" 2>&1; then ok
	else bad "the README's example in The spec language: $(head -n 3 "$tmp/lang.log")"; fi
	# its code spans (a span may run over lines) less commands, as words
	grep -v '^    ' "$tmp/lang.md" | tr '\n' ' ' |
		awk -F '`' '{ for (i = 2; i <= NF; i += 2) print $i }' |
		grep -v -E '^(man|make|bankc) ' | tr -cs 'A-Za-z0-9_.' '\n' |
		sed 's/^\.*//; /^[0-9]/d; /^$/d' | sort -u >"$tmp/spans.readme"
	{ awk '{ print $2 }' "$tmp/words"
	  tr -cs 'A-Za-z0-9_.' '\n' <"$tmp/lang.tile"; } | sort -u >"$tmp/known"
	unknown=$(comm -23 "$tmp/spans.readme" "$tmp/known" | tr '\n' ' ')
	if [ -z "$unknown" ]; then ok
	else bad "the README's The spec language gives as code what is no word of the language: $unknown"; fi
fi

# ---- docs/solver.md's comparison table is compare's report on specs/
# (tests/docs/comparison_table.c renders it; to refresh the page after a
# change, put its output in place of the table)
if cc -std=c11 -Wall -Wextra -Werror -o "$tmp/ctab" tests/docs/comparison_table.c \
	-ljansson 2>"$tmp/ctab.log" &&
   "$bankc" compare --json specs/*.tile | "$tmp/ctab" >"$tmp/table.want"; then
	awk '/^\| tile \| row-major \| pad by one \|/ { on = 1 } on && !/^\|/ { exit } on' \
		"$solver" >"$tmp/table.have"
	if cmp -s "$tmp/table.want" "$tmp/table.have"; then ok
	else bad "the comparison table of $solver is not compare's report on specs/:"
		diff "$tmp/table.have" "$tmp/table.want" | head -n 20 | sed 's/^/    /'; fi
else bad "comparison_table did not build or run: $(head -n 3 "$tmp/ctab.log")"; fi

# ---- the man page itself
if have groff; then
	if groff -man -Tutf8 -ww -z "$man" >"$tmp/groff.log" 2>&1 && [ ! -s "$tmp/groff.log" ]; then ok
	else bad "groff warns about $man: $(head -n 3 "$tmp/groff.log")"; fi
else skip "groff not found: $man not rendered"
fi

summary docs

#!/bin/sh
# The stages' dependencies run one way, as the table of
# docs/architecture.md says.  From the objects of a build (BUILD/objects
# lists them) and the sources' includes:
#
#   1. every symbol an object of stage X uses from another stage is
#      defined in a stage X may call;
#   2. every header a source of stage X includes belongs to X or to a
#      stage X may call (bankc.h, the shared one, to every stage);
#   3. no two files call each other, directly or through others.
#
#     sh tests/run_layers.sh [BUILD]
#
# Prints a line per violation, then "layers: N passed, M failed".
. "$(dirname "$0")/lib.sh"
build=${1:-build}
[ -f "$build/objects" ] || { echo "usage: $0 BUILD (run make first)" >&2; exit 2; }

# The stages each stage may call, besides itself: the table of
# docs/architecture.md ("| stage | may call |"), so that the docs and
# this check cannot differ.
doc=docs/architecture.md
awk -F'|' '/^\| stage +\| may call/ { on = 1; next } on && !/^\|/ { exit }
	on && $2 !~ /^-/ { s = $2; c = $3; gsub(/ /, "", s); gsub(/[,.]/, " ", c)
	  sub(/main\.c/, "main", s); if (c ~ /nothing/) c = ""; if (c ~ /every stage/) c = "*"
	  print s, c }' "$doc" >"$tmp/table"
[ -s "$tmp/table" ] || { bad "$doc has no table of which stage may call which"; summary layers; exit 1; }
allowed() {
	awk -v s="$1" '$1 == s { found = 1; $1 = ""; print; exit } END { if (!found) print "?" }' "$tmp/table"
}
for d in compiler/*/; do
	d=${d%/}; d=${d#compiler/}
	if grep -q "^$d " "$tmp/table" || grep -qx "$d" "$tmp/table"; then ok
	else bad "compiler/$d/ is a stage the table of $doc does not give"; fi
done
stage_of() {
	case $1 in
	*/main.o | compiler/main.c) echo main ;;
	*) s=${1#"$build"/}; s=${s#compiler/}; echo "${s%%/*}" ;;
	esac
}

# object file, kind (T: defines, U: uses), symbol; one line each
for o in $(cat "$build/objects") "$build/main.o"; do
	nm "$o" | awk -v o="$o" '$2 ~ /^[TDBRC]$/ { print o, "T", $3 } $1 == "U" { print o, "U", $2 }'
done >"$tmp/syms"

# 1. calls across stages
awk '$2 == "T" { def[$3] = $1 } $2 == "U" { use[NR] = $1 " " $3 }
     END { for (i in use) { split(use[i], p, " "); if (p[2] in def && def[p[2]] != p[1]) print p[1], def[p[2]], p[2] } }' \
	"$tmp/syms" | sort -u >"$tmp/calls"
while read -r from to sym; do
	a=$(stage_of "$from") b=$(stage_of "$to")
	[ "$a" = "$b" ] && continue
	case " $(allowed "$a") " in
	*" $b "* | *" * "*) ok ;;
	*) bad "$from calls $sym of $to: $a may not call $b" ;;
	esac
done <"$tmp/calls"

# 2. includes
for src in compiler/main.c compiler/*/*.c compiler/*/*.re compiler/*/*.h; do
	a=$(stage_of "$src")
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$src"); do
		b=${h%%/*}
		[ "$h" = bankc.h ] && { ok; continue; }
		[ "$b" = "$a" ] && { ok; continue; }
		case " $(allowed "$a") " in
		*" $b "* | *" * "*) ok ;;
		*) bad "$src includes $h: $a may not see $b" ;;
		esac
	done
done

# 3. no cycle of files: in the calls' transitive closure, the files that
#    reach each other, one line per group
awk '{ print $1, $2 }' "$tmp/calls" | sort -u | awk '
	{ e[$1, $2] = 1; n[$1] = 1; n[$2] = 1 }
	END {
		for (k in n) for (i in n) if ((i, k) in e) for (j in n) if ((k, j) in e) e[i, j] = 1
		for (i in n) {
			if (i in done || !((i, i) in e)) continue
			line = i
			for (j in n) if (j != i && (i, j) in e && (j, i) in e) { line = line " " j; done[j] = 1 }
			print line
		}
	}' >"$tmp/cycles"
if [ -s "$tmp/cycles" ]; then
	while read -r files; do bad "these files call each other in a cycle: $files"; done <"$tmp/cycles"
else
	ok
fi
summary layers

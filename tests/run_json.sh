#!/bin/sh
# docs/json.md against the program: for each JSON document bankc writes
# (dump --json, compare --json, NAME.json), every field emitted over
# specs/ and tests/cute/kinds.tile is documented with its type, and every
# field documented is emitted; each document carries "schema" and "bankc".
# The fields come from tests/json/json_paths.c (PATH TAB TYPE per value),
# the documented ones from the tables of docs/json.md, expanded from each
# document's root type.
# usage: run_json.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
doc=docs/json.md
corpus="specs/*.tile tests/cute/kinds.tile"
version=$("$bankc" --version | sed 's/^bankc //')

if ! cc -std=c11 -Wall -Wextra -Werror -o "$tmp/json_paths" tests/json/json_paths.c -ljansson; then
	bad "tests/json/json_paths.c does not build"
	summary json
	exit
fi

# documented TYPE: "PATH TAB TYPES TAB ORIGIN" for every field of the
# type, its objects expanded: the types the path may have, space-separated,
# and the row of the page it comes from (TYPE.FIELD).
documented() {
	awk -v root="$1" '
	function fail(msg) { print "docs/json.md: " msg > "/dev/stderr"; bad = 1 }
	function cell(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	/^#/ { cur = "" }
	/^### [A-Za-z]+[ \t]*$/ { cur = cell(substr($0, 5)); n[cur] = 0; next }
	cur != "" && /^\| `/ {
		split($0, c, "|")
		f = cell(c[2]); gsub(/`/, "", f)
		n[cur]++; fld[cur, n[cur]] = f; typ[cur, n[cur]] = cell(c[3])
	}
	function add(p, t) { allowed[p] = allowed[p] " " t; origin[p] = row }
	function field(p, ty,   nullable, el) {
		nullable = sub(/ or null$/, "", ty)
		if (nullable) add(p, "null")
		if (ty ~ /^array of /) {
			add(p, "array")
			el = substr(ty, 10)
			if (el ~ /^(integer|string|boolean)s$/) sub(/s$/, "", el)
			field(p "[]", el)
		} else if (ty ~ /^map of /) {
			add(p, "object")
			el = substr(ty, 8)
			if (el ~ /^(integer|string|boolean)s$/) sub(/s$/, "", el)
			field(p ".*", el)
		} else if (ty ~ /^(integer|string|boolean)$/) {
			add(p, ty)
		} else if (ty in n) {
			add(p, "object")
			expand(ty, p ".")
		} else {
			fail("field " p ": unknown type \"" ty "\"")
		}
	}
	function expand(t, prefix,   i) {
		if (++depth > 16) { fail("types nest too deeply at " t); return }
		for (i = 1; i <= n[t]; i++) {
			if (fld[t, i] == "*") {
				if (!(typ[t, i] in n)) fail(t ": * names unknown type " typ[t, i])
				else expand(typ[t, i], prefix)
			} else {
				row = t "." fld[t, i]
				field(prefix fld[t, i], typ[t, i])
			}
		}
		depth--
	}
	END {
		if (!(root in n)) { fail("no table for type " root); exit 1 }
		expand(root, "")
		for (p in allowed) print p "\t" substr(allowed[p], 2) "\t" origin[p]
		exit bad
	}' "$doc" | sort
}

# compare_fields NAME ROOT FILE...: the emitted fields of the documents
# FILE... against type ROOT of the page: each emitted path documented with
# its type, each row of the page that ROOT reaches emitted somewhere (a
# type used in several places need not appear in each).
compare_fields() {
	name=$1 root=$2
	shift 2
	if ! documented "$root" >"$tmp/doc.tsv"; then
		bad "$name: docs/json.md's type $root cannot be read"
		return
	fi
	"$tmp/json_paths" "$@" >"$tmp/emitted.tsv" || { bad "$name: output is not JSON"; return; }
	awk -F '\t' -v name="$name" '
	NR == FNR { allowed[$1] = " " $2 " "; origin[$1] = $3; rows[$3] = 1; next }
	{
		# a key of a map ("map of T"): the documented PATH.*
		if (!($1 in allowed)) {
			w = $1; sub(/\.[^.]*$/, ".*", w)
			if (w in allowed) $1 = w
		}
		if ($1 in origin) seen[origin[$1]] = 1
		if (!($1 in allowed)) { print "FAIL: " name ": field " $1 " (" $2 ") is emitted but not in docs/json.md"; bad++ }
		else if (index(allowed[$1], " " $2 " ") == 0) { print "FAIL: " name ": field " $1 " is " $2 ", docs/json.md says" allowed[$1]; bad++ }
	}
	END {
		for (r in rows)
			if (!(r in seen)) { print "FAIL: " name ": field " r " is in docs/json.md but never emitted"; bad++ }
		exit bad > 0
	}' "$tmp/doc.tsv" "$tmp/emitted.tsv" && ok || fail=$((fail + 1))    # awk said why
	# the version fields of each document
	for f in "$@"; do
		if grep -qx '  "schema": 1,' "$f" && grep -qx "  \"bankc\": \"$version\"," "$f"; then :
		else bad "$name: $f lacks \"schema\": 1 or \"bankc\": \"$version\""; return; fi
	done
	ok
}

i=0
for f in $corpus; do
	i=$((i + 1))
	"$bankc" dump --json "$f" >"$tmp/dump$i.json" || bad "dump --json $f"
done
compare_fields "dump --json" Dump "$tmp"/dump*.json

# shellcheck disable=SC2086
"$bankc" compare --json $corpus >"$tmp/compare.json" || bad "compare --json"
"$bankc" compare --json --banks 16 --bank-bytes 8 --no-merge specs/seeds.tile >"$tmp/compare-geom.json" ||
	bad "compare --json with geometry options"
compare_fields "compare --json" Compare "$tmp/compare.json" "$tmp/compare-geom.json"
if grep -q '"banks": 16' "$tmp/compare-geom.json" && grep -q '"bank_bytes": 8' "$tmp/compare-geom.json" &&
	grep -q '"merge_loads": false' "$tmp/compare-geom.json"; then ok
else bad "compare --json does not record --banks 16 --bank-bytes 8 --no-merge in geometry"; fi

# shellcheck disable=SC2086
"$bankc" build $corpus -o "$tmp/gen" || bad "build"
compare_fields "NAME.json" Report "$tmp"/gen/*.json
if grep -q '"spec": "specs/seeds.tile"' "$tmp/gen/transpose_f32.json"; then ok
else bad "transpose_f32.json does not record the spec path as given (specs/seeds.tile)"; fi

# explain --json, once the command has it: every instruction, row-major
# and chosen, and the summaries
# shellcheck disable=SC2086
if "$bankc" explain --json $corpus >"$tmp/explain.json" 2>/dev/null; then
	"$bankc" explain --json --chosen $corpus >"$tmp/explain-chosen.json" || bad "explain --json --chosen"
	"$bankc" explain --json --summary --chosen $corpus >"$tmp/explain-summary.json" ||
		bad "explain --json --summary --chosen"
	compare_fields "explain --json" Explain "$tmp"/explain*.json
else
	skip "explain --json: this bankc has no such option yet"
fi

summary json

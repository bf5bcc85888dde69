#!/bin/sh
# Every JSON document bankc writes against its JSON Schema in
# docs/schema/ (docs/json.md, docs/sarif.md), with python3's jsonschema
# (Debian: python3-jsonschema): dump --json, compare --json, build's
# NAME.json, explain --json, scan --json and --sarif logs, over the specs,
# the bad-input corpus and the scan cases, and the scan goldens' JSON.
# The schemas made from docs/json.md must be up to date, and each must
# refuse a document that breaks it (so that a pass means something).
# usage: run_schema.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
corpus="specs/*.tile tests/cute/kinds.tile"

py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
	missing "JSON Schema validation (no python3 with jsonschema: make deps)"
	summary schema
	exit
fi

"$py" tools/json_schema.py --check && ok || bad "docs/schema/ is not up to date with docs/json.md"

# validate SCHEMA FILE...: every FILE valid
validate() {
	s=$1
	shift
	if "$py" tools/validate_json.py "docs/schema/$s.json" "$@" >"$tmp/v" 2>&1; then
		ok
	else
		bad "documents not valid against docs/schema/$s.json:"
		indent <"$tmp/v" | head -n 10
	fi
}
# refuses SCHEMA FILE WHAT: FILE is not valid (WHAT: how it was broken)
refuses() {
	if "$py" tools/validate_json.py "docs/schema/$1.json" "$2" >/dev/null 2>&1; then
		bad "docs/schema/$1.json accepts a document with $3"
	else
		ok
	fi
}
# broken IN OUT PYTHON: OUT is IN changed by the python statement (d: the document)
broken() {
	"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}

d=$tmp/docs
mkdir -p "$d/dump" "$d/explain" "$d/build" "$d/scan" "$d/sarif"
i=0
for f in $corpus; do
	i=$((i + 1))
	"$bankc" dump --json "$f" >"$d/dump/$i.json" || bad "dump --json $f failed"
	"$bankc" explain --json "$f" >"$d/explain/$i.json" || bad "explain --json $f failed"
	"$bankc" explain --json --summary --chosen "$f" >"$d/explain/$i-chosen.json" ||
		bad "explain --json --summary --chosen $f failed"
done
"$bankc" dump --json - <specs/seeds.tile >"$d/dump/stdin.json"
validate dump "$d"/dump/*.json
validate explain "$d"/explain/*.json

# shellcheck disable=SC2086
"$bankc" compare --json $corpus >"$d/compare.json" || bad "compare --json failed"
"$bankc" compare --json --top 1000 --banks 16 --no-merge specs/seeds.tile >"$d/compare-geom.json"
"$bankc" compare --json tests/data/no_layout.tile >"$d/compare-none.json" 2>/dev/null  # status 1
validate compare "$d/compare.json" "$d/compare-geom.json" "$d/compare-none.json"

# shellcheck disable=SC2086
"$bankc" build $corpus -o "$d/build" || bad "build failed"
validate report "$d"/build/*.json

# scan: its goldens' JSON, and each JSON case run afresh
validate scan $(grep -l '^--- stdout' tests/ptx/expected/* | while read -r g; do
	[ "$(sed -n 3p "$g")" = "{" ] && echo "$g"; done)
grep -- '--json' tests/ptx/cases.txt | while IFS=: read -r name args; do
	# shellcheck disable=SC2086
	"$bankc" scan $args >"$d/scan/$name.json" 2>/dev/null
	# a usage error (--fix --json) writes no document
	[ -s "$d/scan/$name.json" ] || rm -f "$d/scan/$name.json"
done
"$bankc" scan --json tests/ptx/transpose.ptx >"$d/scan/noblock.json" 2>/dev/null
"$bankc" scan --json tests/ptx/histogram.ptx --block 256 >"$d/scan/histogram.json"
validate scan "$d"/scan/*.json

# SARIF: spec errors, no layout, a failed build gate, scan's warnings,
# errors and refusals, and a clean run
for f in tests/bad/*.tile; do
	"$bankc" check --sarif "$d/sarif/$(basename "$f" .tile).sarif" "$f" 2>/dev/null
done
"$bankc" check --sarif "$d/sarif/good.sarif" specs/seeds.tile
"$bankc" compare --sarif "$d/sarif/nolayout.sarif" tests/data/no_layout.tile >/dev/null 2>&1
"$bankc" build --sarif "$d/sarif/gate.sarif" --search-budget 1 --require-optimal \
	specs/kernels.tile -o "$d/gate" 2>/dev/null
"$bankc" scan --sarif "$d/sarif/scan.sarif" tests/ptx/transpose.ptx --block 32,8 >/dev/null 2>&1
"$bankc" scan --sarif "$d/sarif/refused.sarif" tests/ptx/reduce.ptx >/dev/null 2>&1
"$bankc" scan --sarif "$d/sarif/outside.sarif" tests/ptx/outside.ptx --block 64 >/dev/null 2>&1
for f in tests/ptx/bad/*.ptx; do
	"$bankc" scan --sarif "$d/sarif/ptx-$(basename "$f" .ptx).sarif" "$f" --block 32 >/dev/null 2>&1
done
"$bankc" scan --sarif "$d/sarif/fix.sarif" tests/ptx/fix.ptx --block 32 --fix >/dev/null 2>&1
"$bankc" scan --sarif "$d/sarif/accepted.sarif" --sarif-suppressed tests/ptx/allow.ptx --block 32,8 \
	--max-excess 0 >/dev/null 2>&1
"$bankc" scan --sarif "$d/sarif/gate-scan.sarif" --sarif-suppressed tests/ptx/transpose.ptx \
	--source-dir tests/gpu/scan_kernels --block 32,8 --baseline tests/ptx/transpose.baseline \
	-Wno-data-dependent --max-excess 0 >/dev/null 2>&1
"$bankc" check --sarif "$d/sarif/stdin.sarif" - <tests/bad/row_outside.tile 2>/dev/null
validate sarif "$d"/sarif/*.sarif

# GitHub code scanning's ingestion rules (tests/sarif_github.py) over
# every log, and each rule refusing a log that breaks it
if "$py" tests/sarif_github.py "$d"/sarif/*.sarif >"$tmp/v" 2>&1; then ok; else
	bad "logs GitHub code scanning would refuse:"; indent <"$tmp/v" | head -n 10; fi
# gh RULE PYTHON: the log broken by PYTHON (d: the document, r: its first
# result) fails sarif_github.py's RULE
gh() {
	"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['runs'][0]['results'][0]; $2; json.dump(d, open(sys.argv[2], 'w'))" \
		"$d/sarif/fix.sarif" "$tmp/gh.sarif"
	if "$py" tests/sarif_github.py "$tmp/gh.sarif" | grep -q ": $1: "; then ok; else
		bad "sarif_github.py does not catch $1"; fi
}
gh location-required 'del r["locations"]'
gh location-uri 'del r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]'
gh region-required 'del r["locations"][0]["physicalLocation"]["region"]'
gh uri-form 'r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "https://x/y.cu"'
gh uri-parent 'r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "../y.cu"'
gh locations-limit 'r["locations"] = r["locations"] * 11'
gh fingerprints 'del r["partialFingerprints"]'
gh message-text 'r["message"]["text"] = ""'
gh rule-index 'r["ruleIndex"] = 5'
gh rule-descriptions 'del d["runs"][0]["tool"]["driver"]["rules"][0]["fullDescription"]'
gh rule-help 'del d["runs"][0]["tool"]["driver"]["rules"][0]["help"]'
gh rule-helpuri 'd["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/sarif.md"'
# the related location (the declaration) is checked as the result's own
gh location-uri 'r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] = ""'

# each schema refuses what breaks it
broken "$d/dump/1.json" "$tmp/x.json" 'd["tiles"][0]["rows"] = "32"'
refuses dump "$tmp/x.json" "rows a string"
broken "$d/compare.json" "$tmp/x.json" 'd["tiles"][0]["surprise"] = 1'
refuses compare "$tmp/x.json" "a field docs/json.md lacks"
broken "$d/explain/1.json" "$tmp/x.json" 'del d["tiles"][0]["accesses"][0]["ideal"]'
refuses explain "$tmp/x.json" "a required field missing"
f=$(ls "$d"/build/*.json | head -n 1)
broken "$f" "$tmp/x.json" 'd["schema"] = 2'
refuses report "$tmp/x.json" "schema 2"
broken "$d/scan/noblock.json" "$tmp/x.json" 'd["kernels"][0]["refused"] = "yes"'
refuses scan "$tmp/x.json" "refused a string"
broken "$d/sarif/multi_errors.sarif" "$tmp/x.json" 'd["runs"][0]["results"][0]["level"] = "fatal"'
refuses sarif "$tmp/x.json" "level fatal"
broken "$d/sarif/multi_errors.sarif" "$tmp/x.json" 'd["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0'
refuses sarif "$tmp/x.json" "startLine 0"
broken "$d/sarif/multi_errors.sarif" "$tmp/x.json" 'del d["runs"][0]["results"][0]["locations"]'
refuses sarif "$tmp/x.json" "a result without a location"
broken "$d/sarif/multi_errors.sarif" "$tmp/x.json" 'd["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "../x.tile"'
refuses sarif "$tmp/x.json" "a relative URI with .."
broken "$d/sarif/fix.sarif" "$tmp/x.json" 'd["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"].pop("endColumn")'
refuses sarif "$tmp/x.json" "a replacement's region without its end"
broken "$d/sarif/accepted.sarif" "$tmp/x.json" '[r.update(suppressions=[{"kind": "none"}]) for r in d["runs"][0]["results"]]'
refuses sarif "$tmp/x.json" "a suppression of kind none"

summary schema

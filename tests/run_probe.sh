#!/bin/sh
# The GPU probe's pattern table: tests/gpu/patterns.tsv is the golden file
# of tests/gpu/gen_patterns.c's output (UPDATE=1 rewrites it; see
# docs/testing.md), so the table the probe measures is the one the
# generator makes.  Needs only cc.
# usage: run_probe.sh
. "$(dirname "$0")/lib.sh"
if cc -std=c11 -Wall -Wextra -Werror -o "$tmp/gen_patterns" tests/gpu/gen_patterns.c 2>"$tmp/log" &&
   "$tmp/gen_patterns" >"$tmp/patterns.tsv" 2>>"$tmp/log"; then
	golden tests/gpu/patterns.tsv "$tmp/patterns.tsv" "gen_patterns' output"
else
	bad "tests/gpu/gen_patterns.c does not build or run"
	indent <"$tmp/log" | head -n 10
fi
summary "probe patterns"

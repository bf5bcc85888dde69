#!/bin/sh
# The default search budget on tests/hard/hard.tile: each tile's choice,
# its bound and gap, whether the search proved it, its work; then the
# CPU seconds and max RSS of the whole file (GNU time).
# usage: sh tests/hard/run_hard.sh [BANKC] [compare options...]
bankc=${1:-./bankc}
[ $# -gt 0 ] && shift
"$bankc" compare --top 1 --json "$@" tests/hard/hard.tile | python3 tests/hard/summary.py
command time -f "cpu %U s user %S s sys, max rss %M KB" \
	"$bankc" compare "$@" tests/hard/hard.tile >/dev/null

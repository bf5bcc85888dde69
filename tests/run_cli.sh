#!/bin/sh
# The command line: exit statuses, help, and the commands' outputs.
# usage: run_cli.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}

# expect STATUS PATTERN -- ARGS...: run bankc, check status and that the
# combined output matches the grep pattern (empty: no check).  With
# limit=SECONDS set, bankc must also finish within that time.
limit=
expect() {
	want=$1 pat=$2
	shift 3
	if [ -n "$limit" ]; then
		timeout "$limit" "$bankc" "$@" >"$tmp/out" 2>&1
	else
		"$bankc" "$@" >"$tmp/out" 2>&1
	fi
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "bankc $*: exit $got, expected $want"
		indent <"$tmp/out" | head -n 5
	elif [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then
		bad "bankc $*: output lacks '$pat'"
		indent <"$tmp/out" | head -n 5
	else
		ok
	fi
}

expect 0 "usage: bankc COMMAND" -- --help
# a tile with no legal layout: every command that solves says so, and why
nolayout="tile 'wide_tma' has no legal layout within its budget and restrictions (row-major: not a layout TMA can write)"
expect 1 "$nolayout" -- compare tests/data/no_layout.tile
expect 1 "$nolayout" -- compare --json tests/data/no_layout.tile
expect 1 "$nolayout" -- explain --chosen tests/data/no_layout.tile
expect 1 "$nolayout" -- build tests/data/no_layout.tile -o "$tmp/no_layout"
[ ! -e "$tmp/no_layout" ] && ok ||
	bad "a build with no legal layout made its folder"
expect 0 "^bankc [0-9]" -- --version
expect 2 "usage: bankc" --
expect 2 "unknown command 'frob'" -- frob
expect 2 "check needs at least one FILE" -- check
expect 2 "unknown option '--bogus' for check" -- check --bogus specs/seeds.tile
expect 1 "cannot open 'no/such.tile'" -- check no/such.tile
expect 0 "" -- check specs/seeds.tile specs/gemm.tile
expect 1 "empty.tile:1:1: error: no tiles in file" -- check specs/seeds.tile tests/bad/empty.tile
expect 0 "tile transpose_f32 {" -- dump specs/seeds.tile
expect 0 '"tiles": \[' -- dump --json specs/seeds.tile
expect 2 "dump takes one FILE" -- dump specs/seeds.tile specs/gemm.tile
expect 0 "total 1024 wavefronts, ideal 32" -- explain specs/seeds.tile --tile transpose_f32 --access drain
expect 0 "total 32 wavefronts, ideal 32 (conflict-free)" -- explain specs/seeds.tile --tile transpose_f32 --access fill
expect 1 "no tile 'nope'" -- explain specs/seeds.tile --tile nope
expect 1 "no access 'nope'" -- explain specs/seeds.tile --access nope
expect 0 "total 512 wavefronts, ideal 32" -- explain specs/seeds.tile --tile column_read --access read --bank-bytes 8
expect 0 "32 wavefronts (ideal 1)" -- sim --op load --width 4 --offsets "$(seq -s, 0 128 3968)"
expect 0 "1 wavefront (ideal 1)" -- sim --op load --width 4 --offsets "$(seq -s, 0 132 4092)"
expect 0 "broadcast pairs merged" -- sim --op load --width 16 --offsets "$(printf '0,%.0s' $(seq 31))0"
expect 0 "mask 0000ffff: 16 wavefronts" -- sim --op load --width 4 --mask ffff --offsets "$(seq -s, 0 128 3968)"
expect 2 "need 32 offsets" -- sim --op load --width 4 --offsets 0,4
expect 2 "unknown operation 'lod'" -- sim --op lod --width 4 --offsets 0
expect 2 "--bank-bytes takes 4 or 8" -- sim --bank-bytes 3 --op load --width 4 --offsets 0
expect 2 "sim needs --table FILE" -- sim
expect 0 "113 rows, 113 match, 0 differ" -- sim --table tests/data/sm90_wavefronts.tsv
printf 'x\tload\t4\tffffffff\t0,4\n' >"$tmp/bad.tsv"
expect 1 "bad.tsv:1: error: need 32 offsets" -- sim --table "$tmp/bad.tsv"
printf 'x\tload\t4\tffffffff\t%s\t5\n' "$(seq -s, 0 128 3968)" >"$tmp/differ.tsv"
expect 1 "1 rows, 0 match, 1 differ" -- sim --table "$tmp/differ.tsv"

expect 0 "total 32 wavefronts, ideal 32 (conflict-free)" -- explain --chosen specs/seeds.tile --tile transpose_f32 --access drain
expect 0 "lower bound 64 (sum of ideal): optimal" -- compare specs/seeds.tile
expect 0 "pad by one (pitch 33)" -- compare --top 2 specs/seeds.tile
expect 0 "544 knowing that 16-byte vectors stay whole and aligned: optimal" -- compare specs/transpose.tile
expect 0 '"lower_bound": 64' -- compare --json specs/seeds.tile
expect 0 '"optimal": true' -- compare --json specs/seeds.tile
expect 2 "--top takes 1 to 1000" -- compare --top 0 specs/seeds.tile
expect 2 "compare needs a FILE" -- compare
expect 1 "empty.tile:1:1: error" -- compare specs/seeds.tile tests/bad/empty.tile

# the search budget: a search cut short says so, everywhere
expect 0 "not proven optimal: search budget reached, 4352 above the bound" -- compare --search-budget 1 specs/kernels.tile
expect 0 "search budget reached$" -- compare --top 1 --search-budget 1 specs/kernels.tile
expect 0 '"not_proven_optimal": true' -- compare --json --search-budget 1 specs/kernels.tile
expect 0 '"budget_reached": false' -- compare --json specs/seeds.tile
expect 0 "of 34816 work units$" -- compare --top 1 specs/seeds.tile
expect 0 "" -- build --search-budget 1 specs/kernels.tile -o "$tmp/small"
if grep -q "not proven optimal: search budget reached" "$tmp/small/bitonic_2048.cuh"; then
	ok
else
	bad "the header of a search cut short does not say so"
fi
expect 0 "layout pad +1 (pitch 33)" -- explain --chosen --search-budget 1 specs/kernels.tile --tile bitonic_2048 --access cmp_j1
expect 2 "--search-budget takes 1 to 10^15" -- compare --search-budget 0 specs/seeds.tile
expect 2 "--search-budget takes 1 to 10^15" -- build --search-budget x specs/seeds.tile -o "$tmp/x"
expect 2 "--search-budget needs a value" -- explain --chosen specs/seeds.tile --search-budget
# the worst inputs within the limits finish in seconds (the limits here
# are generous, for slow and sanitized builds; make bench measures them)
limit=120
expect 0 "search budget reached" -- compare tests/data/scattered.tile
expect 0 "" -- build tests/data/scattered.tile -o "$tmp/scattered"
expect 0 "tile rotate_fixed" -- compare --top 1000 tests/data/rotate.tile
expect 0 "tile rotate_fixed" -- compare --banks 4 tests/data/rotate.tile
expect 0 "1 layout costed," -- compare tests/data/rotate.tile
expect 0 "store, 4 bytes per lane, 1 instruction, layout" -- explain specs/kernels.tile --tile blelloch_2048 --access clear
expect 0 "optimal" -- compare tests/data/too_big.tile
expect 0 "^huge  *a  *load" -- explain --chosen --summary tests/data/too_big.tile
limit=
expect 2 "--banks takes a power of two" -- compare --banks 24 specs/seeds.tile
expect 0 "tile transpose_f32" -- compare --banks 8 specs/seeds.tile
expect 0 "2 wavefronts (ideal 2)" -- sim --banks 16 --op load --width 4 --offsets "$(seq -s, 0 4 124)"
head -c 17000000 /dev/zero | tr '\0' '#' >"$tmp/huge.tile"
expect 1 "is larger than 16777216 bytes" -- check "$tmp/huge.tile"
# PTX is read the same way, with its own limit (64 MiB), from a file or
# from an endless standard input
head -c 67108865 /dev/zero | tr '\0' ' ' >"$tmp/huge.ptx"
expect 1 "'$tmp/huge.ptx' is larger than 67108864 bytes" -- scan "$tmp/huge.ptx" --block 32
rm -f "$tmp/huge.ptx"
if "$bankc" scan - --block 32 </dev/zero >"$tmp/out" 2>&1; then bad "scan of an endless standard input: exit 0"
elif grep -q "'-' is larger than 67108864 bytes" "$tmp/out"; then ok
else bad "scan of an endless standard input: $(head -n 1 "$tmp/out")"; fi
expect 1 "cannot read" -- check "$tmp"

# getopt_long conventions: --opt=value, -oDIR, --, options after files,
# per-command help, did-you-mean
expect 0 "rank" -- compare --top=2 specs/seeds.tile
expect 0 "rank" -- compare specs/seeds.tile --top 2
expect 2 "unknown option '--tpo' for compare (did you mean '--top'?)" -- compare --tpo 2 specs/seeds.tile
expect 2 "unknown option '--jsno' for dump (did you mean '--json'?)" -- dump --jsno specs/seeds.tile
expect 2 "--json takes no value" -- compare --json=1 specs/seeds.tile
expect 2 "--top needs a value" -- compare specs/seeds.tile --top
expect 2 "unknown option '-x' for build" -- build -x specs/seeds.tile -o "$tmp/o"
# an unknown option is named whole, not by its first letter
expect 2 "unknown option '-fdiagnostics-colour' for build" -- build -fdiagnostics-colour specs/seeds.tile -o "$tmp/o"
expect 2 "unknown option '-fdiagnostics-colour=always' for check" -- check specs/seeds.tile -fdiagnostics-colour=always
expect 2 "unknown option '-MM' for build" -- build specs/seeds.tile -o "$tmp/o" -MD -MM
expect 2 "unknown option '-xyz' for check" -- check -xyz specs/seeds.tile
expect 2 "unknown option '-q' for check" -- check specs/seeds.tile -q
# -o's value that looks like an option is no option
expect 2 "unknown option '-Mx' for build" -- build specs/seeds.tile -o -M -Mx
# a missing value is named as given, -MF, not as getopt was handed it
expect 2 "^bankc: error: -MF needs a value" -- build specs/seeds.tile -o "$tmp/o" -MD -MF
expect 2 "^bankc: error: -MT needs a value" -- build specs/seeds.tile -o "$tmp/o" -MD -MT
expect 2 "^bankc: error: -MQ needs a value" -- build specs/seeds.tile -o "$tmp/o" -MD -MQ
expect 2 "^bankc: error: --MF needs a value" -- build specs/seeds.tile -o "$tmp/o" -MD --MF
expect 0 "" -- build specs/seeds.tile "-o$tmp/o1"
expect 0 "" -- build --output="$tmp/o2" specs/seeds.tile
expect 0 "" -- build specs/seeds.tile -o "$tmp/o3" -MD "-MF$tmp/o3.d"
[ -f "$tmp/o3.d" ] && ok || bad "-MFFILE"
cp specs/seeds.tile "$tmp/-dash.tile"
expect 0 "" -- check -- "$tmp/-dash.tile"
abs=$(cd "$(dirname "$bankc")" && pwd)/$(basename "$bankc")
(cd "$tmp" && "$abs" check -- -dash.tile) >/dev/null 2>&1 && ok ||
	bad "check -- -dash.tile"
expect 0 '"bank": 0,' -- explain --json specs/seeds.tile --tile transpose_f32 --access drain
expect 0 '"wavefronts": 1024' -- explain --json --summary specs/seeds.tile
expect 0 "0: banks 0, 32 x 16" -- explain specs/seeds.tile --tile transpose_f32 --access drain --banks 64
expect 0 "usage: bankc compare \[--json\]" -- compare --help
expect 0 "--require-optimal" -- build -h
expect 0 "usage: bankc sim --table FILE" -- help sim
expect 0 "or: bankc sim --op OP" -- sim --help
expect 2 "no command 'frob'" -- help frob
expect 0 "^usage: bankc COMMAND" -- help help
expect 2 "unknown command 'compre' (did you mean 'compare'?)" -- compre specs/seeds.tile

# text fits 100 columns: every line of compare's and explain's tables, and
# their longer lines broken at spaces (a line may pass only for a word,
# a name, of 90 columns or more)
wide() {
	if ! "$bankc" "$@" >"$tmp/wide.out" 2>&1; then
		echo "FAIL: bankc $*: status $?"
		return 1
	fi
	awk -v what="$*" 'length($0) > 100 {
		w = 0; for (i = 1; i <= NF; i++) if (length($i) > w) w = length($i)
		if (w < 90) { print "FAIL: bankc " what ": a line of " length($0) " columns: " substr($0, 1, 60) "..."; n++ } }
		END { exit n > 0 }' "$tmp/wide.out"
}
# tests/data/wide.tile: cells of 13 characters, loop variables past their
# column
for f in specs/*.tile tests/data/scattered.tile tests/pictures/long_names.tile tests/data/wide.tile; do
	wide compare --top 20 "$f" && ok || fail=$((fail + 1))
	wide explain --chosen "$f" && ok || fail=$((fail + 1))
done
wide compare --search-budget 1 specs/kernels.tile && ok || fail=$((fail + 1))
wide explain --banks 64 specs/kernels.tile && ok || fail=$((fail + 1))
# a count of one takes the singular: "1 wavefront", never "1 wavefronts",
# in every text output and generated file of the specs
one='(^|[^0-9.,/x-])1 (wavefronts|instructions|bytes|blocks|trips|layouts|segments|tiles|words)\b'
"$bankc" build specs/*.tile -o "$tmp/plural" >/dev/null 2>&1 || bad "build specs for the plurals"
"$bankc" build --banks 1 tests/data/wide.tile -o "$tmp/plural1" >/dev/null 2>&1 || bad "build wide.tile --banks 1"
for f in specs/*.tile tests/data/wide.tile; do
	"$bankc" compare --top 20 "$f"; "$bankc" explain "$f"; "$bankc" explain --chosen "$f"
done >"$tmp/plural.txt" 2>&1
"$bankc" sim --op load --width 1 --mask 1 --offsets "$(printf '0,%.0s' $(seq 31))0" >>"$tmp/plural.txt" 2>&1
if grep -E -h "$one" "$tmp/plural.txt" "$tmp"/plural/*.cuh "$tmp"/plural/*.svg "$tmp"/plural/*_check.cu \
	"$tmp"/plural1/*.cuh >"$tmp/plural.bad"; then
	bad "a count of one with a plural noun:"; head -n 5 "$tmp/plural.bad" | cut -c1-160 | indent
else ok; fi
grep -q "1 instruction: 1 wavefront (ideal 1)" "$tmp/plural/blelloch_2048.cuh" && ok ||
	bad "blelloch_2048.cuh: its one instruction in the singular"
grep -q "geometry: 1 bank of 4 bytes" "$tmp/plural1/one.cuh" && grep -q "footprint 1 byte " "$tmp/plural1/one.cuh" &&
	grep -q "load, 1 byte per lane" "$tmp/plural.txt" && ok || bad "one bank, one byte: in the singular"
# 22 accesses: their wavefronts in blocks of columns, each block headed
expect 0 "^    layout  *cmp_j512  *swap_j512  *cmp_j1024  *swap_j1024$" -- compare specs/kernels.tile

summary cli

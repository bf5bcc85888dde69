#!/bin/sh
# One valgrind memcheck pass over the command line: no invalid access, no
# use of uninitialised memory, no leak (definite or indirect).
# usage: run_valgrind.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
if ! have valgrind; then
	skip "the memcheck pass (no valgrind; install Debian's package 'valgrind')"
	summary valgrind
	exit
fi
# vg STATUS ARGS...: bankc must exit with STATUS and valgrind report nothing
vg() {
	want=$1
	shift
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$bankc" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq "$want" ]; then ok
	else
		bad "valgrind bankc $*: status $st, expected $want"
		grep '==' "$tmp/err" | head -n 20
	fi
}
vg 0 check specs/seeds.tile specs/gemm.tile specs/transpose.tile
vg 0 dump --json specs/gemm.tile
vg 0 compare --top 3 specs/seeds.tile specs/reduce.tile
vg 0 compare --json specs/transpose.tile
vg 0 build specs/seeds.tile specs/gemm.tile -o "$tmp/gen" -MD
vg 0 explain --chosen specs/sgemm.tile
vg 0 sim --table tests/data/sm90_wavefronts.tsv
vg 0 sim --op load --width 16 --offsets "$(seq -s, 0 144 4464)"
for f in tests/bad/nul_byte.tile tests/bad/trunc_mid_expr.tile \
	tests/bad/div_zero.tile tests/bad/long_loop_names.tile tests/bad/crlf.tile \
	tests/bad/nested_too_deep.tile tests/bad/too_many_insts.tile; do
	vg 1 check "$f"
done
vg 1 build specs/seeds.tile tests/bad/row_outside.tile -o "$tmp/none"
vg 2 compare --top 0 specs/seeds.tile
vg 0 scan tests/ptx/widths.ptx --block 64 --emit-spec "$tmp/specs"
vg 0 scan tests/ptx/transpose.ptx --block 32,8 --json
vg 0 scan tests/ptx/sgemm_tiled.ptx --block 16,16
vg 0 scan tests/ptx/global_addr.ptx --block 32
vg 0 scan tests/ptx/datadep.ptx --block 32 --kernel exchange --data 0=tests/ptx/hist_short.bin
vg 1 scan tests/ptx/bad/unclosed_body.ptx --block 32
vg 1 scan tests/ptx/syntax.ptx --block 64    # its lanes race (-Wshared-race)
vg 1 scan tests/ptx/instances.ptx --block 32 --kernel 'tiles::tile<2,float,false>'
vg 1 scan tests/ptx/transpose.ptx --block 32,8 --max-excess 0 --json
vg 1 scan tests/ptx/bad/brx_table.ptx --block 32
summary valgrind

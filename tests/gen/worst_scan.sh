#!/bin/sh
# The largest inputs of `bankc scan` within its limits, for the memory and
# time table of docs/robustness.md (and the RSS check of
# tests/run_scan_hostile.sh):
#
#     sh tests/gen/worst_scan.sh KIND [N] >OUT.ptx
#
#   insts N     one kernel of N instructions (at most 1048576), each a
#               shared store up to 65535 of them and arithmetic after
#               (scan with --block 16: 16 records a store, under the
#               1048576 records of a warp)
#   regs N      N functions each declaring .reg .b32 %r<1048576>
#   loop N      one thread storing to shared memory N times in a loop
#   calls       64 nested calls of a function using 65536 registers
#   kernels N M N kernels calling one function of M shared stores (its
#               accesses are in every kernel's JSON: scan with
#               --block 16 --no-vectorize --json)
#   dense N     each thread stores 64 words at consecutive offsets (runs
#               ptxas merges) each of N trips: with --block 1024 and a large
#               N, every instruction to --max-steps an access
#   barriers N  each thread stores a word and waits at a barrier, N trips:
#               with --block 1024, an interval every 5 instructions
#   apart N     the lanes of each warp in two loops of N stores each, to
#               different instructions: their warp instructions wait for
#               each other (the limit of what waits)
#   wide N      each thread writes N registers (with --block 1024, more
#               than the threads run together may hold: warps in groups)
#   branchy N   a store under a branch on loaded data, N trips: both
#               sides of an undecided branch every 7 instructions
kind=$1 n=${2:-0} m=${3:-0}
cat <<'HEAD'
.version 8.6
.target sm_90
.address_size 64
HEAD
case $kind in
insts)
	printf '.visible .entry worst()\n{\n\t.reg .b32 %%r<8>;\n\t.shared .align 4 .b8 s[4096];\n'
	printf '\tmov.u32 %%r1, %%tid.x;\n\tshl.b32 %%r2, %%r1, 7;\n\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n'
	awk -v n="$n" 'BEGIN { for (i = 5; i < n; i++)
		if (i < 65535) printf "\tst.shared.u32 [%%r3+%d], %%r1;\n", (i % 32) * 4
		else printf "\tadd.s32 %%r4, %%r4, %d;\n", i }'
	printf '\tret;\n}\n' ;;
regs)
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf ".visible .entry k%d()\n.reqntid 32\n{\n\t.reg .b32 %%r<1048576>;\n\tmov.u32 %%r1048575, %%tid.x;\n\tret;\n}\n", i }' ;;
loop)
	cat <<LOOP
.visible .entry loop()
{
	.reg .b32 %r<6>;
	.reg .pred %p<2>;
	.shared .align 4 .b8 s[256];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, s;
	mov.u32 %r4, 0;
\$L:
	st.shared.u32 [%r3], %r1;
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p1, %r4, $n;
	@%p1 bra \$L;
	ret;
}
LOOP
	;;
calls)
	printf '.func deep(.param .b32 d)\n{\n\t.reg .b32 %%q<65536>;\n\t.reg .pred %%p<2>;\n\t.param .b32 a;\n'
	awk 'BEGIN { for (i = 1; i < 65536; i++) printf "\tmov.u32 %%q%d, %d;\n", i, i }'
	printf '\tld.param.u32 %%q0, [d];\n\tsetp.eq.u32 %%p1, %%q0, 0;\n\t@%%p1 bra $done;\n\tsub.u32 %%q0, %%q0, 1;\n'
	printf '\tst.param.b32 [a], %%q0;\n\tcall.uni deep, (a);\n$done:\n\tret;\n}\n'
	printf '.visible .entry calls()\n.reqntid 32\n{\n\t.reg .b32 %%r<2>;\n\t.param .b32 a;\n\tmov.u32 %%r1, 62;\n\tst.param.b32 [a], %%r1;\n\tcall.uni deep, (a);\n\tret;\n}\n' ;;
kernels)
	printf '.shared .align 4 .b8 s[4096];\n.func body()\n{\n\t.reg .b32 %%r<8>;\n'
	printf '\tmov.u32 %%r1, %%tid.x;\n\tshl.b32 %%r2, %%r1, 7;\n\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n'
	awk -v m="$m" 'BEGIN { for (i = 0; i < m; i++) printf "\tst.shared.u32 [%%r3+%d], %%r1;\n", (i % 32) * 4 }'
	printf '\tret;\n}\n'
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf ".visible .entry k%d()\n{\n\tcall.uni body, ();\n\tret;\n}\n", i }' ;;
dense)
	printf '.visible .entry dense()\n{\n\t.reg .b32 %%r<8>;\n\t.reg .pred %%p<2>;\n'
	printf '\t.shared .align 4 .b8 s[4096];\n\tmov.u32 %%r1, %%tid.x;\n\tand.b32 %%r1, %%r1, 31;\n'
	printf '\tshl.b32 %%r2, %%r1, 2;\n\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n\tmov.u32 %%r4, 0;\n$L:\n'
	awk 'BEGIN { for (i = 0; i < 64; i++) printf "\tst.shared.u32 [%%r3+%d], %%r1;\n", i * 4 }'
	printf '\tadd.u32 %%r4, %%r4, 1;\n\tsetp.lt.u32 %%p1, %%r4, %d;\n\t@%%p1 bra $L;\n\tret;\n}\n' "$n" ;;
barriers)
	printf '.visible .entry barriers()\n{\n\t.reg .b32 %%r<8>;\n\t.reg .pred %%p<2>;\n'
	printf '\t.shared .align 4 .b8 s[4096];\n\tmov.u32 %%r1, %%tid.x;\n\tshl.b32 %%r2, %%r1, 2;\n'
	printf '\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n\tmov.u32 %%r4, 0;\n$L:\n'
	printf '\tst.shared.u32 [%%r3], %%r1;\n\tbar.sync 0;\n\tadd.u32 %%r4, %%r4, 1;\n'
	printf '\tsetp.lt.u32 %%p1, %%r4, %d;\n\t@%%p1 bra $L;\n\tret;\n}\n' "$n" ;;
apart)
	printf '.visible .entry apart()\n{\n\t.reg .b32 %%r<8>;\n\t.reg .pred %%p<3>;\n'
	printf '\t.shared .align 4 .b8 s[4096];\n\tmov.u32 %%r1, %%tid.x;\n\tand.b32 %%r1, %%r1, 31;\n'
	printf '\tshl.b32 %%r2, %%r1, 2;\n\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n\tmov.u32 %%r4, 0;\n'
	printf '\tsetp.lt.u32 %%p2, %%r1, 16;\n\t@%%p2 bra $B;\n'
	for l in A B; do
		printf '$%s:\n\tst.shared.u32 [%%r3], %%r1;\n\tadd.u32 %%r4, %%r4, 1;\n' $l
		printf '\tsetp.lt.u32 %%p1, %%r4, %d;\n\t@%%p1 bra $%s;\n\tret;\n' "$n" $l
	done
	printf '}\n' ;;
wide)
	printf '.visible .entry wide()\n{\n\t.reg .b32 %%r<%d>;\n\t.shared .align 4 .b8 s[4096];\n' "$((n + 4))"
	awk -v n="$n" 'BEGIN { for (i = 4; i < n + 4; i++) printf "\tmov.u32 %%r%d, %d;\n", i, i }'
	printf '\tmov.u32 %%r1, %%tid.x;\n\tand.b32 %%r1, %%r1, 1023;\n\tshl.b32 %%r2, %%r1, 2;\n'
	printf '\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n\tst.shared.u32 [%%r3], %%r1;\n'
	printf '\tbar.sync 0;\n\tld.shared.u32 %%r2, [%%r3];\n\tret;\n}\n' ;;
branchy)
	printf '.visible .entry branchy(.param .u64 p)\n{\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n'
	printf '\t.reg .pred %%p<3>;\n\t.shared .align 4 .b8 s[4096];\n\tld.param.u64 %%rd1, [p];\n'
	printf '\tld.global.u32 %%r5, [%%rd1];\n\tsetp.eq.u32 %%p2, %%r5, 0;\n\tmov.u32 %%r1, %%tid.x;\n'
	printf '\tshl.b32 %%r2, %%r1, 2;\n\tmov.u32 %%r3, s;\n\tadd.s32 %%r3, %%r3, %%r2;\n\tmov.u32 %%r4, 0;\n'
	printf '$L:\n\t@%%p2 bra $S;\n\tst.shared.u32 [%%r3], %%r1;\n$S:\n\tadd.u32 %%r4, %%r4, 1;\n'
	printf '\tsetp.lt.u32 %%p1, %%r4, %d;\n\t@%%p1 bra $L;\n\tret;\n}\n' "$n" ;;
*)
	echo "usage: $0 insts|regs|loop|calls|kernels|dense|barriers|apart|wide|branchy [N [M]]" >&2
	exit 2 ;;
esac

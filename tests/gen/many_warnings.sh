#!/bin/sh
# A PTX of N conflicting shared stores, each at a source line of its own
# (.loc), for the time of showing N warnings' source lines:
#
#     sh tests/gen/many_warnings.sh N SOURCE >OUT.ptx
#
# SOURCE is the name its .file gives (a file of N lines or more shows
# every line; /dev/zero, a FIFO or /proc path checks what scan refuses).
n=$1 file=$2
cat <<HEAD
.version 8.6
.target sm_90
.address_size 64
.file 1 "$file"
.visible .entry many()
.reqntid 32, 1, 1
{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 s[256];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 3;
	mov.u32 %r3, s;
	add.s32 %r3, %r3, %r2;
HEAD
awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "\t.loc 1 %d 1\n\tst.shared.u32 [%%r3], %%r1;\n", i }'
printf '\tret;\n}\n'

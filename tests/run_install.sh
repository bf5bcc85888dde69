#!/bin/sh
# make install into a temporary prefix: every file in place, the installed
# bankc runs, and a check program compiles against the installed runtime.
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() {
	if [ -e "$tmp/p/$1" ]; then pass=$((pass + 1))
	else fail=$((fail + 1)); echo "FAIL: $1 not installed"; fi
}
make -s install PREFIX="$tmp/p" >/dev/null || { echo "FAIL: make install"; fail=$((fail + 1)); }
for f in bin/bankc include/bankc/bankc_runtime.h include/bankc/bankc_check.cuh \
	lib/cmake/bankc/BankcTiles.cmake share/man/man1/bankc.1; do
	check "$f"
done
if "$tmp/p/bin/bankc" build specs/seeds.tile -o "$tmp/gen" &&
	nvcc -std=c++17 -arch=sm_90 -I"$tmp/p/include/bankc" -I"$tmp/gen" -c \
		"$tmp/gen/transpose_f32_check.cu" -o "$tmp/x.o"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL: a check program against the installed runtime"
fi
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

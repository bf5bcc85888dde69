#!/bin/sh
# On a machine with a GPU, nvcc and cmake: the CMake module's CHECK_PROGRAMS
# end to end.  Configures the example's tile with the module used in place
# (tests/cmake/intree), builds the check program demo_check and runs it
# through ctest.  Needs no re2c or cmocka: bankc is the one given, built
# elsewhere.  Prints ctest's summary; exits non-zero if a test fails.
# usage: ctest_example.sh BANKC OUTDIR
bankc=${1:?usage: ctest_example.sh BANKC OUTDIR}
out=${2:?usage: ctest_example.sh BANKC OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
bankc=$(cd "$(dirname "$bankc")" && pwd)/$(basename "$bankc")
command -v cmake >/dev/null 2>&1 || { echo "ctest_example: cmake not found" >&2; exit 2; }
command -v nvcc >/dev/null 2>&1 || { echo "ctest_example: nvcc not found" >&2; exit 2; }
mkdir -p "$out"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$root/tests/cmake/intree/CMakeLists.txt" "$root/examples/cmake/main.c" \
	"$root/examples/cmake/demo.tile" "$w/"
cmake -S "$w" -B "$w/build" -DBANKC_SOURCE_DIR="$root" -DBANKC="$bankc" \
	-DINTREE_CHECK_PROGRAMS=ON >"$out/configure.log" 2>&1 ||
	{ tail -n 20 "$out/configure.log"; exit 1; }
cmake --build "$w/build" >"$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; exit 1; }
(cd "$w/build" && ctest --output-on-failure) >"$out/ctest.log" 2>&1
rc=$?
tail -n 4 "$out/ctest.log"
exit $rc

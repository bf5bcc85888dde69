#!/bin/sh
# The CMake module (cmake/BankcTiles.cmake) on examples/cmake: configure,
# build and run the example, then edit its tile and check that the build
# reruns bankc when, and only when, it should.  Each generator found (Unix
# Makefiles, Ninja) gets its own copy of the example, so the source tree is
# never modified.
# usage: run_cmake.sh BANKC
bankc=${1:-./bankc}
pass=0 fail=0
root=$(cd "$(dirname "$0")/.." && pwd)

if ! command -v cmake >/dev/null 2>&1; then
	echo "SKIP: cmake not found on PATH; cmake/BankcTiles.cmake is untested (counted as a failure)"
	echo "cmake: 0 passed, 1 failed"
	exit 1
fi
if [ ! -f "$bankc" ] || [ ! -x "$bankc" ]; then
	echo "FAIL: '$bankc' is not an executable file"
	echo "cmake: 0 passed, 1 failed"
	exit 1
fi
bankc=$(cd "$(dirname "$bankc")" && pwd)/$(basename "$bankc")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
# bad WHAT [LOG]: a failure, with the end of LOG when given.
bad() {
	echo "FAIL: $1"
	[ -n "${2:-}" ] && [ -f "$2" ] && tail -n 15 "$2" | sed 's/^/    /'
	fail=$((fail + 1))
}
# newer A B: A exists and was modified after B.
newer() { [ -n "$(find "$1" -prune -newer "$2" 2>/dev/null)" ]; }
# value NAME FILE: the number the program printed for NAME ("NAME = N").
value() { sed -n "s/.*$1 = \([0-9][0-9]*\).*/\1/p" "$2" | head -n 1; }

# run_generator GENERATOR DIR: the whole sequence in DIR.
run_generator() {
	g=$1 w=$2 tag="[$1]"
	mkdir -p "$w/src/examples"
	cp -R "$root/cmake" "$w/src/cmake"
	cp -R "$root/examples/cmake" "$w/src/examples/cmake"
	src=$w/src/examples/cmake b=$w/build
	tile=$src/demo.tile out=$b/bankc/demo/demo

	# build NAME: build, the log in $w/NAME.log; status of the build.
	build() { cmake --build "$b" --parallel 2 >"$w/$1.log" 2>&1; }

	if cmake -G "$g" -S "$src" -B "$b" -DBANKC="$bankc" >"$w/configure.log" 2>&1; then
		ok
	else
		bad "$tag configure" "$w/configure.log"
		return
	fi
	if build first; then ok; else bad "$tag first build" "$w/first.log"; return; fi

	if "$b/demo" >"$w/run1.out" 2>&1; then ok; else bad "$tag demo exits $?" "$w/run1.out"; fi
	bytes=$(value DEMO_BYTES "$w/run1.out")
	if [ -n "$bytes" ] && [ "$bytes" -ge 4096 ] && grep -q "DEMO_ROWS = 32," "$w/run1.out"; then
		ok
	else
		bad "$tag demo should print DEMO_ROWS = 32 and DEMO_BYTES >= 4096 (32 x 32 f32)" "$w/run1.out"
	fi

	missing=
	for f in demo.cuh demo_check.cu demo.json demo.svg; do
		[ -f "$out/$f" ] || missing="$missing $f"
	done
	if [ -z "$missing" ] && grep -q "demo\.tile" "$b/bankc/demo/demo.d" 2>/dev/null; then
		ok
	else
		bad "$tag bankc build outputs: missing$missing in $out, or demo.d does not name demo.tile"
	fi

	# Nothing changed: nothing runs.
	if build noop && ! grep -q "bankc build" "$w/noop.log" &&
	   ! grep -q "Building C object" "$w/noop.log"; then
		ok
	else
		bad "$tag a second build with nothing changed should do nothing" "$w/noop.log"
	fi

	# A comment: bankc reruns, writes nothing new, nothing recompiles.
	touch "$w/mark"
	sleep 1
	printf '# an edit that changes no tile\n' >>"$tile"
	if build comment && grep -q "bankc build" "$w/comment.log"; then
		ok
	else
		bad "$tag editing demo.tile should rerun bankc" "$w/comment.log"
	fi
	if ! newer "$out/demo.cuh" "$w/mark" &&
	   ! grep -q "Building C object" "$w/comment.log"; then
		ok
	else
		bad "$tag a comment-only edit should leave demo.cuh as it was and recompile nothing" "$w/comment.log"
	fi
	"$b/demo" >"$w/run2.out" 2>&1
	if cmp -s "$w/run1.out" "$w/run2.out"; then
		ok
	else
		bad "$tag a comment-only edit changed the program's output" "$w/run2.out"
	fi

	# An error in the file: the build fails with bankc's diagnostic and the
	# outputs stay as they were.
	cp "$tile" "$w/good.tile"
	sleep 1
	printf 'tile broken {\n    shape 32 x 32;\n}\n' >>"$tile"
	if ! build broken && grep -q "error: tile 'broken' has no 'dtype'" "$w/broken.log" &&
	   ! newer "$out/demo.cuh" "$w/mark" && [ ! -e "$out/broken.cuh" ]; then
		ok
	else
		bad "$tag a tile with an error should fail the build with bankc's diagnostic and write nothing" "$w/broken.log"
	fi

	# The shape: bankc reruns and the program sees the new tile at once.
	sleep 1
	sed 's/shape 32 x 32;/shape 64 x 32;/' "$w/good.tile" >"$tile"
	if ! grep -q "shape 64 x 32;" "$tile"; then
		bad "$tag could not change the shape in the copy of demo.tile"
		return
	fi
	if build shape && grep -q "bankc build" "$w/shape.log"; then
		ok
	else
		bad "$tag changing the shape should rerun bankc" "$w/shape.log"
	fi
	"$b/demo" >"$w/run3.out" 2>&1
	rc=$?
	bytes=$(value DEMO_BYTES "$w/run3.out")
	if [ "$rc" -eq 0 ] && grep -q "DEMO_ROWS = 64," "$w/run3.out" &&
	   [ -n "$bytes" ] && [ "$bytes" -ge 8192 ] && ! cmp -s "$w/run1.out" "$w/run3.out"; then
		ok
	else
		bad "$tag after the shape change the same build should give DEMO_ROWS = 64, DEMO_BYTES >= 8192 (exit $rc)" "$w/run3.out"
	fi
}

n=0
for g in "Unix Makefiles" Ninja; do
	case $g in
	Ninja) tool=ninja ;;
	*) tool='make' ;;
	esac
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "note: $tool not found; generator '$g' not tested"
		continue
	fi
	n=$((n + 1))
	run_generator "$g" "$tmp/$n"
done
[ "$n" -gt 0 ] || bad "neither make nor ninja found: nothing to build with"

echo "cmake: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

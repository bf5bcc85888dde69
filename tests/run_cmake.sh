#!/bin/sh
# The CMake support on examples/cmake: configure, build and run the example,
# then edit its tile and check that the build reruns bankc when, and only
# when, it should.  With each generator found (Unix Makefiles, Ninja):
#   - in place: the module from this tree (tests/cmake/intree), the full
#     sequence;
#   - installed: bankc installed into a temporary prefix by make install,
#     the example configured against it with find_package(bankc CONFIG),
#     the full sequence;
#   - a path with a space: the installed package again, its source and
#     build folders under a folder named "a b": build, no-op rebuild, a
#     comment edit (this needs bankc build's depfile to escape the space);
#   - stale objects (tests/cmake/stale): the tiles in an INTERFACE library
#     and a source added by target_sources after bankc_add_tiles; a layout
#     change rebuilds, in one build, the objects of the sources that
#     include the header and no other, and the programs see the new layout;
#   - reproducible outputs: no header or NAME.json names the checkout's
#     absolute path;
#   - one tile name in two files of one call (tests/cmake/names): an error
#     at configure time naming both, file:line:col;
#   - files whose stems are another's with an extension (tests/cmake/stems:
#     a.tile, a.d.tile, a.stamp.tile, a.changed.tile): each its own folder,
#     stamp and depfile; builds, a no-op rebuild, an edit of one reruns
#     bankc for that one only;
#   - the README's "Using bankc in a CMake project": its CMakeLists.txt,
#     taken from the README, on the installed package: builds and runs;
# and with the CUDA compiler, the kernel library's example
# (examples/templates: find_package(bankc COMPONENTS templates), the
# target bankc::templates) on the installed package, for sm_90a and for
# sm_80: configured, built with the prefix's include folder and no other
# of bankc's, no-op rebuild, run (no device: exit 77); and, for the package and in place: CHECK_PROGRAMS,
# the check program built and registered with CTest (`ctest` runs it on a
# GPU machine; tests/gpu/ctest_example.sh; without a GPU, CTest shows it
# skipped), a tile added to the file becomes a second test.  Every run has its own
# copy of the example, so the source tree is never modified.
# usage: run_cmake.sh BANKC
. "$(dirname "$0")/lib.sh"
bankc=${1:-./bankc}
root=$(cd "$(dirname "$0")/.." && pwd)

if ! have cmake; then
	skip "the CMake support (no cmake on PATH)"
	summary cmake
	exit
fi
if [ ! -f "$bankc" ] || [ ! -x "$bankc" ]; then
	bad "'$bankc' is not an executable file"
	summary cmake
	exit
fi
bankc=$(cd "$(dirname "$bankc")" && pwd)/$(basename "$bankc")

# bad_log WHAT LOG: a failure, with the end of LOG (a build's last steps)
bad_log() { bad "$1"; [ -f "$2" ] && tail -n 15 "$2" | indent; }
# newer A B: A exists and was modified after B.
newer() { [ -n "$(find "$1" -prune -newer "$2" 2>/dev/null)" ]; }
# value NAME FILE: the number the program printed for NAME ("NAME = N").
value() { sed -n "s/.*$1 = \([0-9][0-9]*\).*/\1/p" "$2" | head -n 1; }

# The installed package: a build of this tree in a folder of its own.
prefix=$tmp/prefix
if make -s -C "$root" --no-print-directory B="$tmp/bankc-build" BIN="$tmp/bankc-build/bankc" \
	install prefix="$prefix" >"$tmp/install.log" 2>&1; then
	ok
else
	bad_log "make install into $prefix" "$tmp/install.log"
	prefix=
fi

# copy_example FLAVOR DIR: the example's files in DIR, laid out for FLAVOR
# (intree: the in-place project around examples/cmake's sources).
copy_example() {
	mkdir -p "$2"
	cp "$root/examples/cmake/main.c" "$root/examples/cmake/demo.tile" "$2/"
	case $1 in
	intree) cp "$root/tests/cmake/intree/CMakeLists.txt" "$2/" ;;
	*) cp "$root/examples/cmake/CMakeLists.txt" "$2/" ;;
	esac
}

# configure FLAVOR GENERATOR SRC BUILD LOG [ARGS...]
configure() {
	fl=$1 gen=$2 s=$3 bd=$4 log=$5
	shift 5
	case $fl in
	intree) cmake -G "$gen" -S "$s" -B "$bd" -DBANKC_SOURCE_DIR="$root" -DBANKC="$bankc" "$@" >"$log" 2>&1 ;;
	*) cmake -G "$gen" -S "$s" -B "$bd" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$log" 2>&1 ;;
	esac
}

# run_sequence FLAVOR GENERATOR DIR: the whole sequence in DIR.
run_sequence() {
	g=$2 w=$3 tag="[$1, $2]"
	src=$w/src b=$w/build
	copy_example "$1" "$src"
	tile=$src/demo.tile out=$b/bankc/demo/demo

	# build NAME: build, the log in $w/NAME.log; status of the build.
	build() { cmake --build "$b" --parallel 2 >"$w/$1.log" 2>&1; }

	if configure "$1" "$g" "$src" "$b" "$w/configure.log"; then
		ok
	else
		bad_log "$tag configure" "$w/configure.log"
		return
	fi
	if build first; then ok; else bad_log "$tag first build" "$w/first.log"; return; fi

	if "$b/demo" >"$w/run1.out" 2>&1; then ok; else bad_log "$tag demo exits $?" "$w/run1.out"; fi
	bytes=$(value DEMO_BYTES "$w/run1.out")
	if [ -n "$bytes" ] && [ "$bytes" -ge 4096 ] && grep -q "DEMO_ROWS = 32," "$w/run1.out"; then
		ok
	else
		bad_log "$tag demo should print DEMO_ROWS = 32 and DEMO_BYTES >= 4096 (32 x 32 f32)" "$w/run1.out"
	fi

	missing=
	for f in demo.cuh demo_check.cu demo.json demo.svg; do
		[ -f "$out/$f" ] || missing="$missing $f"
	done
	if [ -z "$missing" ] && grep -q "demo\.tile" "$out/.bankc-deps.d" 2>/dev/null; then
		ok
	else
		bad "$tag bankc build outputs: missing$missing in $out, or its .bankc-deps.d does not name demo.tile"
	fi

	# Nothing changed: nothing runs.
	if build noop && ! grep -q "bankc build" "$w/noop.log" &&
	   ! grep -q "Building C object" "$w/noop.log"; then
		ok
	else
		bad_log "$tag a second build with nothing changed should do nothing" "$w/noop.log"
	fi

	# A comment: bankc reruns, writes nothing new, nothing recompiles.
	touch "$w/mark"
	sleep 1
	printf '# an edit that changes no tile\n' >>"$tile"
	if build comment && grep -q "bankc build" "$w/comment.log"; then
		ok
	else
		bad_log "$tag editing demo.tile should rerun bankc" "$w/comment.log"
	fi
	if ! newer "$out/demo.cuh" "$w/mark" &&
	   ! grep -q "Building C object" "$w/comment.log"; then
		ok
	else
		bad_log "$tag a comment-only edit should leave demo.cuh as it was and recompile nothing" "$w/comment.log"
	fi
	"$b/demo" >"$w/run2.out" 2>&1
	if cmp -s "$w/run1.out" "$w/run2.out"; then
		ok
	else
		bad_log "$tag a comment-only edit changed the program's output" "$w/run2.out"
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
		bad_log "$tag a tile with an error should fail the build with bankc's diagnostic and write nothing" "$w/broken.log"
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
		bad_log "$tag changing the shape should rerun bankc" "$w/shape.log"
	fi
	"$b/demo" >"$w/run3.out" 2>&1
	rc=$?
	bytes=$(value DEMO_BYTES "$w/run3.out")
	if [ "$rc" -eq 0 ] && grep -q "DEMO_ROWS = 64," "$w/run3.out" &&
	   [ -n "$bytes" ] && [ "$bytes" -ge 8192 ] && ! cmp -s "$w/run1.out" "$w/run3.out"; then
		ok
	else
		bad_log "$tag after the shape change the same build should give DEMO_ROWS = 64, DEMO_BYTES >= 8192 (exit $rc)" "$w/run3.out"
	fi
}

# run_space GENERATOR DIR: the installed package in a path with a space.
run_space() {
	g=$1 w="$2/a b" tag="[path with a space, $1]"
	src=$w/src b=$w/build
	copy_example package "$src"
	tile=$src/demo.tile out=$b/bankc/demo/demo
	build() { cmake --build "$b" --parallel 2 >"$w/$1.log" 2>&1; }
	if configure package "$g" "$src" "$b" "$w/configure.log" && build first && "$b/demo" >/dev/null; then
		ok
	else
		bad_log "$tag configure, build and run" "$w/first.log"
		return
	fi
	if build noop && ! grep -q "bankc build" "$w/noop.log" &&
	   ! grep -q "Building C object" "$w/noop.log"; then
		ok
	else
		bad_log "$tag a second build with nothing changed should do nothing (bankc build must escape the space in its depfile)" "$w/noop.log"
	fi
	touch "$w/mark"
	sleep 1
	printf '# an edit that changes no tile\n' >>"$tile"
	if build comment && grep -q "bankc build" "$w/comment.log" &&
	   ! newer "$out/demo.cuh" "$w/mark" && ! grep -q "Building C object" "$w/comment.log"; then
		ok
	else
		bad_log "$tag editing demo.tile should rerun bankc and recompile nothing" "$w/comment.log"
	fi
	if build noop2 && ! grep -q "bankc build" "$w/noop2.log"; then
		ok
	else
		bad_log "$tag the build after the edit should do nothing" "$w/noop2.log"
	fi
}

# run_stale GENERATOR DIR: tests/cmake/stale, a layout change built once.
run_stale() {
	g=$1 w=$2 tag="[stale objects, $1]"
	src=$w/src b=$w/build
	mkdir -p "$src"
	cp "$root"/tests/cmake/stale/* "$root/examples/cmake/demo.tile" "$src/"
	build() { cmake --build "$b" --parallel 2 >"$w/$1.log" 2>&1; }
	if cmake -G "$g" -S "$src" -B "$b" -DBANKC_SOURCE_DIR="$root" -DBANKC="$bankc" \
		>"$w/configure.log" 2>&1 && build first; then ok
	else bad_log "$tag configure and build" "$w/first.log"; return; fi
	for app in iface_app late_app; do
		if "$b/$app" | grep -q "^DEMO_ROWS = 32\$"; then ok
		else bad "$tag $app should print DEMO_ROWS = 32"; fi
	done
	# what the outputs record: paths relative to the source folder
	if grep -rl -e "$w" "$b"/bankc/*/demo/*.cuh "$b"/bankc/*/demo/*.json >"$w/abs.txt"; then
		bad_log "$tag outputs hold the checkout's absolute path" "$w/abs.txt"
	elif grep -q '^ \* spec: *demo\.tile,' "$b/bankc/tiles/demo/demo.cuh" &&
		grep -q '"spec": "demo\.tile"' "$b/bankc/tiles/demo/demo.json"; then ok
	else bad "$tag demo.cuh and demo.json should record the spec as demo.tile"; fi
	o=$b/CMakeFiles
	touch "$w/mark"
	sleep 1
	sed -i 's/shape 32 x 32;/shape 64 x 32;/' "$src/demo.tile"
	if build shape; then ok; else bad_log "$tag the build after the layout change" "$w/shape.log"; return; fi
	for app in iface_app late_app; do
		if "$b/$app" | grep -q "^DEMO_ROWS = 64\$"; then ok
		else bad_log "$tag after one build $app should print DEMO_ROWS = 64 (a stale object)" "$w/shape.log"; fi
	done
	for obj in iface_app.dir/main.c.o late_app.dir/late.c.o; do
		if newer "$o/$obj" "$w/mark"; then ok
		else bad_log "$tag $obj (includes demo.cuh) was not recompiled" "$w/shape.log"; fi
	done
	for obj in iface_app.dir/other.c.o late_app.dir/other.c.o; do
		if [ -f "$o/$obj" ] && ! newer "$o/$obj" "$w/mark"; then ok
		else bad_log "$tag $obj (includes no header of bankc's) was recompiled" "$w/shape.log"; fi
	done
	if build noop && ! grep -q "bankc build\|Building C" "$w/noop.log"; then ok
	else bad_log "$tag the build after it should do nothing" "$w/noop.log"; fi
}

# run_names GENERATOR DIR: a tile defined in two files of one call.
run_names() {
	w=$2 tag="[one name in two files, $1]"
	mkdir -p "$w/src"
	cp "$root/tests/cmake/names/CMakeLists.txt" "$root/examples/cmake/main.c" "$w/src/"
	cp "$root/examples/cmake/demo.tile" "$w/src/a.tile"
	{ printf '# b.tile\n'; cat "$root/examples/cmake/demo.tile"; } >"$w/src/b.tile"
	if cmake -G "$1" -S "$w/src" -B "$w/build" -DBANKC_SOURCE_DIR="$root" -DBANKC="$bankc" \
		>"$w/configure.log" 2>&1; then
		bad "$tag configuring should fail"
	elif tr -d '\n' <"$w/configure.log" | tr -s ' ' |
		grep -q "b\.tile:4:6: error: tile 'demo' is also defined at [^ ]*a\.tile:3:6"; then ok
	else bad_log "$tag the error should name b.tile:4:6 and a.tile:3:6" "$w/configure.log"; fi
}

# run_stems GENERATOR DIR: a.tile beside a.d.tile, a.stamp.tile and
# a.changed.tile, each spec's tile named after its file (t_a, t_a_d, ...).
run_stems() {
	w=$2 tag="[stems that extend another's, $1]"
	b=$w/build
	mkdir -p "$w/src"
	cp "$root/tests/cmake/stems/CMakeLists.txt" "$root/tests/cmake/stems/main.c" "$w/src/"
	for s in a a.d a.stamp a.changed; do
		sed "s/^tile demo {/tile t_$(echo "$s" | tr . _) {/" "$root/examples/cmake/demo.tile" >"$w/src/$s.tile"
	done
	build() { cmake --build "$b" --parallel 2 >"$w/$1.log" 2>&1; }
	if cmake -G "$1" -S "$w/src" -B "$b" -DBANKC_SOURCE_DIR="$root" -DBANKC="$bankc" \
		>"$w/configure.log" 2>&1 && build first && "$b/app" >"$w/run.out" 2>&1 &&
		[ "$(cat "$w/run.out")" = "32 32 32 32" ]; then ok
	else bad_log "$tag configure, build and run (four headers, 32 rows each)" "$w/first.log"; return; fi
	for s in a a.d a.stamp a.changed; do
		t=t_$(echo "$s" | tr . _) missing=
		for f in "$t.cuh" "${t}_check.cu" "$t.json" "$t.svg" .bankc-stamp .bankc-deps.d; do
			[ -f "$b/bankc/app/$s/$f" ] || missing="$missing $f"
		done
		if [ -z "$missing" ] && grep -q "$s\.tile" "$b/bankc/app/$s/.bankc-deps.d"; then ok
		else bad "$tag $s.tile's folder: missing$missing, or its depfile does not name $s.tile"; fi
	done
	if build noop && ! grep -q "bankc build\|Building C" "$w/noop.log"; then ok
	else bad_log "$tag a second build with nothing changed should do nothing" "$w/noop.log"; fi
	sleep 1
	sed -i 's/shape 32 x 32;/shape 64 x 32;/' "$w/src/a.d.tile"
	if build edit && "$b/app" >"$w/run.out" 2>&1 && [ "$(cat "$w/run.out")" = "32 64 32 32" ] &&
		[ "$(grep -c "bankc build" "$w/edit.log")" -eq 1 ] && grep -q "bankc build a\.d\.tile" "$w/edit.log"; then ok
	else bad_log "$tag a.d.tile's shape edited: bankc for it alone, the program sees 64 rows" "$w/edit.log"; fi
}

# run_readme_project GENERATOR DIR: the README's CMake project, as written.
run_readme_project() {
	w=$2 tag="[README's CMake project, $1]"
	mkdir -p "$w/src"
	awk '/^## Using bankc in a CMake project/ { on = 1 } on && /^    cmake_minimum_required/ { blk = 1 }
		blk && /^$/ { exit } blk { print substr($0, 5) }' "$root/README.md" >"$w/src/CMakeLists.txt"
	cp "$root/examples/cmake/main.c" "$root/examples/cmake/demo.tile" "$w/src/"
	if ! grep -q "bankc_add_tiles(TARGET app TILES demo.tile)" "$w/src/CMakeLists.txt"; then
		bad "$tag no CMakeLists.txt found in the README's section"
		return
	fi
	if (cd "$w/src" && cmake -S . -B build -G "$1" -DCMAKE_PREFIX_PATH="$prefix" &&
		cmake --build build && ./build/app) >"$w/log" 2>&1 && grep -q "^DEMO_ROWS = 32," "$w/log"; then ok
	else bad_log "$tag configure, build and run as the README says" "$w/log"; fi
}

# run_check_programs FLAVOR GENERATOR DIR: CHECK_PROGRAMS with CTest.
run_check_programs() {
	g=$2 w=$3 tag="[CHECK_PROGRAMS, $1, $2]"
	src=$w/src b=$w/build
	copy_example "$1" "$src"
	tile=$src/demo.tile
	build() { cmake --build "$b" --parallel 2 >"$w/$1.log" 2>&1; }
	if ! configure "$1" "$g" "$src" "$b" "$w/configure.log" -DDEMO_CHECK_PROGRAMS=ON -DINTREE_CHECK_PROGRAMS=ON; then
		bad_log "$tag configure with CUDA" "$w/configure.log"
		return
	fi
	ok
	if build first && [ -x "$b/demo_check" ] && [ -x "$b/demo" ]; then ok
	else bad_log "$tag the build should make demo and demo_check" "$w/first.log"; fi
	if (cd "$b" && ctest -N) >"$w/ctest.log" 2>&1 && grep -q "Test *#1: demo_check\$" "$w/ctest.log" &&
	   grep -q "Total Tests: 1\$" "$w/ctest.log"; then ok
	else bad_log "$tag ctest -N should list the one test demo_check" "$w/ctest.log"; fi
	if build noop && ! grep -q "bankc build\|Building" "$w/noop.log"; then ok
	else bad_log "$tag a second build with nothing changed should do nothing" "$w/noop.log"; fi
	# ctest: passed with a GPU, skipped (exit 77) without one
	(cd "$b" && ctest) >"$w/ctest-run.log" 2>&1
	rc=$?
	if have nvidia-smi && nvidia-smi -L >/dev/null 2>&1; then
		if [ "$rc" -eq 0 ] && grep -q "demo_check .*Passed" "$w/ctest-run.log"; then ok
		else bad_log "$tag ctest on a GPU machine should pass demo_check" "$w/ctest-run.log"; fi
	elif [ "$rc" -eq 0 ] && grep -q "demo_check .*\*\*\*Skipped" "$w/ctest-run.log" &&
		grep -q "demo_check (Skipped)" "$w/ctest-run.log"; then ok
	else bad_log "$tag without a GPU ctest should show demo_check skipped and pass" "$w/ctest-run.log"; fi
	# A second tile in the file: configuring again makes its program and test.
	sleep 1
	sed 's/^tile demo {/tile demo_b {/' "$root/examples/cmake/demo.tile" >>"$tile"
	if build second && [ -x "$b/demo_b_check" ] &&
	   (cd "$b" && ctest -N) >"$w/ctest2.log" 2>&1 && grep -q "Total Tests: 2\$" "$w/ctest2.log"; then ok
	else bad_log "$tag a tile added to demo.tile should become the test demo_b_check" "$w/second.log"; fi
}

# run_library GENERATOR DIR: examples/templates on the installed package.
run_library() {
	for arch in 90a 80; do
		w=$2/$arch tag="[kernel library, $1, $arch]"
		mkdir -p "$w/src"
		cp "$root"/examples/templates/CMakeLists.txt "$root"/examples/templates/main.cu "$w/src/"
		if cmake -G "$1" -S "$w/src" -B "$w/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
			>"$w/configure.log" 2>&1 &&
		   cmake --build "$w/build" --verbose >"$w/build.log" 2>&1 && [ -x "$w/build/demo" ]; then ok
		else bad_log "$tag configure and build" "$w/build.log"; [ -f "$w/build.log" ] || tail -n 15 "$w/configure.log" | indent; continue; fi
		# compiled for the architecture asked, and every header of bankc's
		# it read (its depfile) from the prefix's include folder
		line=$(grep -- 'main.cu' "$w/build.log" | grep -- '-c ' | head -n 1)
		# (Ninja keeps depfiles in its log, make beside the object)
		dep=$w/build/CMakeFiles/demo.dir/main.cu.o.d
		if [ -f "$dep" ]; then cat "$dep"; else (cd "$w/build" && ninja -t deps); fi >"$w/deps" 2>&1
		strays=$(tr ' \\' '\n\n' <"$w/deps" | grep 'bankc/' | grep -v "^$prefix/include/bankc/")
		if printf '%s\n' "$line" | grep -q -- "arch=compute_$arch,code=\[compute_$arch,sm_$arch\]" &&
		   grep -q "$prefix/include/bankc/tiles/hgw_bn.cuh" "$w/deps" && [ -z "$strays" ]; then ok
		else bad "$tag compiled for sm_$arch with $prefix/include's headers only: $line $strays"; fi
		if cmake --build "$w/build" >"$w/noop.log" 2>&1 && ! grep -q "Building CUDA" "$w/noop.log"; then ok
		else bad_log "$tag a second build with nothing changed should do nothing" "$w/noop.log"; fi
		"$w/build/demo" >"$w/run.log" 2>&1
		rc=$?
		if have nvidia-smi && nvidia-smi -L >/dev/null 2>&1; then
			if [ "$rc" -eq 0 ]; then ok; else bad_log "$tag demo on this GPU: exit $rc" "$w/run.log"; fi
		elif [ "$rc" -eq 77 ] && grep -q "no CUDA device" "$w/run.log"; then ok
		else bad_log "$tag demo without a GPU: exit $rc (77 expected)" "$w/run.log"; fi
	done
}

n=0 cuda_gen=
for g in "Unix Makefiles" Ninja; do
	case $g in
	Ninja) tool=ninja ;;
	*) tool='make' ;;
	esac
	if ! have "$tool"; then
		skip "the generator '$g' (no $tool)"
		continue
	fi
	cuda_gen=$g
	n=$((n + 1))
	run_sequence intree "$g" "$tmp/$n-intree"
	run_stale "$g" "$tmp/$n-stale"
	run_names "$g" "$tmp/$n-names"
	run_stems "$g" "$tmp/$n-stems"
	if [ -n "$prefix" ]; then
		run_sequence package "$g" "$tmp/$n-package"
		run_readme_project "$g" "$tmp/$n-readme"
		run_space "$g" "$tmp/$n-space"
	fi
done
[ "$n" -gt 0 ] || bad "neither make nor ninja found: nothing to build with"
if [ -n "$cuda_gen" ] && [ -n "$prefix" ]; then
	if have nvcc; then
		run_library "$cuda_gen" "$tmp/library"
		run_check_programs package "$cuda_gen" "$tmp/cuda-package"
		run_check_programs intree "$cuda_gen" "$tmp/cuda-intree"
	else
		skip "CHECK_PROGRAMS (no nvcc)"
	fi
fi

summary cmake

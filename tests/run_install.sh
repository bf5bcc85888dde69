#!/bin/sh
# The build and install conventions, on a build of bankc in a folder of its
# own (the tree's ./bankc and build/ are left alone):
#   - a user's build honours CPPFLAGS, CFLAGS and LDFLAGS, has no -Werror
#     and survives a warning; make check's check-werror fails on that
#     warning; DEVELOPER=1 builds with -Werror;
#   - a change of flags rebuilds every object, an unchanged build does
#     nothing, V=1 prints the commands;
#   - make install with DESTDIR and prefix puts every file in place, the
#     installed bankc runs, its man page renders without a warning, the
#     pkg-config file gives the runtime headers (a check program compiles
#     with them) and the compiler (--variable=bankc), from wherever the
#     tree is moved (${pcfiledir}); the CMake package is found from the
#     staged tree, with version ranges and COMPONENTS as CMake's helpers
#     treat them;
#   - the kernel library (bankc-templates.pc): a user's program, a copy of
#     examples/templates/main.cu compiled by nvcc against the staged
#     headers alone (every header it reads under the staged prefix) for
#     sm_90a and for sm_80, warnings as errors; built for sm_80 its GEMM
#     kernels are stubs without wgmma that allow 32 threads (it runs the
#     transposes and reports the GEMM not supported), built for sm_90a the
#     real ones; each runs (no device: exit 77 and says so); the example's
#     Makefile builds it through pkg-config;
#   - folders set one by one (bindir, includedir, mandir ...) are used, and
#     the CMake package finds them; PREFIX still works;
#   - make uninstall removes every file install wrote;
#   - a DESTDIR with a space and a quote is one folder to install and
#     uninstall, nothing written outside it.
# usage: run_install.sh
. "$(dirname "$0")/lib.sh"
# bad_log WHAT LOG: a failure, with the end of LOG (a build's last steps)
bad_log() { bad "$1"; [ -f "$2" ] && tail -n 15 "$2" | indent; }
version=$(sed -n 's/^#define BANKC_VERSION "\(.*\)"/\1/p' compiler/bankc.h)
b=$tmp/build
# m ARGS...: make as a user runs it from a shell, with none of the flags
# of a make this runs under (make -s check would hide what V=1 shows)
m() { MAKEFLAGS= make --no-print-directory B="$b" BIN="$b/bankc" "$@"; }
# every source the build compiles: main.c and each stage folder's sources
nsrc=$(ls compiler/main.c compiler/*/*.c compiler/*/*.re | wc -l)

# A user's build: their flags, after the project's, no -Werror, and a
# warning (-Wpadded warns about the structs of bankc.h) is not fatal.
if m V=1 CPPFLAGS=-DUSER_CPPFLAGS CFLAGS='-O1 -Wpadded -DUSER_CFLAGS' \
	LDFLAGS=-Wl,-O1 >"$tmp/user.log" 2>&1; then ok; else bad_log "a user's build with a warning failed" "$tmp/user.log"; fi
ncc=$(grep -c -- ' -c ' "$tmp/user.log")
nflag=$(grep -- ' -c ' "$tmp/user.log" | grep -- '-DUSER_CPPFLAGS' | grep -c -- '-DUSER_CFLAGS')
if [ "$ncc" -eq "$nsrc" ] && [ "$nflag" -eq "$ncc" ]; then ok
else bad_log "V=1: $ncc compile commands shown for $nsrc sources, $nflag with CPPFLAGS and CFLAGS" "$tmp/user.log"; fi
if grep -q -- '-Werror' "$tmp/user.log"; then bad_log "a user's build uses -Werror" "$tmp/user.log"; else ok; fi
if grep -q -- '-Wpadded' "$tmp/user.log" && grep -q 'warning:' "$tmp/user.log"; then ok
else bad_log "the user's -Wpadded build gave no warning: the test proves nothing" "$tmp/user.log"; fi
if grep -- "-o $b/bankc " "$tmp/user.log" | grep -q -- '-Wl,-O1'; then ok
else bad_log "LDFLAGS not on the link command" "$tmp/user.log"; fi

# The same flags again: nothing to do.  Other flags: everything again.
m CPPFLAGS=-DUSER_CPPFLAGS CFLAGS='-O1 -Wpadded -DUSER_CFLAGS' LDFLAGS=-Wl,-O1 >"$tmp/again.log" 2>&1
if [ ! -s "$tmp/again.log" ]; then ok; else bad_log "an unchanged build did something" "$tmp/again.log"; fi
# make -s: a build that does work prints nothing (not even its short lines)
m -s CFLAGS='-O1 -DMAKE_S' >"$tmp/silent.log" 2>&1
if [ ! -s "$tmp/silent.log" ]; then ok; else bad_log "make -s printed" "$tmp/silent.log"; fi
if m V=1 DEVELOPER=1 >"$tmp/dev.log" 2>&1; then ok; else bad_log "DEVELOPER=1 build" "$tmp/dev.log"; fi
nw=$(grep -- ' -c ' "$tmp/dev.log" | grep -c -- ' -Werror')
if [ "$nw" -eq "$nsrc" ]; then ok
else bad_log "changing the flags (DEVELOPER=1) recompiled $nw of $nsrc sources with -Werror" "$tmp/dev.log"; fi
# make check's -Werror pass: failing on the user build's warning, clean
# with the project's flags, and leaving the build's objects alone
if m check-werror CFLAGS='-O1 -Wpadded' >"$tmp/werror2.log" 2>&1; then
	bad_log "check-werror passed a build with warnings (-Wpadded)" "$tmp/werror2.log"
elif grep -q 'error:.*-Werror=padded' "$tmp/werror2.log"; then ok
else bad_log "check-werror with -Wpadded failed, but not on the warning" "$tmp/werror2.log"; fi
m >/dev/null 2>&1 || bad "a user's build after DEVELOPER=1"
touch "$tmp/mark"
if m check-werror >"$tmp/werror.log" 2>&1; then ok; else bad_log "check-werror with the project's flags" "$tmp/werror.log"; fi
m >"$tmp/after.log" 2>&1
if [ -z "$(find "$b" -name '*.o' -newer "$tmp/mark")" ] && [ ! -s "$tmp/after.log" ]; then ok
else bad_log "the build after check-werror did something" "$tmp/after.log"; fi

# DESTDIR and prefix.
d=$tmp/stage P=/opt/bankc
if m install DESTDIR="$d" prefix="$P" >"$tmp/install.log" 2>&1; then ok; else bad_log "make install" "$tmp/install.log"; fi
files="bin/bankc include/bankc/bankc_runtime.h include/bankc/bankc_check.cuh
	include/bankc/bankc_wgmma.cuh include/bankc/bankc_umma.cuh include/bankc/transpose.cuh include/bankc/gemm.cuh
	$(cd include && ls bankc/detail/* | sed 's|^|include/|')
	$(for t in tp_f32 tp_f64 tp_f16l tp_i8l hgw_a hgw_b hgw_bn hgw_c128 f8w_a f8w_b; do echo include/bankc/tiles/$t.cuh; done)
	lib/pkgconfig/bankc.pc lib/pkgconfig/bankc-templates.pc lib/cmake/bankc/bankcConfig.cmake
	lib/cmake/bankc/bankcConfigVersion.cmake lib/cmake/bankc/BankcTiles.cmake
	share/man/man1/bankc.1 share/doc/bankc/README.md share/doc/bankc/json.md
	share/doc/bankc/build.md share/doc/bankc/install.md share/doc/bankc/model.md
	share/doc/bankc/scan.md share/doc/bankc/solver.md share/doc/bankc/sarif.md
	share/doc/bankc/templates.md share/doc/bankc/examples/templates/CMakeLists.txt
	share/doc/bankc/examples/templates/Makefile share/doc/bankc/examples/templates/main.cu
	share/doc/bankc/examples/cmake/CMakeLists.txt
	share/doc/bankc/examples/cmake/demo.tile share/doc/bankc/examples/cmake/main.c
	$(cd docs && ls schema/*.json | sed 's|^|share/doc/bankc/|')"
[ -n "$(ls docs/schema/*.json)" ] && ok || bad "no JSON Schemas in docs/schema"
for f in $files; do
	if [ -f "$d$P/$f" ]; then ok; else bad "$P/$f not installed under DESTDIR"; fi
done
extra=$(cd "$d$P" && find . -type f | sed 's|^\./||' | while read -r f; do
	case " $(echo $files) " in *" $f "*) ;; *) echo "$f" ;; esac; done)
if [ -z "$extra" ]; then ok; else bad "install wrote files this test does not know: $extra"; fi
if [ "$("$d$P/bin/bankc" --version)" = "bankc $version" ]; then ok; else bad "the installed bankc --version"; fi
if have groff; then
	if groff -man -Tutf8 -ww -z "$d$P/share/man/man1/bankc.1" >"$tmp/groff.log" 2>&1 && [ ! -s "$tmp/groff.log" ]
	then ok; else bad_log "the installed man page renders with warnings" "$tmp/groff.log"; fi
else
	skip "the installed man page rendered (no groff)"
fi

# pkg-config: the file finds the prefix from its own folder, so the staged
# tree gives the staged headers and compiler, and so does a moved copy.
pc=$d$P/lib/pkgconfig
# pkg-config PATH ARGS...: its answer without trailing blanks
pcq() { p=$1; shift; PKG_CONFIG_PATH=$p pkg-config "$@" | sed 's/ *$//'; }
# real PATH: PATH with its .. resolved
real() { (cd "$(dirname "$1")" && echo "$(pwd -P)/$(basename "$1")"); }
if ! have pkg-config; then
	skip "bankc.pc (no pkg-config; make deps installs pkgconf)"
else
	inc=$(pcq "$pc" --cflags bankc)
	if [ "$(real "${inc#-I}")" = "$(real "$d$P/include/bankc")" ]; then ok
	else bad "pkg-config --cflags bankc: '$inc', not the staged $d$P/include/bankc"; fi
	if [ "$(pcq "$pc" --modversion bankc)" = "$version" ]; then ok
	else bad "pkg-config --modversion bankc is not $version"; fi
	# moved elsewhere as a whole: the headers and bankc where they now are
	cp -R "$d$P" "$tmp/moved"
	mpc=$tmp/moved/lib/pkgconfig
	exe=$(pcq "$mpc" --variable=bankc bankc)
	minc=$(pcq "$mpc" --cflags bankc)
	if [ -x "$exe" ] && [ "$(real "$exe")" = "$(real "$tmp/moved/bin/bankc")" ] &&
	   [ "$("$exe" --version)" = "bankc $version" ]; then ok
	else bad "pkg-config --variable=bankc bankc of the moved tree: '$exe', not $tmp/moved/bin/bankc"; fi
	if [ -f "${minc#-I}/bankc_check.cuh" ] &&
	   [ "$(real "${minc#-I}")" = "$(real "$tmp/moved/include/bankc")" ]; then ok
	else bad "pkg-config --cflags bankc of the moved tree: '$minc'"; fi
	if grep -q "$P\|$d" "$mpc/bankc.pc"; then bad "bankc.pc names the prefix it was installed for"; else ok; fi
	# the library's module: the folder above bankc/, staged and moved
	tinc=$(pcq "$pc" --cflags bankc-templates)
	if [ "$(real "${tinc#-I}")" = "$(real "$d$P/include")" ] &&
	   [ "$(pcq "$pc" --modversion bankc-templates)" = "$version" ]; then ok
	else bad "pkg-config --cflags bankc-templates: '$tinc', not the staged $d$P/include"; fi
	minc=$(pcq "$mpc" --cflags bankc-templates)
	if [ -f "${minc#-I}/bankc/gemm.cuh" ] && [ "$(real "${minc#-I}")" = "$(real "$tmp/moved/include")" ] &&
	   ! grep -q "$P\|$d" "$mpc/bankc-templates.pc"; then ok
	else bad "pkg-config --cflags bankc-templates of the moved tree: '$minc'"; fi
	rm -rf "$tmp/moved"
	cflags=$(pcq "$pc" --define-variable=prefix="$d$P" --cflags bankc)
	if ! have nvcc; then
		skip "a check program with the installed runtime (no nvcc)"
	elif "$d$P/bin/bankc" build specs/seeds.tile -o "$tmp/gen" &&
		nvcc -std=c++17 -arch=sm_90 $cflags -I"$tmp/gen" -c \
			"$tmp/gen/transpose_f32_check.cu" -o "$tmp/x.o" >"$tmp/nvcc.log" 2>&1; then ok
	else bad_log "a check program with the installed runtime (pkg-config --cflags bankc: $cflags)" "$tmp/nvcc.log"; fi
fi

# The kernel library as a user builds against it: the staged tree's
# headers alone, through pkg-config.
if ! have pkg-config || ! have nvcc; then
	skip "a program with the installed kernel library (needs pkg-config and nvcc)"
else
	u=$tmp/user
	mkdir -p "$u"
	cp examples/templates/main.cu examples/templates/Makefile "$u/"
	tflags=$(pcq "$pc" --cflags bankc-templates)
	for arch in sm_90a sm_80; do
		g="-gencode=arch=compute_${arch#sm_},code=$arch"
		# shellcheck disable=SC2086
		if (cd "$u" && nvcc -std=c++17 -O2 "$g" -Werror all-warnings -Xcompiler -Wall,-Wextra $tflags \
			-o "demo_$arch" main.cu && nvcc -std=c++17 $tflags -M main.cu -o deps.$arch &&
			nvcc -std=c++17 -arch="compute_${arch#sm_}" $tflags -ptx main.cu -o "demo_$arch.ptx") >"$tmp/lib.log" 2>&1
		then ok; else bad_log "the library's example for $arch with the installed headers ($tflags)" "$tmp/lib.log"; continue; fi
		# every bankc header it read is the staged one
		sinc=$(real "$d$P/include/bankc")
		tr ' \\' '\n\n' <"$u/deps.$arch" | grep 'bankc/' | while read -r f; do real "$f"; done >"$u/read.$arch"
		strays=$(grep -v "^$sinc/" "$u/read.$arch")
		if [ -z "$strays" ] && grep -qx "$sinc/tiles/hgw_bn.cuh" "$u/read.$arch"; then ok
		else bad "the $arch build read bankc headers from outside the staged tree: $strays"; fi
		# the GEMM kernels: real for sm_90a, stubs elsewhere
		n=$(grep -c '\.entry .*gemm_sm90_tile' "$u/demo_$arch.ptx")
		if [ "$arch" = sm_90a ]; then want=384; else want=32; fi
		nt=$(grep -A14 '\.entry .*gemm_sm90_tile' "$u/demo_$arch.ptx" | grep -c "\.maxntid $want, 1, 1")
		if [ "$n" -ge 1 ] && [ "$nt" -eq "$n" ]; then ok
		else bad "$arch: $nt of $n GEMM kernels of the example allow $want threads"; fi
		if { [ "$arch" = sm_90a ] && grep -q wgmma.mma_async "$u/demo_$arch.ptx"; } ||
		   { [ "$arch" != sm_90a ] && ! grep -q wgmma "$u/demo_$arch.ptx"; }; then ok
		else bad "$arch: wgmma in the example's PTX only for sm_90a"; fi
		# run: without a device, exit 77 and say so; with one, its checks pass
		"$u/demo_$arch" >"$u/run.$arch" 2>&1
		rc=$?
		if have nvidia-smi && nvidia-smi -L >/dev/null 2>&1; then
			if [ "$rc" -eq 0 ]; then ok; else bad_log "the $arch example on this GPU: exit $rc" "$u/run.$arch"; fi
		elif [ "$rc" -eq 77 ] && grep -q "no CUDA device" "$u/run.$arch"; then ok
		else bad_log "the $arch example without a GPU: exit $rc (77 expected)" "$u/run.$arch"; fi
	done
	if (cd "$u" && rm -f demo && PKG_CONFIG_PATH=$pc MAKEFLAGS= make ARCHS=-arch=sm_80 demo) >"$tmp/libmake.log" 2>&1 &&
	   [ -x "$u/demo" ] && grep -q -- "-I$d$P/lib/pkgconfig/../../include" "$tmp/libmake.log"; then ok
	else bad_log "examples/templates/Makefile with PKG_CONFIG_PATH on the staged tree" "$tmp/libmake.log"; fi
	if (cd "$u" && PKG_CONFIG_PATH=$tmp/nowhere MAKEFLAGS= make demo) >"$tmp/libmake2.log" 2>&1; then
		bad "examples/templates/Makefile without bankc-templates should fail"
	elif grep -q "pkg-config finds no bankc-templates" "$tmp/libmake2.log"; then ok
	else bad_log "examples/templates/Makefile without bankc-templates: the wrong error" "$tmp/libmake2.log"; fi
fi

# find_package(bankc CONFIG) from a prefix: the version file, bankc::bankc
# and bankc::runtime, the module's function.  PROJECT_DIR PREFIX [VERSION]
find_pkg() {
	mkdir -p "$tmp/fp"
	cat >"$tmp/fp/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(find_bankc NONE)
separate_arguments(WANT)
find_package(bankc ${WANT} CONFIG REQUIRED)
get_target_property(exe bankc::bankc IMPORTED_LOCATION)
get_target_property(inc bankc::runtime INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(tinc bankc::templates INTERFACE_INCLUDE_DIRECTORIES)
if(NOT COMMAND bankc_add_tiles)
  message(FATAL_ERROR "no bankc_add_tiles")
endif()
message(STATUS "bankc ${bankc_VERSION} exe=${exe} inc=${inc}")
message(STATUS "templates=${tinc} found=${bankc_templates_FOUND}")
message(STATUS "nosuch_FOUND=${bankc_nosuch_FOUND}")
EOF
	rm -rf "$tmp/fp/b"
	cmake -S "$tmp/fp" -B "$tmp/fp/b" -DCMAKE_PREFIX_PATH="$1" -DWANT="${2:-}" >"$tmp/fp.log" 2>&1
}
if ! have cmake; then
	skip "the CMake package (no cmake)"
else
	if find_pkg "$d$P" && grep -q "bankc $version exe=$d$P/bin/bankc inc=$d$P/include/bankc\$" "$tmp/fp.log"
	then ok; else bad_log "find_package(bankc CONFIG) in the staged tree" "$tmp/fp.log"; fi
	major_minor=${version%.*}
	if find_pkg "$d$P" "$major_minor"; then ok; else bad_log "find_package(bankc $major_minor)" "$tmp/fp.log"; fi
	if find_pkg "$d$P" 99.0; then bad "find_package(bankc 99.0) accepted version $version"; else ok; fi
	# ranges: every version in it, the maximum included or not as asked
	if find_pkg "$d$P" "0.0...0.5"; then ok; else bad_log "find_package(bankc 0.0...0.5) rejected $version" "$tmp/fp.log"; fi
	if find_pkg "$d$P" "$version...99"; then ok; else bad_log "find_package(bankc $version...99) rejected $version" "$tmp/fp.log"; fi
	if find_pkg "$d$P" "0.0...<$version"; then bad "find_package(bankc 0.0...<$version) accepted $version"; else ok; fi
	if find_pkg "$d$P" "0.0...$version"; then ok; else bad_log "find_package(bankc 0.0...$version) rejected $version" "$tmp/fp.log"; fi
	if find_pkg "$d$P" "1.0...2.0"; then bad "find_package(bankc 1.0...2.0) accepted $version"; else ok; fi
	# COMPONENTS: the known ones found, an unknown one not, as
	# check_required_components() has it
	if find_pkg "$d$P" "COMPONENTS compiler runtime"; then ok
	else bad_log "find_package(bankc COMPONENTS compiler runtime)" "$tmp/fp.log"; fi
	if find_pkg "$d$P" "COMPONENTS templates" && grep -q "templates=$d$P/include found=TRUE\$" "$tmp/fp.log"; then ok
	else bad_log "find_package(bankc COMPONENTS templates): bankc::templates on $d$P/include" "$tmp/fp.log"; fi
	if find_pkg "$d$P" "COMPONENTS nosuch"; then bad "find_package(bankc REQUIRED COMPONENTS nosuch) was found"
	elif grep -q "no component 'nosuch'" "$tmp/fp.log"; then ok
	else bad_log "find_package(bankc COMPONENTS nosuch) failed, but not for the component" "$tmp/fp.log"; fi
	if find_pkg "$d$P" "OPTIONAL_COMPONENTS nosuch" && grep -q "nosuch_FOUND=FALSE" "$tmp/fp.log"; then ok
	else bad_log "find_package(bankc OPTIONAL_COMPONENTS nosuch): found, with bankc_nosuch_FOUND false" "$tmp/fp.log"; fi
fi

if m uninstall DESTDIR="$d" prefix="$P" >"$tmp/uninstall.log" 2>&1 &&
	[ -z "$(find "$d" -type f)" ] && [ ! -e "$d$P/include/bankc" ] && [ ! -e "$d$P/lib/cmake/bankc" ]
then ok; else bad_log "make uninstall left: $(find "$d" -type f -o -name bankc | tr '\n' ' ')" "$tmp/uninstall.log"; fi

# DESTDIR with a space and a quote: one folder, never split into words
# (once "$tmp/s p" installed into "$tmp/s" and a folder "p" here).
sd="$tmp/s p'q" sP=/opt/bankc
m install DESTDIR="$sd" prefix="$sP" >"$tmp/install-sp.log" 2>&1
st=$?
nf=0 missing=
for f in $files; do
	if [ -f "$sd$sP/$f" ]; then nf=$((nf + 1)); else missing="$missing $f"; fi
done
if [ "$st" -eq 0 ] && [ -z "$missing" ] && [ "$("$sd$sP/bin/bankc" --version)" = "bankc $version" ]; then ok
else bad_log "make install DESTDIR='$sd': status $st, missing:$missing" "$tmp/install-sp.log"; fi
if [ ! -e "$tmp/s" ] && [ ! -e "p'q" ] && [ ! -e "p" ]; then ok
else bad "make install DESTDIR='$sd' wrote outside it: $(ls -d "$tmp/s" "p'q" p 2>/dev/null | tr '\n' ' ')"; fi
if m uninstall DESTDIR="$sd" prefix="$sP" >"$tmp/uninstall-sp.log" 2>&1 &&
	[ -z "$(find "$sd" -type f)" ] && [ ! -e "$sd$sP/include/bankc" ]; then ok
else bad_log "make uninstall DESTDIR='$sd' left: $(find "$sd" -type f | tr '\n' ' ')" "$tmp/uninstall-sp.log"; fi

# Folders one by one, outside the prefix too; and the older PREFIX.
q=$tmp/q
if m install PREFIX="$q/usr" bindir="$q/tools" includedir="$q/inc" mandir="$q/man" \
	>"$tmp/install2.log" 2>&1 &&
	[ -x "$q/tools/bankc" ] && [ -f "$q/inc/bankc/bankc_check.cuh" ] && [ -f "$q/inc/bankc/tiles/tp_f32.cuh" ] &&
	[ -f "$q/man/man1/bankc.1" ] && [ -f "$q/usr/lib/cmake/bankc/bankcConfig.cmake" ] &&
	[ -f "$q/usr/lib/pkgconfig/bankc.pc" ]
then ok; else bad_log "install with PREFIX, bindir, includedir and mandir" "$tmp/install2.log"; fi
if have pkg-config; then
	if [ "$(pcq "$q/usr/lib/pkgconfig" --cflags bankc)" = "-I$q/inc/bankc" ] &&
	   [ "$(pcq "$q/usr/lib/pkgconfig" --cflags bankc-templates)" = "-I$q/inc" ]; then ok
	else bad "bankc.pc or bankc-templates.pc does not name includedir $q/inc"; fi
fi
if have cmake; then
	if find_pkg "$q/usr" && grep -q "exe=$q/tools/bankc inc=$q/inc/bankc\$" "$tmp/fp.log" &&
	   grep -q "templates=$q/inc found=TRUE\$" "$tmp/fp.log"
	then ok; else bad_log "the CMake package with bindir and includedir outside the prefix" "$tmp/fp.log"; fi
fi
m uninstall PREFIX="$q/usr" bindir="$q/tools" includedir="$q/inc" mandir="$q/man" >/dev/null 2>&1
if [ -z "$(find "$q" -type f)" ]; then ok; else bad "make uninstall left: $(find "$q" -type f | tr '\n' ' ')"; fi

summary install

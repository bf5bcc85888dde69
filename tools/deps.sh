#!/bin/sh
# Install what bankc's build and tests need from Debian's packages, only
# where it is missing: re2c, Jansson and cmocka; g++, clang with libFuzzer,
# valgrind, cmake, ninja, pkg-config, python3, python3-jsonschema and
# librsvg2-bin (rsvg-convert) for the tests.  nvcc (the CUDA toolkit)
# is expected on PATH and is only named if absent.
set -e
missing=""
command -v re2c >/dev/null 2>&1 || missing="$missing re2c"
[ -f /usr/include/jansson.h ] || missing="$missing libjansson-dev"
[ -f /usr/include/cmocka.h ] || missing="$missing libcmocka-dev"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
# the CuTe interop test builds C++ against CUTLASS's headers
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
# the fuzz harness (clang's libFuzzer), the memcheck pass, the CMake and
# pkg-config tests
command -v clang >/dev/null 2>&1 || missing="$missing clang"
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
	missing="$missing libclang-rt-dev"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
# the CMake tests build with Ninja as well as with make
command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkgconf"
# the JSON checks of the specs and of scan's emitted specs read JSON with it
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
# the JSON Schema validation of every document (check-schema), and the
# pictures rendered to PNG (check-build)
python3 -c 'import jsonschema' >/dev/null 2>&1 ||
	/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 ||
	missing="$missing python3-jsonschema"
command -v rsvg-convert >/dev/null 2>&1 || missing="$missing librsvg2-bin"
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq $missing >/dev/null
fi
command -v nvcc >/dev/null 2>&1 ||
	echo "deps: note: nvcc not found; CUDA checks need the CUDA toolkit on PATH" >&2
echo "deps: re2c, Jansson, cmocka, g++, clang, valgrind, cmake, ninja, pkg-config, python3,"
echo "deps: python3-jsonschema and rsvg-convert present"

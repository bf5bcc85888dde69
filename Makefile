# bankc: plain make.  `make` builds ./bankc; `make check` runs every test.
CC ?= cc
RE2C ?= re2c
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Icompiler -Ibuild
LDLIBS += -ljansson
PREFIX ?= /usr/local

SRCS := $(filter-out compiler/main.c,$(wildcard compiler/*.c)) build/lex.c
OBJS := $(patsubst %.c,build/%.o,$(notdir $(SRCS)))
HDR := compiler/bankc.h

all: bankc

build:
	@mkdir -p build

# re2c runs inside the build, with flags that keep its output stable.
build/lex.c: compiler/lex.re $(HDR) | build
	@command -v $(RE2C) >/dev/null || { echo "error: re2c not found; install Debian's package 're2c' (apt-get install re2c)" >&2; exit 1; }
	$(RE2C) -W -i --no-generation-date --no-version $< -o $@

build/%.o: compiler/%.c $(HDR) | build
	@echo "CC $<"; $(CC) $(CFLAGS) -c $< -o $@

build/lex.o: build/lex.c $(HDR)
	@echo "CC $<"; $(CC) $(CFLAGS) -c $< -o $@

build/libbankc.a: $(OBJS)
	@$(AR) rcs $@ $^

bankc: build/main.o build/libbankc.a
	@echo "LD $@"; $(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# Debian packages the build needs, installed only where missing.
deps:
	@sh tools/deps.sh

# The main job: solve every spec, write the report to out/compare.json and
# print the comparison.
run: bankc
	@mkdir -p out
	@./bankc compare --json specs/*.tile > out/compare.json.tmp && mv out/compare.json.tmp out/compare.json
	@./bankc compare --top 3 specs/*.tile

# ---- tests ------------------------------------------------------------------
UNIT := $(patsubst tests/unit/%.c,build/%,$(wildcard tests/unit/test_*.c))

build/test_%: tests/unit/test_%.c tests/unit/testutil.h build/libbankc.a
	@echo "CC $<"; $(CC) $(CFLAGS) -Itests/unit -o $@ $< build/libbankc.a $(LDLIBS) -lcmocka

# Every suite runs even when one fails; the status says whether all passed.
check: bankc $(UNIT)
	@fail=0; \
	for t in $(UNIT); do echo "== $$t"; ./$$t || fail=1; done; \
	echo "== bad-input corpus"; sh tests/run_bad.sh ./bankc tests/bad || fail=1; \
	echo "== specs"; sh tests/run_specs.sh ./bankc specs || fail=1; \
	echo "== measured tables"; sh tests/run_sim.sh ./bankc || fail=1; \
	echo "== command line"; sh tests/run_cli.sh ./bankc || fail=1; \
	echo "== nvcc"; sh tests/run_nvcc.sh || fail=1; \
	echo "== generated code"; sh tests/run_generated.sh ./bankc || fail=1; \
	echo "== cmake"; sh tests/run_cmake.sh ./bankc || fail=1; \
	echo "== install"; sh tests/run_install.sh || fail=1; \
	echo "== probe patterns"; $(CC) -std=c11 -Wall -Wextra -Werror -o build/gen_patterns tests/gpu/gen_patterns.c && \
	  ./build/gen_patterns | cmp -s - tests/gpu/patterns.tsv && echo "probe patterns: 1 passed, 0 failed" || \
	  { echo "probe patterns: 0 passed, 1 failed (tests/gpu/patterns.tsv is not gen_patterns' output)"; fail=1; }; \
	exit $$fail

# bankc, the runtime headers, the CMake module and the man page.
install: bankc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/bankc \
		$(DESTDIR)$(PREFIX)/lib/cmake/bankc $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 bankc $(DESTDIR)$(PREFIX)/bin/bankc
	install -m 644 runtime/bankc_runtime.h runtime/bankc_check.cuh $(DESTDIR)$(PREFIX)/include/bankc/
	install -m 644 cmake/BankcTiles.cmake $(DESTDIR)$(PREFIX)/lib/cmake/bankc/
	install -m 644 doc/bankc.1 $(DESTDIR)$(PREFIX)/share/man/man1/bankc.1

# Solver timing: the specs corpus (median of 21 runs per tile) and a sweep.
build/bench: tests/bench/bench.c build/libbankc.a
	@echo "CC $<"; $(CC) $(CFLAGS) -o $@ $< build/libbankc.a $(LDLIBS)

bench: build/bench
	./build/bench specs/*.tile

# On a machine with a GPU and Nsight Compute: measure the probe patterns.
gpu-probe:
	sh tests/gpu/probe.sh tests/gpu/patterns.tsv out/probe.tsv

# On a machine with a GPU and Nsight Compute: run every spec's check program
# and compare the wavefront counters with the predictions.
gpu-check: bankc
	bash tests/gpu/gpu_check.sh ./bankc out/gpu-check specs/*.tile

clean:
	rm -rf build bankc out

.PHONY: all check clean deps run install bench gpu-probe gpu-check

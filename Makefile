# bankc: plain make.  `make` builds ./bankc; `make check` runs every test.
CC ?= cc
RE2C ?= re2c
CFLAGS ?= -O2 -g
# B: the build folder; BIN: the compiler it links (a sanitized build uses
# its own, see check-san).
B ?= build
BIN ?= bankc
# the project's own flags, kept apart so a CFLAGS given on the command line
# (optimisation, sanitizers) adds to them rather than replacing them
BCFLAGS := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Icompiler -I$(B)
LDLIBS += -ljansson
PREFIX ?= /usr/local

SRCS := $(filter-out compiler/main.c,$(wildcard compiler/*.c))
OBJS := $(patsubst compiler/%.c,$(B)/%.o,$(SRCS)) $(B)/lex.o
HDR := compiler/bankc.h
# bankc scan: the PTX reader and interpreter, in their own folder
PTX_SRCS := $(wildcard compiler/ptx/*.c)
PTX_OBJS := $(patsubst compiler/%.c,$(B)/%.o,$(PTX_SRCS)) $(B)/ptx/ptx_lex.o
OBJS += $(PTX_OBJS)

all: $(BIN)

$(B):
	@mkdir -p $(B)

# re2c runs inside the build, with flags that keep its output stable.
$(B)/lex.c: compiler/lex.re $(HDR) | $(B)
	@command -v $(RE2C) >/dev/null || { echo "error: re2c not found; install Debian's package 're2c' (apt-get install re2c)" >&2; exit 1; }
	$(RE2C) -W -i --no-generation-date --no-version $< -o $@

$(B)/%.o: compiler/%.c $(HDR) | $(B)
	@echo "CC $<"; $(CC) $(CFLAGS) $(BCFLAGS) -c $< -o $@

$(B)/lex.o: $(B)/lex.c $(HDR)
	@echo "CC $<"; $(CC) $(CFLAGS) $(BCFLAGS) -c $< -o $@

$(B)/ptx/ptx_lex.c: compiler/ptx/ptx_lex.re $(HDR) compiler/ptx/ptx.h compiler/ptx/ptx_reader.h compiler/ptx/ptx_interp.h
	@mkdir -p $(B)/ptx
	$(RE2C) -W -i --no-generation-date --no-version $< -o $@

$(B)/ptx/%.o: compiler/ptx/%.c $(HDR) compiler/ptx/ptx.h compiler/ptx/ptx_reader.h compiler/ptx/ptx_interp.h
	@mkdir -p $(B)/ptx
	@echo "CC $<"; $(CC) $(CFLAGS) $(BCFLAGS) -c $< -o $@

$(B)/ptx/ptx_lex.o: $(B)/ptx/ptx_lex.c $(HDR) compiler/ptx/ptx.h compiler/ptx/ptx_reader.h compiler/ptx/ptx_interp.h
	@echo "CC $<"; $(CC) $(CFLAGS) $(BCFLAGS) -c $< -o $@

$(B)/libbankc.a: $(OBJS)
	@$(AR) rcs $@ $^

$(BIN): $(B)/main.o $(B)/libbankc.a
	@echo "LD $@"; $(CC) $(CFLAGS) $(BCFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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
UNIT := $(patsubst tests/unit/%.c,$(B)/%,$(wildcard tests/unit/test_*.c))

$(B)/test_%: tests/unit/test_%.c tests/unit/testutil.h $(B)/libbankc.a
	@echo "CC $<"; $(CC) $(CFLAGS) $(BCFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(B)/libbankc.a $(LDLIBS) -lcmocka

# Every suite runs even when one fails; the status says whether all passed.
check: bankc $(UNIT)
	@fail=0; \
	for t in $(UNIT); do echo "== $$t"; ./$$t || fail=1; done; \
	echo "== bad-input corpus"; sh tests/run_bad.sh ./bankc tests/bad || fail=1; \
	echo "== specs"; sh tests/run_specs.sh ./bankc specs || fail=1; \
	echo "== measured tables"; sh tests/run_sim.sh ./bankc || fail=1; \
	echo "== command line"; sh tests/run_cli.sh ./bankc || fail=1; \
	echo "== scan"; sh tests/run_scan.sh ./bankc $(B) || fail=1; \
	echo "== nvcc"; sh tests/run_nvcc.sh || fail=1; \
	echo "== generated code"; sh tests/run_generated.sh ./bankc || fail=1; \
	echo "== cmake"; sh tests/run_cmake.sh ./bankc || fail=1; \
	echo "== install"; sh tests/run_install.sh || fail=1; \
	echo "== probe patterns"; $(CC) -std=c11 -Wall -Wextra -Werror -o $(B)/gen_patterns tests/gpu/gen_patterns.c && \
	  ./$(B)/gen_patterns | cmp -s - tests/gpu/patterns.tsv && echo "probe patterns: 1 passed, 0 failed" || \
	  { echo "probe patterns: 0 passed, 1 failed (tests/gpu/patterns.tsv is not gen_patterns' output)"; fail=1; }; \
	echo "== faults"; bash tests/run_faults.sh ./bankc || fail=1; \
	echo "== sanitizers"; $(MAKE) -s check-san || fail=1; \
	echo "== valgrind"; sh tests/run_valgrind.sh ./bankc || fail=1; \
	echo "== fuzz corpus"; $(MAKE) -s fuzz-regress || fail=1; \
	echo "== scan fuzz corpus"; $(MAKE) -s fuzz-ptx-regress || fail=1; \
	exit $$fail

# The unit tests, the bad-input corpus and the command line once more, on a
# build with AddressSanitizer and UndefinedBehaviorSanitizer: any report
# (leaks included) fails the run.
SAN := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-san:
	@$(MAKE) -s B=build-san BIN=build-san/bankc CFLAGS="$(SAN)" LDFLAGS="$(SAN)" \
		build-san/bankc $(patsubst $(B)/%,build-san/%,$(UNIT))
	@fail=0; export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1; \
	for t in $(patsubst $(B)/%,build-san/%,$(UNIT)); do echo "== $$t (sanitized)"; ./$$t || fail=1; done; \
	sh tests/run_bad.sh ./build-san/bankc tests/bad || fail=1; \
	sh tests/run_cli.sh ./build-san/bankc || fail=1; \
	sh tests/run_specs.sh ./build-san/bankc specs || fail=1; \
	sh tests/run_scan.sh ./build-san/bankc $(B) || fail=1; \
	exit $$fail

# libFuzzer over the whole pipeline (spec text to checked, solved and
# emitted tiles, in memory).  `make fuzz` runs it for FUZZ_SECONDS on a
# corpus seeded from specs/ and tests/bad/; fuzz-regress (in make check)
# replays the seeds and every saved crash in tests/fuzz/regress/.
FUZZ_SECONDS ?= 600
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-std=c11 -D_POSIX_C_SOURCE=200809L -Icompiler -Ibuild
$(B)/fuzz_pipeline: tests/fuzz/fuzz_pipeline.c $(SRCS) $(B)/lex.c $(HDR)
	@command -v clang >/dev/null || { echo "error: clang not found; install Debian's packages 'clang' and 'libclang-rt-14-dev' (make deps)" >&2; exit 1; }
	@echo "CLANG $@"; clang $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_pipeline.c $(SRCS) $(B)/lex.c -ljansson

fuzz-regress: $(B)/fuzz_pipeline
	@n=$$(ls specs/*.tile tests/bad/*.tile tests/fuzz/regress/* | wc -l); \
	if ./$(B)/fuzz_pipeline -runs=0 -artifact_prefix=$(B)/fuzz- specs tests/bad tests/fuzz/regress >$(B)/fuzz-regress.log 2>&1; \
	then echo "fuzz corpus: 1 passed, 0 failed ($$n inputs replayed)"; \
	else tail -n 30 $(B)/fuzz-regress.log; echo "fuzz corpus: 0 passed, 1 failed"; exit 1; fi

# The same for bankc scan's PTX path (lexer, reader, interpreter, costing,
# printing); its corpus is the PTX of tests/ptx/ and tests/fuzz/ptx_regress/.
$(B)/fuzz_ptx: tests/fuzz/fuzz_ptx.c $(SRCS) $(PTX_SRCS) $(B)/lex.c $(B)/ptx/ptx_lex.c $(HDR) compiler/ptx/ptx.h compiler/ptx/ptx_reader.h compiler/ptx/ptx_interp.h
	@command -v clang >/dev/null || { echo "error: clang not found (make deps)" >&2; exit 1; }
	@echo "CLANG $@"; clang $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_ptx.c $(SRCS) $(PTX_SRCS) $(B)/lex.c $(B)/ptx/ptx_lex.c -ljansson

fuzz-ptx-regress: $(B)/fuzz_ptx
	@n=$$(ls tests/ptx/*.ptx tests/ptx/bad/*.ptx tests/fuzz/ptx_regress/* | wc -l); \
	if ./$(B)/fuzz_ptx -runs=0 -artifact_prefix=$(B)/fuzz-ptx- tests/ptx tests/ptx/bad tests/fuzz/ptx_regress >$(B)/fuzz-ptx-regress.log 2>&1; \
	then echo "scan fuzz corpus: 1 passed, 0 failed ($$n inputs replayed)"; \
	else tail -n 30 $(B)/fuzz-ptx-regress.log; echo "scan fuzz corpus: 0 passed, 1 failed"; exit 1; fi

fuzz-ptx: $(B)/fuzz_ptx
	@mkdir -p out/fuzz-ptx/corpus out/fuzz-ptx/crashes
	@cp -n tests/ptx/*.ptx tests/ptx/bad/*.ptx out/fuzz-ptx/corpus/ 2>/dev/null || true
	./$(B)/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 \
		-artifact_prefix=out/fuzz-ptx/crashes/ -print_final_stats=1 out/fuzz-ptx/corpus

fuzz: $(B)/fuzz_pipeline
	@mkdir -p out/fuzz/corpus out/fuzz/crashes
	@cp -n specs/*.tile tests/bad/*.tile out/fuzz/corpus/ 2>/dev/null || true
	./$(B)/fuzz_pipeline -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
		-artifact_prefix=out/fuzz/crashes/ -print_final_stats=1 out/fuzz/corpus

# bankc, the runtime headers, the CMake module and the man page.
install: bankc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/bankc \
		$(DESTDIR)$(PREFIX)/lib/cmake/bankc $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 bankc $(DESTDIR)$(PREFIX)/bin/bankc
	install -m 644 runtime/bankc_runtime.h runtime/bankc_check.cuh $(DESTDIR)$(PREFIX)/include/bankc/
	install -m 644 cmake/BankcTiles.cmake $(DESTDIR)$(PREFIX)/lib/cmake/bankc/
	install -m 644 doc/bankc.1 $(DESTDIR)$(PREFIX)/share/man/man1/bankc.1

# Solver timing: the specs corpus (median of 21 runs per tile) and a sweep.
$(B)/bench: tests/bench/bench.c $(B)/libbankc.a
	@echo "CC $<"; $(CC) $(CFLAGS) $(BCFLAGS) -o $@ $< $(B)/libbankc.a $(LDLIBS)

bench: $(B)/bench
	./$(B)/bench specs/*.tile

# On a machine with a GPU and Nsight Compute: measure the probe patterns.
gpu-probe:
	sh tests/gpu/probe.sh tests/gpu/patterns.tsv out/probe.tsv

# On a machine with a GPU and Nsight Compute: run every spec's check program
# and compare the wavefront counters with the predictions.
gpu-check: bankc
	bash tests/gpu/gpu_check.sh ./bankc out/gpu-check specs/*.tile

# On a machine with a GPU, cuBLAS and Nsight Compute: the kernel templates
# against cuBLAS and the classic kernels (docs/performance.md).
gpu-bench: bankc
	bash tests/gpu/bench_templates.sh out/bench-templates

# On a machine with a GPU and Nsight Compute: the counters of the scan
# validation kernels (tests/gpu/scan_kernels/).
gpu-scan: bankc
	bash tests/gpu/scan_measure.sh ./bankc out/gpu-scan

clean:
	rm -rf build build-san bankc out

.PHONY: all check check-san fuzz fuzz-regress fuzz-ptx fuzz-ptx-regress clean deps run install bench gpu-probe gpu-check gpu-bench gpu-scan

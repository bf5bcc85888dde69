# bankc: plain make.  `make` builds ./bankc; `make check` runs every test
# suite, `make check-fast` the quick ones and `make check-NAME` one
# (docs/testing.md lists them); `make install` installs (GNU conventions:
# prefix, DESTDIR, bindir, ...).
#
# The user's CPPFLAGS, CFLAGS and LDFLAGS are honoured and come after the
# project's own flags.  V=1 shows the full commands.  Warnings are errors
# only for developers: `make check` compiles every source once more with
# -Werror (check-werror), and DEVELOPER=1 builds that way; a user's `make`
# and `make install` never do, so a newer compiler's new warning cannot
# break them.
CC ?= cc
RE2C ?= re2c
CFLAGS ?= -O2 -g
# B: the build folder; BIN: the compiler it links (a sanitized build uses
# its own, see check-san).
B ?= build
BIN ?= bankc
DEVELOPER ?=
WERROR := $(if $(filter 1,$(DEVELOPER)),-Werror)
# the project's own flags, kept apart so that flags given on the command
# line (optimisation, sanitizers) add to them rather than replacing them
BCPPFLAGS := -D_POSIX_C_SOURCE=200809L -Icompiler -I$(B)
BCFLAGS := -std=c11 -Wall -Wextra $(WERROR)
LDLIBS += -ljansson
VERSION := $(shell sed -n 's/^\#define BANKC_VERSION "\(.*\)"/\1/p' compiler/bankc.h)

# Installation folders (GNU coding standards); each may be set alone.
# PREFIX is the older spelling of prefix and is still honoured.
PREFIX = /usr/local
prefix = $(PREFIX)
exec_prefix = $(prefix)
bindir = $(exec_prefix)/bin
libdir = $(exec_prefix)/lib
includedir = $(prefix)/include
datarootdir = $(prefix)/share
datadir = $(datarootdir)
mandir = $(datarootdir)/man
man1dir = $(mandir)/man1
docdir = $(datarootdir)/doc/bankc
pkgconfigdir = $(libdir)/pkgconfig
cmakedir = $(libdir)/cmake/bankc
INSTALL = install
INSTALL_PROGRAM = $(INSTALL)
INSTALL_DATA = $(INSTALL) -m 644

# Quiet by default: a short line per step; V=1 prints the commands.
ifeq ($(V),1)
Q :=
say =
else
Q := @
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif
# make -s: not even those lines (the short options are the first word of
# MAKEFLAGS, as the Linux kernel's Makefile reads them)
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say = @
endif

COMPILE = $(CC) $(BCPPFLAGS) $(CPPFLAGS) $(BCFLAGS) $(CFLAGS)
LINK = $(CC) $(BCFLAGS) $(CFLAGS) $(LDFLAGS)

# The sources: a folder per stage under compiler/ (architecture.md), and
# main.c, the list of commands.  Objects mirror the folders under $(B);
# each records the headers it read (-MMD), so an edit to a stage's own
# header rebuilds only what includes it.
STAGES := base front model solve emit ptx scan cmd
SRCS := $(wildcard $(STAGES:%=compiler/%/*.c))
RES := $(wildcard $(STAGES:%=compiler/%/*.re))
OBJS := $(SRCS:compiler/%.c=$(B)/%.o) $(RES:compiler/%.re=$(B)/%.o)
LEXERS := $(RES:compiler/%.re=$(B)/%.c)
DEPS = $(OBJS:.o=.d) $(B)/main.d

all: $(BIN)

$(B):
	@mkdir -p $(B)

# What the objects were built with: a change of compiler or flags (or of
# DEVELOPER) rebuilds everything.  The file is rewritten only when its
# contents change, so an unchanged build stays a no-op.
FLAGS_TEXT = $(CC) | $(BCPPFLAGS) $(CPPFLAGS) | $(BCFLAGS) $(CFLAGS) | $(LDFLAGS) | $(LDLIBS)
$(B)/flags: FORCE | $(B)
	@printf '%s\n' '$(subst ','\'',$(FLAGS_TEXT))' >$@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi

# re2c runs inside the build, with flags that keep its output stable.
$(LEXERS): $(B)/%.c: compiler/%.re | $(B)
	@command -v $(RE2C) >/dev/null || { echo "error: re2c not found; install Debian's package 're2c' (apt-get install re2c)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(call say,RE2C,$<)$(RE2C) -W -i --no-generation-date --no-version $< -o $@

$(B)/%.o: compiler/%.c $(B)/flags | $(B)
	@mkdir -p $(@D)
	$(call say,CC,$<)$(COMPILE) -MMD -MP -c $< -o $@

$(LEXERS:.c=.o): %.o: %.c $(B)/flags
	$(call say,CC,$<)$(COMPILE) -MMD -MP -c $< -o $@

# The headers each object read at its last compile (none before the
# first, when it is built anyway).
-include $(DEPS)

# Made afresh, so that a source moved or removed leaves no stale member;
# $(B)/objects (rewritten only when the list changes) makes a removed
# source rebuild it too.
$(B)/objects: FORCE | $(B)
	@printf '%s\n' $(OBJS) >$@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi

$(B)/libbankc.a: $(OBJS) $(B)/objects
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $(OBJS)

$(BIN): $(B)/main.o $(B)/libbankc.a
	$(call say,LD,$@)$(LINK) -o $@ $^ $(LDLIBS)

# ---- the kernel library ------------------------------------------------------
# include/bankc/ holds the transpose and GEMM header library
# (docs/templates.md); its tiles are laid out by the bankc just built,
# from the templates' specs, into $(B)/include/bankc/tiles/, so that
# -Iinclude -I$(B)/include finds the library in the tree as -I$(includedir)
# does once installed.  bankc rewrites no header whose contents stay the
# same, so a relinked bankc recompiles nothing that includes them.
LIB_SPECS := specs/templates.tile templates/gemm_ab.tile
LIB_TILES := tp_f32 tp_f64 tp_f16l tp_i8l hgw_a hgw_b hgw_bn hgw_c128 f8w_a f8w_b
LIB_HEADERS := include/bankc/transpose.cuh include/bankc/gemm.cuh
LIB_DETAIL := $(sort $(wildcard include/bankc/detail/*))
TILES_DIR := $(B)/include/bankc/tiles

$(B)/tiles.stamp: $(LIB_SPECS) $(BIN) | $(B)
	$(call say,BANKC,$(TILES_DIR))$(BANKC) build $(LIB_SPECS) -o $(TILES_DIR) && touch $@

tiles: $(B)/tiles.stamp
all: tiles

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
# A target per suite: `make check-NAME` runs one, `make check` runs every
# suite of CHECKS in turn, and `make check-fast` those of FAST, which need
# only cc, re2c, Jansson and cmocka and take a minute or two.  Each suite
# prints a "== name" heading and its summary line, "NAME: N passed, M
# failed[, K skipped]"; a tool it needs that is missing is a skip.
# docs/testing.md says what each suite checks and needs, and how the
# golden files are rewritten (UPDATE=1).
CHECKS := werror unit layers bad specs sim cli build readme docs scan scan-kernels fix \
	nvcc generated wgmma json cute cmake install probe faults san valgrind fuzz fuzz-ptx
CHECKS += diag schema pictures safety
FAST := unit layers bad specs sim cli readme docs scan probe
FAST += diag
# bankc as the runners are given it (BIN may be a path of its own)
BANKC = $(if $(filter /%,$(BIN)),$(BIN),./$(BIN))

UNIT := $(patsubst tests/unit/%.c,$(B)/%,$(wildcard tests/unit/test_*.c))

$(B)/test_%: tests/unit/test_%.c $(B)/libbankc.a $(B)/flags
	$(call say,CC,$<)$(COMPILE) $(LDFLAGS) -MMD -MP -Itests/unit -o $@ $< $(B)/libbankc.a $(LDLIBS) -lcmocka
-include $(UNIT:=.d)

# Each suite in a make of its own, so that every one runs when one before
# it failed; the status says whether all passed.
# (Not -s, which the makes the runners run would inherit.)
run_suites = fail=0; for s in $(1); do $(MAKE) --no-print-directory check-$$s || fail=1; done; exit $$fail
check: $(BIN) $(UNIT)
	@$(call run_suites,$(CHECKS))
check-fast: $(BIN) $(UNIT)
	@$(call run_suites,$(FAST))

# Warnings as errors, for make check: every source of bankc and of the unit
# tests compiled once more with -Werror and the objects thrown away, so the
# build folder keeps the flags it was built with (and `make check` followed
# by `sudo make install` rebuilds nothing).  A stamp per source keeps it
# incremental; a failed compile leaves none, and check-werror counts them.
WERROR_OK := $(SRCS:compiler/%.c=$(B)/werror/%.ok) $(LEXERS:$(B)/%.c=$(B)/werror/%.ok) \
	$(B)/werror/main.ok $(patsubst tests/unit/%.c,$(B)/werror/unit/%.ok,$(wildcard tests/unit/test_*.c))
$(B)/werror/%.ok: compiler/%.c $(B)/flags
	@mkdir -p $(@D) && rm -f $@
	$(call say,WERROR,$<)$(COMPILE) -Werror -MMD -MP -MT $@ -MF $(@:.ok=.d) -c $< -o /dev/null && touch $@
$(LEXERS:$(B)/%.c=$(B)/werror/%.ok): $(B)/werror/%.ok: $(B)/%.c $(B)/flags
	@mkdir -p $(@D) && rm -f $@
	$(call say,WERROR,$<)$(COMPILE) -Werror -MMD -MP -MT $@ -MF $(@:.ok=.d) -c $< -o /dev/null && touch $@
$(B)/werror/unit/%.ok: tests/unit/%.c $(B)/flags
	@mkdir -p $(@D) && rm -f $@
	$(call say,WERROR,$<)$(COMPILE) -Werror -Itests/unit -MMD -MP -MT $@ -MF $(@:.ok=.d) -c $< -o /dev/null && touch $@
-include $(WERROR_OK:.ok=.d)
werror-stamps: $(WERROR_OK)
check-werror:
	@echo "== warnings as errors"; \
	$(MAKE) -s -k --no-print-directory werror-stamps; st=$$?; n=0; \
	for f in $(WERROR_OK); do if [ -f $$f ]; then n=$$((n + 1)); fi; done; \
	echo "werror: $$n passed, $$(($(words $(WERROR_OK)) - n)) failed"; exit $$st

check-unit: $(UNIT)
	@sh tests/run_unit.sh $(UNIT)
check-layers: $(BIN)
	@echo "== layers"; sh tests/run_layers.sh $(B)
check-bad: $(BIN)
	@echo "== bad-input corpus"; sh tests/run_bad.sh $(BANKC) tests/bad
check-specs: $(BIN)
	@echo "== specs"; sh tests/run_specs.sh $(BANKC) specs
check-sim: $(BIN)
	@echo "== measured tables"; sh tests/run_sim.sh $(BANKC)
check-cli: $(BIN)
	@echo "== command line"; sh tests/run_cli.sh $(BANKC)
check-diag: $(BIN)
	@echo "== diagnostics"; sh tests/run_diag.sh $(BANKC)
check-schema: $(BIN)
	@echo "== json schemas"; sh tests/run_schema.sh $(BANKC)
check-pictures: $(BIN)
	@echo "== pictures"; sh tests/run_pictures.sh $(BANKC)
check-build: $(BIN)
	@echo "== build outputs"; bash tests/run_build.sh $(BANKC)
check-readme: $(BIN)
	@echo "== doc samples"; sh tests/run_readme.sh $(BANKC)
check-docs: $(BIN)
	@echo "== docs"; sh tests/run_docs.sh $(BANKC)
check-scan: $(BIN)
	@echo "== scan"; sh tests/run_scan.sh $(BANKC)
	@echo "== scan, hostile input"; sh tests/run_scan_hostile.sh $(BANKC)
check-scan-kernels: $(BIN)
	@echo "== scan kernels"; sh tests/run_scan_kernels.sh $(BANKC) $(B)
check-safety: $(BIN)
	@echo "== shared-memory correctness"; sh tests/run_safety.sh $(BANKC) $(B)
check-fix: $(BIN)
	@echo "== fixes applied"; sh tests/run_fix.sh $(BANKC)
check-nvcc: tiles
	@echo "== nvcc"; sh tests/run_nvcc.sh $(B)
check-generated: $(BIN)
	@echo "== generated code"; sh tests/run_generated.sh $(BANKC)
check-wgmma: $(BIN)
	@echo "== wgmma check"; sh tests/run_wgmma.sh $(BANKC)
check-json: $(BIN)
	@echo "== json"; sh tests/run_json.sh $(BANKC)
check-cute: $(BIN)
	@echo "== cute"; sh tests/run_cute.sh $(BANKC)
check-cmake: $(BIN)
	@echo "== cmake"; sh tests/run_cmake.sh $(BANKC)
check-install:
	@echo "== install"; sh tests/run_install.sh
check-probe:
	@echo "== probe patterns"; sh tests/run_probe.sh
check-faults: $(BIN)
	@echo "== faults"; bash tests/run_faults.sh $(BANKC)
check-valgrind: $(BIN)
	@echo "== valgrind"; sh tests/run_valgrind.sh $(BANKC)

# The unit tests, the bad-input corpus, the command line, the specs and
# the scan once more, on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer: any report (leaks included) fails the run.
SAN := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-san:
	@echo "== sanitizers"
	@$(MAKE) -s DEVELOPER=1 B=build-san BIN=build-san/bankc CFLAGS="$(SAN)" LDFLAGS="$(SAN)" \
		build-san/bankc $(patsubst $(B)/%,build-san/%,$(UNIT))
	@fail=0; export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1; \
	sh tests/run_unit.sh $(patsubst $(B)/%,build-san/%,$(UNIT)) || fail=1; \
	sh tests/run_bad.sh ./build-san/bankc tests/bad || fail=1; \
	sh tests/run_cli.sh ./build-san/bankc || fail=1; \
	sh tests/run_specs.sh ./build-san/bankc specs || fail=1; \
	sh tests/run_scan.sh ./build-san/bankc || fail=1; \
	sh tests/run_scan_kernels.sh ./build-san/bankc build-san || fail=1; \
	exit $$fail

# The fuzz corpora replayed (below); without clang, a skip.
check-fuzz:
	@echo "== fuzz corpus"; \
	if command -v clang >/dev/null; then $(MAKE) -s --no-print-directory fuzz-regress; \
	else echo "skip: the fuzz corpus (no clang)"; echo "fuzz corpus: 0 passed, 0 failed, 1 skipped"; fi
check-fuzz-ptx:
	@echo "== scan fuzz corpus"; \
	if command -v clang >/dev/null; then $(MAKE) -s --no-print-directory fuzz-ptx-regress; \
	else echo "skip: the scan fuzz corpus (no clang)"; echo "scan fuzz corpus: 0 passed, 0 failed, 1 skipped"; fi

# libFuzzer over the whole pipeline (spec text to checked, solved and
# emitted tiles, in memory).  `make fuzz` runs it for FUZZ_SECONDS on a
# corpus seeded from specs/ and tests/bad/; fuzz-regress (check-fuzz, in
# make check) replays the seeds and every saved crash in tests/fuzz/regress/.
FUZZ_SECONDS ?= 600
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-std=c11 -D_POSIX_C_SOURCE=200809L -Icompiler -I$(B)
HDRS := $(wildcard compiler/*.h $(STAGES:%=compiler/%/*.h))
$(B)/fuzz_pipeline: tests/fuzz/fuzz_pipeline.c $(SRCS) $(LEXERS) $(HDRS)
	@command -v clang >/dev/null || { echo "error: clang not found; install Debian's packages 'clang' and 'libclang-rt-14-dev' (make deps)" >&2; exit 1; }
	$(call say,CLANG,$@)clang $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_pipeline.c $(SRCS) $(LEXERS) -ljansson

fuzz-regress: $(B)/fuzz_pipeline
	@n=$$(ls specs/*.tile tests/bad/*.tile tests/fuzz/regress/* | wc -l); \
	if ./$(B)/fuzz_pipeline -runs=0 -artifact_prefix=$(B)/fuzz- specs tests/bad tests/fuzz/regress >$(B)/fuzz-regress.log 2>&1; \
	then echo "fuzz corpus: 1 passed, 0 failed ($$n inputs replayed)"; \
	else tail -n 30 $(B)/fuzz-regress.log; echo "fuzz corpus: 0 passed, 1 failed"; exit 1; fi

# The same for bankc scan's PTX path (lexer, reader, interpreter, costing,
# printing); its corpus is the PTX of tests/ptx/ and tests/fuzz/ptx_regress/.
$(B)/fuzz_ptx: tests/fuzz/fuzz_ptx.c $(SRCS) $(LEXERS) $(HDRS)
	@command -v clang >/dev/null || { echo "error: clang not found; install Debian's packages 'clang' and 'libclang-rt-14-dev' (make deps)" >&2; exit 1; }
	$(call say,CLANG,$@)clang $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_ptx.c $(SRCS) $(LEXERS) -ljansson

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
		-dict=tests/fuzz/bankc.dict \
		-artifact_prefix=out/fuzz/crashes/ -print_final_stats=1 out/fuzz/corpus

# Installed: bankc, the runtime headers with their pkg-config file, the
# kernel library (include/bankc/ and its generated tiles) with its own
# (bankc-templates.pc), the CMake package (bankcConfig.cmake, its version
# file and the module) and the man page; as docs, README.md, the guides a
# user of the installed bankc reads beside the man page (DOCS) and the
# CMake and library examples.
# The CMake package and the pkg-config file find their files relative to
# themselves, so a tree staged with DESTDIR or moved elsewhere as a whole
# still works.
DOCS = README.md docs/build.md docs/install.md docs/json.md docs/model.md \
	docs/scan.md docs/solver.md
DOCS += docs/sarif.md docs/templates.md
# the JSON Schemas the docs cite, into the docs' schema/ folder
SCHEMAS = $(wildcard docs/schema/*.json)
EXAMPLE_LIB = examples/templates/CMakeLists.txt examples/templates/Makefile examples/templates/main.cu
INSTALLED = $(bindir)/bankc $(includedir)/bankc/bankc_runtime.h \
	$(includedir)/bankc/bankc_check.cuh $(includedir)/bankc/bankc_wgmma.cuh \
	$(includedir)/bankc/bankc_umma.cuh \
	$(addprefix $(includedir)/bankc/,$(notdir $(LIB_HEADERS))) \
	$(addprefix $(includedir)/bankc/detail/,$(notdir $(LIB_DETAIL))) \
	$(LIB_TILES:%=$(includedir)/bankc/tiles/%.cuh) \
	$(pkgconfigdir)/bankc.pc $(pkgconfigdir)/bankc-templates.pc \
	$(cmakedir)/bankcConfig.cmake $(cmakedir)/bankcConfigVersion.cmake \
	$(cmakedir)/BankcTiles.cmake $(man1dir)/bankc.1 \
	$(addprefix $(docdir)/,$(notdir $(DOCS))) $(docdir)/examples/cmake/CMakeLists.txt \
	$(docdir)/examples/cmake/demo.tile $(docdir)/examples/cmake/main.c \
	$(addprefix $(docdir)/examples/templates/,$(notdir $(EXAMPLE_LIB))) \
	$(addprefix $(docdir)/schema/,$(notdir $(SCHEMAS)))

# A folder as the CMake package sees it: relative to the package's own
# folder where it lies under prefix, absolute otherwise.
cmake_rel = $(if $(filter $(prefix)/%,$(1)),$${_bankc_prefix}/$(patsubst $(prefix)/%,%,$(1)),$(1))
empty :=
space := $(empty) $(empty)
cmake_up = $(if $(filter $(prefix)/%,$(cmakedir)),$${CMAKE_CURRENT_LIST_DIR}/$(subst $(space),/,$(patsubst %,..,$(subst /, ,$(patsubst $(prefix)/%,%,$(cmakedir))))),$(prefix))
pc_rel = $(if $(filter $(prefix)/%,$(1)),$${prefix}/$(patsubst $(prefix)/%,%,$(1)),$(1))

# bankc.pc's prefix: relative to its own folder (${pcfiledir}) where the
# file lies under prefix, so that the tree may be moved.
pc_up = $(if $(filter $(prefix)/%,$(pkgconfigdir)),$${pcfiledir}/$(subst $(space),/,$(patsubst %,..,$(subst /, ,$(patsubst $(prefix)/%,%,$(pkgconfigdir))))),$(prefix))
$(B)/bankc.pc: runtime/bankc.pc.in compiler/bankc.h FORCE | $(B)
	@sed -e 's|@prefix@|$(pc_up)|' -e 's|@includedir@|$(call pc_rel,$(includedir))|' \
		-e 's|@bindir@|$(call pc_rel,$(bindir))|' \
		-e 's|@VERSION@|$(VERSION)|' runtime/bankc.pc.in >$@

$(B)/bankc-templates.pc: runtime/bankc-templates.pc.in compiler/bankc.h FORCE | $(B)
	@sed -e 's|@prefix@|$(pc_up)|' -e 's|@includedir@|$(call pc_rel,$(includedir))|' \
		-e 's|@VERSION@|$(VERSION)|' runtime/bankc-templates.pc.in >$@

$(B)/bankcConfig.cmake: cmake/bankcConfig.cmake.in FORCE | $(B)
	@sed -e 's|@PREFIX@|$(cmake_up)|' -e 's|@BINDIR@|$(call cmake_rel,$(bindir))|' \
		-e 's|@INCLUDEDIR@|$(call cmake_rel,$(includedir))|' cmake/bankcConfig.cmake.in >$@

$(B)/bankcConfigVersion.cmake: cmake/bankcConfigVersion.cmake.in compiler/bankc.h | $(B)
	@sed -e 's|@VERSION@|$(VERSION)|' cmake/bankcConfigVersion.cmake.in >$@

# sq: its text as one shell word (single quotes, a quote inside as '\''),
# so that a DESTDIR with a space (or quote) is one folder, never two words;
# sqin: the same inside quotes already (say's); D: $(DESTDIR) so quoted,
# put before each installed path.
sqin = $(subst ','\'',$(1))
sq = '$(call sqin,$(1))'
D = $(call sq,$(DESTDIR))
install: $(BIN) $(B)/tiles.stamp $(B)/bankc.pc $(B)/bankc-templates.pc $(B)/bankcConfig.cmake \
		$(B)/bankcConfigVersion.cmake
	$(call say,INSTALL,$(call sqin,$(DESTDIR)$(prefix)))$(INSTALL) -d $(D)$(bindir) \
		$(D)$(includedir)/bankc/detail $(D)$(includedir)/bankc/tiles \
		$(D)$(pkgconfigdir) $(D)$(cmakedir) \
		$(D)$(man1dir) $(D)$(docdir)/examples/cmake $(D)$(docdir)/examples/templates \
		$(D)$(docdir)/schema
	$(Q)$(INSTALL_PROGRAM) $(BIN) $(D)$(bindir)/bankc
	$(Q)$(INSTALL_DATA) runtime/bankc_runtime.h runtime/bankc_check.cuh \
		runtime/bankc_wgmma.cuh runtime/bankc_umma.cuh $(LIB_HEADERS) $(D)$(includedir)/bankc/
	$(Q)$(INSTALL_DATA) $(LIB_DETAIL) $(D)$(includedir)/bankc/detail/
	$(Q)$(INSTALL_DATA) $(LIB_TILES:%=$(TILES_DIR)/%.cuh) $(D)$(includedir)/bankc/tiles/
	$(Q)$(INSTALL_DATA) $(B)/bankc.pc $(D)$(pkgconfigdir)/bankc.pc
	$(Q)$(INSTALL_DATA) $(B)/bankc-templates.pc $(D)$(pkgconfigdir)/bankc-templates.pc
	$(Q)$(INSTALL_DATA) $(B)/bankcConfig.cmake $(B)/bankcConfigVersion.cmake \
		cmake/BankcTiles.cmake $(D)$(cmakedir)/
	$(Q)$(INSTALL_DATA) docs/bankc.1 $(D)$(man1dir)/bankc.1
	$(Q)$(INSTALL_DATA) $(DOCS) $(D)$(docdir)/
	$(Q)$(INSTALL_DATA) $(SCHEMAS) $(D)$(docdir)/schema/
	$(Q)$(INSTALL_DATA) examples/cmake/CMakeLists.txt examples/cmake/demo.tile \
		examples/cmake/main.c $(D)$(docdir)/examples/cmake/
	$(Q)$(INSTALL_DATA) $(EXAMPLE_LIB) $(D)$(docdir)/examples/templates/

# Removes what install wrote, and the folders of bankc's own that it made
# when they are left empty.
uninstall:
	$(call say,RM,$(call sqin,$(DESTDIR)$(prefix)))for f in $(INSTALLED); do rm -f $(D)"$$f"; done
	$(Q)for d in $(D)$(includedir)/bankc/detail $(D)$(includedir)/bankc/tiles \
		$(D)$(includedir)/bankc $(D)$(cmakedir) \
		$(D)$(docdir)/examples/cmake $(D)$(docdir)/examples/templates \
		$(D)$(docdir)/examples \
		$(D)$(docdir)/schema $(D)$(docdir); do \
		if [ -d "$$d" ]; then rmdir "$$d" 2>/dev/null || true; fi; done

# Solver timing: the specs corpus (median of 21 runs per tile) and a sweep.
$(B)/bench: tests/bench/bench.c $(B)/libbankc.a $(B)/flags
	$(call say,CC,$<)$(COMPILE) $(LDFLAGS) -o $@ $< $(B)/libbankc.a $(LDLIBS)

bench: $(B)/bench
	./$(B)/bench specs/*.tile tests/hard/hard.tile

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

# On a machine with a GPU, nvcc, patch and Nsight Compute: the validation
# kernels and tests/fix/ with scan's fixes applied, measured against the
# totals the fixes promised, and the fixed kernels' outputs against the
# unfixed ones' (docs/validation.md).  No prerequisite: a bankc
# built elsewhere runs here as it is (BANKC=PATH), without re2c or cmocka.
BANKC_GPU ?= ./bankc
gpu-fix:
	bash tests/gpu/fix_validate.sh $(BANKC_GPU) out/gpu-fix
	bash tests/gpu/fix_gpu.sh $(BANKC_GPU) out/gpu-fix

clean:
	rm -rf build build-san bankc out

FORCE:

.PHONY: all check check-fast $(CHECKS:%=check-%) werror-stamps fuzz fuzz-regress clean \
	deps run install uninstall tiles bench gpu-probe gpu-check gpu-bench gpu-scan gpu-fix fuzz-ptx \
	fuzz-ptx-regress FORCE

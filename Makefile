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
	$(CC) $(CFLAGS) -c $< -o $@

build/lex.o: build/lex.c $(HDR)
	$(CC) $(CFLAGS) -c $< -o $@

build/libbankc.a: $(OBJS)
	$(AR) rcs $@ $^

bankc: build/main.o build/libbankc.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# ---- tests ------------------------------------------------------------------
UNIT := $(patsubst tests/unit/%.c,build/%,$(wildcard tests/unit/test_*.c))

build/test_%: tests/unit/test_%.c tests/unit/testutil.h build/libbankc.a
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< build/libbankc.a $(LDLIBS) -lcmocka

check: bankc $(UNIT)
	@set -e; for t in $(UNIT); do echo "== $$t"; ./$$t; done
	@sh tests/run_bad.sh ./bankc tests/bad
	@sh tests/run_specs.sh ./bankc specs
	@sh tests/run_sim.sh ./bankc

clean:
	rm -rf build bankc out

.PHONY: all check clean

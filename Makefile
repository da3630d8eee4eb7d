# smartq - header-only intrusive priority queues
#
#   make help       every target, one line each (from the `## ` on its rule)
#   make test       the quick suite: one -O2 and one ASan+UBSan build
#   make check      the whole matrix: every variant, compiler, target,
#                   valgrind, consumers, integrations, harness (what CI runs)
#   make            the same as make test
#
# Variables: CC, CXX, CFLAGS (-O2 -g), BUILD (build/, where every product
# goes), JOBS (builds and tests run side by side: the machine's cores),
# PREFIX/DESTDIR for install; each mk/*.mk names its own.

CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2 -g
CPPFLAGS += -Iinclude
WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
            -Wcast-align -Wcast-qual -Wstrict-prototypes -Werror
BUILD    := build
export BUILD   # the test scripts find the programs under $BUILD
HEADERS  := $(wildcard include/*.h include/smartq/*.h)

# Each part adds the programs of the quick suite to TEST_PROGS (a program
# or script that exits 0 when it passes) and what must be built first to
# TEST_DEPS; the rest of the matrix, which only `make check` runs, goes to
# CHECK_PROGS and CHECK_DEPS.
TEST_PROGS  :=
TEST_DEPS   :=
CHECK_PROGS :=
CHECK_DEPS  :=

# The suites build and run on every core, each target's output kept
# together (make 4.3 takes -j from MAKEFLAGS); JOBS=1 for one at a time.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ifneq ($(filter test check all,$(or $(MAKECMDGOALS),all)),)
MAKEFLAGS += -j$(JOBS) -Otarget
endif

.PHONY: all test check clean
all: test ## the default: make test

include mk/kinds.mk
-include tests/tests.mk
-include tests/remote.mk
-include bench/bench.mk
-include replay/replay.mk
-include examples/examples.mk
-include integrations/ns3/ns3.mk
-include integrations/ross/ross.mk
-include tests/fuzz/fuzz.mk
-include mk/install.mk
-include mk/lint.mk
-include mk/dist.mk
-include mk/help.mk

test: $(TEST_DEPS) ## the quick suite; ends "tests: N passed, N failed"
	@sh tests/run-all.sh -j $(JOBS) $(TEST_PROGS)

check: $(TEST_DEPS) $(CHECK_DEPS) ## everything CI runs: make test and the whole matrix
	@sh tests/run-all.sh -j $(JOBS) $(TEST_PROGS) $(CHECK_PROGS)

clean: ## remove every build product (the BUILD directory, build/)
	rm -rf $(BUILD)

# smartq - header-only intrusive priority queues
#
#   make help       every target, one line each (from the `## ` on its rule)
#   make            the same as make test
#
# Variables: CC, CXX, CFLAGS (-O2 -g), BUILD (build/, where every product
# goes), PREFIX/DESTDIR for install; each mk/*.mk names its own.

CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2 -g
CPPFLAGS += -Iinclude
WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
            -Wcast-align -Wcast-qual -Wstrict-prototypes -Werror
BUILD    := build
export BUILD   # the test scripts find the programs under $BUILD
HEADERS  := $(wildcard include/*.h include/smartq/*.h)

# Each part adds the programs that `make test` runs to TEST_PROGS (a
# program or script that exits 0 when it passes) and what must be built
# first to TEST_DEPS.
TEST_PROGS :=
TEST_DEPS  :=

.PHONY: all test clean
all: test ## the default: make test

include mk/kinds.mk
-include tests/tests.mk
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

test: $(TEST_DEPS) ## build and run every test; ends "tests: N passed, N failed"
	@sh tests/run-all.sh $(TEST_PROGS)

clean: ## remove every build product (the BUILD directory, build/)
	rm -rf $(BUILD)

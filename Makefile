# smartq - header-only intrusive priority queues
#
#   make test       build and run every test (gcc, clang, sanitizers, C++)
#   make bench      the rdtsc harness: N = 1..2048, seed layout
#                   (BENCH_ARGS="--help" lists its options)
#   make plot       cycles/loop against N as a PNG (gnuplot)
#   make costs      instructions, cache misses, mispredicts per loop (callgrind)
#   make replay     the seeds' scheduler benchmarks (hackbench 2003, tbench
#                   2010) in a CFS model over every run queue
#   make lint       cppcheck and clang-tidy
#   make fuzz       libFuzzer over all four backends (FUZZ_SECONDS=60)
#   make examples   the example programs, once per backend
#   make install    headers and smartq.pc (PREFIX, DESTDIR); make uninstall
#   make clean

CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2 -g
CPPFLAGS += -Iinclude
WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
            -Wcast-align -Wstrict-prototypes -Werror
BUILD    := build
HEADERS  := $(wildcard include/*.h include/smartq/*.h)

# Each part adds the programs that `make test` runs to TEST_PROGS (a
# program or script that exits 0 when it passes) and what must be built
# first to TEST_DEPS.
TEST_PROGS :=
TEST_DEPS  :=

.PHONY: all test clean
all: test

include mk/kinds.mk
-include tests/tests.mk
-include bench/bench.mk
-include replay/replay.mk
-include examples/examples.mk
-include tests/fuzz/fuzz.mk
-include mk/install.mk
-include mk/lint.mk

test: $(TEST_DEPS)
	@sh tests/run-all.sh $(TEST_PROGS)

clean:
	rm -rf $(BUILD)

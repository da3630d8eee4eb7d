# bench/bench.mk - the benchmark harness (included by the top Makefile)
#
#   make bench                         the default run: N = 1..2048, hold,
#                                      every queue, the seeds' layout
#   make bench BENCH_ARGS='-n 1..1M -w timer -c 1'   any options (--help)
#   make plot                          PNG of the last run's CSV (gnuplot)
#
# The bsd_rb peer is built when libbsd's <bsd/sys/tree.h> compiles
# (apt-get install libbsd-dev); never required.  BENCH_BSD_CPPFLAGS can
# point at a copy elsewhere (-I/some/usr/include).

BENCH_BIN   := $(BUILD)/bench/sq-bench
BENCH_CSV   ?= $(BUILD)/bench/results.csv
BENCH_JSON  ?= $(BUILD)/bench/results.json
BENCH_PNG   ?= $(BUILD)/bench/results.png
BENCH_ARGS  ?=
BENCH_BSD_CPPFLAGS ?=

bench_have_bsd = $(shell printf '\043include <bsd/sys/tree.h>\nint main(void) { return 0; }\n' | \
	$(CC) $(BENCH_BSD_CPPFLAGS) -x c -o /dev/null - 2>/dev/null && echo -DBQ_HAVE_BSD_TREE)

BENCH_FLAGS = $(CPPFLAGS) -Ibench $(BENCH_BSD_CPPFLAGS) $(bench_have_bsd) \
	$(CFLAGS) $(WARN) -std=c11 \
	-DBQ_BUILD_CC='"$(CC)"' -DBQ_BUILD_CFLAGS='"$(CFLAGS)"'

TEST_PROGS += bench/test-bench.sh
TEST_DEPS  += $(BENCH_BIN)

.PHONY: bench plot bench-always
bench: $(BENCH_BIN)
	@mkdir -p $(dir $(BENCH_CSV)) $(dir $(BENCH_JSON))
	$(BENCH_BIN) --csv $(BENCH_CSV) --json $(BENCH_JSON) $(BENCH_ARGS)

plot:
	@sh bench/plot.sh $(BENCH_CSV) $(BENCH_PNG)

# Rebuild when the compiler, the flags or libbsd's presence change.
$(BUILD)/bench/flags: bench-always
	@mkdir -p $(@D)
	@echo '$(subst ',,$(CC) $(BENCH_FLAGS))' > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BENCH_BIN): bench/bench.c bench/queue.h bench/peers.h $(HEADERS) $(BUILD)/bench/flags
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) -o $@ bench/bench.c -lm

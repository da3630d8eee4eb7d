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
#
# The linux_rb peer (the kernel's leftmost-cached rbtree) is built only
# when LINUX_SRC names a kernel source tree, or a kernel source tarball
# (make bench LINUX_SRC=/usr/src/linux-source-6.1: Debian's
# linux-source-6.1 ships /usr/src/linux-source-6.1.tar.xz, which is taken
# when no tree is there; bench/linux-src.sh extracts the few files needed
# into $(BUILD)/bench/linux-src once): its tools/lib/rbtree.c is compiled
# into $(BUILD)/bench/linux-rbtree.o with the same $(CC) $(CFLAGS) and
# linked in, and peers.h includes its tools/include/linux/rbtree.h.  That
# code is GPL and stays in the user's tree (or build/): nothing of it is in
# this repository, and a binary built that way is the user's own business.
#
# The backends measured are those of SQ_KINDS (mk/kinds.mk): a new backend
# joins the harness, make costs and the harness's test by its list entry.

BENCH_BIN   := $(BUILD)/bench/sq-bench
BENCH_CSV   ?= $(BUILD)/bench/results.csv
BENCH_JSON  ?= $(BUILD)/bench/results.json
BENCH_PNG   ?= $(BUILD)/bench/results.png
BENCH_ARGS  ?=
BENCH_BSD_CPPFLAGS ?=
LINUX_SRC   ?=

bench_have_bsd = $(shell printf '\043include <bsd/sys/tree.h>\nint main(void) { return 0; }\n' | \
	$(CC) $(BENCH_BSD_CPPFLAGS) -x c -o /dev/null - 2>/dev/null && echo -DBQ_HAVE_BSD_TREE)

ifneq ($(strip $(LINUX_SRC)),)
bench_linux_src := $(patsubst %/,%,$(strip $(LINUX_SRC)))
ifeq ($(wildcard $(bench_linux_src)/tools/lib/rbtree.c),)
# No tree: LINUX_SRC itself, LINUX_SRC.tar.*, or one tarball inside it.
bench_linux_tar := $(firstword $(filter %.tar %.tar.xz %.tar.gz %.tar.bz2 %.tgz,\
	$(wildcard $(bench_linux_src))) $(wildcard $(addprefix $(bench_linux_src),\
	.tar.xz .tar.gz .tar.bz2 .tar /*.tar.xz /*.tar.gz /*.tar.bz2)))
ifeq ($(bench_linux_tar),)
$(error LINUX_SRC=$(LINUX_SRC): no kernel source there: neither tools/lib/rbtree.c (a tree) nor a .tar.xz/.tar.gz/.tar.bz2 (e.g. /usr/src/linux-source-6.1 after apt-get install linux-source-6.1))
endif
bench_linux_src := $(BUILD)/bench/linux-src
ifneq ($(shell cat $(bench_linux_src)/.tarball 2>/dev/null),$(bench_linux_tar))
ifneq ($(shell sh bench/linux-src.sh $(bench_linux_tar) $(bench_linux_src) && echo ok),ok)
$(error LINUX_SRC=$(LINUX_SRC): could not extract the kernel files from $(bench_linux_tar))
endif
endif
endif
ifeq ($(wildcard $(bench_linux_src)/tools/include/linux/rbtree.h),)
$(error LINUX_SRC=$(LINUX_SRC): no tools/include/linux/rbtree.h there)
endif
# "6.1.192", from the tree's top Makefile
bench_linux_version := $(shell sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) *= *//p' \
	$(bench_linux_src)/Makefile 2>/dev/null | head -n 3 | paste -sd. -)
BENCH_LINUX_OBJ   := $(BUILD)/bench/linux-rbtree.o
BENCH_LINUX_FLAGS := -isystem $(bench_linux_src)/tools/include \
	-DBQ_HAVE_LINUX_RB -DBQ_LINUX_RB_VERSION='"$(bench_linux_version)"'
else
BENCH_LINUX_OBJ   :=
BENCH_LINUX_FLAGS :=
endif

BENCH_SRCS := bench/bench.c bench/options.c bench/tables.c bench/queues.c \
	bench/report.c bench/advise.c
BENCH_DEPS  = $(BENCH_SRCS) bench/bench.h bench/clock.h bench/queue.h bench/kind.h \
	bench/peers.h bench/peers-stream.h $(HEADERS) $(BUILD)/bench/flags $(BENCH_LINUX_OBJ)

BENCH_FLAGS = $(CPPFLAGS) -Ibench $(BENCH_BSD_CPPFLAGS) $(bench_have_bsd) \
	$(BENCH_LINUX_FLAGS) $(CFLAGS) $(WARN) -std=c11 \
	-DBQ_BUILD_CC='"$(CC)"' -DBQ_BUILD_CFLAGS='"$(CFLAGS)"'

CHECK_PROGS += bench/test-bench.sh
CHECK_DEPS  += $(BENCH_BIN)

# The streaming peers (peers-stream.h) against a model, randomized, the
# seed printed on failure: test-peers [SEED [STEPS]].
PEERS_TEST  := $(BUILD)/bench/test-peers
CHECK_PROGS += $(PEERS_TEST)
CHECK_DEPS  += $(PEERS_TEST)
$(PEERS_TEST): bench/test-peers.c bench/peers-stream.h bench/peers.h \
		bench/bench.h $(HEADERS) $(BUILD)/bench/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ibench $(CFLAGS) $(WARN) -std=c11 -o $@ bench/test-peers.c

.PHONY: bench plot costs bench-always advise
bench: $(BENCH_BIN) ## the rdtsc harness, N = 1..2048 (BENCH_ARGS=--help lists options)
	@mkdir -p $(dir $(BENCH_CSV)) $(dir $(BENCH_JSON))
	$(BENCH_BIN) --csv $(BENCH_CSV) --json $(BENCH_JSON) $(BENCH_ARGS)

# Which queue for your shape of work, within a minute: sq-bench --advise
# with ADVISE's options; alone, a timer service of 10^4 timers (1 ms ..
# 1 h, 30% cancels, 30% re-arms, order within 1 ms).  E.g.
#   make advise ADVISE='-n 100000 -d exp --cancel 0.3'
#   make advise ADVISE='-n 1000000 -d exp -m 3G --cancel 0 --rearm 0 --exact'
#   make advise ADVISE='-n 50000 --trace my-delays.txt --exact'
ADVISE ?=
advise: $(BENCH_BIN) ## which queue for your work, in a minute: one recommendation (ADVISE='-n 100000 -d exp --cancel 0.3')
	$(BENCH_BIN) --advise $(ADVISE)

plot: ## cycles/loop against N from the last make bench, as a PNG (gnuplot)
	@sh bench/plot.sh $(BENCH_CSV) $(BENCH_PNG)

# Instructions, cache misses and mispredicts per hold loop, by callgrind:
# make costs [COSTS_N=16,2048,65536] [COSTS_QUEUES=every backend of SQ_KINDS]
bench_empty  :=
bench_comma  := ,
COSTS_BIN    := $(BUILD)/bench/sq-bench-notsc
COSTS_N      ?= 16,2048,65536
COSTS_QUEUES ?= $(subst $(bench_empty) $(bench_empty),$(bench_comma),$(strip $(SQ_KINDS)))
CHECK_DEPS   += $(COSTS_BIN)
costs: $(COSTS_BIN) ## instructions, misses, mispredicts per loop (callgrind)
	@sh bench/costs.sh $(COSTS_BIN) $(COSTS_N) $(COSTS_QUEUES)

$(COSTS_BIN): $(BENCH_DEPS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) -DBQ_NO_TSC -o $@ $(BENCH_SRCS) $(BENCH_LINUX_OBJ) -lm

# Rebuild when the compiler, the flags, libbsd's presence or LINUX_SRC
# change.
$(BUILD)/bench/flags: bench-always
	@mkdir -p $(@D)
	@echo '$(subst ',,$(CC) $(BENCH_FLAGS))' > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BENCH_BIN): $(BENCH_DEPS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) -o $@ $(BENCH_SRCS) $(BENCH_LINUX_OBJ) -lm

# The kernel's own file, from the user's tree, with the harness's $(CC)
# $(CFLAGS) but not $(WARN) (-w: its warnings are not ours to fix).
ifneq ($(BENCH_LINUX_OBJ),)
$(BENCH_LINUX_OBJ): $(bench_linux_src)/tools/lib/rbtree.c $(BUILD)/bench/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(bench_linux_src)/tools/include -w -c -o $@ $<
endif

# The eligible pick (smartq/rb_elig.h) against an O(n) scan and, with
# LINUX_SRC as above, the kernel's augmented rbtree: make bench-elig
# [LINUX_SRC=...] [ELIG_ARGS='-n 1,64,65536 --reps 7 --loops 200000'].
# gnu11: the kernel's header wants typeof.
ELIG_BIN  := $(BUILD)/bench/sq-elig
ELIG_ARGS ?=
CHECK_DEPS += $(ELIG_BIN)
.PHONY: bench-elig
bench-elig: $(ELIG_BIN) ## eligible pick: erb vs an O(n) scan and the kernel's (LINUX_SRC=...)
	$(ELIG_BIN) $(ELIG_ARGS)

$(ELIG_BIN): bench/elig.c bench/clock.h $(HEADERS) $(BUILD)/bench/flags $(BENCH_LINUX_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(BENCH_LINUX_FLAGS) $(CFLAGS) $(WARN) -std=gnu11 \
		-o $@ bench/elig.c $(BENCH_LINUX_OBJ)

# One harness against two header trees, run alternately, side by side:
# make compare [COMPARE_A=commit] [COMPARE_B=commit or work]
# [COMPARE_WORKLOADS='churn-1h seeds-65536 ...' or quick or all]
# [COMPARE_ROUNDS=5] [COMPARE_CPU=1] [COMPARE_LOCK=/tmp/some.lock]
# [COMPARE_LONG=1: each run one long repetition, a mean with the bursts]
# (bench/compare.sh lists the workloads).
COMPARE_A         ?= HEAD
COMPARE_B         ?= work
COMPARE_WORKLOADS ?= all
COMPARE_ROUNDS    ?= 5
COMPARE_CPU       ?= 1
COMPARE_LOCK      ?=
COMPARE_LONG      ?=
.PHONY: compare
compare: ## two header trees, one harness, A B A B: medians and B/A (bench/compare.sh)
	@CC='$(CC)' CFLAGS='$(CFLAGS)' BUILD='$(BUILD)' sh bench/compare.sh \
		-r $(COMPARE_ROUNDS) -c $(COMPARE_CPU) \
		$(if $(COMPARE_LOCK),-l $(COMPARE_LOCK)) \
		$(if $(COMPARE_LONG),-L) \
		$(COMPARE_A) $(COMPARE_B) $(COMPARE_WORKLOADS)

# replay/replay.mk - the seeds' scheduler benchmarks (included by the top Makefile)
#
#   make replay                          hackbench (50..200 groups) and
#                                        tbench, in the seeds' layouts
#   make replay REPLAY_ARGS='-w tbench -d 20 --bg 2'   any options (--help)
#
# The rows also go to $(REPLAY_CSV).  Timing: run it under the timing lock
# (REPLAY_RUN's default); sq-replay pins itself (--pin: 1 CPU on core 1,
# 2 CPUs on cores 1 and 0).  `make test` runs the
# scheduler's tests on the virtual clock, with the hand-written context
# switch and with the ucontext fallback.

REPLAY_BIN     := $(BUILD)/replay/sq-replay
REPLAY_TEST    := $(BUILD)/replay/test-replay
REPLAY_TEST_UC := $(BUILD)/replay/test-replay-uc
REPLAY_CSV     ?= $(BUILD)/replay/results.csv
REPLAY_ARGS    ?=
REPLAY_RUN     ?= flock /tmp/smartq-timing.lock
REPLAY_SRCS    := replay/ctx.h replay/sched.h replay/policy.h replay/work.h
REPLAY_LIBS    := -pthread

TEST_PROGS += $(REPLAY_TEST) $(REPLAY_TEST_UC)
TEST_DEPS  += $(REPLAY_TEST) $(REPLAY_TEST_UC)

.PHONY: replay
replay: $(REPLAY_BIN) ## the seeds' scheduler benchmarks on a user-space scheduler (REPLAY_ARGS=--help)
	@mkdir -p $(dir $(REPLAY_CSV))
	$(REPLAY_RUN) $(REPLAY_BIN) --csv $(REPLAY_CSV) $(REPLAY_ARGS)

$(REPLAY_BIN): replay/replay.c $(REPLAY_SRCS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -o $@ $< $(REPLAY_LIBS)

# The tests run with SQ_DEBUG: a policy that misuses a queue stops there.
$(REPLAY_TEST): replay/test-replay.c $(REPLAY_SRCS) tests/sq_test.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(WARN) -std=c11 -DSQ_DEBUG -o $@ $< $(REPLAY_LIBS)

$(REPLAY_TEST_UC): replay/test-replay.c $(REPLAY_SRCS) tests/sq_test.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(WARN) -std=c11 -DSQ_DEBUG \
		-DRP_CTX_UCONTEXT -o $@ $< $(REPLAY_LIBS)

# make check: the tests under ThreadSanitizer (the cross-CPU path on real
# threads; the switch tells it of each stack change), when it links.
REPLAY_TEST_TSAN := $(BUILD)/replay/test-replay-tsan
REPLAY_TSAN_OK := $(shell printf 'int main(void){return 0;}' | \
	$(CC) -fsanitize=thread -x c -o /dev/null - 2>/dev/null && echo yes)
ifeq ($(REPLAY_TSAN_OK),yes)
CHECK_PROGS += $(REPLAY_TEST_TSAN)
CHECK_DEPS  += $(REPLAY_TEST_TSAN)
endif

$(REPLAY_TEST_TSAN): replay/test-replay.c $(REPLAY_SRCS) tests/sq_test.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests -O1 -g -fsanitize=thread $(WARN) -std=c11 \
		-DSQ_DEBUG -o $@ $< $(REPLAY_LIBS)

# make check: the tests again with the aarch64 switch, under qemu-aarch64,
# when tests/cross.mk found the cross compiler and qemu (SQ_CROSS_aarch64).
ifeq ($(SQ_CROSS_aarch64),yes)
REPLAY_TEST_A64 := $(BUILD)/replay/test-replay-aarch64
CHECK_PROGS += $(REPLAY_TEST_A64).sh
CHECK_DEPS  += $(REPLAY_TEST_A64).sh

$(REPLAY_TEST_A64): replay/test-replay.c $(REPLAY_SRCS) tests/sq_test.h $(HEADERS)
	@mkdir -p $(@D)
	$(SQX_CC_aarch64) $(CPPFLAGS) -Itests -O2 $(WARN) -std=c11 -DSQ_DEBUG \
		-o $@ $< $(REPLAY_LIBS)

$(REPLAY_TEST_A64).sh: $(REPLAY_TEST_A64)
	printf '#!/bin/sh\nexec %s %s\n' '$(SQX_QEMU_aarch64)' '$(abspath $<)' > $@
	chmod +x $@
endif

# replay/replay.mk - the scheduler replay (included by the top Makefile)
#
#   make replay                          hackbench (50..200 groups) and
#                                        tbench (60 simulated s) on every
#                                        run queue, in the seeds' layouts
#   make replay-full                     and the sensitivity table, every
#                                        policy, hackbench over pipes too
#   make replay REPLAY_ARGS='-w tbench -d 600'   any options (--help)
#   make replay-calibrate                re-measure replay/rq-cost.h
#
# The results also go to $(REPLAY_CSV) and $(REPLAY_JSON).  `make test`
# runs $(BUILD)/replay/test-replay (small runs, every queue, every policy).

REPLAY_BIN  := $(BUILD)/replay/sq-replay
REPLAY_TEST := $(BUILD)/replay/test-replay
REPLAY_CSV  ?= $(BUILD)/replay/results.csv
REPLAY_JSON ?= $(BUILD)/replay/results.json
REPLAY_ARGS ?=
REPLAY_SRCS := replay/model.h replay/elig.h replay/queues.h replay/oldq.h \
               replay/rq-cost.h

TEST_PROGS += $(REPLAY_TEST)
TEST_DEPS  += $(REPLAY_TEST)

.PHONY: replay replay-full replay-calibrate
replay: $(REPLAY_BIN) ## the seeds' scheduler benchmarks (hackbench, tbench) in a CFS model (REPLAY_ARGS=--help)
	@mkdir -p $(dir $(REPLAY_CSV)) $(dir $(REPLAY_JSON))
	$(REPLAY_BIN) --csv $(REPLAY_CSV) --json $(REPLAY_JSON) $(REPLAY_ARGS)

replay-full: $(REPLAY_BIN) ## make replay plus every policy in hackbench, its pipe variant, and the sensitivity table
	@mkdir -p $(dir $(REPLAY_CSV)) $(dir $(REPLAY_JSON))
	$(REPLAY_BIN) --full --csv $(REPLAY_CSV) --json $(REPLAY_JSON) $(REPLAY_ARGS)

# Measures: run it under the timing lock (flock /tmp/smartq-timing.lock).
replay-calibrate: $(REPLAY_BIN) ## re-measure the run queues' costs into replay/rq-cost.h
	$(REPLAY_BIN) --calibrate > $(BUILD)/replay/rq-cost.h.new
	mv $(BUILD)/replay/rq-cost.h.new replay/rq-cost.h

$(REPLAY_BIN): replay/replay.c $(REPLAY_SRCS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -o $@ $<

# The tests run with SQ_DEBUG: a model that misuses a queue stops there.
$(REPLAY_TEST): replay/test-replay.c $(REPLAY_SRCS) tests/sq_test.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(WARN) -std=c11 -DSQ_DEBUG -o $@ $<

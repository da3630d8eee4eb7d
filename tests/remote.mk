# tests/remote.mk - timers across threads (smartq/remote.h): its tests,
# its benchmark and its example's build, included by the top Makefile
#
#   remote-KIND    tests/remote.c, the stress test, once per backend of
#                  SQ_KINDS, with -pthread, in these variants:
#                    o2                      make test
#                    tsan-gcc, tsan-clang    ThreadSanitizer: rb in make
#                                            test, every backend in check
#                    asan                    ASan+UBSan, SQ_DEBUG (check)
#                  (make check runs the sanitizer and cross variants as
#                  remote-many-K: 16 producers, then, but under qemu, 8
#                  with every thread on one core)
#                    aarch64, armhf          qemu-user, weaker memory
#                                            order than x86 (check; the
#                                            toolchains of tests/cross.mk)
#   remote_model   tests/remote_model.c, the header's own code under every
#                  schedule of two posters and the owner to a preemption
#                  bound, and random ones: rb in make test; every other
#                  backend and a tie kind, and rb to a bound of 3 (40 s),
#                  in make check
#   remote_mutants tests/remote_mutants.sh: the model on copies of the
#                  header broken on purpose must fail (make check)
#   remote_misuse  tests/remote_misuse.c, SQ_DEBUG's messages (make test)
#
#   make bench-remote [REMOTE_ARGS=...]   bench/remote.c (never a test)
#
# A variant whose compiler cannot build and run a threaded program is
# skipped, saying so.  SQ_TSAN=no|yes, SQ_CROSS_REMOTE=no|yes force them.

SQR_SRC  := tests/remote.c
SQR_HDRS := $(SQT_HDRS) tests/remote.mk
SQR_TSAN := -fsanitize=thread -fno-omit-frame-pointer

# $(call sqr_runs,COMPILER AND FLAGS[,RUNNER]): yes if a threaded program
# builds and runs
sqr_runs = $(shell t=$$(mktemp 2>/dev/null) || exit 0; \
	printf '%s\n' '$(SQT_HASH)include <pthread.h>' \
	'static void *f(void *a) { return a; }' \
	'int main(void) { pthread_t t; return pthread_create(&t, 0, f, 0) || pthread_join(t, 0); }' | \
	$(1) -pthread -x c - -o $$t >/dev/null 2>&1 && $(2) $$t >/dev/null 2>&1 && \
	echo yes || echo no; rm -f $$t)

ifneq ($(filter test check test-build,$(or $(MAKECMDGOALS),all)),)
ifeq ($(origin SQ_TSAN),undefined)
SQ_TSAN := $(call sqr_runs,$(CC) $(SQR_TSAN))
endif
SQ_TSAN_CLANG := $(if $(CLANG),$(if $(filter yes,$(SQ_TSAN)),$(call sqr_runs,$(CLANG) $(SQR_TSAN)),no),no)
ifneq ($(filter yes,$(SQ_TSAN)),yes)
$(info tests: $(CC) cannot build and run -fsanitize=thread, skipping remote's tsan variants)
endif
endif
ifneq ($(filter check test-build,$(MAKECMDGOALS)),)
ifeq ($(origin SQ_CROSS_REMOTE),undefined)
SQ_CROSS_REMOTE := yes
endif
SQR_CROSS := $(if $(filter yes,$(SQ_CROSS_REMOTE)),$(foreach t,aarch64 armhf,\
	$(if $(filter $(t),$(SQX_TARGETS)),$(if $(filter yes,$(call sqr_runs,$(SQX_CC_$(t)),$(SQX_QEMU_$(t)))),$(t)))))
endif

# the variants' compilers and flags
SQR_CC_o2          := $(CC) $(CFLAGS) -std=c11
SQR_CC_tsan-gcc    := $(CC) -O1 -g -std=c11 -DSQ_DEBUG $(SQR_TSAN)
SQR_CC_tsan-clang  := $(CLANG) -O1 -g -std=c11 $(SQR_TSAN)
SQR_CC_asan        := $(CC) -O1 -g -std=c11 -DSQ_DEBUG $(SQT_SAN)
SQR_CC_aarch64     := $(SQX_CC_aarch64) -O2 -g -std=c11
SQR_CC_armhf       := $(SQX_CC_armhf) -O2 -g -std=c11
# commands per producer: fewer where each is slower
SQR_OPS_o2         := 1000000
SQR_OPS_tsan-gcc   := 300000
SQR_OPS_tsan-clang := 300000
SQR_OPS_asan       := 300000
SQR_OPS_aarch64    := 300000
SQR_OPS_armhf      := 300000

# $(call sqr_rules,VARIANT)
define sqr_rules
$(SQT_DIR)/$(1)/remote-%: $(SQR_SRC) $(SQR_HDRS)
	@mkdir -p $$(@D)
	$$(SQR_CC_$(1)) $$(WARN) $$(CPPFLAGS) -DSQ_K=$$* \
		-DREMOTE_OPS=$$(SQR_OPS_$(1)) -pthread -o $$@ $$<
endef
$(foreach v,o2 tsan-gcc tsan-clang asan,$(eval $(call sqr_rules,$(v))))
# remote-many-K: the same program with more threads than cores, then
# with every thread on one core (make check's sanitizer runs)
# (under qemu the -1 run is slow, a minute of waiting for each kind: the
# cross variants run -p 16 only)
define sqr_many
$(SQT_DIR)/$(1)/remote-many-$(2): $(SQT_DIR)/$(1)/remote-$(2)
	printf '#!/bin/sh\n"%s" -p 16 && exec %s\n' "$$$$PWD/$$<" \
		'$(if $(3),true,"'"$$$$PWD/$$<"'" -p 8 -1)' >$$@
	chmod +x $$@
endef
$(foreach v,tsan-gcc tsan-clang asan,$(foreach k,$(SQ_KINDS),$(eval $(call sqr_many,$(v),$(k)))))
$(foreach v,aarch64 armhf,$(foreach k,$(SQ_KINDS),$(eval $(call sqr_many,$(v),$(k),cross))))
# cross: the binary in TARGET/bin/, a wrapper that runs it under qemu
define sqr_cross
$(SQT_DIR)/$(1)/bin/remote-%: $(SQR_SRC) $(SQR_HDRS)
	@mkdir -p $$(@D)
	$$(SQR_CC_$(1)) $$(WARN) $$(CPPFLAGS) -DSQ_K=$$* \
		-DREMOTE_OPS=$$(SQR_OPS_$(1)) -pthread -o $$@ $$<
endef
$(foreach t,aarch64 armhf,$(eval $(call sqr_cross,$(t))))
# kept when one is built by name, not only by make check
.PRECIOUS: $(SQT_DIR)/aarch64/bin/remote-% $(SQT_DIR)/armhf/bin/remote-%

SQR_TEST  := $(addprefix $(SQT_DIR)/o2/remote-,$(SQ_KINDS)) \
             $(SQT_DIR)/o2/remote_model-rb $(SQT_DIR)/o2/remote_misuse
SQR_CHECK := $(SQT_DIR)/o2/remote_model3-rb \
             $(addprefix $(SQT_DIR)/o2/remote_model-,$(filter-out rb,$(SQ_KINDS)) tie_rb) \
             $(SQT_DIR)/o2/remote_mutants \
             $(addprefix $(SQT_DIR)/asan/remote-many-,$(if $(filter yes,$(SQ_ASAN)),$(SQ_KINDS)))
ifeq ($(SQ_TSAN),yes)
SQR_TEST  += $(SQT_DIR)/tsan-gcc/remote-rb
SQR_CHECK += $(addprefix $(SQT_DIR)/tsan-gcc/remote-many-,$(SQ_KINDS))
ifeq ($(SQ_TSAN_CLANG),yes)
SQR_CHECK += $(addprefix $(SQT_DIR)/tsan-clang/remote-many-,$(SQ_KINDS))
endif
endif
SQR_CHECK += $(foreach t,$(SQR_CROSS),$(addprefix $(SQT_DIR)/$(t)/remote-many-,$(SQ_KINDS)))
SQR_CROSS_BINS := $(foreach t,$(SQR_CROSS),$(addprefix $(SQT_DIR)/$(t)/bin/remote-,$(SQ_KINDS)))

TEST_PROGS  += $(SQR_TEST)
TEST_DEPS   += $(SQR_TEST)
CHECK_PROGS += $(SQR_CHECK)
CHECK_DEPS  += $(SQR_CHECK) $(SQR_CROSS_BINS)
test-build: $(SQR_TEST) $(SQR_CHECK) $(SQR_CROSS_BINS)

# the example needs C11 atomics and threads: this rule's stem is shorter
# than examples.mk's %-KIND, so make takes it for threads-KIND
$(BUILD)/examples/threads-%: examples/threads.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DSQ_K=$* $(CFLAGS) $(WARN) -std=c11 \
		$(LDFLAGS) -pthread -o $@ $<

# ---- the benchmark ------------------------------------------------------------

REMOTE_BIN  := $(BUILD)/bench/sq-remote
REMOTE_ARGS ?=
CHECK_DEPS  += $(REMOTE_BIN)
.PHONY: bench-remote
bench-remote: $(REMOTE_BIN) ## remote.h: owner's path vs plain, producers vs a mutex (REMOTE_ARGS=--help)
	$(REMOTE_BIN) $(REMOTE_ARGS)

$(REMOTE_BIN): bench/remote.c bench/clock.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -std=c11 -pthread -o $@ $<

# the model checker: remote_model-K to the default bound (2),
# remote_model3-K a script running it to a bound of 3; tie_rb is rb
# ordered among equal keys (SQ_TIE)
$(SQT_DIR)/o2/remote_model-tie_%: tests/remote_model.c $(SQR_HDRS)
	@mkdir -p $(@D)
	$(call sqt_cc,o2) -DSQ_TIE_BASE=$* -o $@ $<
$(SQT_DIR)/o2/remote_model-%: tests/remote_model.c $(SQR_HDRS)
	@mkdir -p $(@D)
	$(call sqt_cc,o2) -DSQ_K=$* -o $@ $<
.PRECIOUS: $(SQT_DIR)/o2/remote_model-% $(SQT_DIR)/o2/remote_model-tie_%
$(SQT_DIR)/o2/remote_model3-%: $(SQT_DIR)/o2/remote_model-%
	printf '#!/bin/sh\nexec "%s" -b 3 -r 100000\n' "$$PWD/$<" >$@
	chmod +x $@
$(SQT_DIR)/o2/remote_mutants: tests/remote_mutants.sh tests/remote_model.c $(SQR_HDRS)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec sh "%s" "%s" "%s/mutants"\n' "$$PWD/$<" \
		'$(SQT_CC_o2) $(SQT_FLAGS_o2) $(WARN)' "$$PWD/$(@D)" >$@
	chmod +x $@

# the misuse suite: SQ_DEBUG always, threads
$(SQT_DIR)/o2/remote_misuse: tests/remote_misuse.c $(SQR_HDRS) tests/child.h
	@mkdir -p $(@D)
	$(call sqt_cc,o2) -DSQ_DEBUG -pthread -o $@ $< $(SQT_CMOCKA_L)

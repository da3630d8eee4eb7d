# tests/fuzz/fuzz.mk - the differential fuzz target and its regression runner
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_CC=clang] [FUZZ_JOBS=1]
#             [FUZZ_LADDER=small]
#       build tests/fuzz/fuzz.c with libFuzzer + ASan + UBSan (SQ_DEBUG on)
#       and run it for FUZZ_SECONDS, starting from the committed seeds in
#       tests/fuzz/corpus/ and the saved crashes in tests/fuzz/crashes/.
#       New corpus entries go to $(BUILD)/fuzz/corpus*/, crash inputs to
#       $(BUILD)/fuzz/artifacts/ -- never into the repository; copy a crash
#       into tests/fuzz/crashes/ by hand once it is understood.
#       FUZZ_LADDER=small fuzzes the smallest ladder (below), a binary and
#       a corpus of its own, so neither geometry's build is reused by the
#       other.
#   make fuzz-regress
#       the same fuzz.c built without libFuzzer (plain main(), $(CC), the
#       project's strict warnings), with and without SQ_DEBUG, with a
#       second ring in SQ_KINDS (tests/two_rings.h), and with the smallest
#       ladder (FUZZ_SMALL_LADDER: the inputs use up its rungs, and its
#       pile is checked against every other backend), fed every file of
#       tests/fuzz/corpus/ and tests/fuzz/crashes/.  `make check` runs all
#       four (tests/fuzz/README.md says how to fuzz that ladder).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_MAXLEN  ?= 4096
# The fuzzer runs a small ring (two bitmap words, so the summary word is
# used) so that keys reach its horizon, wrap round and migrate often.
# fuzz-regress-debug uses the same geometry, so a saved crash replays
# exactly; fuzz-regress uses the default geometry.
FUZZ_SLOTS   ?= 128
FUZZ_SMALL_LADDER := -DSQ_LADDER_RUNGS=2 -DSQ_LADDER_BUCKETS=64 \
                     -DSQ_LADDER_SPLIT=4 -DSQ_LADDER_THRES=2
FUZZ_LADDER  ?= default
ifeq ($(FUZZ_LADDER),default)
FUZZ_NAME    := fuzzer
FUZZ_CORPUS  = $(FUZZ_DIR)/corpus
FUZZ_GEOM    :=
else ifeq ($(FUZZ_LADDER),small)
FUZZ_NAME    := fuzzer-small-ladder
FUZZ_CORPUS  = $(FUZZ_DIR)/corpus-small-ladder
FUZZ_GEOM    := $(FUZZ_SMALL_LADDER)
else
$(error FUZZ_LADDER=$(FUZZ_LADDER): use default or small)
endif
FUZZ_FLAGS   ?= -g -O1 -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# the O(n) verifiers run after every operation; not tracing them makes
# the search about 4x faster (see the file)
FUZZ_COVIGN  ?= -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SRC     := tests/fuzz/fuzz.c
FUZZ_INPUTS  := $(HEADERS) tests/model.h $(FUZZ_SRC) tests/fuzz/fuzz.mk \
                tests/fuzz/coverage-ignore.txt

FUZZ_REGRESS := $(FUZZ_DIR)/fuzz-regress $(FUZZ_DIR)/fuzz-regress-debug \
                $(FUZZ_DIR)/fuzz-regress-two-rings \
                $(FUZZ_DIR)/fuzz-regress-small-ladder
CHECK_PROGS += $(FUZZ_REGRESS)
CHECK_DEPS  += $(FUZZ_REGRESS)

.PHONY: fuzz fuzz-build fuzz-regress fuzz-check-cc

$(FUZZ_DIR)/fuzz-regress: $(FUZZ_INPUTS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -D_POSIX_C_SOURCE=200809L \
		-DFZ_STANDALONE -o $@ $(FUZZ_SRC)

$(FUZZ_DIR)/fuzz-regress-debug: $(FUZZ_INPUTS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -D_POSIX_C_SOURCE=200809L \
		-DFZ_STANDALONE -DSQ_DEBUG -DSQ_TRING_SLOTS=$(FUZZ_SLOTS) \
		-o $@ $(FUZZ_SRC)

# with a second ring in SQ_KINDS (tests/two_rings.h): one model per ring
$(FUZZ_DIR)/fuzz-regress-two-rings: $(FUZZ_INPUTS) tests/two_rings.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -D_POSIX_C_SOURCE=200809L \
		-DFZ_STANDALONE -include tests/two_rings.h -o $@ $(FUZZ_SRC)

# the smallest ladder: the saved inputs use up its two rungs, so they
# drive its pile (checked against the model and every other backend)
$(FUZZ_DIR)/fuzz-regress-small-ladder: $(FUZZ_INPUTS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -D_POSIX_C_SOURCE=200809L \
		-DFZ_STANDALONE -DSQ_DEBUG $(FUZZ_SMALL_LADDER) -o $@ $(FUZZ_SRC)

fuzz-regress: $(FUZZ_REGRESS) ## replay the saved fuzzer inputs (no libFuzzer needed)
	$(foreach p,$(FUZZ_REGRESS),./$(p) &&) true

# libFuzzer ships with clang's runtime (Debian: libclang-rt-NN-dev, or
# the clang package itself on older releases).  Say so plainly when the
# compiler cannot link a fuzzer, instead of failing in the middle.
fuzz-check-cc: ## can FUZZ_CC (clang) link a libFuzzer target? say why not
	@mkdir -p $(FUZZ_DIR)
	@printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
		'{ (void)d; (void)n; return 0; }' > $(FUZZ_DIR)/probe.c
	@if ! command -v $(FUZZ_CC) >/dev/null 2>&1; then \
		echo "make fuzz: '$(FUZZ_CC)' not found: libFuzzer needs clang" \
		     "(apt-get install clang libclang-rt-dev, or set FUZZ_CC=clang-NN)." >&2; \
		exit 1; \
	fi
	@if ! $(FUZZ_CC) $(FUZZ_FLAGS) -o $(FUZZ_DIR)/probe \
		$(FUZZ_DIR)/probe.c >$(FUZZ_DIR)/probe.log 2>&1; then \
		echo "make fuzz: $(FUZZ_CC) cannot build a libFuzzer target" \
		     "with -fsanitize=fuzzer,address,undefined:" >&2; \
		sed 's/^/    /' $(FUZZ_DIR)/probe.log | head -n 5 >&2; \
		echo "make fuzz: install clang's fuzzer runtime (Debian/Ubuntu:" \
		     "libclang-rt-NN-dev for clang-NN) or set FUZZ_CC." \
		     "'make fuzz-regress' runs the corpus without libFuzzer." >&2; \
		exit 1; \
	fi

$(FUZZ_DIR)/$(FUZZ_NAME): $(FUZZ_INPUTS) | fuzz-check-cc
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_COVIGN) $(CPPFLAGS) -DSQ_DEBUG \
		-DSQ_TRING_SLOTS=$(FUZZ_SLOTS) $(FUZZ_GEOM) -o $@ $(FUZZ_SRC)

fuzz-build: fuzz-check-cc $(FUZZ_DIR)/$(FUZZ_NAME) ## build the libFuzzer target only

fuzz: fuzz-build ## libFuzzer over every backend for FUZZ_SECONDS (60)
	@mkdir -p $(FUZZ_CORPUS) $(FUZZ_DIR)/artifacts
	./$(FUZZ_DIR)/$(FUZZ_NAME) -max_total_time=$(FUZZ_SECONDS) \
		-max_len=$(FUZZ_MAXLEN) \
		$(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/ -print_final_stats=1 \
		$(FUZZ_CORPUS) tests/fuzz/corpus tests/fuzz/crashes

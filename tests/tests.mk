# tests/tests.mk - the test suite, included by the top-level Makefile
#
# Every test program is built in several variants, each into its own
# directory under $(BUILD)/tests/.  `make test` (the quick suite) builds
# and runs o2 and asan; `make check` every variant below:
#
#   o2      $(CC) $(CFLAGS) -std=c11                  the default build
#   o0dbg   $(CC) -O0 -g -std=c99 -DSQ_DEBUG          unoptimised, misuse checks on
#   portable $(CC) -O2 -g -std=c99 -DSQ_PORTABLE      the ISO C paths, no GNU builtins
#   clang   clang -O2 -g -std=c11                     when clang is installed
#   asan    $(CC) -O1 -fsanitize=address,undefined    when it links and runs;
#           -std=c11 -DSQ_DEBUG                       (diff.c runs a quarter of its ops)
#   intel   $(CC) -O2 -g -std=c11 -masm=intel         x86-64: Intel asm syntax
#
# and, under qemu-user, i386, aarch64, armhf and s390x (tests/cross.mk).
#
# The programs of each variant:
#
#   contract-KIND   tests/contract.c, the macro-API contract, once per backend
#   contract-tie-KIND  the same over a tie kind (SQ_TIE) of each backend of
#                   SQ_TIE_KINDS, then the tie order itself
#   diff            tests/diff.c, randomized differential test vs tests/model.h
#   misuse-KIND     tests/misuse.c, SQ_DEBUG misuse messages, poison, check()
#                   (always built with -DSQ_DEBUG), once per backend, and
#                   misuse-tie-KIND over each tie kind
#   wb_KIND         every tests/wb_*.c, the backends' white-box suites
#   keys            tests/keys.c, the key maps of common.h (int64_t, double)
#
# plus, in `make check` only, once: diff with a 64-slot and a 4096-slot ring and with a second
# ring in SQ_KINDS (tests/two_rings.h), wb_tring with 3- and 6-bit levels
# (the default is 4), wb_ladder with the default geometry
# (its own is small; o2, and asan when it runs), the C++11 unit
# tests/cxx.cpp, tests/headers.sh (each public header compiled alone as
# C99/C11 with gcc and clang and as C++11, with and without SQ_DEBUG), and
# valgrind-contract-KIND: the o2 contract suites, the tie kinds' too,
# under valgrind's memcheck (tests/valgrind.sh; it skips, saying so, when
# valgrind is not installed or SQ_VALGRIND=no).
#
# cmocka is used when it is found ($(PKG_CONFIG), else a compile-and-link probe);
# force it with SQ_CMOCKA=yes|no, CMOCKA_CFLAGS=..., CMOCKA_LIBS=....
# Seeds: SQ_SEED=<n> for diff (printed on every failure), SQ_DIFF_SCALE=<n>
# to run n times as many operations.

SQT_DIR   := $(BUILD)/tests
SQT_KINDS := $(SQ_KINDS)
SQT_HDRS  := $(HEADERS) tests/sq_test.h tests/model.h tests/rng.h tests/mix.h \
             tests/elig.h \
             tests/child.h \
             mk/kinds.mk tests/tests.mk

# ---- what this machine has ---------------------------------------------------

SQT_PROBE_SRC := int main(void) { return 0; }

PKG_CONFIG ?= pkg-config

# Inside $(shell ...) GNU make 4.3 keeps the backslash of \# and older
# makes drop it; a variable set outside reads as one '#' in both.
SQT_HASH := \#
SQT_CMOCKA_SRC := $(foreach h,stdarg stddef stdint setjmp cmocka,\
                  $(SQT_HASH)include <$(h).h>\n)int main(void) { return 0; }\n

ifeq ($(origin SQ_CMOCKA),undefined)
SQ_CMOCKA := $(shell if $(PKG_CONFIG) --exists cmocka 2>/dev/null; then echo yes; \
	else printf '$(SQT_CMOCKA_SRC)' | \
	$(CC) -x c - -lcmocka -o /dev/null >/dev/null 2>&1 && echo yes || echo no; fi)
endif
ifeq ($(SQ_CMOCKA),yes)
CMOCKA_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   ?= $(or $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null),-lcmocka)
SQT_CMOCKA_C  := -DSQ_HAVE_CMOCKA $(CMOCKA_CFLAGS)
SQT_CMOCKA_L  := $(CMOCKA_LIBS)
endif

CLANG ?= $(shell command -v clang 2>/dev/null)

# A C++ compiler is optional: a machine with only gcc and make skips C++.
ifeq ($(origin SQ_CXX),undefined)
SQ_CXX := $(shell printf 'int main() { return 0; }\n' | $(CXX) -x c++ - \
	-o /dev/null >/dev/null 2>&1 && echo yes || echo no)
endif

SQT_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
           -fno-omit-frame-pointer
ifeq ($(origin SQ_ASAN),undefined)
SQ_ASAN := $(shell t=$$(mktemp 2>/dev/null) || exit 0; \
	printf '%s\n' '$(SQT_PROBE_SRC)' | $(CC) $(SQT_SAN) -x c - -o $$t \
	>/dev/null 2>&1 && $$t >/dev/null 2>&1 && echo yes || echo no; rm -f $$t)
endif

# ---- variants ------------------------------------------------------------------

# SQT_QUICK: the variants of `make test`; SQT_VARIANTS: every variant
SQT_QUICK        := o2
SQT_VARIANTS     := o2 o0dbg portable
SQT_CC_o2        := $(CC)
SQT_FLAGS_o2     := $(CFLAGS) -std=c11
SQT_CC_o0dbg     := $(CC)
SQT_FLAGS_o0dbg  := -O0 -g -std=c99 -DSQ_DEBUG -DSQ_DIFF_SCALE_DIV=2
# the ISO C fallbacks of every GNU builtin, attribute and asm (SQ_PORTABLE)
SQT_CC_portable    := $(CC)
SQT_FLAGS_portable := -O2 -g -std=c99 -DSQ_PORTABLE -DSQ_DIFF_SCALE_DIV=2
ifneq ($(CLANG),)
SQT_VARIANTS     += clang
SQT_CC_clang     := $(CLANG)
SQT_FLAGS_clang  := -O2 -g -std=c11
endif
# Intel assembler syntax: inline asm must not depend on the dialect
# (x86 compilers only take -masm=intel; SQ_INTEL=no|yes to force).
ifeq ($(origin SQ_INTEL),undefined)
SQ_INTEL := $(shell printf '%s\n' '$(SQT_PROBE_SRC)' | \
	$(CC) -masm=intel -x c - -o /dev/null >/dev/null 2>&1 && echo yes || echo no)
endif
ifeq ($(SQ_INTEL),yes)
SQT_VARIANTS     += intel
SQT_CC_intel     := $(CC)
SQT_FLAGS_intel  := -O2 -g -std=c11 -masm=intel -DSQ_DIFF_SCALE_DIV=2
endif
ifeq ($(SQ_ASAN),yes)
SQT_QUICK        += asan
SQT_VARIANTS     += asan
SQT_CC_asan      := $(CC)
SQT_FLAGS_asan   := -O1 -g -std=c11 -DSQ_DEBUG -DSQ_DIFF_SCALE_DIV=4 $(SQT_SAN)
endif

ifneq ($(filter test check all,$(or $(MAKECMDGOALS),all)),)
ifneq ($(filter check,$(MAKECMDGOALS)),)
ifeq ($(CLANG),)
$(info tests: clang not found, skipping the clang variant and clang header checks)
endif
ifneq ($(SQ_INTEL),yes)
$(info tests: $(CC) does not take -masm=intel, skipping the intel variant)
endif
ifneq ($(SQ_CXX),yes)
$(info tests: $(CXX) cannot build C++, skipping tests/cxx.cpp and the C++ header checks)
endif
endif
ifneq ($(SQ_ASAN),yes)
$(info tests: $(CC) cannot build and run -fsanitize=address,undefined, skipping the asan variant)
endif
ifneq ($(SQ_CMOCKA),yes)
$(info tests: cmocka not found, using the plain runner of tests/sq_test.h)
endif
endif

# ---- programs ------------------------------------------------------------------

SQT_WB    := $(patsubst tests/%.c,%,$(wildcard tests/wb_*.c))
# erb and egavl (the eligible picks, smartq/rb_elig.h, gavl_elig.h) are
# not in SQ_KINDS but keep the whole contract: their contract and misuse
# suites run too.
SQT_PROGS := $(SQT_WB) keys diff $(addprefix contract-,$(SQT_KINDS) erb egavl) \
             $(addprefix misuse-,$(SQT_KINDS) erb egavl) \
             $(addprefix contract-tie-,$(SQ_TIE_KINDS)) \
             $(addprefix misuse-tie-,$(SQ_TIE_KINDS))

# the quick suite's programs, then the rest of the matrix
SQT_BUILT := $(foreach v,$(SQT_QUICK),$(addprefix $(SQT_DIR)/$(v)/,$(SQT_PROGS)))
SQT_FULL  := $(foreach v,$(filter-out $(SQT_QUICK),$(SQT_VARIANTS)),\
             $(addprefix $(SQT_DIR)/$(v)/,$(SQT_PROGS)))
SQT_FULL  += $(SQT_DIR)/o2/diff-slots64 $(SQT_DIR)/o2/diff-slots4096 \
             $(SQT_DIR)/o2/diff-two-rings \
             $(SQT_DIR)/o2/wb_tring-bits3 $(SQT_DIR)/o2/wb_tring-bits6 \
             $(SQT_DIR)/o2/wb_ladder-default
ifeq ($(SQ_ASAN),yes)
SQT_FULL  += $(SQT_DIR)/asan/wb_ladder-default
endif
ifeq ($(SQ_CXX),yes)
SQT_FULL  += $(SQT_DIR)/cxx
endif
SQT_VALGRIND := $(addprefix $(SQT_DIR)/valgrind-contract-,$(SQT_KINDS)) \
                $(addprefix $(SQT_DIR)/valgrind-contract-tie-,$(SQ_TIE_KINDS))
SQT_FULL  += $(SQT_VALGRIND)

TEST_PROGS  += $(SQT_BUILT)
TEST_DEPS   += $(SQT_BUILT)
CHECK_PROGS += $(SQT_DIR)/headers $(SQT_FULL)
CHECK_DEPS  += $(SQT_DIR)/headers $(SQT_FULL)

.PHONY: test-build
test-build: $(SQT_DIR)/headers $(SQT_BUILT) $(SQT_FULL) ## build every test program of make check without running them

# The flags one variant compiles with: $(call sqt_cc,VARIANT)
sqt_cc = $(SQT_CC_$(1)) $(SQT_FLAGS_$(1)) $(WARN) \
         $(CPPFLAGS) $(SQT_CMOCKA_C)

# $(call sqt_rules,VARIANT)
define sqt_rules
$(SQT_DIR)/$(1)/contract-tie-%: tests/contract.c $(SQT_HDRS)
	@mkdir -p $$(@D)
	$$(call sqt_cc,$(1)) -DSQ_TIE_BASE=$$* -o $$@ $$< $$(SQT_CMOCKA_L)

$(SQT_DIR)/$(1)/contract-%: tests/contract.c $(SQT_HDRS)
	@mkdir -p $$(@D)
	$$(call sqt_cc,$(1)) -DSQ_K=$$* -o $$@ $$< $$(SQT_CMOCKA_L)

$(SQT_DIR)/$(1)/misuse-tie-%: tests/misuse.c $(SQT_HDRS)
	@mkdir -p $$(@D)
	$$(call sqt_cc,$(1)) $$(if $$(filter -DSQ_DEBUG,$$(SQT_FLAGS_$(1))),,-DSQ_DEBUG) \
		-DSQ_TIE_BASE=$$* -o $$@ $$< $$(SQT_CMOCKA_L)

$(SQT_DIR)/$(1)/misuse-%: tests/misuse.c $(SQT_HDRS)
	@mkdir -p $$(@D)
	$$(call sqt_cc,$(1)) $$(if $$(filter -DSQ_DEBUG,$$(SQT_FLAGS_$(1))),,-DSQ_DEBUG) \
		-DSQ_K=$$* -o $$@ $$< $$(SQT_CMOCKA_L)

$(SQT_DIR)/$(1)/%: tests/%.c $(SQT_HDRS)
	@mkdir -p $$(@D)
	$$(call sqt_cc,$(1)) -o $$@ $$< $$(SQT_CMOCKA_L) -lm
endef
$(foreach v,$(SQT_VARIANTS),$(eval $(call sqt_rules,$(v))))

$(SQT_DIR)/o2/diff-slots%: tests/diff.c $(SQT_HDRS)
	@mkdir -p $(@D)
	$(call sqt_cc,o2) -DSQ_TRING_SLOTS=$* -o $@ $< $(SQT_CMOCKA_L)

# with a second ring in SQ_KINDS (tests/two_rings.h), a quarter of the ops
$(SQT_DIR)/o2/diff-two-rings: tests/diff.c tests/two_rings.h $(SQT_HDRS)
	@mkdir -p $(@D)
	$(call sqt_cc,o2) -include tests/two_rings.h -DSQ_DIFF_SCALE_DIV=4 \
		-o $@ $< $(SQT_CMOCKA_L)

# the ring's white-box suite with other level widths than the default
$(SQT_DIR)/o2/wb_tring-bits%: tests/wb_tring.c $(SQT_HDRS)
	@mkdir -p $(@D)
	$(call sqt_cc,o2) -DSQ_TRING_LEVEL_BITS=$* -o $@ $< $(SQT_CMOCKA_L)

# the ladder's white-box suite with the default geometry, not its small one
$(SQT_DIR)/%/wb_ladder-default: tests/wb_ladder.c $(SQT_HDRS)
	@mkdir -p $(@D)
	$(call sqt_cc,$*) -DWB_LADDER_DEFAULT_GEOMETRY -o $@ $< $(SQT_CMOCKA_L)

# C++11: every backend through the macro API (plain runner, no cmocka).
SQT_CXXWARN := $(filter-out -Wstrict-prototypes,$(WARN))
$(SQT_DIR)/cxx: tests/cxx.cpp $(SQT_HDRS)
	@mkdir -p $(@D)
	$(CXX) -O2 -g -std=c++11 $(SQT_CXXWARN) $(CPPFLAGS) -o $@ $<

# valgrind runs at test time: a wrapper per backend's o2 contract suite.
$(SQT_DIR)/valgrind-contract-%: $(SQT_DIR)/o2/contract-% tests/valgrind.sh
	@{ echo '#!/bin/sh'; \
	   echo 'exec sh tests/valgrind.sh $<'; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@

# The header check runs at test time, with this build's compilers.
# (rewritten on every run, so it always names this run's compilers)
.PHONY: sqt-force
sqt-force:
$(SQT_DIR)/headers: tests/headers.sh tests/tests.mk sqt-force
	@mkdir -p $(@D)
	@{ echo '#!/bin/sh'; \
	   echo "CC='$(CC)' CXX='$(if $(filter yes,$(SQ_CXX)),$(CXX))' CLANG='$(CLANG)' WARN='$(WARN)'"; \
	   echo 'export CC CXX CLANG WARN'; \
	   echo 'exec sh tests/headers.sh'; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@

# The README's C, compiled with each backend and run; no doc names an
# issue or a commit (tests/docs.sh).
TEST_PROGS += tests/readme.sh tests/docs.sh

# An impossible SQ_TRING_* or SQ_LADDER_* setting is a compile-time error.
TEST_PROGS += tests/config.sh

# The suite on other targets (i386, aarch64, armhf, s390x) under qemu-user.
-include tests/cross.mk

# The suite as x86-64 Windows code (mingw-w64 gcc, wine).
-include tests/windows.mk

# The headers copied into a scratch folder find each other, with and without -I.
CHECK_PROGS += tests/copied.sh

# The ring's node in a caller's union: clean under gcc -Warray-bounds=2.
CHECK_PROGS += tests/tring_warn.sh

# Every token of SQ_KINDS has its row in smartq.h's and README's tables.
TEST_PROGS += tests/kinds.sh

# Every generated results table is what its data file gives, and the step
# counts they are made from are what tests/cost.c counts now.
$(SQT_DIR)/results: $(SQT_DIR)/o2/cost tests/results.sh
	@{ echo '#!/bin/sh'; \
	   echo 'exec sh tests/results.sh $<'; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@
CHECK_PROGS += $(SQT_DIR)/results
CHECK_DEPS  += $(SQT_DIR)/results

# The bounded worst case: each backend's cost per operation, counted at N
# and 8N over adversarial patterns (tests/cost.c); o2 only, it counts.
TEST_PROGS += $(SQT_DIR)/o2/cost
TEST_DEPS  += $(SQT_DIR)/o2/cost

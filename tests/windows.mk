# tests/windows.mk - the suite as x86-64 Windows code, included by tests.mk
#
# LLP64: `long` is 32 bits there, and the C library is Microsoft's, so a
# header that assumes LP64 or glibc shows it here.  Built by Debian's
# mingw-w64 gcc (gcc-mingw-w64-x86-64-posix) with this suite's warnings
# and run under wine (wine, wine64), each program through a wrapper in
# $(SQT_DIR)/win64/ (the .exe files are in win64/bin/), in a wine prefix
# of its own under $(SQT_DIR)/win64/prefix.  `make check` runs it, or says
# why it skipped; SQ_WIN64=no|yes decides instead of the probe.
#
# The programs: contract-KIND for every backend of SQ_KINDS and every tie
# kind, diff, keys, the cost suite and the white-box suites that need no
# fork() (tests/child.h is POSIX: misuse and the rest stay on POSIX).

SQW_CC   ?= x86_64-w64-mingw32-gcc
SQW_WINE ?= $(or $(shell command -v wine 2>/dev/null),$(shell command -v wine64 2>/dev/null),wine)
SQW_DIR  := $(SQT_DIR)/win64
SQW_ENV  := WINEPREFIX="$(abspath $(SQW_DIR))/prefix" WINEDEBUG=-all

ifneq ($(filter check test-build,$(MAKECMDGOALS)),)
ifeq ($(origin SQ_WIN64),undefined)
SQ_WIN64 := $(shell command -v $(SQW_CC) >/dev/null 2>&1 && \
	command -v $(SQW_WINE) >/dev/null 2>&1 && echo yes || echo no)
endif
ifneq ($(SQ_WIN64),yes)
$(info tests: $(SQW_CC) or wine not found, skipping the win64 variant)
endif
endif

SQW_PROGS := $(addprefix contract-,$(SQ_KINDS)) \
             $(addprefix contract-tie-,$(SQ_TIE_KINDS)) \
             diff keys cost \
             $(basename $(notdir $(shell grep -L 'child\.h' $(wildcard tests/wb_*.c))))
ifeq ($(SQ_WIN64),yes)
SQW_BUILT := $(addprefix $(SQW_DIR)/,$(SQW_PROGS))
CHECK_PROGS += $(SQW_BUILT)
CHECK_DEPS  += $(SQW_BUILT) $(SQW_BUILT:$(SQW_DIR)/%=$(SQW_DIR)/bin/%.exe)
test-build: $(SQW_BUILT)
endif

sqw_cc = $(SQW_CC) -O2 -g -std=c11 $(WARN) $(CPPFLAGS) -DSQ_DIFF_SCALE_DIV=2

$(SQW_DIR)/bin/contract-tie-%.exe: tests/contract.c $(SQT_HDRS) tests/windows.mk
	@mkdir -p $(@D)
	$(sqw_cc) -DSQ_TIE_BASE=$* -o $@ $<

$(SQW_DIR)/bin/contract-%.exe: tests/contract.c $(SQT_HDRS) tests/windows.mk
	@mkdir -p $(@D)
	$(sqw_cc) -DSQ_K=$* -o $@ $<

$(SQW_DIR)/bin/%.exe: tests/%.c $(SQT_HDRS) tests/windows.mk
	@mkdir -p $(@D)
	$(sqw_cc) -o $@ $< -lm

# One wine prefix, made once before any program runs in it (two first
# runs side by side would both make it).
$(SQW_DIR)/prefix/.made:
	@mkdir -p $(@D)
	@$(SQW_ENV) $(SQW_WINE) cmd /c exit 0 >/dev/null 2>&1 || \
		$(SQW_ENV) wineboot -i >/dev/null 2>&1 || true
	@touch $@

$(SQW_DIR)/%: $(SQW_DIR)/bin/%.exe $(SQW_DIR)/prefix/.made
	@{ echo '#!/bin/sh'; \
	   echo 'exec env $(SQW_ENV) $(SQW_WINE) $< "$$@"'; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@

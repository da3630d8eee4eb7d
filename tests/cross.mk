# tests/cross.mk - the suite on other targets, included by tests/tests.mk
#
# A header is compiled for whatever target its user builds, so the suite
# runs on targets unlike this machine: 32-bit, ARM, big-endian.  Each is
# built static and run under qemu-user, each program through a wrapper
# script in $(SQT_DIR)/TARGET/ (the binaries are in TARGET/bin/):
#
#   i386      $(CC) -m32 -static                    qemu-i386 (this kernel
#             (gcc-multilib)                        may not run i386 itself)
#   aarch64   clang --target=aarch64-linux-gnu      qemu-aarch64
#   armhf     clang --target=arm-linux-gnueabihf    qemu-arm    (32-bit ARM)
#   s390x     clang --target=s390x-linux-gnu        qemu-s390x  (big-endian)
#
# clang cross-builds with --sysroot=/usr/TRIPLE -B/usr/lib/gcc-cross/TRIPLE/V
# -static, from Debian's libc6-dev-ARCH-cross, binutils-TRIPLE and
# libgcc-V-dev-ARCH-cross (the cross gcc packages conflict with
# gcc-multilib; clang needs only their sysroots).
#
# Every target runs contract-KIND and misuse-KIND for every backend of
# SQ_KINDS, diff (its operations cut by SQX_DIV: emulation is slower) and
# keys, and contract, diff and keys again built with -DSQ_PORTABLE
# (TARGET-portable/); i386 runs keys at -O0 too (i386-o0/: unoptimised, every
# double passes through the x87 stack, which quiets signalling NaNs);
# SQ_CROSS_WB=yes adds the white-box suites wb_*.  A target
# whose compiler, sysroot or qemu is missing is skipped, saying which;
# SQ_CROSS=no skips them all, SQ_CROSS_<target>=no|yes forces one.

SQX_TARGETS :=
SQX_DIV     := 4
SQX_PROBE   := int main(void) { return 0; }

# $(call sqx_probe,COMPILER AND FLAGS,QEMU): yes if it builds and runs
sqx_probe = $(shell t=$$(mktemp 2>/dev/null) || exit 0; \
	printf '%s\n' '$(SQX_PROBE)' | $(1) -x c - -o $$t >/dev/null 2>&1 && \
	$(2) $$t >/dev/null 2>&1 && echo yes || echo no; rm -f $$t)

# $(call sqx_clang,TRIPLE): clang cross-building for TRIPLE (the newest
# gcc-cross version directory supplies crt files and libgcc)
sqx_clang = $(CLANG) --target=$(1) --sysroot=/usr/$(1) \
	-B$(lastword $(sort $(wildcard /usr/lib/gcc-cross/$(1)/*))) -static

SQX_CC_i386      := $(CC) -m32 -static
SQX_QEMU_i386    := qemu-i386
SQX_CC_aarch64   := $(call sqx_clang,aarch64-linux-gnu)
SQX_QEMU_aarch64 := qemu-aarch64
SQX_CC_armhf     := $(call sqx_clang,arm-linux-gnueabihf)
SQX_QEMU_armhf   := qemu-arm
SQX_CC_s390x     := $(call sqx_clang,s390x-linux-gnu)
SQX_QEMU_s390x   := qemu-s390x
SQX_ALL          := i386 aarch64 armhf s390x

ifneq ($(SQ_CROSS),no)
ifneq ($(filter check test-build,$(MAKECMDGOALS)),)
define sqx_decide
ifeq ($$(origin SQ_CROSS_$(1)),undefined)
SQ_CROSS_$(1) := $$(if $$(and $$(shell command -v $$(SQX_QEMU_$(1)) 2>/dev/null),$$(or $$(filter i386,$(1)),$$(CLANG))),$$(call sqx_probe,$$(SQX_CC_$(1)),$$(SQX_QEMU_$(1))),no)
endif
ifeq ($$(SQ_CROSS_$(1)),yes)
SQX_TARGETS += $(1)
else
$$(info tests: cannot build and run $(1) ($$(SQX_CC_$(1)) under $$(SQX_QEMU_$(1))), skipping the $(1) variants)
endif
endef
$(foreach t,$(SQX_ALL),$(eval $(call sqx_decide,$(t))))
endif
endif

# The rules exist for every target, so one program builds by name; make
# check probes which targets this machine has.

# ---- programs ------------------------------------------------------------------

# every backend of SQ_KINDS (mk/kinds.mk); the white-box suites only with
# SQ_CROSS_WB=yes (they have no scale, and take minutes under emulation)
SQX_PROGS      := $(addprefix contract-,$(SQ_KINDS)) \
                  $(addprefix misuse-,$(SQ_KINDS)) diff keys \
                  $(if $(filter yes,$(SQ_CROSS_WB)),$(SQT_WB))
SQX_PROGS_PORT := $(addprefix contract-,$(SQ_KINDS)) diff keys

SQX_BUILT := $(foreach t,$(SQX_TARGETS),\
	$(addprefix $(SQT_DIR)/$(t)/,$(SQX_PROGS)) \
	$(addprefix $(SQT_DIR)/$(t)-portable/,$(SQX_PROGS_PORT)))
SQX_BUILT += $(if $(filter i386,$(SQX_TARGETS)),$(SQT_DIR)/i386-o0/keys)
# the binaries named too, so make never takes them for intermediates
SQX_BINS := $(foreach p,$(SQX_BUILT),$(dir $(p))bin/$(notdir $(p)))
CHECK_PROGS += $(SQX_BUILT)
CHECK_DEPS  += $(SQX_BUILT) $(SQX_BINS)
test-build: $(SQX_BUILT) $(SQX_BINS)

# Plain runner (no cmocka: there is none for the target), this suite's
# warnings, diff's operations cut by SQX_DIV.
sqx_cc = $(SQX_CC_$(1)) -O2 -g -std=c11 $(WARN) $(CPPFLAGS) \
	-DSQ_DIFF_SCALE_DIV=$(SQX_DIV) $(2)

# $(call sqx_rules,DIR,TARGET,EXTRA FLAGS)
define sqx_rules
$(SQT_DIR)/$(1)/bin/contract-%: tests/contract.c $(SQT_HDRS) tests/cross.mk
	@mkdir -p $$(@D)
	$$(call sqx_cc,$(2),$(3)) -DSQ_K=$$* -o $$@ $$<

$(SQT_DIR)/$(1)/bin/misuse-%: tests/misuse.c $(SQT_HDRS) tests/cross.mk
	@mkdir -p $$(@D)
	$$(call sqx_cc,$(2),$(3)) -DSQ_DEBUG -DSQ_K=$$* -o $$@ $$<

$(SQT_DIR)/$(1)/bin/%: tests/%.c $(SQT_HDRS) tests/cross.mk
	@mkdir -p $$(@D)
	$$(call sqx_cc,$(2),$(3)) -o $$@ $$< -lm

# the wrapper run-all.sh runs: the binary under qemu-user
$(SQT_DIR)/$(1)/%: $(SQT_DIR)/$(1)/bin/%
	@{ echo '#!/bin/sh'; \
	   echo 'exec $(SQX_QEMU_$(2)) $$< "$$$$@"'; } > $$@.tmp
	@chmod +x $$@.tmp && mv $$@.tmp $$@
endef
$(foreach t,$(SQX_ALL),$(eval $(call sqx_rules,$(t),$(t),)))
$(foreach t,$(SQX_ALL),$(eval $(call sqx_rules,$(t)-portable,$(t),-DSQ_PORTABLE)))
$(eval $(call sqx_rules,i386-o0,i386,-O0))

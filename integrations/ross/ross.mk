# integrations/ross/ross.mk - ROSS on smartq's queue (make test-ross)
#
# ROSS is not packaged: name a checkout (git clone of ROSS-org/ROSS) with
# ROSS_SRC; the tests last passed against ROSS commit dc3a6a0. Without it test-ross says it skipped; with it, `make check`
# runs it too. Needs cmake, Open MPI (Debian: libopenmpi-dev openmpi-bin)
# and patch. ROSS_KINDS: the backends built (ladder rb binom gavl);
# ROSS_CTEST: those whose ROSS ctest also runs (none unless named: ROSS's
# 67 tests take minutes, its MPI ones time out on a loaded machine).
# ROSS_POPS: bench-ross's phold populations, LPs:start-events each.

ROSS_SRC   ?=
ROSS_KINDS ?= ladder rb binom gavl
ROSS_CTEST ?=
ROSS_POPS  ?= 1000:1 1024:16 16384:8 65536:16
ross_env   := ROSS_SRC='$(ROSS_SRC)' ROSS_KINDS='$(ROSS_KINDS)' \
              ROSS_CTEST='$(ROSS_CTEST)' ROSS_POPS='$(ROSS_POPS)'

.PHONY: test-ross bench-ross
test-ross: ## ROSS's phold on smartq vs splay, sequential and 2 MPI ranks
	@$(ross_env) sh integrations/ross/ross.sh test

bench-ross: ## phold's sequential event rate, splay vs each backend
	@$(ross_env) sh integrations/ross/ross.sh bench

ifneq ($(strip $(ROSS_SRC)),)
CHECK_PROGS += $(BUILD)/ross/test-ross.run
CHECK_DEPS  += $(BUILD)/ross/test-ross.run

$(BUILD)/ross/test-ross.run: integrations/ross/ross.mk FORCE-ross
	@mkdir -p $(@D)
	@{ echo '#!/bin/sh'; \
	   echo "exec env $(ross_env) sh integrations/ross/ross.sh test"; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@
.PHONY: FORCE-ross
FORCE-ross:
endif

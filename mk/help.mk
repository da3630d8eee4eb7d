# mk/help.mk - `make help`: every target, one line each
#
# The one place a target is described is its own rule line, after `## `:
#
#   lint: lint-cppcheck lint-tidy ## cppcheck and clang-tidy
#
# `make help` prints those lines from every makefile in the order they are
# read; tests/help.sh fails when a .PHONY target with a recipe or
# prerequisites has no such line, or a described target does not exist.

.PHONY: help
help: ## this list
	@echo 'smartq: make [TARGET] [VAR=value ...]; the variables are described'
	@echo 'at the head of Makefile and of each mk/*.mk, tests/*.mk, bench/*.mk.'
	@awk '/^[A-Za-z0-9_.-]+:.*## / { t = $$0; sub(/:.*/, "", t); d = $$0; \
		sub(/^[^#]*## /, "", d); printf "  make %-14s %s\n", t, d }' \
		$(MAKEFILE_LIST)

CHECK_PROGS += tests/help.sh

# mk/dist.mk - what a user takes away: the one file, the version, the
# CMake and Meson builds (CMakeLists.txt, meson.build; doc/build.md)
#
# single_include/smartq.h is generated from include/ by mk/single.sh and
# committed, so a user can copy one file.  tests/single.sh regenerates it
# into a temporary directory and fails when the committed copy differs:
# whoever changes include/ runs `make single` and commits the result.

SQ_SINGLE := single_include/smartq.h

.PHONY: single
single: ## regenerate single_include/smartq.h from include/ (commit it)
	@mkdir -p $(dir $(SQ_SINGLE))
	@sh mk/single.sh . >$(SQ_SINGLE).tmp && mv $(SQ_SINGLE).tmp $(SQ_SINGLE) || \
		{ rm -f $(SQ_SINGLE).tmp; exit 1; }
	@echo "single: wrote $(SQ_SINGLE) ($$(wc -l <$(SQ_SINGLE)) lines, smartq $$(sh mk/version.sh))"

TEST_PROGS += tests/single.sh

# The version is written once, in include/smartq.h (mk/version.sh reads
# it); tests/version.sh checks every other place that states it.
CHECK_PROGS += tests/version.sh

# A user's program built against smartq through CMake (add_subdirectory,
# FetchContent, find_package after cmake --install) and Meson (subproject,
# wrap); each checks its install writes what make install writes.  They
# skip, saying so, when cmake or meson is missing.
CHECK_PROGS += tests/consumer/cmake.sh tests/consumer/meson.sh

# The docs' tables of results, made from the data files they name: every
# Markdown file with a generated block (mk/results.sh).
RESULTS_DOCS = $(shell grep -l '^<!-- generated: ' README.md */README.md doc/*.md)
.PHONY: results
results: ## rewrite the generated tables of README.md, bench/README.md and doc/ from their data
	@sh mk/results.sh $(RESULTS_DOCS)

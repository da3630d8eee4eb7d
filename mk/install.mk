# mk/install.mk - make install / make uninstall
#
#   make install   [PREFIX=/usr/local] [DESTDIR=] [INCLUDEDIR=] [PKGCONFIGDIR=]
#                  [CMAKEDIR=]
#   make uninstall (with the same variables)
#
# Installs exactly include/smartq.h, include/smartq/*.h, smartq.pc and the
# CMake package (smartqConfig.cmake, smartqConfigVersion.cmake in
# $(PREFIX)/share/cmake/smartq), so that a CMake project's
# find_package(smartq 0.2 CONFIG REQUIRED) finds smartq::smartq with
# CMAKE_PREFIX_PATH=$(PREFIX) (or without it under /usr and /usr/local).
# The package's files are filled from the templates in cmake/ that
# cmake --install and meson install fill too: every install writes the same
# bytes for the same prefix (tests/consumer/cmake.sh, meson.sh compare).
# smartq is header-only, so smartq.pc describes nothing that depends on the
# architecture: it goes to $(PREFIX)/share/pkgconfig, which pkg-config and
# pkgconf search by default next to lib/pkgconfig, so one file serves
# every ABI of a multiarch system (as other header-only libraries do).
# Its Version is read from SQ_VERSION_MAJOR/MINOR/PATCH in include/smartq.h
# while installing (mk/version.sh), so the two cannot disagree.
#
# A PREFIX that pkg-config does not search (anything but /usr and, on most
# systems, /usr/local) needs PKG_CONFIG_PATH=$(PREFIX)/share/pkgconfig in
# the user's environment; install says so when it writes there.

PREFIX       ?= /usr/local
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
CMAKEDIR     ?= $(PREFIX)/share/cmake/smartq
INSTALL      ?= install

SQ_INST_HEADERS := $(notdir $(wildcard include/smartq/*.h))
SQ_INST_INC     := $(DESTDIR)$(INCLUDEDIR)
SQ_INST_PC      := $(DESTDIR)$(PKGCONFIGDIR)/smartq.pc
# includedir relative to ${prefix} when it is the usual one, so that
# `pkg-config --define-variable=prefix=...` relocates it.
SQ_PC_INCLUDEDIR = $(if $(filter $(PREFIX)/include,$(INCLUDEDIR)),$${prefix}/include,$(INCLUDEDIR))

# The CMake package finds the prefix from its own directory, CMAKEDIR's way
# up to PREFIX (share/cmake/smartq: ../../..), so the installed tree may be
# moved, and the include directory below it; a CMAKEDIR or INCLUDEDIR
# outside PREFIX is written as it is (cmake/smartq-package.cmake does the
# same for cmake --install).
SQ_INST_CMAKE := $(DESTDIR)$(CMAKEDIR)
SQ_CMAKE_FILES := smartqConfig.cmake smartqConfigVersion.cmake
sq_nothing :=
sq_space := $(sq_nothing) $(sq_nothing)
# $(call sq_below_prefix,DIR): DIR relative to PREFIX, empty outside it
sq_below_prefix = $(patsubst $(PREFIX)/%,%,$(filter $(PREFIX)/%,$(1)))
SQ_CMAKE_UP = $(subst $(sq_space),,$(patsubst %,/..,$(subst /, ,$(call sq_below_prefix,$(CMAKEDIR)))))
SQ_CMAKE_PREFIX = $(if $(call sq_below_prefix,$(CMAKEDIR)),$${CMAKE_CURRENT_LIST_DIR}$(SQ_CMAKE_UP),$(PREFIX))
SQ_CMAKE_INCLUDEDIR = $(if $(call sq_below_prefix,$(INCLUDEDIR)),$${_smartq_prefix}/$(call sq_below_prefix,$(INCLUDEDIR)),$(INCLUDEDIR))

.PHONY: install uninstall
install: ## headers, smartq.pc and the CMake package into PREFIX (/usr/local); DESTDIR honoured
	$(INSTALL) -d '$(SQ_INST_INC)/smartq' '$(DESTDIR)$(PKGCONFIGDIR)' '$(SQ_INST_CMAKE)'
	$(INSTALL) -m 644 include/smartq.h '$(SQ_INST_INC)/smartq.h'
	$(INSTALL) -m 644 $(addprefix include/smartq/,$(SQ_INST_HEADERS)) '$(SQ_INST_INC)/smartq/'
	@version=$$(sh mk/version.sh include/smartq.h) || exit 1; \
	echo "smartq.pc: Version $$version -> $(SQ_INST_PC)"; \
	sed -e 's|@prefix@|$(PREFIX)|' -e 's|@includedir@|$(SQ_PC_INCLUDEDIR)|' \
	    -e "s|@version@|$$version|" smartq.pc.in >'$(SQ_INST_PC).tmp' && \
	chmod 644 '$(SQ_INST_PC).tmp' && mv '$(SQ_INST_PC).tmp' '$(SQ_INST_PC)'
	@version=$$(sh mk/version.sh include/smartq.h) || exit 1; \
	echo "CMake package: smartq $$version -> $(SQ_INST_CMAKE)"; \
	for f in $(SQ_CMAKE_FILES); do \
		sed -e 's|@cmake_prefix@|$(SQ_CMAKE_PREFIX)|' \
		    -e 's|@cmake_includedir@|$(SQ_CMAKE_INCLUDEDIR)|' \
		    -e "s|@version@|$$version|" "cmake/$$f.in" >'$(SQ_INST_CMAKE)/'"$$f.tmp" && \
		chmod 644 '$(SQ_INST_CMAKE)/'"$$f.tmp" && \
		mv '$(SQ_INST_CMAKE)/'"$$f.tmp" '$(SQ_INST_CMAKE)/'"$$f" || exit 1; \
	done
	@if [ -z '$(DESTDIR)' ] && command -v pkg-config >/dev/null 2>&1; then \
		case ":$$(pkg-config --variable pc_path pkg-config 2>/dev/null):$${PKG_CONFIG_PATH:-}:" in \
		*':$(PKGCONFIGDIR):'*|*':$(PKGCONFIGDIR)/:'*) ;; \
		*) echo "install: pkg-config does not search $(PKGCONFIGDIR);" \
			"users need PKG_CONFIG_PATH=$(PKGCONFIGDIR)" ;; \
		esac; \
	fi

# Removes the files install wrote and the two smartq/ directories it made
# (headers, CMake package), but not shared directories such as
# $(PREFIX)/include or $(PREFIX)/share/cmake.
uninstall: ## remove what install wrote (same PREFIX, DESTDIR)
	rm -f '$(SQ_INST_INC)/smartq.h' '$(SQ_INST_PC)' \
		$(addprefix '$(SQ_INST_INC)/smartq/,$(addsuffix ',$(SQ_INST_HEADERS))) \
		$(addprefix '$(SQ_INST_CMAKE)/,$(addsuffix ',$(SQ_CMAKE_FILES)))
	@for d in '$(SQ_INST_INC)/smartq' '$(SQ_INST_CMAKE)'; do \
		if [ -d "$$d" ]; then \
			rmdir "$$d" || echo "uninstall: left $$d: not ours alone"; \
		fi; \
	done

CHECK_PROGS += examples/test-install.sh

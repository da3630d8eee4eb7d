# mk/install.mk - make install / make uninstall
#
#   make install   [PREFIX=/usr/local] [DESTDIR=] [INCLUDEDIR=] [PKGCONFIGDIR=]
#   make uninstall (with the same variables)
#
# Installs exactly include/smartq.h, include/smartq/*.h and smartq.pc.
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
INSTALL      ?= install

SQ_INST_HEADERS := $(notdir $(wildcard include/smartq/*.h))
SQ_INST_INC     := $(DESTDIR)$(INCLUDEDIR)
SQ_INST_PC      := $(DESTDIR)$(PKGCONFIGDIR)/smartq.pc
# includedir relative to ${prefix} when it is the usual one, so that
# `pkg-config --define-variable=prefix=...` relocates it.
SQ_PC_INCLUDEDIR = $(if $(filter $(PREFIX)/include,$(INCLUDEDIR)),$${prefix}/include,$(INCLUDEDIR))

.PHONY: install uninstall
install: ## headers and smartq.pc into PREFIX (/usr/local); DESTDIR honoured
	$(INSTALL) -d '$(SQ_INST_INC)/smartq' '$(DESTDIR)$(PKGCONFIGDIR)'
	$(INSTALL) -m 644 include/smartq.h '$(SQ_INST_INC)/smartq.h'
	$(INSTALL) -m 644 $(addprefix include/smartq/,$(SQ_INST_HEADERS)) '$(SQ_INST_INC)/smartq/'
	@version=$$(sh mk/version.sh include/smartq.h) || exit 1; \
	echo "smartq.pc: Version $$version -> $(SQ_INST_PC)"; \
	sed -e 's|@prefix@|$(PREFIX)|' -e 's|@includedir@|$(SQ_PC_INCLUDEDIR)|' \
	    -e "s|@version@|$$version|" smartq.pc.in >'$(SQ_INST_PC).tmp' && \
	chmod 644 '$(SQ_INST_PC).tmp' && mv '$(SQ_INST_PC).tmp' '$(SQ_INST_PC)'
	@if [ -z '$(DESTDIR)' ] && command -v pkg-config >/dev/null 2>&1; then \
		case ":$$(pkg-config --variable pc_path pkg-config 2>/dev/null):$${PKG_CONFIG_PATH:-}:" in \
		*':$(PKGCONFIGDIR):'*|*':$(PKGCONFIGDIR)/:'*) ;; \
		*) echo "install: pkg-config does not search $(PKGCONFIGDIR);" \
			"users need PKG_CONFIG_PATH=$(PKGCONFIGDIR)" ;; \
		esac; \
	fi

# Removes the files install wrote and the smartq/ directory it made, but
# not shared directories such as $(PREFIX)/include.
uninstall: ## remove what install wrote (same PREFIX, DESTDIR)
	rm -f '$(SQ_INST_INC)/smartq.h' '$(SQ_INST_PC)' \
		$(addprefix '$(SQ_INST_INC)/smartq/,$(addsuffix ',$(SQ_INST_HEADERS)))
	@if [ -d '$(SQ_INST_INC)/smartq' ]; then \
		rmdir '$(SQ_INST_INC)/smartq' || \
		echo "uninstall: left $(SQ_INST_INC)/smartq: not ours alone"; \
	fi

CHECK_PROGS += examples/test-install.sh

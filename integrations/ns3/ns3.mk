# integrations/ns3/ns3.mk - the ns-3 schedulers' test (make test-ns3)
#
# Needs ns-3's headers and libraries (Debian: libns3-dev, 3.37). Debian's
# pkg-config files for 3.37 are broken (-I/usr\;), so the libraries are
# named here; override NS3_CPPFLAGS / NS3_LIBS for another install.
# Without ns-3 the test says it skipped and passes.

NS3_DIR      := $(BUILD)/ns3
NS3_CXXFLAGS ?= -std=c++17 -O2 -g -Wall -Wextra -Werror
NS3_CPPFLAGS ?=
NS3_LIBS     ?= -lns3-core -lns3-network -lns3-internet \
                -lns3-point-to-point -lns3-applications
NS3_FOUND    := $(shell printf '\043include <ns3/scheduler.h>\n' | \
                $(CXX) $(NS3_CPPFLAGS) -E -x c++ - >/dev/null 2>&1 && \
                echo yes || echo no)
NS3_HDRS     := $(HEADERS) integrations/ns3/smartq-scheduler.h \
                integrations/ns3/ns3.mk

.PHONY: test-ns3
test-ns3: $(NS3_DIR)/test-ns3.run ## smartq's ns-3 schedulers vs MapScheduler
	@sh $(NS3_DIR)/test-ns3.run

CHECK_PROGS += $(NS3_DIR)/test-ns3.run
CHECK_DEPS  += $(NS3_DIR)/test-ns3.run

ifeq ($(NS3_FOUND),yes)
$(NS3_DIR)/test-ns3: integrations/ns3/test-ns3.cc $(NS3_HDRS)
	@mkdir -p $(@D)
	$(CXX) $(NS3_CXXFLAGS) $(CPPFLAGS) $(NS3_CPPFLAGS) $< -o $@ $(NS3_LIBS)

$(NS3_DIR)/test-ns3.run: $(NS3_DIR)/test-ns3 integrations/ns3/test-ns3.sh
	@{ echo '#!/bin/sh'; \
	   echo 'exec sh integrations/ns3/test-ns3.sh $<'; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@
else
$(NS3_DIR)/test-ns3.run: integrations/ns3/test-ns3.sh FORCE-ns3
	@mkdir -p $(@D)
	@{ echo '#!/bin/sh'; \
	   echo 'exec sh integrations/ns3/test-ns3.sh'; } > $@.tmp
	@chmod +x $@.tmp && mv $@.tmp $@
.PHONY: FORCE-ns3
FORCE-ns3:
endif

# The benchmark (doc/ns3.md): ns-3's five schedulers and smartq's four.
.PHONY: bench-ns3
bench-ns3: $(NS3_DIR)/bench-ns3 ## ns-3 schedulers vs smartq: events/s, ns/hold
	$(NS3_DIR)/bench-ns3 $(NS3_POPS)

$(NS3_DIR)/bench-ns3: integrations/ns3/bench-ns3.cc $(NS3_HDRS)
	@mkdir -p $(@D)
	$(CXX) $(NS3_CXXFLAGS) $(CPPFLAGS) $(NS3_CPPFLAGS) $< -o $@ -lns3-core

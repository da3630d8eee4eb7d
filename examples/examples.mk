# examples/examples.mk - every example, built once per backend, and checked
#
# examples/NAME.c is compiled once per backend (SQ_KINDS, mk/kinds.mk),
# with -DSQ_K=KIND, into $(BUILD)/examples/NAME-KIND.  `make examples`
# builds them and runs examples/test-examples.sh, which runs each and
# checks its output against examples/expected/NAME.out; `make test` runs
# it too.

EXAMPLES      := $(basename $(notdir $(wildcard examples/*.c)))
EXAMPLE_KINDS := $(SQ_KINDS)
EXAMPLE_BINS  := $(foreach k,$(EXAMPLE_KINDS),$(EXAMPLES:%=$(BUILD)/examples/%-$(k)))

# One pattern rule per backend: $(BUILD)/examples/%-KIND from examples/%.c
define sq_example_rule
$(BUILD)/examples/%-$(1): examples/%.c $(HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -DSQ_K=$(1) $$(CFLAGS) $$(WARN) -std=c99 \
		$$(LDFLAGS) -o $$@ $$< -lm
endef
$(foreach k,$(EXAMPLE_KINDS),$(eval $(call sq_example_rule,$(k))))

.PHONY: examples
examples: $(EXAMPLE_BINS) ## build the examples (build/examples/NAME-KIND), run each, check its output
	@BUILD=$(BUILD) sh examples/test-examples.sh

TEST_PROGS += examples/test-examples.sh
TEST_DEPS  += $(EXAMPLE_BINS)

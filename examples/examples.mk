# examples/examples.mk - every example, built once per backend, and checked
#
# examples/NAME.c is compiled once per backend (SQ_KINDS, mk/kinds.mk),
# with -DSQ_K=KIND, into $(BUILD)/examples/NAME-KIND.  `make examples` builds them;
# `make test` also runs examples/test-examples.sh, which checks each
# output against examples/expected/NAME.out.

EXAMPLES      := $(basename $(notdir $(wildcard examples/*.c)))
EXAMPLE_KINDS := $(SQ_KINDS)
EXAMPLE_BINS  := $(foreach k,$(EXAMPLE_KINDS),$(EXAMPLES:%=$(BUILD)/examples/%-$(k)))

# One pattern rule per backend: $(BUILD)/examples/%-rb from examples/%.c ...
define sq_example_rule
$(BUILD)/examples/%-$(1): examples/%.c $(HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -DSQ_K=$(1) $$(CFLAGS) $$(WARN) -std=c99 \
		$$(LDFLAGS) -o $$@ $$< -lm
endef
$(foreach k,$(EXAMPLE_KINDS),$(eval $(call sq_example_rule,$(k))))

.PHONY: examples
examples: $(EXAMPLE_BINS)

TEST_PROGS += examples/test-examples.sh
TEST_DEPS  += $(EXAMPLE_BINS)

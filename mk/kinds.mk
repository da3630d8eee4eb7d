# mk/kinds.mk - the backends, read from the one list in include/smartq.h
#
# SQ_KINDS(X) in smartq.h is the list; this runs it through the C
# preprocessor, so make, the scripts (which get it as $SQ_KINDS) and the C
# code can never disagree.  SQ_EXACT_KINDS are those whose flag is 1;
# SQ_TIE_KINDS, from SQ_TIE_KINDS(X), those that take a tie order.

sq_kinds_hash := \#
sq_kinds_pp = $(shell printf '%sinclude "smartq.h"\n%sdefine X(k, e) $(1)\nSQ_KINDS(X)\n' \
	'$(sq_kinds_hash)' '$(sq_kinds_hash)' | $(CC) -E -P -Iinclude -x c - 2>/dev/null | tail -n 1)
SQ_TIE_KINDS := $(shell printf '%sinclude "smartq.h"\n%sdefine X(k) k\nSQ_TIE_KINDS(X)\n' \
	'$(sq_kinds_hash)' '$(sq_kinds_hash)' | $(CC) -E -P -Iinclude -x c - 2>/dev/null | tail -n 1)
SQ_KINDS := $(call sq_kinds_pp,k)
SQ_EXACT_KINDS := $(patsubst 1_%,%,$(filter 1_%,$(call sq_kinds_pp,e ## _ ## k)))
ifeq ($(strip $(SQ_KINDS)),)
$(error mk/kinds.mk: could not read SQ_KINDS from include/smartq.h with $(CC))
endif
export SQ_KINDS SQ_EXACT_KINDS SQ_TIE_KINDS

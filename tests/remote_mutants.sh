#!/bin/sh
# SPDX-License-Identifier: MIT
#
# remote_mutants.sh - the model checker must find each fault the inbox has
# had: tests/remote_model.c, with its scripts left out (-n), is built on a
# copy of include/ with smartq/remote.h broken on purpose, once per fault,
# and must fail on each.  A mutation that no longer applies (the header's
# text moved) fails too, so this test cannot quietly stop biting.
#
#	sh tests/remote_mutants.sh 'COMPILER AND FLAGS' WORKDIR
#
# The faults:
#   empty     the drain's empty test reads the stub's link, not the head:
#             a poster stopped between its exchange and its link hides the
#             posts behind it
#   ride      a post over a push under way returns at once, before the
#             pusher has exchanged the head
#   slot      an arm writes the key slot a drain reads, not the other one
set -u
cc=$1
work=$2
src=$(cd "$(dirname "$0")/.." && pwd)
failed=0

mutate() {	# name, sed expression
	d=$work/$1
	rm -rf "$d"
	mkdir -p "$d"
	cp -R "$src/include" "$d/"
	sed "$2" "$src/include/smartq/remote.h" >"$d/include/smartq/remote.h"
	if cmp -s "$src/include/smartq/remote.h" "$d/include/smartq/remote.h"; then
		echo "remote_mutants: $1: the mutation no longer applies"
		failed=1
		return
	fi
	# shellcheck disable=SC2086
	if ! $cc -I"$d/include" -I"$src/tests" -DSQ_K=rb \
		-o "$d/remote_model" "$src/tests/remote_model.c"; then
		echo "remote_mutants: $1: does not build"
		failed=1
		return
	fi
	if "$d/remote_model" -n -r 1000 >"$d/out" 2>&1; then
		echo "remote_mutants: $1: the model checker did not find it"
		failed=1
	else
		echo "remote_mutants: $1: found: $(grep -v '^ ' "$d/out" | tail -n 1)"
	fi
}

mutate empty 's/atomic_load_explicit(&in->sq_head, memory_order_relaxed) ==/atomic_load_explicit(\&in->sq_stub.sq_next, memory_order_relaxed) ==/; /sq_remote__empty(const/,/^}/s/&in->sq_stub;$/NULL;/'
mutate ride 's/while (cur & SQ__R_P) {/while (0) {/'
mutate slot 's/slot = &c->sq_slot\[(cur & SQ__R_K) ? 0 : 1\];/slot = \&c->sq_slot[(cur \& SQ__R_K) ? 1 : 0];/'

if [ $failed = 0 ]; then
	echo "remote_mutants: 1 passed, 0 failed"
else
	echo "remote_mutants: 0 passed, 1 failed"
fi
exit $failed

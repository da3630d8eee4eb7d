#!/bin/sh
# test-examples.sh - run every example with every backend, check the output
#
# Each example checks itself (it exits non-zero when its schedule is unfair,
# its timers fire out of order or its simulation disagrees with theory) and
# prints a deterministic report.  That report must be exactly
# examples/expected/NAME.out for every backend (SQ_KINDS, from make): the
# exact backends are exact and stable, and the ring is too at its default
# granularity of 1, so one expected file per example serves them all.
#
# Run from the top of the tree after `make examples` (BUILD=build).
set -u
[ -n "${SQ_KINDS:-}" ] || { echo "examples: SQ_KINDS is empty (run me from make)"; exit 1; }
bin=${BUILD:-build}/examples
failed=0
checked=0

for src in examples/*.c; do
	ex=$(basename "$src" .c)
	for kind in $SQ_KINDS; do
		out=$bin/$ex-$kind.out
		"$bin/$ex-$kind" >"$out"
		status=$?
		if [ "$status" -ne 0 ]; then
			echo "FAIL $ex-$kind: exited with status $status"
			failed=$((failed + 1))
		elif ! cmp -s "examples/expected/$ex.out" "$out"; then
			echo "FAIL $ex-$kind: output differs from examples/expected/$ex.out"
			diff -u "examples/expected/$ex.out" "$out" | head -n 20
			failed=$((failed + 1))
		fi
		checked=$((checked + 1))
	done
done
echo "examples: $checked runs, $failed failed"
[ "$failed" -eq 0 ]

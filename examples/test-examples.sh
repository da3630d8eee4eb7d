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
# `make examples` and `make test` run it from the top of the tree (BUILD=build);
# the programs are $BUILD/examples/NAME-KIND, and each run's output is left
# beside its program as NAME-KIND.out.
set -u
[ -n "${SQ_KINDS:-}" ] || { echo "examples: SQ_KINDS is empty (run me from make)"; exit 1; }
bin=${BUILD:-build}/examples
failed=0
checked=0

for src in examples/*.c; do
	ex=$(basename "$src" .c)
	before=$failed
	ran=
	for kind in $SQ_KINDS; do
		ran=${ran:+$ran,}$kind
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
	[ "$failed" -eq "$before" ] &&
		echo "ok   $bin/$ex-{$ran}: printed examples/expected/$ex.out"
done
echo "examples: $checked runs, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# results.sh [COST] - every generated table of the docs is what its data
# gives (mk/results.sh --check): a generated table edited by hand, or data
# changed without `make results`, fails here.  With COST (the o2 build of
# tests/cost.c) also bench/data/steps.txt, the step counts the docs' step
# tables are made from, must be what the suite counts now: the counts are
# deterministic, so a change to a backend's loops shows here until the
# file is made anew (COST > bench/data/steps.txt, then make results).
set -eu
if [ $# -ge 1 ]; then
	out=$(mktemp)
	"$1" > "$out" 2>&1 || true
	if ! cmp -s "$out" bench/data/steps.txt; then
		echo "results: bench/data/steps.txt differs from $1's output" \
			"(make it anew: $1 > bench/data/steps.txt; make results):"
		diff bench/data/steps.txt "$out" || true
		rm -f "$out"
		exit 1
	fi
	rm -f "$out"
	echo "results: bench/data/steps.txt is what $1 counts"
fi
exec sh mk/results.sh --check $(grep -l '^<!-- generated: ' README.md \
	*/README.md doc/*.md)

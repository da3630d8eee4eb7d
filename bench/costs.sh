#!/bin/sh
# bench/costs.sh - what one hold loop costs each queue, counted, not timed
#
#   sh bench/costs.sh BIN [N,N,...] [QUEUES]
#
# BIN is the harness built with -DBQ_NO_TSC (valgrind cannot run rdtscp):
# `make costs` builds it and calls this.  For each N and queue, callgrind
# runs the hold loop twice, with L and 2L loops per pass; the difference,
# over the 2L loops it adds (two passes of L), is the cost of one loop with
# the setup and the correctness pass cancelled out.  Printed per loop:
#
#   instr    instructions executed
#   D1       first-level data cache misses (reads + writes; valgrind
#            simulates this host's D1)
#   L2       misses in a simulated 512 KiB, 8-way second level
#   branches conditional branches executed
#   mispred  branches mispredicted by valgrind's simple predictor (a
#            2-bit counter table: a real CPU learns more patterns, so read
#            it as "how many coin flips", not as a cycle count)
#
# EXTRA, if set, is passed to the harness as more options (a workload,
# a distribution: EXTRA="-w spread -m 100").
#
# These counts are repeatable to the last digit on any machine with the
# same compiler, which cycle counts on a shared VM are not.
set -eu

bin=${1:?usage: sh bench/costs.sh BIN [N,...] [QUEUES]}
sizes=${2:-16,2048,65536}
queues=${3:-$(echo ${SQ_KINDS:?no QUEUES and no SQ_KINDS: run it by make costs} | tr ' ' ,)}
loops=${LOOPS:-100000}

command -v valgrind >/dev/null 2>&1 || {
	echo "costs: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
}
# A name the harness does not know fails here, in one line, not inside
# valgrind's output.
if ! err=$("$bin" -q "$queues" -n 1 -l 1 -r 1 --warmup 0 2>&1 >/dev/null); then
	echo "costs: ${err#sq-bench: }" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# callgrind's event totals of one run: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr
# DLmw Bc Bcm Bi Bim
totals() {
	valgrind --tool=callgrind --cache-sim=yes --LL=524288,8,64 \
		--branch-sim=yes --callgrind-out-file="$tmp/out" \
		"$bin" -q "$1" -n "$2" -l "$3" -r 1 --warmup 0 ${EXTRA:-} \
		>/dev/null 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		exit 1
	}
	sed -n 's/.*Collected : //p' "$tmp/err"
}

printf '%-8s %7s %8s %8s %8s %9s %8s\n' queue N instr D1 L2 branches mispred
for n in $(echo "$sizes" | tr , ' '); do
	for q in $(echo "$queues" | tr , ' '); do
		a=$(totals "$q" "$n" "$loops")
		b=$(totals "$q" "$n" $((2 * loops)))
		echo "$a $b" | awk -v q="$q" -v n="$n" -v L=$((2 * loops)) '{
			h = NF / 2
			# misses depend on where the memory of each run lands, so the
			# difference of two runs can dip below zero: count it as 0
			for (i = 1; i <= h; i++)
				if ((d[i] = ($(i + h) - $i) / L) < 0)
					d[i] = 0
			printf "%-8s %7s %8.0f %8.2f %8.2f %9.1f %8.2f\n", q, n,
			       d[1], d[5] + d[6], d[8] + d[9], d[10], d[11] + d[13]
		}'
	done
done

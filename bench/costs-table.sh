#!/bin/sh
# costs-table.sh FILE - the output of bench/costs.sh (make costs), kept
# with a "# run:" line above it as bench/run.sh writes one, as a Markdown
# table: one row per queue, each cell its counts per loop at every N of
# the file ("a / b / c"), and under it the run the file records.
set -eu
[ $# -eq 1 ] || { echo "usage: costs-table.sh FILE" >&2; exit 2; }
awk -v file="$1" '
/^# run: / { run = substr($0, 8); next }
/^#/ || $1 == "queue" || NF != 7 { next }
{
	if (!($2 in seenn)) { seenn[$2] = 1; n[++nn] = $2 }
	if (!($1 in seenq)) { seenq[$1] = 1; q[++nq] = $1 }
	for (c = 3; c <= 7; c++) v[$1, $2, c] = $c
}
function cell(queue, c, i, s) {
	for (i = 1; i <= nn; i++)
		s = s (i > 1 ? " / " : "") ((queue, n[i], c) in v ? v[queue, n[i], c] + 0 : "")
	return s
}
END {
	ns = n[1]; for (i = 2; i <= nn; i++) ns = ns " / " n[i]
	print "| queue (N = " ns ") | instructions | D1 misses | L2 misses | mispredicts |"
	print "|---|---|---|---|---|"
	for (j = 1; j <= nq; j++)
		printf "| `%s` | %s | %s | %s | %s |\n", q[j], cell(q[j], 3),
			cell(q[j], 4), cell(q[j], 5), cell(q[j], 7)
	if (run != "") {
		m = split(run, f, / \| /)
		s = "`" f[1] "`"
		for (i = 2; i <= m; i++) s = s "; " f[i]
		printf "\n`%s`: %s.\n", file, s
	}
}' "$1"

#!/bin/sh
# table.sh [CSV] [min] - the harness's CSV as a Markdown table of median
# cycles/loop, one row per N, one column per queue in the CSV's order
# (peers marked *); with "min", each cell also shows the minimum.
# The README's tables are made with it from build/bench/results.csv.
csv=${1:-build/bench/results.csv}
awk -F, -v withmin="${2:-}" '
NR == 1 { next }
{
	if (!($4 in seen)) {
		seen[$4] = 1
		q[++nq] = $4
		name[$4] = $4 ($5 == 1 ? "\\*" : "")
	}
	if (!($3 in seenn)) {
		seenn[$3] = 1
		n[++nn] = $3
	}
	cell[$3, $4] = withmin == "min" ? fmt($9) " (" fmt($8) ")" : fmt($9)
}
function fmt(x) { return x >= 100 ? sprintf("%.0f", x) : sprintf("%.1f", x) }
END {
	line = "| N |"; rule = "|---:|"
	for (i = 1; i <= nq; i++) { line = line " " name[q[i]] " |"; rule = rule "---:|" }
	print line; print rule
	for (j = 1; j <= nn; j++) {
		line = "| " n[j] " |"
		for (i = 1; i <= nq; i++)
			line = line " " ((n[j], q[i]) in cell ? cell[n[j], q[i]] : "") " |"
		print line
	}
}' "$csv"

#!/bin/sh
# table.sh [-m] [-c|-f] [-q Q,...] [-x A/B,...] [-n N,...] CSV - the harness's CSV
# (--csv, or a file of bench/run.sh) as a Markdown table of median
# cycles/loop: one row per N (and per workload and distribution, in
# columns of their own when the file has more than one), one column per
# queue in the CSV's order (peers marked *).
#   -m        each cell also shows the minimum, in brackets
#   -c        per queue call: each figure divided by the calls a loop
#             made (the CSV's calls_per_loop, written by the timer mixes
#             and the mix), so a ring whose expiries fire more timers a
#             loop is compared with the exact queues on equal work
#   -f        per node fired: each figure divided by the nodes a loop
#             fired (the CSV's fired_per_loop, written by the timer mixes
#             and the mix): what a timer costs, expiries and cancels and
#             re-arms included, per timer that expired
#   -q Q,...  only these queues, in this order ("-": none, ratios only)
#   -x A/B,.. a column per ratio of medians, A's over B's, in the same run
#   -n N,...  only these sizes
# Under the table, the runs the file records (bench/run.sh's "# run:"
# lines): commands, machine, compiler, commit, dates and load averages.
set -eu
min= queues= ratios= sizes= percall= perfired=
while getopts mcfq:x:n: opt; do
	case $opt in
	m) min=yes ;;
	c) percall=yes ;;
	f) perfired=yes ;;
	q) queues=$OPTARG ;;
	x) ratios=$OPTARG ;;
	n) sizes=$OPTARG ;;
	*) echo "usage: table.sh [-m] [-c|-f] [-q Q,...] [-x A/B,...] [-n N,...] CSV" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: table.sh [-m] [-c|-f] [-q Q,...] [-x A/B,...] [-n N,...] CSV" >&2; exit 2; }
awk -F, -v withmin="$min" -v percall="$percall" -v perfired="$perfired" -v queues="$queues" -v ratios="$ratios" \
	-v sizes="$sizes" -v file="$1" '
function fmt(x) { return x >= 100 ? sprintf("%.0f", x) : sprintf("%.1f", x) }
function size(n) {
	if (n >= 10240 && n % 1048576 == 0) return n / 1048576 "M"
	if (n >= 4096 && n % 1024 == 0) return n / 1024 "k"
	return n
}
function add(list, v, i) {        # v into a " | "-separated set
	for (i = 1; i <= nv[list]; i++) if (val[list, i] == v) return
	val[list, ++nv[list]] = v
}
function joined(list, sep, i, s) {
	for (i = 1; i <= nv[list]; i++) s = s (i > 1 ? sep : "") val[list, i]
	return s
}
function span(a, b) { return a == b ? a : a "–" b }
function when(a, b) {             # "2026-12-02 10:01–10:09 UTC"
	if (a == b || substr(a, 1, 10) != substr(b, 1, 10)) return span(a, b)
	return substr(a, 1, 16) "–" substr(b, 12)
}
BEGIN {
	nshow = queues == "-" ? -1 : split(queues, show, ",")
	nx = split(ratios, x, ",")
	for (i = 1; i <= nx; i++)
		if (split(x[i], ab, "/") != 2) { print "table: -x " x[i] ": not A/B" > "/dev/stderr"; exit 2 }
	if (sizes != "") { split(sizes, s, ","); for (i in s) want[s[i]] = 1 }
}
/^# run: / {
	nrun++
	m = split(substr($0, 8), f, / \| /)
	add("cmd", "`" f[1] "`")
	for (i = 2; i <= m; i++) {
		k = substr(f[i], 1, index(f[i], ": ") - 1)
		v = substr(f[i], index(f[i], ": ") + 2)
		if (k == "date") { if (first == "") first = v; last = v }
		else if (k == "load") { if (lo == "" || v + 0 < lo + 0) lo = v; if (hi == "" || v + 0 > hi + 0) hi = v }
		else add(k, v)
	}
	next
}
/^#/ || $1 == "workload" { next }
sizes != "" && !($3 in want) { next }
{
	row = $1 SUBSEP $2 SUBSEP $3
	if (!(row in seenrow)) {
		seenrow[row] = 1; rows[++nr] = row
		if (nr > 1 && $1 != w1) wcol = 1
		if (nr > 1 && $2 != d1) dcol = 1
		if (nr == 1) { w1 = $1; d1 = $2 }
	}
	if (!($4 in seen)) {
		seen[$4] = 1; q[++nq] = $4
		name[$4] = $4 ($5 == 1 ? "\\*" : "")
	}
	if (percall) {
		if (!($12 > 0)) { print "table: " file ": -c: no calls_per_loop in line " NR > "/dev/stderr"; bad = 1; exit 2 }
		$9 /= $12; $8 /= $12
	}
	if (perfired) {
		if (!($13 > 0)) { print "table: " file ": -f: no fired_per_loop in line " NR > "/dev/stderr"; bad = 1; exit 2 }
		$9 /= $13; $8 /= $13
	}
	med[row, $4] = $9
	cell[row, $4] = withmin ? fmt($9) " (" fmt($8) ")" : fmt($9)
}
END {
	if (bad) exit 2
	if (nshow < 0) nq = 0
	else if (nshow) {
		for (i = 1; i <= nshow; i++)
			if (!(show[i] in seen)) { print "table: " file ": no queue " show[i] > "/dev/stderr"; exit 2 }
		nq = nshow; for (i = 1; i <= nq; i++) q[i] = show[i]
	}
	line = "|"; rule = "|"
	if (wcol) { line = line " workload |"; rule = rule "---|" }
	if (dcol) { line = line " `-d` |"; rule = rule "---|" }
	line = line " N |"; rule = rule "---:|"
	for (i = 1; i <= nq; i++) { line = line " " name[q[i]] " |"; rule = rule "---:|" }
	for (i = 1; i <= nx; i++) {
		split(x[i], ab, "/")
		line = line " " ab[1] " / " ab[2] " |"; rule = rule "---:|"
	}
	print line; print rule
	for (j = 1; j <= nr; j++) {
		split(rows[j], r, SUBSEP)
		line = "|"
		if (wcol) line = line " " r[1] " |"
		if (dcol) line = line " " r[2] " |"
		line = line " " size(r[3]) " |"
		for (i = 1; i <= nq; i++)
			line = line " " ((rows[j], q[i]) in cell ? cell[rows[j], q[i]] : "") " |"
		for (i = 1; i <= nx; i++) {
			split(x[i], ab, "/")
			a = rows[j] SUBSEP ab[1]; b = rows[j] SUBSEP ab[2]
			line = line " " ((a in med) && (b in med) && med[b] > 0 ? sprintf("%.2f", med[a] / med[b]) : "") " |"
		}
		print line
	}
	if (nrun)
		printf "\n`%s`, %d run%s (%s): %s; %s; commit %s; %s, load average %s at start.\n",
			file, nrun, (nrun > 1 ? "s" : ""), joined("cmd", ", "),
			joined("cpu", " and "), joined("compiler", " and "),
			joined("commit", " and "), when(first, last), span(lo, hi)
}' "$1"

#!/bin/sh
# advise-table.sh FILE - make advise's runs (bench/run.sh advise writes
# FILE: per run a "# shape:" line, a "# run:" line as bench/run.sh's, and
# the --csv of sq-bench --advise) as the README's table: one row per
# shape, the backend advise takes, its ns per operation of the mix and
# per node fired, its ratio to the runner-up and to the best peer, and
# the spread of its runs; under it the commands, the machine, the
# compiler, the commit and the dates.
set -eu
[ $# -eq 1 ] || { echo "usage: advise-table.sh FILE" >&2; exit 2; }
awk -F, -v file="$1" '
function fmt(x) { return x >= 100 ? sprintf("%.0f", x) : sprintf("%.1f", x) }
function row() {
	if (shape == "") return
	if (take == "") { print "advise-table: " file ": no take for " shape > "/dev/stderr"; exit 2 }
	pf = fired[take] > 0 ? fmt(med[take] / fired[take]) : "-"
	r2 = second == "" ? "-" : sprintf("`%s` %.2fx", second, med[take] / med[second])
	rp = peer == "" ? "-" : sprintf("`%s` %.2fx", peer, med[take] / med[peer])
	printf "| %s | `%s` | %s | %s | %s | %s | %.0f%% |\n", shape, take,
		fmt(med[take]), pf, r2, rp, 100 * (hi[take] - lo[take]) / med[take]
	take = second = peer = ""
}
BEGIN {
	print "| shape of the work | take | ns per operation | ns per node fired | vs the runner-up | vs the best peer | spread of its runs |"
	print "|---|---|---:|---:|---|---|---:|"
}
/^# shape: / { row(); shape = substr($0, 10); nshape++; next }
/^# run: / {
	m = split(substr($0, 8), f, / \| /)
	cmd[nshape] = f[1]
	for (i = 2; i <= m; i++) {
		k = substr(f[i], 1, index(f[i], ": ") - 1)
		v = substr(f[i], index(f[i], ": ") + 2)
		if (k == "date") { if (first == "") first = v; last = v }
		else if (!((k, v) in seen)) { seen[k, v] = 1; info[k] = info[k] (info[k] == "" ? "" : " and ") v }
	}
	next
}
/^# took / { took[nshape] = $0; sub(/^# took /, "", took[nshape]); next }
/^#/ || $1 == "n" { next }
{
	med[$2] = $5; lo[$2] = $6; hi[$2] = $7; fired[$2] = $8
	if ($10 == "take") take = $2
	else if ($10 == "runner-up") second = $2
	else if ($10 == "best-peer") peer = $2
}
END {
	row()
	when = first == last ? first : substr(first, 1, 16) "–" substr(last, 12)
	printf "\n`%s`: %s; %s; commit %s; %s. The commands, in the order of the rows:\n\n",
		file, info["cpu"], info["compiler"], info["commit"], when
	for (i = 1; i <= nshape; i++)
		printf "%d. `%s`%s\n", i, cmd[i], took[i] == "" ? "" : " (took " took[i] ")"
}' "$1"

#!/bin/sh
# bench/plot.sh CSV PNG - cycles/loop against N (log2 axis), one line per
# queue (peers dashed), from the harness's --csv output.  Needs gnuplot.
set -u
csv=${1:-build/bench/results.csv}
png=${2:-build/bench/results.png}

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "plot: gnuplot is not installed (apt-get install gnuplot-nox);" \
		"the numbers are in $csv" >&2
	exit 1
fi
if [ ! -s "$csv" ]; then
	echo "plot: no results at $csv: run 'make bench' first" >&2
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# One gnuplot data block per queue, in the CSV's order, and its title.
awk -F, -v dir="$tmp" '
/^#/ || $1 == "workload" { next }
{
	if (!($4 in idx)) { idx[$4] = nq++; name[idx[$4]] = $4; peer[idx[$4]] = $5 }
	line[idx[$4]] = line[idx[$4]] $3 " " $9 "\n"
	workload = $1; dist = $2
}
END {
	for (i = 0; i < nq; i++) {
		printf "%s\n\n", line[i] > (dir "/data")
		printf "%s %s\n", name[i], peer[i] > (dir "/queues")
	}
	printf "%s %s\n", workload, dist > (dir "/what")
}' "$csv"

read -r workload dist <"$tmp/what"
terminal="pngcairo size 960,600 font ',10'"
gnuplot -e 'set terminal' 2>&1 | grep -q pngcairo || terminal="png size 960,600"

{
	echo "set terminal $terminal"
	echo "set output '$png'"
	echo "set title 'smartq: $workload workload, $dist increments (median cycles/loop)'"
	echo "set xlabel 'N (queued nodes)'"
	echo "set ylabel 'cycles/loop'"
	echo "set logscale x 2"
	echo "set format x '2^{%L}'"
	echo "set grid"
	echo "set key outside right"
	printf "plot "
	i=0
	while read -r name peer; do
		[ "$i" -gt 0 ] && printf ", \\\\\n     "
		dt=1
		label=$name
		if [ "$peer" = 1 ]; then dt=2; label="$name (peer)"; fi
		printf "'%s' index %d using 1:2 with linespoints lw 2 dt %d title '%s' noenhanced" \
			"$tmp/data" "$i" "$dt" "$label"
		i=$((i + 1))
	done <"$tmp/queues"
	echo
} >"$tmp/plot.gp"

gnuplot "$tmp/plot.gp" || exit 1
echo "plot: wrote $png"

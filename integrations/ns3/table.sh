#!/bin/sh
# table.sh FILE - the output of bench-ns3 (make bench-ns3) as a Markdown
# table: for each population and scheduler the simulator's events/s and
# the ratio to MapScheduler's (ns-3's default), the scheduler alone's
# ns per hold and the ratio to PriorityQueueScheduler's.  Lines that do
# not start with a scheduler's name (the run's header) are skipped.
awk '
$1 ~ /Scheduler$/ && $2 ~ /^[0-9]+$/ {
	k = $2
	if (!(k in seenp)) { seenp[k] = 1; pop[++np] = k }
	row[k, ++nr[k]] = $1
	eps[k, $1] = $3; ns[k, $1] = $4
	if ($3 == "over") { eps[k, $1] = "over " $4; ns[k, $1] = "" }
}
function num(x) { return x ~ /^[0-9.]+$/ }
function ratio(a, b) { return num(a) && num(b) && b > 0 ? sprintf("%.2f", a / b) : "" }
function big(x) { return num(x) ? sprintf("%.2f M", x / 1e6) : x }
END {
	print "| population | scheduler | events/s | × Map | ns/hold | × PriorityQueue |"
	print "|---:|---|---:|---:|---:|---:|"
	for (p = 1; p <= np; p++) {
		k = pop[p]
		for (i = 1; i <= nr[k]; i++) {
			s = row[k, i]
			name = s; sub(/Scheduler$/, "", name)
			print "| " k " | " name " | " big(eps[k, s]) " | " \
			      ratio(eps[k, s], eps[k, "MapScheduler"]) " | " \
			      ns[k, s] " | " ratio(ns[k, s], ns[k, "PriorityQueueScheduler"]) " |"
		}
	}
}' "$1"

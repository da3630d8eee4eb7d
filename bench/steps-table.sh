#!/bin/sh
# steps-table.sh -k KINDS -p PATTERNS [-l LABELS] FILE... - step counts
# of tests/cost.c as a Markdown table.  Each FILE is the suite's output
# (`build/tests/o2/cost > FILE`; bench/data/steps.txt is today's, checked
# against the suite by tests/results.sh); the table has a row per kind of
# KINDS (comma-separated) and pattern of PATTERNS (separated by ";", as
# the suite names them) and, per FILE, a column "N / 8N" of steps per
# operation, headed by the matching label of LABELS (comma-separated;
# default: the file's name).  A pattern a file lacks is "-".
set -eu
kinds= pats= labels=
while getopts k:p:l: o; do
	case $o in
	k) kinds=$OPTARG ;;
	p) pats=$OPTARG ;;
	l) labels=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$kinds" ] && [ -n "$pats" ] && [ $# -ge 1 ] ||
	{ echo "usage: steps-table.sh -k KINDS -p PATTERNS [-l LABELS] FILE..." >&2; exit 2; }
for f in "$@"; do
	[ -r "$f" ] || { echo "steps-table: cannot read $f" >&2; exit 2; }
done
awk -v kinds="$kinds" -v pats="$pats" -v labels="$labels" '
FNR == 1 { nf++; file[nf] = FILENAME }
$1 == "backend" || /^cost:/ { next }
{
	# backend, the pattern (words), cost(N), cost(8N), ratio, bound, ...
	for (i = 2; i <= NF && $i !~ /^[0-9.]+$/; i++) ;
	if (i > NF - 1) next
	p = $2
	for (j = 3; j < i; j++) p = p " " $j
	v[nf, $1, p] = $i " / " $(i + 1)
}
END {
	nk = split(kinds, k, ",")
	np = split(pats, q, ";")
	nl = split(labels, l, ",")
	h = "| " (nk > 1 ? "kind: " : "") "pattern |"
	s = "|---|"
	for (f = 1; f <= nf; f++) {
		h = h " " (f <= nl ? l[f] : file[f]) ": N / 8N |"
		s = s "---|"
	}
	print h
	print s
	for (a = 1; a <= nk; a++)
		for (b = 1; b <= np; b++) {
			r = "| " (nk > 1 ? k[a] ": " : "") q[b] " |"
			for (f = 1; f <= nf; f++)
				r = r " " ((f, k[a], q[b]) in v ? v[f, k[a], q[b]] : "-") " |"
			print r
		}
}' "$@"

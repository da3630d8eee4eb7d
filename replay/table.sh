#!/bin/sh
# table.sh KIND FILE - a Markdown table of doc/replay.md from FILE, the
# saved output of sq-replay runs (replay/data/; the runs are simulated,
# so every figure used here is the same on any machine: the host's "rq
# ms" is not used).  KIND:
#
#   sensitivity  `sq-replay --sensitivity`, which prints its table
#   hogs         `sq-replay -w tbench -q rb --hogs H -s S` for each H and
#                S, each run's output after a line "## <the command>":
#                max_latency of mainline / dynamic / smaller / EEVDF per
#                seed, and seed 1's throughput (mainline / EEVDF)
#   pipe         `sq-replay -w hackbench --ipc pipe -q rb,list`: sim s
#                and switches per queue and groups, each queue's time,
#                under the first policy (mainline)
#   policies     FILE `sq-replay -w hackbench -q rb` and a second file,
#                the hogs runs: CFS mainline against EEVDF, hackbench at
#                the first and last groups, tbench at seed 1
set -eu
[ $# -ge 2 ] || { echo "usage: table.sh sensitivity|hogs|pipe|policies FILE [HOGS]" >&2; exit 2; }
kind=$1 file=$2
for f in "$@"; do
	[ "$f" = "$kind" ] || [ -r "$f" ] || { echo "table.sh: cannot read $f" >&2; exit 2; }
done
case $kind in
sensitivity)
	grep '^|' "$file" ;;
hogs)
	awk '
	/^## / {
		for (i = 1; i <= NF; i++) {
			if ($i == "--hogs") h = $(i + 1)
			if ($i == "-s") s = $(i + 1)
		}
		if (!(h in seenh)) { seenh[h] = 1; hs[++nh] = h }
		if (!(s in seens)) { seens[s] = 1; ss[++ns] = s }
		p = 0
		next
	}
	/^Throughput / {
		p++
		lat = $0; sub(/.*max_latency=/, "", lat); sub(/ ms.*/, "", lat)
		l[h, s] = l[h, s] (p > 1 ? " / " : "") sprintf("%.2f", lat)
		if (p == 1) mb[h, s, "cfs"] = sprintf("%.1f", $2)
		if (p == 4) mb[h, s, "eevdf"] = sprintf("%.1f", $2)
	}
	END {
		h1 = "| hogs |"; h2 = "|---|"
		for (j = 1; j <= ns; j++) { h1 = h1 " seed " ss[j] " |"; h2 = h2 "---|" }
		print h1 " MB/s, seed " ss[1] ": CFS / EEVDF |"
		print h2 "---|"
		for (i = 1; i <= nh; i++) {
			r = "| " hs[i] " |"
			for (j = 1; j <= ns; j++) r = r " " l[hs[i], ss[j]] " |"
			print r " " mb[hs[i], ss[1], "cfs"] " / " mb[hs[i], ss[1], "eevdf"] " |"
		}
	}' "$file" ;;
pipe)
	awk '
	/^rq growth/ { done = 1 }	# the first policy only
	done { next }
	/^number of groups/ { for (i = 4; i <= NF; i++) g[++ng] = $i; next }
	$1 != "rq" && $2 == "sim" && $3 == "s" { q = $1; qs[++nq] = q; for (i = 4; i <= NF; i++) sim[q, i - 3] = $i; next }
	$1 == "rq" && $2 == "sim" { for (i = 4; i <= NF; i++) rqs[q, i - 3] = $i; next }
	$1 == "switches" { for (i = 3; i <= NF; i++) sw[q, i - 2] = $i; next }
	END {
		h1 = "| groups |"; h2 = "|---|"
		for (i = 1; i <= ng; i++) { h1 = h1 " " g[i] " |"; h2 = h2 "---|" }
		print h1 " growth |"
		print h2 "---|"
		for (j = 1; j <= nq; j++) {
			r = "| " qs[j] ": sim s (switches k) |"
			for (i = 1; i <= ng; i++) r = r " " sim[qs[j], i] " (" sw[qs[j], i] ") |"
			printf "%s %.2fx |\n", r, sim[qs[j], ng] / sim[qs[j], 1]
		}
		for (j = 1; j <= nq; j++) {
			if (!((qs[j], 1) in rqs)) continue
			r = "| " qs[j] "'"'"'s queue time in sim s |"
			for (i = 1; i <= ng; i++) r = r " " rqs[qs[j], i] " |"
			print r " |"
		}
	}' "$file" ;;
policies)
	[ $# -eq 3 ] || { echo "usage: table.sh policies HACKBENCH HOGS" >&2; exit 2; }
	awk '
	FNR == 1 { f++ }
	f == 1 && /^number of groups/ { ng = NF - 3; g1 = $4; gn = $NF; next }
	f == 1 && /\(policy / { p = $0; sub(/.*\(policy /, "", p); sub(/\).*/, "", p); next }
	f == 1 && $1 != "rq" && $2 == "sim" && $3 == "s" { sim1[p] = $4; simn[p] = $NF; next }
	f == 1 && $1 == "switches" { sw1[p] = $3; swn[p] = $NF; next }
	f == 1 && $1 == "Jain" { jain[p] = $NF; next }
	f == 2 && /^## / {
		h = -1; s = -1
		for (i = 1; i <= NF; i++) {
			if ($i == "--hogs") h = $(i + 1)
			if ($i == "-s") s = $(i + 1)
		}
		if (s == 1) hs[++nh] = h
		n = 0
		next
	}
	f == 2 && /^Throughput / && s == 1 {
		n++
		lat = $0; sub(/.*max_latency=/, "", lat); sub(/ ms.*/, "", lat)
		if (n == 1) cfs[h] = sprintf("%.3f, %s ms", $2, lat)
		if (n == 4) eevdf[h] = sprintf("%.3f, %s ms", $2, lat)
	}
	END {
		print "| | CFS 2.6.35 (mainline) | EEVDF 6.6 |"
		print "|---|---|---|"
		printf "| hackbench %s groups: sim s, switches | %s, %s k | %s, %s k |\n", g1, sim1["mainline"], sw1["mainline"], sim1["eevdf"], sw1["eevdf"]
		printf "| hackbench %s groups: sim s, switches | %s, %s k | %s, %s k |\n", gn, simn["mainline"], swn["mainline"], simn["eevdf"], swn["eevdf"]
		printf "| hackbench %s: Jain at the first exit | %s | %s |\n", gn, jain["mainline"], jain["eevdf"]
		for (i = 1; i <= nh; i++)
			printf "| tbench %s: MB/s, max latency | %s | %s |\n", hs[i] == 0 ? "idle" : "+ " hs[i] (hs[i] == 1 ? " hog" : " hogs"), cfs[hs[i]], eevdf[hs[i]]
	}' "$file" "$3" ;;
*)
	echo "table.sh: no table $kind" >&2; exit 2 ;;
esac

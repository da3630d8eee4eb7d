#!/bin/sh
# compare.sh [-r ROUNDS] [-c CPU] [-l LOCK] [-k] [-L] A B [WORKLOAD...] - one
# harness, two header trees, side by side
#
# A and B are each a commit (anything git rev-parse takes: HEAD~5,
# HEAD~2, a branch) or `work`, the work tree's include/.  The harness is
# always the work tree's bench/ sources, built once against A's include/
# and once against B's (git archive of the commit), so the two binaries
# differ only by the headers.  Then ROUNDS rounds (default 5): in each,
# every WORKLOAD runs once with A and once with B, back to back, A first in
# odd rounds and B first in even ones (so neither always runs warm), each
# pinned to CPU (default 1) with the short repetitions of bench/run.sh
# (-l 2000 -r 99 --warmup 200000: most escape preemption on a shared
# host; each run's figure is the median of its 198).
#
# Printed, per workload, N and queue: the median over the rounds of A's
# ns/loop and of B's, B/A of those medians, and the lowest and highest B/A
# of a single round (the noise: a ratio inside that range is not a
# difference).  LOCK, when given, is flock'ed around the timed part only.
#
# WORKLOADs (default: all):
#   churn-1h     100k long timers, 1 ms .. 1 h (-w churn)
#   churn-100ms  the same, 1 ms .. 100 ms
#   seeds-2048   the seeds' hold loop, N = 2048, with the 2007 ring
#   seeds-65536  the same at N = 65536
#   hold         the seeds' hold loop, N = 1 .. 64k, with the 2007 ring
#   des-exp des-uniform des-triangular des-camel
#                the DES hold, N = 1k, 100k, 1M, increments up to 3G;
#                its rows named "load" are the harness's --chase, a
#                dependent load from memory timed after each N
#   timer        the timer mix, N = 16, 256, 4k, 64k
#   spread       the timer mix over 1 ms .. 1 h, N = 1k, 64k, 1M
#   sched        the run queue, N = 16, 256, 4k, 64k
#   quick        churn-1h churn-100ms seeds-2048 seeds-65536
#   all          every one above but quick
#   ns3          make bench-ns3's hold (ns/hold) at 10^3, 10^5, 10^6 for
#                smartq's four ns-3 schedulers and MapScheduler (whose code
#                is the same in A and B: the machine's drift); needs ns-3
#                (libns3-dev) and its own build of bench-ns3 per tree;
#                COMPARE_NS3_POPS="1000 100000" picks the populations, and
#                each row is the least of COMPARE_NS3_REPS (3) runs
#
# -L times each run as one repetition of 4M loops after 2M untimed ones
# (-l 4000000 -r 1 --warmup 2000000): its figure is then a mean over
# millions of steps, refills and epochs included.  The short repetitions'
# median leaves out whatever comes in bursts rarer than one a repetition:
# the ladder's spread of a crowded bucket (about a thousand cold nodes) or
# of its top (all of them, once an epoch), so at 10^5-10^6 nodes it is
# the cost between bursts, not the cost of a run (doc/ladder.md).
# -k keeps the runs' CSVs (in $BUILD/compare/runs); -t makes every run
# tiny (-l 100 -r 1 --warmup 10), to test the tool, not to time.  CC and CFLAGS are
# make's; COMPARE_FLAGS adds to the harness's compile line.
#
#   make compare COMPARE_A=HEAD~5 COMPARE_B=work COMPARE_WORKLOADS=quick
set -eu

rounds=5 cpu=1 lock='' keep='' runargs='-l 2000 -r 99 --warmup 200000'
while getopts r:c:l:ktL opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	c) cpu=$OPTARG ;;
	l) lock=$OPTARG ;;
	k) keep=1 ;;
	t) runargs='-l 100 -r 1 --warmup 10' ;;
	L) runargs='-l 4000000 -r 1 --warmup 2000000' ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,/^set -eu/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
a=$1 b=$2
shift 2
[ $# -gt 0 ] || set -- all

cc=${CC:-cc}
cflags=${CFLAGS:--O2 -g}
build=${BUILD:-build}/compare
srcs="bench/bench.c bench/options.c bench/tables.c bench/queues.c bench/report.c bench/advise.c"

args_of() {
	case $1 in
	churn-1h)	echo "-w churn -n 100000 -q rb,binom,ladder,tring" ;;
	churn-100ms)	echo "-w churn -m 100 -n 100000 -q rb,binom,ladder,tring" ;;
	seeds-2048)	echo "-w hold -n 2048 -q backends,tr_seed" ;;
	seeds-65536)	echo "-w hold -n 65536 -q backends,tr_seed" ;;
	hold)		echo "-w hold -n 1..64k -q backends,tr_seed" ;;
	des-exp|des-uniform|des-triangular|des-camel)
			echo "-w hold -d ${1#des-} -m 3G -n 1k,100k,1M -q backends --chase" ;;
	timer)		echo "-w timer -n 16,256,4k,64k -q backends" ;;
	spread)		echo "-w spread -n 1k,64k,1M -q backends" ;;
	sched)		echo "-w sched -n 16,256,4k,64k -q backends" ;;
	ns3)		echo "${COMPARE_NS3_POPS:-1000 100000 1000000}" ;;
	*)		return 1 ;;
	esac
}

works=
for w in "$@"; do
	case $w in
	quick) works="$works churn-1h churn-100ms seeds-2048 seeds-65536" ;;
	all)   works="$works churn-1h churn-100ms seeds-2048 seeds-65536 hold
		des-exp des-uniform des-triangular des-camel timer spread sched" ;;
	*)     args_of "$w" >/dev/null ||
		{ echo "compare: no workload '$w' (see sh $0)" >&2; exit 2; }
	       works="$works $w" ;;
	esac
done

# A tree's include/ into $build/$side/include; its name into $side.name.
tree() {
	rm -rf "${build:?}/$2"
	mkdir -p "$build/$2"
	if [ "$1" = work ]; then
		cp -R include "$build/$2/include"
		name="work tree ($(git rev-parse --short HEAD)"
		git diff --quiet HEAD -- include || name="$name+changes"
		name="$name)"
	else
		rev=$(git rev-parse --verify --short "$1^{commit}") ||
			{ echo "compare: $1: not a commit" >&2; exit 2; }
		git archive "$rev" include | tar -x -C "$build/$2"
		name=$rev
	fi
	echo "$name" >"$build/$2.name"
}

# A tree's harness, into $build/$side/sq-bench.
harness() {
	# shellcheck disable=SC2086
	$cc -I"$build/$1/include" -Ibench $cflags ${COMPARE_FLAGS:-} $noexpire \
		-std=c11 \
		-DBQ_BUILD_CC="\"$cc\"" -DBQ_BUILD_CFLAGS="\"$cflags\"" \
		-o "$build/$1/sq-bench" $srcs -lm
	case " $works " in
	*" ns3 "*)
		# shellcheck disable=SC2086
		${CXX:-c++} -std=c++17 -O2 -g -I"$build/$1/include" \
			${NS3_CPPFLAGS:-} integrations/ns3/bench-ns3.cc \
			-o "$build/$1/bench-ns3" -lns3-core ||
			{ echo "compare: ns3: cannot build bench-ns3" \
				"(apt-get install libns3-dev)" >&2; exit 2; } ;;
	esac
}
tree "$a" A
tree "$b" B
# The timer mixes expire a tick at once where a backend has an expire
# verb (bench/queue.h); when one tree has none, both time a pop_due loop,
# so that A and B make the same calls.
noexpire=
if ! grep -rqs '_expire(struct' "$build/A/include" ||
	! grep -rqs '_expire(struct' "$build/B/include"; then
	noexpire=-DBQ_NO_EXPIRE
	echo "compare: a tree without an expire verb: both time pop_due loops"
fi
harness A
harness B

runs=$build/runs
rm -rf "$runs"
mkdir -p "$runs"

# ns3_run SIDE OUT: COMPARE_NS3_REPS (3) bench-ns3 runs back to back,
# pinned; each row's least ns/hold as the harness's CSV (n = the
# population, queue = the scheduler, median_ns = that figure).  A whole
# bench-ns3 run is now and then slow in every row, so the least of a few
# is the figure that escaped it.
ns3_run() {
	echo ": >\"$2.out\"; for k in $(seq "${COMPARE_NS3_REPS:-3}" | tr '\n' ' ');" \
		"do taskset -c $cpu env SCHEDULERS='Map SmartqRb SmartqGavl" \
		"SmartqBinom SmartqLadder' \"$build/$1/bench-ns3\"" \
		"$(args_of ns3) >>\"$2.out\" 2>&1 || { echo" \
		"\"compare: $1 (ns3) failed:\" >&2; tail -n 3 \"$2.out\" >&2;" \
		"exit 1; }; done"
	echo "awk '\$1 ~ /Scheduler\$/ && \$4 ~ /^[0-9.]+\$/ {" \
		"sub(/Scheduler\$/, \"\", \$1); k = \$2 \",\" \$1;" \
		"if (!(k in v)) o[++n] = k; if (!(k in v) || \$4 + 0 < v[k]) v[k] = \$4 + 0 }" \
		"END { print \"workload,dist,n,queue\";" \
		"for (i = 1; i <= n; i++) print \"ns3,exp,\" o[i] \",0,0,0,0,0,0,\" v[o[i]] }'" \
		"\"$2.out\" >\"$2.csv\""
}

# The timed part, written out as a script of harness runs: every round,
# every workload, A and B back to back.
r=1
while [ "$r" -le "$rounds" ]; do
	order="A B"
	[ $((r % 2)) -eq 0 ] && order="B A"
	for w in $works; do
		for side in $order; do
			o="$runs/$w.$side.$r"
			if [ "$w" = ns3 ]; then
				ns3_run "$side" "$o"
				continue
			fi
			echo "\"$build/$side/sq-bench\" -c $cpu $runargs" \
				"$(args_of "$w") --csv \"$o.csv\"" \
				">\"$o.out\" 2>&1 ||" \
				"{ echo \"compare: $side ($w) failed:\" >&2;" \
				"tail -n 3 \"$o.out\" >&2; exit 1; }"
		done
	done
	r=$((r + 1))
done >"$runs/timed.sh"

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
date0=$(date -u '+%Y-%m-%d %H:%M UTC')
if [ -n "$lock" ]; then
	flock "$lock" sh "$runs/timed.sh"
else
	sh "$runs/timed.sh"
fi
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

first=$(set -- "$runs"/*.A.1.out; echo "$1")
cpuname=$(sed -n 's/^cpu: \(.*\), pinned to CPU .*/\1/p' "$first")
[ -n "$cpuname" ] ||	# bench-ns3 prints no cpu line
	cpuname=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | sed 1q)
echo "A = $(cat "$build/A.name"), B = $(cat "$build/B.name")"
echo "cpu: $cpuname, pinned to CPU $cpu; $rounds rounds from $date0;" \
	"load average $load0 before, $load1 after"
case $runargs in
*' -r 1 '*) per="mean ns/loop over its $(echo "$runargs" | cut -d' ' -f2) loops" ;;
*)          per="median ns/loop" ;;
esac
echo "figures: median over the rounds of each run's $per;" \
	"B/A range: lowest and highest of one round"
printf '%-15s %9s %-12s %9s %9s %7s  %s\n' workload N queue "A ns" "B ns" B/A \
	"B/A range"
for w in $works; do
	# workload,dist,n,queue,peer,loops,reps,min_cycles,median_cycles,min_ns,median_ns
	for side in A B; do
		for f in "$runs/$w.$side".*.csv; do
			r=${f%.csv}
			r=${r##*.}
			sed 1d "$f" | awk -F, -v s="$side" -v r="$r" \
				'{ print $3 "," $4 "," s "," r "," $11 }'
			# --chase: the dependent load of each N, as a queue
			awk -v s="$side" -v r="$r" '
				/^Testing N=/ { n = substr($2, 3) }
				/^dependent load/ { print n ",load," s "," r "," $(NF - 1) }
			' "${f%.csv}.out"
		done
	done | awk -F, -v w="$w" '
	function median(list,   v, n, i, j, t) {
		n = split(list, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{
		k = $1 "," $2
		if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
		all[k, $3] = all[k, $3] " " $5
		val[k, $3, $4] = $5
		if ($4 > maxr) maxr = $4
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			split(k, p, ",")
			ma = median(all[k, "A"]); mb = median(all[k, "B"])
			lo = ""; hi = ""
			for (r = 1; r <= maxr; r++) {
				if (!((k SUBSEP "A" SUBSEP r) in val) || val[k, "A", r] == 0)
					continue
				q = val[k, "B", r] / val[k, "A", r]
				if (lo == "" || q < lo) lo = q
				if (hi == "" || q > hi) hi = q
			}
			printf "%-15s %9s %-12s %9.1f %9.1f %7.3f  %.3f..%.3f\n",
				w, p[1], p[2], ma, mb, (ma > 0 ? mb / ma : 0), lo, hi
		}
	}'
done
[ -n "$keep" ] || rm -rf "$runs"

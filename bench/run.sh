#!/bin/sh
# run.sh NAME... - run again the canonical runs behind the docs' tables
# and keep their output as data: bench/data/NAME.csv is the harness's CSV
# (--csv) of every command of NAME, each command's rows after a line
#
#   # run: sq-bench ARGS | cpu: ... | compiler: ... | commit: ... | date: ... | load: ...
#
# (the load average when the command started); `costs` keeps the output
# of bench/costs.sh as bench/data/costs.txt, after such a line.  The
# tables in README.md, bench/README.md and doc/ are made from these files
# by bench/table.sh and bench/costs-table.sh (`make results`).  Every
# timed run is pinned to CPU 1 and times 99 short repetitions a pass (2000
# loops, after 200000 untimed): on a shared host most of them then escape
# preemption, and the median reads those.  `dists` and `spread` instead
# time each run as one repetition of 4M loops after 2M untimed
# (compare.sh -L): at 10^5-10^6 nodes the short runs' median leaves out
# the ladder's and the ring's bursts and catches the trees cold, so only
# a mean says what a run costs.  Build the harness first, with the
# kernel's tree for the `kernel` and `costs` runs:
#
#   make build/bench/sq-bench LINUX_SRC=/usr/src/linux-source-6.1
#   sh bench/run.sh hold kernel dists collapse timer spread
#   make build/bench/sq-bench-notsc LINUX_SRC=... && sh bench/run.sh costs
#
# BENCH_BIN names another binary, BENCH_DATA another directory.
set -eu
bin=${BENCH_BIN:-build/bench/sq-bench}
dir=${BENCH_DATA:-bench/data}
[ -x "$bin" ] || { echo "run: no $bin: make build/bench/sq-bench" >&2; exit 2; }
[ $# -gt 0 ] || { sed -n '2,/^set -eu/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
short='-l 2000 -r 99 --warmup 200000' long='-l 4000000 -r 1 --warmup 2000000'
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- include 'bench/*.[ch]' 2>/dev/null || commit="$commit+changes"

# one harness command: its line, then its rows (the CSV header once)
run() {
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
	date=$(date -u '+%Y-%m-%d %H:%M UTC')
	set -- -c 1 $reps "$@"
	"$bin" --csv "$tmp/csv" "$@" >"$tmp/out"
	cpu=$(sed -n 's/^cpu: \(.*\), pinned to CPU .*/\1/p' "$tmp/out")
	mhz=$(sed -n 's/.* TSC \([0-9.]* MHz\).*/, TSC \1/p' "$tmp/out")
	cc=$(sed -n 's/^compiler: [^(]*(\(.*\)), flags \(.*\)/\1 \2/p' "$tmp/out")
	echo "# run: sq-bench $* | cpu: $cpu$mhz | compiler: $cc |" \
		"commit: $commit | date: $date | load: $load" >>"$tmp/data"
	[ -s "$tmp/data.head" ] || sed -n 1p "$tmp/csv" >"$tmp/data.head"
	sed 1d "$tmp/csv" >>"$tmp/data"
	# --chase: each N's dependent load, as a comment table.sh skips
	awk '/^Testing N=/ { n = substr($0, 11) }
	     /^dependent load/ { print "# load: n=" n ", " $(NF - 1) " ns" }' \
		"$tmp/out" >>"$tmp/data"
}

# one make advise shape: its label, its run line, its --csv
advise() {
	label=$1
	shift
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
	date=$(date -u '+%Y-%m-%d %H:%M UTC')
	"$bin" --advise "$@" --csv "$tmp/csv" >"$tmp/out"
	cpu=$(sed -n 's/^cpu: \(.*\), pinned$/\1/p; s/^cpu: \(.*\) (not pinned)$/\1/p' "$tmp/out")
	mhz=$(sed -n 's/.* TSC \([0-9.]* MHz\).*/, TSC \1/p' "$tmp/out")
	cc=$(sed -n 's/^compiler: [^(]*(\(.*\)), flags \(.*\)/\1 \2/p' "$tmp/out")
	args=$(sed -n "s/^reproduce: make advise ADVISE='\(.*\)'$/\1/p" "$tmp/out")
	{ echo "# shape: $label"
	  echo "# run: make advise ADVISE='$args' | cpu: $cpu$mhz |" \
		"compiler: $cc | commit: $commit | date: $date | load: $load"
	  sed -n 's/^\(advise\|note\): /# &/p; s/^took /# &/p' "$tmp/out"
	  cat "$tmp/csv"; } >>"$tmp/data"
	: >"$tmp/data.head"
}

for name in "$@"; do
	: >"$tmp/data"
	: >"$tmp/data.head"
	reps=$short
	case $name in
	hold)	# the seeds' loop, every backend and peer, N to 2048
		run -n 1..2048 ;;
	dists)	# the literature's increments, to a million nodes, as
		# means of long runs; calq collapses on triangular and camel
		# (bench/README.md)
		reps=$long
		for d in exp uniform bimodal; do
			run -d $d -m 3G -n 1k,100k,1M -q backends,heap,calq
		done
		for d in triangular camel; do
			run -d $d -m 3G -n 1k,100k,1M -q backends,heap
		done ;;
	collapse) # the calendar queue where its day width does not fit
		run -d triangular -m 3G -n 1k,10k,100k -q rb,ladder,calq
		run -d camel -m 3G -n 10k,20k,40k -q rb,ladder,calq ;;
	timer)	# re-arm, cancel, expire
		run -w timer -n 16,256,4k,64k -q backends,heap,calq ;;
	spread)	# timers of 1 ms to 1 h, then the hold loop over an hour,
		# as means of long runs (the ring's cascades are bursts)
		reps=$long
		run -w spread -n 1k,64k,1M -q backends,heap
		run -w hold -m 3600000 --gran-shift 0 -n 1k,64k \
			-q backends,heap ;;
	rivals-hold) # the seeds' loop to 64k against the streaming peers,
		# events of 40 bytes (the largest smartq node) for all
		run -n 1..64k --event 40 \
			-q backends,tr_seed,heap,calq,radix,heap4,wheel ;;
	rivals-des) # DES hold at 10^5 and 10^6, every distribution, the
		# ladder and the ring against the streaming peers, events of
		# 32 bytes (the ladder's node), a dependent load beside
		reps=$long
		for d in exp uniform triangular negtriangular bimodal camel \
			ties loguniform; do
			run -d $d -m 3G -n 100k,1M --event 32 --chase \
				-q ladder,tring,radix,heap4,wheel
		done ;;
	rivals-timer) # the timer mixes against the streaming peers,
		# events of 32 bytes; the ring and the wheel fire a tick
		# at once (their expire); 1 ms .. 1 h as means of long runs
		run -w timer -n 4k,64k,1M --event 32 \
			-q ladder,tring,radix,heap4,wheel
		reps=$long
		run -w spread -n 1k,64k,1M --event 32 \
			-q ladder,tring,radix,heap4,wheel
		run -w churn -n 1k,64k,1M --event 32 \
			-q ladder,tring,radix,heap4,wheel ;;
	advise)	# make advise's shapes, for the README's "Choosing a
		# backend": each one advice of at most a minute, pinned
		advise 'a timer service: 10^4 timers, 1 ms .. 1 h, 30% cancel, 30% re-arm, order within 1 ms' -c 1
		advise 'a simulator'"'"'s hold: 10^5 events, exponential delays, exact' \
			-c 1 -n 100000 -d exp -m 3G --cancel 0 --rearm 0 --exact
		advise 'a simulator'"'"'s hold: 10^6 events, exponential delays, exact' \
			-c 1 -n 1000000 -d exp -m 3G --cancel 0 --rearm 0 --exact ;;
	kernel)	# the trees against the kernel's and libbsd's
		run -n 1..64k -q rb,gavl,binom,linux_rb,bsd_rb ;;
	costs)	# counted by callgrind, not timed
		set -- 16,2048,65536 \
			rb,gavl,binom,ladder,tring,linux_rb,bsd_rb,tsearch,tr_seed
		notsc=${bin%/*}/sq-bench-notsc
		echo "# run: sh bench/costs.sh $notsc $* |" \
			"compiler: $(${CC:-cc} --version | sed 1q)" \
			"${CFLAGS:--O2 -g} -DBQ_NO_TSC |" \
			"valgrind: $(valgrind --version) | commit: $commit |" \
			"date: $(date -u '+%Y-%m-%d %H:%M UTC')" >"$tmp/costs"
		sh bench/costs.sh "$notsc" "$@" >>"$tmp/costs"
		mkdir -p "$dir"
		mv "$tmp/costs" "$dir/costs.txt"
		echo "run: $dir/costs.txt"
		continue ;;
	*)	echo "run: no run named $name (hold kernel dists collapse timer spread rivals-hold rivals-des rivals-timer advise costs)" >&2
		exit 2 ;;
	esac
	mkdir -p "$dir"
	cat "$tmp/data.head" "$tmp/data" >"$dir/$name.csv"
	echo "run: $dir/$name.csv"
done

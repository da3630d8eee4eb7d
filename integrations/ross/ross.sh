#!/bin/sh
# ross.sh test|bench - ROSS on smartq's queue, against ROSS's splay tree
#
#   test   builds ROSS with splay (ROSS_SRC as it is) and with each smartq
#          backend (a patched copy), and a ladder build that checks the
#          queue after every operation; runs phold and compares with
#          splay: the order of every event processed (the sequential
#          event trace) and the statistics sequentially, in optimistic
#          debug (one rank, every event rolled back) and under Time Warp
#          on 2 MPI ranks (the net, committed, counts); then ROSS's own
#          ctest for ROSS_CTEST.
#   bench  phold's sequential event rate, splay and each backend, at the
#          populations ROSS_POPS (LPs:start-events ...), with phold's
#          default timestamps (all tied) and exponential ones.
#
# Environment: ROSS_SRC (a ROSS checkout; without it the test says it
# skipped and passes), ROSS_KINDS (ladder rb binom gavl), ROSS_CTEST
# (backends whose ctest runs: none), BUILD (build). Builds and runs are
# niced, one compile at a time.
set -u
mode=${1:-test}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kinds=${ROSS_KINDS:-ladder rb binom gavl}
# the backends with a tie kind (SQ_TIE_KINDS in smartq.h): also built
# with ROSS_SMARTQ_TIES=hook, as K-hook
hooks=
for k in $(sed -n 's/^#define SQ_TIE_KINDS(X)//p' "$top/include/smartq.h" |
	   tr -c 'a-z\n' ' '); do
	case " $kinds " in *" $k "*) hooks="$hooks $k-hook" ;; esac
done
ctest_kinds=${ROSS_CTEST:-}
build=${BUILD:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
dir=$build/ross

if [ -z "${ROSS_SRC:-}" ]; then
	echo "ross.sh: ROSS_SRC not set (make test-ross ROSS_SRC=<ROSS checkout>), skipping"
	exit 0
fi
src=$(cd "$ROSS_SRC" 2>/dev/null && pwd) || {
	echo "ross.sh: ROSS_SRC=$ROSS_SRC: no such directory"; exit 1; }
[ -f "$src/core/queue/splay.c" ] || {
	echo "ross.sh: ROSS_SRC=$src: no core/queue/splay.c, not ROSS"; exit 1; }
for t in cmake mpirun patch od awk; do
	command -v $t >/dev/null 2>&1 || {
		echo "ross.sh: $t not found (Debian: cmake libopenmpi-dev openmpi-bin patch)"
		exit 1; }
done

# Open MPI: two ranks on any machine; as root only when allowed.
export OMPI_MCA_rmaps_base_oversubscribe=1 CLOCK_SPEED=${CLOCK_SPEED:-1000000000}
mpiflags=--oversubscribe
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	mpiflags="$mpiflags --allow-run-as-root"
fi

fail=0
say() { echo "ross.sh: $*"; }
bad() { echo "ross.sh: FAIL: $*"; fail=$((fail + 1)); }

# The patched copy of ROSS that the smartq builds use.
mkdir -p "$dir"
rm -rf "$dir/src"
mkdir "$dir/src"
(cd "$src" && tar --exclude=.git -cf - .) | (cd "$dir/src" && tar -xf -)
if ! (cd "$dir/src" && patch -p1 -s < "$here/ross-smartq.patch"); then
	echo "ross.sh: integrations/ross/ross-smartq.patch does not apply to $src"
	exit 1
fi

# build NAME SRC CMAKE-ARGS...: configure and build into $dir/NAME.
build() {
	name=$1 from=$2
	shift 2
	rm -rf "$dir/$name"
	if ! nice -n 10 cmake -S "$from" -B "$dir/$name" -DROSS_BUILD_MODELS=ON \
		-DCMAKE_BUILD_TYPE=Release "$@" > "$dir/$name.log" 2>&1 ||
	   ! nice -n 10 cmake --build "$dir/$name" -j 1 >> "$dir/$name.log" 2>&1; then
		echo "ross.sh: building $name failed; see $dir/$name.log"
		exit 1
	fi
}
# smartq K[-hook]: the cmake arguments for that queue
smartq() {
	echo "-DQUEUE=smartq -DSMARTQ_DIR=$top -DSMARTQ_KIND=${1%-hook}"
	case $1 in *-hook) echo "-DROSS_SMARTQ_TIES=hook" ;; esac
}

# phold NAME TAG ARGS...: run NAME's phold in a scratch directory (ROSS
# writes ross.csv and more into its working directory); output in
# $dir/run/NAME.TAG/out. Under MPI when ARGS start with -np.
phold() {
	name=$1 tag=$2
	shift 2
	w=$dir/run/$name.$tag
	rm -rf "$w"
	mkdir -p "$w"
	if [ "$1" = -np ]; then
		np=$2
		shift 2
		(cd "$w" && nice -n 10 mpirun -np "$np" $mpiflags \
			"$dir/$name/models/phold/phold" "$@") > "$w/out" 2>&1
	else
		(cd "$w" && nice -n 10 "$dir/$name/models/phold/phold" "$@") \
			> "$w/out" 2>&1
	fi || { bad "$name $tag: phold exited $?; see $w/out"; return 1; }
}

# What must equal splay's. stats: ROSS's statistics but the rates and the
# queue sizes at each GVT report; net: the events Time Warp commits (the
# rest, even the events scheduled past the end, vary from run to run);
# trace: src, dest, send and receive time of every event in the order
# processed (the sequential event trace less its wall-clock field).
view() {
	w=$dir/run/$1.$2
	case $3 in
	stats)
		grep -o 'complete, max event queue size [0-9]*' "$w/out"
		sed -n '/^TW Library Statistics/,/^TW Memory/p' "$w/out" |
			grep -v 'Event Rate' ;;
	net)
		grep 'Net Events Processed' "$w/out" ;;
	trace)
		od -An -v -tu4 "$w/stats-output/ross-stats-evtrace.bin" | awk '
		{ for (i = 1; i <= NF; i++) {
			if (k < 4) printf "%s%s", $i, (k == 3 ? "\n" : " ")
			else if (k == 5) skip = $i / 4
			if (++k == 6 + skip) { k = 0; skip = 0 }
		} }' ;;
	esac
}
# same REF NAME TAG WHAT...: NAME's views of run TAG equal REF's.
same() {
	ref=$1 name=$2 tag=$3
	shift 3
	for what in "$@"; do
		view "$ref" "$tag" "$what" > "$dir/run/ref.view"
		view "$name" "$tag" "$what" > "$dir/run/got.view"
		if [ ! -s "$dir/run/ref.view" ]; then
			bad "$ref $tag: no $what"
		elif ! cmp -s "$dir/run/ref.view" "$dir/run/got.view"; then
			bad "$name $tag: $what differs from $ref's"
			diff "$dir/run/ref.view" "$dir/run/got.view" | head -5
		fi
	done
}

# phold's default timestamps are 1.0 apart exactly (mean less lookahead
# is 0), so every event ties with every other of its step: the order is
# all tie-breaking. --mean=1.5 draws exponential gaps instead.
ties="--nlp=64 --start-events=4 --end=100"
expo="--mean=1.5 --nlp=64 --start-events=4 --end=100"
bigx="--mean=1.5 --nlp=1024 --start-events=8 --end=40"

# check_build REF NAME [light]: NAME's phold against REF's.
check_build() {
	ref=$1 name=$2
	phold "$name" seq-ties --synch=1 $ties --event-trace=1 &&
		same "$ref" "$name" seq-ties stats trace
	phold "$name" seq-expo --synch=1 $expo --event-trace=1 &&
		same "$ref" "$name" seq-expo stats trace
	phold "$name" dbg-ties --synch=4 --nkp=1 --extramem=1000000 $ties &&
		same "$ref" "$name" dbg-ties stats
	phold "$name" opt-ties -np 2 --synch=3 --extramem=100000 $ties &&
		same "$ref" "$name" opt-ties net
	phold "$name" opt-expo -np 2 --synch=3 --extramem=100000 $expo &&
		same "$ref" "$name" opt-expo net
	[ "${3:-}" = light ] && return
	phold "$name" seq-bigx --synch=1 $bigx &&
		same "$ref" "$name" seq-bigx stats
	phold "$name" opt-bigx -np 2 --synch=3 --extramem=100000 $bigx &&
		same "$ref" "$name" opt-bigx net
}

if [ "$mode" = bench ]; then
	# One build per queue, phold alone (the test builds every target).
	build splay "$src"
	for k in $kinds $hooks; do build "$k" "$dir/src" $(smartq "$k"); done
	echo "phold --synch=1, events/s (ROSS's Event Rate), $(date -u +%Y-%m-%d)"
	printf '%-26s' "population, timestamps"
	for b in splay $kinds $hooks; do printf '%11s' "$b"; done
	echo
	for pop in ${ROSS_POPS:-1000:1 1024:16 16384:8 65536:16}; do
		lps=${pop%:*} per=${pop#*:}
		n=$((lps * per))
		for t in ties expo; do
			m=; [ $t = expo ] && m=--mean=2
			# 2 million events or more, at least 4 steps of time
			# (1.0 for ties, 2.0 on average for expo): ROSS counts
			# the initial enqueues out, the first pops in
			end=$((2000000 / n)); [ $end -lt 4 ] && end=4
			end=$((end + 1)); [ $t = expo ] && end=$((end * 2))
			printf '%-26s' "$n, $t"
			for b in splay $kinds $hooks; do
				phold "$b" bench --synch=1 --nlp=$lps \
					--start-events=$per --end=$end $m || exit 1
				r=$(grep 'Event Rate' "$dir/run/$b.bench/out" |
					awk '{printf "%.0f", $NF}')
				printf '%11s' "$r"
			done
			echo
		done
	done
	exit 0
fi

build splay "$src"
phold splay seq-ties --synch=1 $ties --event-trace=1
phold splay seq-expo --synch=1 $expo --event-trace=1
phold splay dbg-ties --synch=4 --nkp=1 --extramem=1000000 $ties
phold splay opt-ties -np 2 --synch=3 --extramem=100000 $ties
phold splay opt-expo -np 2 --synch=3 --extramem=100000 $expo
phold splay seq-bigx --synch=1 $bigx
phold splay opt-bigx -np 2 --synch=3 --extramem=100000 $bigx
n0=$fail
build ladder-check "$dir/src" $(smartq ladder) -DROSS_SMARTQ_CHECK=ON \
	-DCMAKE_BUILD_TYPE=Debug
check_build splay ladder-check light
[ $fail = "$n0" ] && say "ladder, every operation checked: same as splay"
for k in $hooks; do
	n0=$fail
	build "$k-check" "$dir/src" $(smartq "$k") -DROSS_SMARTQ_CHECK=ON \
		-DCMAKE_BUILD_TYPE=Debug
	check_build splay "$k-check" light
	[ $fail = "$n0" ] && say "$k, every operation checked: same as splay"
done
for k in $kinds $hooks; do
	n0=$fail
	build "$k" "$dir/src" $(smartq "$k")
	check_build splay "$k"
	[ $fail = "$n0" ] && say "$k: same order and statistics as splay"
done
for k in $ctest_kinds; do
	[ -d "$dir/$k" ] || { bad "ROSS_CTEST=$k: not in ROSS_KINDS"; continue; }
	if (cd "$dir/$k" && nice -n 10 ctest --output-on-failure \
		> "$dir/$k.ctest" 2>&1); then
		say "$k: ROSS's ctest: $(grep 'tests passed' "$dir/$k.ctest")"
	else
		bad "$k: ROSS's ctest; see $dir/$k.ctest"
		grep 'tests passed\|Failed\|Timeout' "$dir/$k.ctest" | head
	fi
done
if [ $fail != 0 ]; then
	say "$fail failures"
	exit 1
fi
say "ROSS on smartq ($kinds$hooks): same as splay"

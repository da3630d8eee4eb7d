#!/bin/sh
# bench/test-bench.sh - the harness runs on tiny sizes and its output has
# the promised shape: "Testing N=" lines, one line per queue per pass in
# mirrored order, a summary, well-formed CSV and JSON, a failed correctness
# pass exits non-zero.  Never its speed: no number is judged here.
set -u
BIN=${BENCH_BIN:-${BUILD:-build}/bench/sq-bench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
checks=0

fail() {
	echo "test-bench: FAIL: $*"
	exit 1
}
ok() {
	checks=$((checks + 1))
}

[ -x "$BIN" ] || fail "$BIN not built"

# --help documents every option.
"$BIN" --help >"$tmp/help" || fail "--help exited non-zero"
for opt in --n --queues --workload --dist --loops --reps --seed --cpu \
	--csv --json --event; do
	grep -q -- "$opt" "$tmp/help" || fail "--help does not mention $opt"
done
ok

# check_run FILE QUEUES NS: the seed layout for those queues and sizes.
check_run() {
	awk -v queues="$2" -v ns="$3" '
	BEGIN {
		nq = split(queues, q, " "); nn = split(ns, want, " ")
		for (i = 1; i <= nq; i++) order[i] = q[i]
		for (i = 1; i <= nq; i++) order[2 * nq + 1 - i] = q[i]
	}
	/^(cpu:|clock:|compiler:|granularity) / { head[$1] = 1 }
	/^Testing N=/ {
		if (t > 0 && seen != 2 * nq) { print "N=" cur ": " seen " lines"; bad = 1 }
		t++; cur = substr($0, 11); seen = 0
		if (cur != want[t]) { print "Testing N=" cur ", expected N=" want[t]; bad = 1 }
		next
	}
	/^Summary: median cycles/ { sum = 1 }
	/^Summary: median ns/ { sumns = 1 }
	t > 0 && !sum && / cycles\/loop/ {
		seen++
		if ($0 !~ /^[a-z_0-9]+ = [0-9]+\.[0-9][0-9] cycles\/loop/) {
			print "bad line: " $0; bad = 1
		}
		if ($1 != order[seen]) {
			print "N=" cur " line " seen ": " $1 ", expected " order[seen]; bad = 1
		}
		if (($0 ~ /\[peer\]/) != ($1 == "tsearch" || $1 == "bsd_rb" || $1 == "linux_rb" || $1 == "tr_seed" || $1 == "heap" || $1 == "calq" || $1 == "radix" || $1 == "heap4" || $1 == "wheel")) {
			print "peer mark wrong: " $0; bad = 1
		}
	}
	END {
		if (t > 0 && seen != 2 * nq) { print "N=" cur ": " seen " lines"; bad = 1 }
		if (t != nn) { print t " Testing lines, expected " nn; bad = 1 }
		if (!head["cpu:"] || !head["clock:"] || !head["compiler:"] || !head["granularity"]) {
			print "missing cpu/clock/compiler/granularity header"; bad = 1
		}
		if (!sum || !sumns) { print "missing summary tables"; bad = 1 }
		exit bad
	}' "$1"
}

# check_csv FILE ROWS
check_csv() {
	awk -F, -v rows="$2" '
	NR == 1 {
		if ($0 != "workload,dist,n,queue,peer,loops,reps,min_cycles,median_cycles,min_ns,median_ns,calls_per_loop,fired_per_loop") {
			print "bad CSV header: " $0; bad = 1
		}
		next
	}
	{
		if (NF != 13) { print "CSV line " NR ": " NF " fields"; bad = 1 }
		for (i = 8; i <= 13; i++)
			if ($i !~ /^[0-9]+\.[0-9]+$/) { print "CSV line " NR ": field " i " = " $i; bad = 1 }
		if ($3 !~ /^[0-9]+$/ || ($5 != 0 && $5 != 1)) { print "CSV line " NR ": " $0; bad = 1 }
		n++
	}
	END {
		if (n != rows) { print n " CSV rows, expected " rows; bad = 1 }
		exit bad
	}' "$1"
}

# check_json FILE ROWS
check_json() {
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$1" "$2" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"]
assert len(rows) == int(sys.argv[2]), "%d JSON rows" % len(rows)
for k in ("cpu", "clock", "clock_hz", "compiler", "cflags", "workload"):
    assert k in d, "JSON lacks " + k
for r in rows:
    assert set(r) >= {"n", "queue", "peer", "min_cycles", "median_cycles",
                      "min_ns", "median_ns"}, r
PY
	else
		head -c 1 "$1" | grep -q '{' && tail -n 1 "$1" | grep -q '}' &&
			[ "$(grep -c '"queue"' "$1")" -eq "$2" ]
	fi
}

# The backends are SQ_KINDS (make exports it from include/smartq.h); by
# hand, without make, they are read from the run itself: the pass lines
# not marked [peer].
"$BIN" --help >/dev/null
"$BIN" -n 1 -l 1 -r 1 -q all --warmup 0 >"$tmp/probe" ||
	fail "the smallest run failed: $(cat "$tmp/probe")"
kinds=${SQ_KINDS:-}
if [ -z "$kinds" ]; then
	kinds=$(awk '/^Testing/ { t = 1; next }
		t && /^[a-z_0-9]+ = .* cycles\/loop/ && !/\[peer\]/ && !seen[$1]++ { print $1 }' "$tmp/probe")
fi
kinds=$(echo $kinds)
[ -n "$kinds" ] || fail "no backends (SQ_KINDS empty, none in the run)"
first=${kinds%% *}
last=${kinds##* }
queues="$kinds tsearch"
grep -q 'bsd_rb not built' "$tmp/probe" || queues="$queues bsd_rb"
grep -q 'linux_rb not built' "$tmp/probe" || queues="$queues linux_rb"
queues="$queues tr_seed heap calq radix heap4 wheel"
nq=$(echo $queues | wc -w)
[ -n "${SQ_BENCH_DEBUG:-}" ] && echo "queues: $queues"

for w in hold sched timer updown mix; do
	"$BIN" -n 1,2,4 -l 200 -r 2 --warmup 50 -w "$w" \
		--csv "$tmp/$w.csv" --json "$tmp/$w.json" >"$tmp/$w.out" 2>&1 ||
		fail "workload $w exited non-zero: $(tail -n 3 "$tmp/$w.out")"
	check_run "$tmp/$w.out" "$queues" "1 2 4" || fail "workload $w: layout"
	check_csv "$tmp/$w.csv" $((3 * nq)) || fail "workload $w: CSV"
	check_json "$tmp/$w.json" $((3 * nq)) || fail "workload $w: JSON"
	# the timer service's count: on every pass line, and only there
	if [ "$w" = timer ]; then
		[ "$(grep -c 'cycles/loop .*deadline reprogrammed on [0-9.]*% of steps, [0-9.]* queue calls a step$' "$tmp/$w.out")" -eq $((6 * nq)) ] ||
			fail "workload timer: not every pass line says how often the deadline moved and how many calls a step made"
		grep -q '^Summary: median ns per queue call' "$tmp/$w.out" ||
			fail "workload timer: no summary per queue call"
	elif [ "$w" = mix ]; then
		grep -q '^Summary: median ns per node fired' "$tmp/$w.out" ||
			fail "workload mix: no summary per node fired"
	elif grep -q 'deadline reprogrammed\|per queue call' "$tmp/$w.out"; then
		fail "workload $w: a reprogram count outside the timer mix"
	fi
	ok
done

# table.sh turns the CSV into the README's table: a header naming every
# queue and each ratio asked for, a rule, one row of numbers per N, and
# under it the run that bench/run.sh's "# run:" line records.
{ sed -n 1p "$tmp/hold.csv"
  echo "# run: sq-bench -n 1..4 | cpu: C | compiler: gcc X | commit: abc1234 | date: 2026-01-02 03:04 UTC | load: 0.5"
  sed 1d "$tmp/hold.csv"; } >"$tmp/data.csv"
sh "$(dirname "$0")/table.sh" -m -x "$last/$first" "$tmp/data.csv" >"$tmp/table.md" ||
	fail "table.sh exited non-zero"
[ "$(sed -n 1p "$tmp/table.md" | tr -cd '|' | wc -c)" -eq $((nq + 3)) ] ||
	fail "table.sh: header is not one column per queue and ratio"
[ "$(grep -c '^| [124] | [0-9].* | [0-9]*\.[0-9][0-9] |$' "$tmp/table.md")" -eq 3 ] ||
	fail "table.sh: not one row of numbers and a ratio per N"
grep -q 'commit abc1234; 2026-01-02 03:04 UTC, load average 0.5' "$tmp/table.md" ||
	fail "table.sh: the run under the table is not the file's"
sh "$(dirname "$0")/table.sh" -q nosuch "$tmp/data.csv" >/dev/null 2>&1 &&
	fail "table.sh -q nosuch did not fail"
ok

# -c: per queue call, from the CSV's calls_per_loop; -f: per node
# fired, from fired_per_loop.  The timer mix writes both; sched counts
# neither its calls nor fires, and each option refuses it.
for opt in c f; do
	sh "$(dirname "$0")/table.sh" -$opt "$tmp/timer.csv" >"$tmp/per$opt.md" ||
		fail "table.sh -$opt on the timer mix exited non-zero"
	[ "$(grep -c '^| [124] | [0-9]' "$tmp/per$opt.md")" -eq 3 ] ||
		fail "table.sh -$opt: not one row per N"
	sh "$(dirname "$0")/table.sh" -$opt "$tmp/sched.csv" >/dev/null 2>&1 &&
		fail "table.sh -$opt on a CSV without its column did not fail"
	ok
done

# costs-table.sh turns bench/costs.sh's output (bench/run.sh costs) into
# one row per queue, each cell its figures at every N.
{ echo "# run: sh bench/costs.sh B 16,2048 rb,gavl | compiler: gcc X | commit: abc1234"
  printf '%-8s %7s %8s %8s %8s %9s %8s\n' queue N instr D1 L2 branches mispred
  echo "rb 16 125 0.06 0 30.1 3.66"; echo "gavl 16 172 0.06 0 31.0 2.44"
  echo "rb 2048 181 2.75 0 40.2 3.93"; echo "gavl 2048 234 4.57 0 41.0 3.11"
} >"$tmp/costs.txt"
sh "$(dirname "$0")/costs-table.sh" "$tmp/costs.txt" >"$tmp/costs.md" ||
	fail "costs-table.sh exited non-zero"
grep -q '^| `rb` | 125 / 181 | 0.06 / 2.75 | 0 / 0 | 3.66 / 3.93 |$' "$tmp/costs.md" &&
	grep -q '^| `gavl` | 172 / 234 |' "$tmp/costs.md" &&
	[ "$(grep -c '^| `' "$tmp/costs.md")" -eq 2 ] ||
	fail "costs-table.sh: not one row per queue with its figures at each N"
grep -q 'commit: abc1234' "$tmp/costs.md" ||
	fail "costs-table.sh: the run under the table is not the file's"
ok

for d in exp ties triangular negtriangular bimodal camel loguniform; do
	for w in hold sched timer updown mix; do
		"$BIN" -n 1..8 -l 100 -r 1 --warmup 10 -d "$d" -w "$w" \
			>"$tmp/$d.out" 2>&1 ||
			fail "--dist $d -w $w exited non-zero: $(tail -n 3 "$tmp/$d.out")"
		check_run "$tmp/$d.out" "$queues" "1 2 4 8" || fail "--dist $d -w $w: layout"
	done
	ok
done

# Increments far past the seed ring's window: spread (the timer mix, 1 ms
# .. 1 h log-uniform, the ring at 1 ms), churn (long timers, the same
# defaults) and hold with MAX = 1 h at Tg = 1.
# tr_seed cannot hold such keys: it is left out, saying so.
far=$(echo " $queues " | sed 's/ tr_seed / /')
for args in "-w spread" "-w churn" "-w hold -m 3600000 --gran-shift 0"; do
	"$BIN" -n 1..8 -l 300 -r 1 --warmup 10 $args >"$tmp/far.out" 2>&1 ||
		fail "$args exited non-zero: $(tail -n 3 "$tmp/far.out")"
	check_run "$tmp/far.out" "$far" "1 2 4 8" || fail "$args: layout"
	grep -q '^tr_seed left out' "$tmp/far.out" || fail "$args: tr_seed not said left out"
	ok
done
"$BIN" -n 4 -l 10 -r 1 -w spread >"$tmp/far.out" 2>&1 || fail "-w spread"
grep -q 'workload spread, increments loguniform (max 3600000)' "$tmp/far.out" ||
	fail "-w spread: not loguniform up to 3600000 by default"
ok
"$BIN" -n 4 -l 10 -r 1 -w churn >"$tmp/far.out" 2>&1 || fail "-w churn"
grep -q 'workload churn, increments loguniform (max 3600000)' "$tmp/far.out" ||
	fail "-w churn: not loguniform up to 3600000 by default"
grep -q '^Summary: median ns per queue call' "$tmp/far.out" ||
	fail "-w churn: no summary per queue call"
ok

# --chase: a dependent load after each N, and each queue's ns in them.
"$BIN" -q "$first" -n 1,2 -l 100 -r 1 --warmup 10 --chase >"$tmp/chase.out" 2>&1 ||
	fail "--chase exited non-zero: $(tail -n 3 "$tmp/chase.out")"
[ "$(grep -c '^dependent load (pointer chase over 32 MiB) = [0-9.]* ns$' "$tmp/chase.out")" -eq 2 ] ||
	fail "--chase: not one dependent load line per N"
grep -q '^Summary: median ns/loop in dependent loads' "$tmp/chase.out" ||
	fail "--chase: no summary in dependent loads"
ok

# make compare's script, tiny runs: HEAD's headers against the work tree's.
if git rev-parse --verify -q HEAD >/dev/null 2>&1; then
	BUILD="$tmp/cmp" sh bench/compare.sh -t -r 2 HEAD work seeds-2048 \
		>"$tmp/cmp.out" 2>&1 || fail "compare.sh: $(tail -n 3 "$tmp/cmp.out")"
	grep -q '^seeds-2048 *2048 tr_seed  *[0-9.]*  *[0-9.]*  *[0-9.]*  [0-9.]*\.\.[0-9.]*$' "$tmp/cmp.out" ||
		fail "compare.sh: no seeds-2048 row for tr_seed"
	ok
	# its ns3 workload, where ns-3 is installed: a row per scheduler
	if printf '#include <ns3/scheduler.h>\n' |
		${CXX:-c++} -E -x c++ - >/dev/null 2>&1; then
		COMPARE_NS3_POPS=1000 COMPARE_NS3_REPS=2 BUILD="$tmp/cmp" \
			sh bench/compare.sh -r 1 \
			HEAD work ns3 >"$tmp/cmp3.out" 2>&1 ||
			fail "compare.sh ns3: $(tail -n 3 "$tmp/cmp3.out")"
		for s in Map SmartqRb SmartqGavl SmartqBinom SmartqLadder; do
			grep -q "^ns3  *1000 $s  *[0-9.]*  *[0-9.]*  *[0-9.]*  [0-9.]*\.\.[0-9.]*$" \
				"$tmp/cmp3.out" ||
				fail "compare.sh ns3: no row for $s: $(cat "$tmp/cmp3.out")"
		done
		ok
	fi
fi

# A subset, in the order given; ranges and k suffixes.
"$BIN" -q "heap,$first" -n 1..2,3 -l 100 -r 1 >"$tmp/sub.out" 2>&1 ||
	fail "-q heap,$first exited non-zero"
check_run "$tmp/sub.out" "heap $first" "1 2 3" || fail "-q heap,$first: layout"
ok

# --event B: every queue's events B bytes; a queue whose node is larger
# is left out, and the header names it with its size.
"$BIN" -n 1,2 -l 100 -r 1 --warmup 10 --event 64 >"$tmp/ev.out" 2>&1 ||
	fail "--event 64 exited non-zero: $(tail -n 3 "$tmp/ev.out")"
check_run "$tmp/ev.out" "$queues" "1 2" || fail "--event 64: layout"
grep -q '^events: 64 bytes each' "$tmp/ev.out" || fail "--event 64: not said"
"$BIN" -n 1,2 -l 100 -r 1 --warmup 10 --event 16 -q radix,heap,rb \
	>"$tmp/ev.out" 2>&1 || fail "--event 16 exited non-zero"
grep -q '^left out, node larger than --event 16: heap (24), rb (32)$' \
	"$tmp/ev.out" || fail "--event 16: rb and heap not said left out"
check_run "$tmp/ev.out" "radix" "1 2" || fail "--event 16: layout"
for bad in 4 12 8192; do
	"$BIN" -n 1 --event $bad >/dev/null 2>&1
	[ $? -eq 2 ] || fail "--event $bad was not refused"
done
ok

# A broken queue never publishes a number: error, exit status 1.
for k in $kinds calq radix heap4 wheel; do
	other=$first
	[ "$k" = "$first" ] && other=$last
	"$BIN" -n 4 -l 100 -r 1 -q "$other,$k" --fault "$k" >"$tmp/fault.out" 2>"$tmp/fault.err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "--fault $k: exit status $rc, expected 1"
	grep -q "error: $k failed its correctness pass" "$tmp/fault.err" ||
		fail "--fault $k: no error message"
	if grep -q "^$k = " "$tmp/fault.out"; then
		fail "--fault $k: a number was published"
	fi
done
ok

# An optional peer that was not built: -q names it, the run refuses with
# what to install or pass (libbsd-dev; LINUX_SRC=).
for peer in bsd_rb:libbsd-dev linux_rb:LINUX_SRC; do
	case " $queues " in *" ${peer%%:*} "*) continue ;; esac
	"$BIN" -q "${peer%%:*}" -n 1 -l 10 -r 1 >/dev/null 2>"$tmp/absent.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "-q ${peer%%:*} (not built): exit status $rc, expected 2"
	grep -q "${peer#*:}" "$tmp/absent.err" ||
		fail "-q ${peer%%:*} (not built): the message does not say ${peer#*:}"
	ok
done

# Usage errors exit 2 with a message.
for args in "--no-such-option" "-q nosuchqueue" "-n 0" "-w nosuch" "-d nosuch"; do
	"$BIN" $args >/dev/null 2>"$tmp/usage.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$args': exit status $rc, expected 2"
	[ -s "$tmp/usage.err" ] || fail "'$args': no message"
done
ok

# --advise, tiny: one recommendation (a backend), its reproduce
# command, a CSV with one row per queue and one "take"; then a trace of
# delays and one of steps; then shapes it must refuse, each with a
# message naming what is wrong.  No figure is judged.
"$BIN" --advise -n 64 --time 1 --rounds 2 --csv "$tmp/adv.csv" \
	>"$tmp/adv.out" 2>&1 || fail "--advise exited non-zero: $(tail -n 3 "$tmp/adv.out")"
[ "$(grep -c '^advise: ' "$tmp/adv.out")" -eq 1 ] ||
	fail "--advise: not exactly one recommendation: $(cat "$tmp/adv.out")"
take=$(sed -n 's/^advise: take \([a-z_0-9]*\): [0-9.]* ns per operation of this mix, [0-9.]* ns per node fired; [0-9.]*x the runner-up [a-z_0-9]*; [0-9.]*x the best peer [a-z_0-9]*; its runs spread [0-9.]*%$/\1/p' "$tmp/adv.out")
case " $kinds " in *" $take "*) ;; *) fail "--advise: the recommendation is not a backend: $(grep '^advise' "$tmp/adv.out")" ;; esac
grep -q "^reproduce: make advise ADVISE='-n 64 -d loguniform -m 3600000 --cancel 0.3 --rearm 0.3 --gran 1 -s 1 --rounds 2 --time 1'\$" "$tmp/adv.out" ||
	fail "--advise: no reproduce command with every option: $(grep reproduce "$tmp/adv.out")"
[ "$(grep -c ',take$' "$tmp/adv.csv")" -eq 1 ] &&
	[ "$(sed 1d "$tmp/adv.csv" | wc -l)" -eq "$(grep -c '^[a-z_0-9]* *[0-9.]* *[0-9.]* \.\. ' "$tmp/adv.out")" ] ||
	fail "--advise --csv: not one row per queue and one take"
ok
"$BIN" --advise -n 32 --exact --cancel 0 --rearm 0 --time 1 --rounds 1 \
	>"$tmp/adv.out" 2>&1 || fail "--advise --exact exited non-zero"
grep -q '^queues:.* wheel\*' "$tmp/adv.out" && fail "--advise --exact ran the wheel"
grep -q '^order: exact' "$tmp/adv.out" || fail "--advise --exact: order not said"
printf '# delays\n5\n100 \n\n3000\n' >"$tmp/delays.txt"
printf 'arm 10\narm 20\nrearm 5\ncancel\nfire # a comment\nfire\n' >"$tmp/steps.txt"
for t in delays steps; do
	"$BIN" --advise -n 16 --trace "$tmp/$t.txt" -q "$first,heap" --exact \
		--time 1 --rounds 1 >"$tmp/adv.out" 2>&1 ||
		fail "--advise --trace ($t) exited non-zero: $(tail -n 3 "$tmp/adv.out")"
	grep -q "^reproduce: .*--trace $tmp/$t.txt" "$tmp/adv.out" &&
		[ "$(grep -c '^advise: take' "$tmp/adv.out")" -eq 1 ] ||
		fail "--advise --trace ($t): no recommendation or reproduce line"
done
ok
printf '5\nfire\n' >"$tmp/mixed.txt"
printf 'arm\n' >"$tmp/nodelay.txt"
printf 'sleep 5\n' >"$tmp/badword.txt"
for bad in "-n 1,2:one size" "--cancel 0.5:2 x cancel + rearm" \
	"--cancel x:--cancel" "--rearm 2:--rearm" "-w hold:not -w hold" \
	"-l 100:--time and --rounds" "--gran 4 --exact:disagree" \
	"--time 0:--time" "--rounds 0:--rounds" \
	"--trace $tmp/none.txt:--trace" "--trace $tmp/mixed.txt:mixed.txt:2" \
	"--trace $tmp/nodelay.txt:nodelay.txt:1" \
	"--trace $tmp/badword.txt:not a step" \
	"--trace $tmp/steps.txt --cancel 0.1:own steps" \
	"-q tr_seed:tr_seed cannot hold"; do
	"$BIN" --advise ${bad%%:*} >/dev/null 2>"$tmp/adv.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "--advise ${bad%%:*}: exit status $rc, expected 2"
	grep -q "^sq-bench: .*${bad#*:}" "$tmp/adv.err" ||
		fail "--advise ${bad%%:*}: message does not say '${bad#*:}': $(cat "$tmp/adv.err")"
done
for k in $kinds; do	# a kind exact only to a granularity needs --gran
	case " ${SQ_EXACT_KINDS:-$kinds} " in *" $k "*) continue ;; esac
	"$BIN" --advise --exact -q "$k" >/dev/null 2>"$tmp/adv.err" &&
		fail "--advise --exact -q $k was not refused"
	grep -q 'give --gran' "$tmp/adv.err" || fail "--advise --exact -q $k: no message"
done
"$BIN" --cancel 0.2 -n 1 >/dev/null 2>&1 && fail "--cancel without -w mix was not refused"
"$BIN" --gran 4 -n 1 >/dev/null 2>&1 && fail "--gran without --advise was not refused"
ok

# make costs: callgrind's per-loop counts, one row per queue and N, every
# count a number and the instructions more than none (skipped, saying so,
# without valgrind or with SQ_VALGRIND=no, as tests/valgrind.sh is).
COSTS_BIN=${COSTS_BIN:-${BUILD:-build}/bench/sq-bench-notsc}
if [ "${SQ_VALGRIND:-}" = no ] || ! command -v valgrind >/dev/null 2>&1; then
	echo "test-bench: make costs not checked (no valgrind, or SQ_VALGRIND=no)"
else
	[ -x "$COSTS_BIN" ] || fail "$COSTS_BIN not built"
	sh bench/costs.sh "$COSTS_BIN" 4 "$first,$last" >"$tmp/costs" 2>&1 ||
		fail "bench/costs.sh exited non-zero: $(cat "$tmp/costs")"
	awk 'NR == 1 { if ($1 != "queue" || $3 != "instr" || $7 != "mispred") bad = 1; next }
	     { rows++; if ($2 != 4 || !($3 > 0)) bad = 1
	       for (i = 3; i <= 7; i++) if ($i !~ /^[0-9]+(\.[0-9]+)?$/) bad = 1 }
	     END { exit bad || rows != 2 }' "$tmp/costs" ||
		fail "bench/costs.sh output: $(cat "$tmp/costs")"
	ok
fi

# bench-remote, tiny: a table per kind, the smallest ratio last; a kind
# it does not know is refused before anything runs
remote=$(dirname "$BIN")/sq-remote
if [ -x "$remote" ]; then
	"$remote" -l 100 -n 4 -r 1 -c 2000 -p 1 >"$tmp/remote.out" 2>&1 ||
		fail "sq-remote exited non-zero: $(tail -n 3 "$tmp/remote.out")"
	[ "$(grep -c 'commands per producer' "$tmp/remote.out")" -eq \
		"$(echo $kinds | wc -w)" ] ||
		fail "sq-remote: not one producers' table per kind"
	tail -n 1 "$tmp/remote.out" |
		grep -q '^smallest ratio, inbox over a mutex: [0-9]*\.[0-9][0-9]x$' ||
		fail "sq-remote: last line is not the smallest ratio"
	if "$remote" -k nosuch >"$tmp/remote.bad" 2>&1 ||
		! grep -q 'no kind nosuch' "$tmp/remote.bad"; then
		fail "sq-remote -k nosuch was not refused"
	fi
	ok
fi

echo "test-bench: $checks checks passed ($nq queues: $queues)"

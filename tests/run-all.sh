#!/bin/sh
# run-all.sh [-j JOBS] PROG... - run the test programs, then one closing line.
# Each PROG passes when it exits 0.  Up to JOBS run side by side; each
# one's output is kept apart and shown whole, in the order given, as soon
# as it and those before it have finished.
jobs=1
if [ "${1:-}" = -j ]; then
	jobs=$2
	shift 2
fi
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
# a test that runs make must not join the jobserver of the make above us
unset MAKEFLAGS MFLAGS MAKELEVEL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# one.sh N PROG: runs PROG into N.out, then writes its status to N.rc
cat >"$tmp/one.sh" <<'ONE'
case $2 in
/*) cmd=$2 ;;	# an absolute BUILD
*) cmd=./$2 ;;
esac
"$cmd" >"$SQ_RUN_DIR/$1.out" 2>&1 </dev/null
echo $? >"$SQ_RUN_DIR/$1.rc.tmp" && mv "$SQ_RUN_DIR/$1.rc.tmp" "$SQ_RUN_DIR/$1.rc"
ONE
SQ_RUN_DIR=$tmp
export SQ_RUN_DIR
i=0
for p in "$@"; do
	i=$((i + 1))
	printf '%s %s\n' "$i" "$p"
done | xargs -n 2 -P "$jobs" sh "$tmp/one.sh" &
xpid=$!

passed=0
failed=0
failures=
i=0
for p in "$@"; do
	i=$((i + 1))
	while [ ! -f "$tmp/$i.rc" ]; do
		if ! kill -0 "$xpid" 2>/dev/null && [ ! -f "$tmp/$i.rc" ]; then
			echo "1" >"$tmp/$i.rc"	# the runner itself died
			echo "run-all: $p was not run" >>"$tmp/$i.out"
		else
			sleep 0.1 2>/dev/null || sleep 1
		fi
	done
	echo "=== $p"
	cat "$tmp/$i.out" 2>/dev/null
	if [ "$(cat "$tmp/$i.rc")" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures="$failures $p"
	fi
done
wait "$xpid" 2>/dev/null
[ -n "$failures" ] && echo "failed:$failures"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

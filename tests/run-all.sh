#!/bin/sh
# run-all.sh PROG... - run every test program, then one closing line.
# Each PROG passes when it exits 0; its own output is shown as it runs.
passed=0
failed=0
failures=
for p in "$@"; do
	echo "=== $p"
	case $p in
	/*) cmd=$p ;;	# an absolute BUILD
	*) cmd=./$p ;;
	esac
	if "$cmd"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures="$failures $p"
	fi
done
[ -n "$failures" ] && echo "failed:$failures"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

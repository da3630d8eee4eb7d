#!/bin/sh
# valgrind.sh PROG... - run test programs under valgrind's memcheck
#
# Passes when every PROG passes and valgrind finds no memory error and no
# leak (--error-exitcode=1 --leak-check=full).  Without valgrind on PATH,
# or with SQ_VALGRIND=no, it says it is skipping and passes.
if [ "${SQ_VALGRIND:-}" = no ]; then
	echo "valgrind.sh: SQ_VALGRIND=no, skipping $*"
	exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind.sh: valgrind not installed, skipping $*"
	exit 0
fi
rc=0
for p in "$@"; do
	echo "valgrind.sh: valgrind --error-exitcode=1 --leak-check=full -q $p"
	case $p in
	/*) ;;		# an absolute BUILD
	*) p=./$p ;;
	esac
	valgrind --error-exitcode=1 --leak-check=full -q "$p" || rc=1
done
exit $rc

#!/bin/sh
# single.sh - single_include/smartq.h is current and works on its own.
#
#   1. mk/single.sh, run again into a temporary directory, writes exactly
#      the committed file (else: run `make single` and commit it);
#   2. tests/consumer/consumer.c, in a directory holding only that one file,
#      builds with no -I as C99 (and with SQ_DEBUG, and as C++11 when there
#      is a C++ compiler) and runs every backend.
#
# Run from the top of the tree.  CC names the compiler (cc).
set -u
cc=${CC:-cc}
single=single_include/smartq.h
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-single.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL single: $*"
	exit 1
}

[ -f "$single" ] || fail "$single is missing: run make single and commit it"
sh mk/single.sh . >"$tmp/fresh.h" || fail "mk/single.sh failed"
if ! cmp -s "$tmp/fresh.h" "$single"; then
	diff -u "$single" "$tmp/fresh.h" | head -n 20
	fail "$single is stale: run make single and commit it"
fi

mkdir "$tmp/user"
cp "$single" "$tmp/user/smartq.h"
# The consumer says <smartq.h>; a user copying the file writes "smartq.h".
sed 's/#include <smartq.h>/#include "smartq.h"/' tests/consumer/consumer.c \
	>"$tmp/user/consumer.c"
want="smartq $(sh mk/version.sh):"
for dbg in "" -DSQ_DEBUG; do
	(cd "$tmp/user" && $cc -std=c99 -Wall -Wextra -Wpedantic -Werror $dbg \
		-o consumer consumer.c) ||
		fail "the one file does not build alone ($cc -std=c99 $dbg)"
	got=$("$tmp/user/consumer") || fail "consumer${dbg:+ ($dbg)} printed: $got"
	case $got in
	"$want"*": ok") ;;
	*) fail "consumer printed '$got', want '$want ... ok'" ;;
	esac
done
cxx=${CXX:-c++}
if command -v "$cxx" >/dev/null 2>&1; then
	(cd "$tmp/user" && "$cxx" -x c++ -std=c++11 -Wall -Wextra -Werror \
		-o consumer-cxx consumer.c) ||
		fail "the one file does not build alone as C++11 ($cxx)"
	"$tmp/user/consumer-cxx" >/dev/null || fail "consumer as C++11 failed"
	got="$got (and as C++11)"
fi
echo "single: $single is current; alone with no -I: $got"

#!/bin/sh
# tring_warn.sh - the ring's node in a caller's union compiles clean under
# gcc's -Warray-bounds=2 -Werror at -O2 and -O3, inlined into the caller
# (default and 64-slot rings, builtins and SQ_PORTABLE), and runs; and the
# one way found to get gcc's "partly outside array bounds" warnings at the
# node's links, storage smaller than the node (tests/tring_union.c with
# -DSQ_UNDERSIZED), does get them, so this check can fail.
set -u
cc=${CC:-cc}
if ! $cc --version 2>/dev/null | grep -qi 'gcc\|free software'; then
	echo "tring_warn: $cc is not gcc, skipped (the warning is gcc's)"
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0 n=0
for o in -O2 -O3; do
	for d in "" "-DSQ_TRING_SLOTS=64" "-DSQ_PORTABLE"; do
		n=$((n + 1))
		if ! $cc $o $d -std=c11 -Wall -Wextra -Warray-bounds=2 -Werror \
			-Iinclude tests/tring_union.c -o "$dir/u" 2>"$dir/err"; then
			echo "tring_warn: $o $d: not clean:"; cat "$dir/err"; fail=1
		elif ! "$dir/u"; then
			echo "tring_warn: $o $d: the program failed"; fail=1
		fi
	done
done
# the control: too small a storage must be reported at the node's links
$cc -O2 -std=c11 -Wall -Warray-bounds=2 -DSQ_UNDERSIZED -Iinclude \
	tests/tring_union.c -o "$dir/u" 2>"$dir/err"
if ! grep -q 'tring.h.*outside array bounds' "$dir/err"; then
	echo "tring_warn: an undersized node gave no -Warray-bounds warning:"
	cat "$dir/err"; fail=1
fi
[ $fail -eq 0 ] && echo "tring_warn: $n clean builds of the node in a union; an undersized one warned"
exit $fail

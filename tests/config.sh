#!/bin/sh
# config.sh - configuration is loud: an impossible SQ_TRING_SLOTS or
# SQ_TRING_LEVEL_BITS is a compile-time error naming the macro; every power
# of two from 64 to 4096 slots, and 3 to 6 level bits, compiles.
set -u
cc=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#include <smartq.h>\nint main(void) { struct sq_tring q; sq_tring_init(&q); return (int)sq_tring_count(&q); }\n' \
	> "$dir/t.c"
fail=0
for n in 64 128 1024 4096; do
	if ! $cc -std=c99 -Iinclude -DSQ_TRING_SLOTS=$n -c "$dir/t.c" \
		-o "$dir/t.o" 2>"$dir/err"; then
		echo "config: SQ_TRING_SLOTS=$n should compile:"; cat "$dir/err"
		fail=1
	fi
done
for n in 0 32 100 1000 8192; do
	if $cc -std=c99 -Iinclude -DSQ_TRING_SLOTS=$n -c "$dir/t.c" \
		-o "$dir/t.o" 2>"$dir/err"; then
		echo "config: SQ_TRING_SLOTS=$n compiled, should be refused"
		fail=1
	elif ! grep -q 'SQ_TRING_SLOTS must be a power of two' "$dir/err"; then
		echo "config: SQ_TRING_SLOTS=$n refused without naming the rule:"
		cat "$dir/err"; fail=1
	fi
done
for b in 3 4 6; do
	if ! $cc -std=c99 -Iinclude -DSQ_TRING_LEVEL_BITS=$b -c "$dir/t.c" \
		-o "$dir/t.o" 2>"$dir/err"; then
		echo "config: SQ_TRING_LEVEL_BITS=$b should compile:"; cat "$dir/err"
		fail=1
	fi
done
for b in 0 2 7 64; do
	if $cc -std=c99 -Iinclude -DSQ_TRING_LEVEL_BITS=$b -c "$dir/t.c" \
		-o "$dir/t.o" 2>"$dir/err"; then
		echo "config: SQ_TRING_LEVEL_BITS=$b compiled, should be refused"
		fail=1
	elif ! grep -q 'SQ_TRING_LEVEL_BITS must be 3 to 6' "$dir/err"; then
		echo "config: SQ_TRING_LEVEL_BITS=$b refused without naming the rule:"
		cat "$dir/err"; fail=1
	fi
done
[ $fail -eq 0 ] && echo "config: SQ_TRING_SLOTS accepted 64..4096, refused 5 impossible values; SQ_TRING_LEVEL_BITS accepted 3..6, refused 4"
exit $fail

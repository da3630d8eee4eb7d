#!/bin/sh
# readme.sh - every C block of README.md compiles with every backend and
# runs; the first (the taste) prints exactly what it says it prints.
#
# A block names its backend on one line, "#define NAME token  /* ... */";
# that token is replaced by each of SQ_KINDS in turn.
set -eu
cc=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
[ -n "${SQ_KINDS:-}" ] || { echo "readme: SQ_KINDS is empty (run me from make)"; exit 1; }
awk -v dir="$dir" '
	/^```c$/ { n++; on = 1; next }
	on && /^```$/ { on = 0; next }
	on { print > (dir "/block" n ".c") }
	END { print n + 0 > (dir "/count") }' README.md
blocks=$(cat "$dir/count")
[ "$blocks" -gt 0 ] || { echo "readme: no C example found"; exit 1; }
want='pid 1 is first now
pid 2 is first now
run pid 2
run pid 3
run pid 1'
fail=0
b=1
while [ "$b" -le "$blocks" ]; do
	src=$dir/block$b.c
	grep -q '^#define [A-Z_]* [a-z_0-9]* ' "$src" ||
		{ echo "readme: C block $b names no backend"; fail=1; }
	for k in $SQ_KINDS; do
		sed "s/^\(#define [A-Z_]*\) [a-z_0-9]* /\1 $k /" "$src" > "$dir/$k.c"
		if ! $cc -std=c99 -Wall -Wextra -Wpedantic -Werror -Iinclude \
			-o "$dir/$k" "$dir/$k.c" 2>"$dir/err"; then
			echo "readme: C block $b with $k does not compile:"
			cat "$dir/err"; fail=1; continue
		fi
		if ! got=$("$dir/$k"); then
			echo "readme: C block $b with $k exited non-zero"; fail=1
		elif [ "$b" -eq 1 ] && [ "$got" != "$want" ]; then
			echo "readme: the taste with $k printed:"; echo "$got"; fail=1
		fi
	done
	[ $fail -eq 0 ] && echo "readme: C block $b runs with every backend"
	b=$((b + 1))
done
exit $fail

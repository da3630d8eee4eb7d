#!/bin/sh
# readme.sh - the README's first C example compiles with every backend
# and prints what it says it prints.
set -eu
cc=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' README.md \
	> "$dir/taste.c"
[ -s "$dir/taste.c" ] || { echo "readme: no C example found"; exit 1; }
want='pid 1 is first now
pid 2 is first now
run pid 2
run pid 3
run pid 1'
fail=0
[ -n "${SQ_KINDS:-}" ] || { echo "readme: SQ_KINDS is empty (run me from make)"; exit 1; }
for k in $SQ_KINDS; do
	sed "s/^#define RUNQ [a-z_0-9]* /#define RUNQ $k /" "$dir/taste.c" > "$dir/$k.c"
	$cc -std=c99 -Wall -Wextra -Wpedantic -Werror -Iinclude \
		-o "$dir/$k" "$dir/$k.c"
	got=$("$dir/$k")
	if [ "$got" = "$want" ]; then
		echo "readme: example with $k: ok"
	else
		echo "readme: example with $k printed:"; echo "$got"; fail=1
	fi
done
exit $fail

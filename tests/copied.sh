#!/bin/sh
# copied.sh - the headers find each other wherever include/ is copied
#
# The common way to use a header-only library is to copy it next to one's
# own code.  include/ is copied into a scratch folder and compiled there
# (with $CC, and clang when installed), under strict warnings:
#   - a program beside smartq.h that includes "smartq.h", without -I; it
#     runs every backend of $SQ_KINDS through the macros and checks the order;
#   - each smartq/X.h included alone from beside the smartq/ folder, without -I;
#   - each smartq/X.h included as "X.h" from inside a copy of that folder
#     alone (a user who takes one backend), without -I;
#   - the same program and headers from another folder, with -I<the copy>
#     and <...> includes.
# Run from the repository root (make check sets SQ_KINDS).
set -u
cc=${CC:-cc}
clang=$(command -v clang 2>/dev/null || true)
warn='-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wcast-align -Wstrict-prototypes -Werror'
[ -n "${SQ_KINDS:-}" ] || { echo "copied: SQ_KINDS is empty (run me from make)"; exit 1; }

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/proj" "$dir/alone" "$dir/elsewhere" || exit 1
cp include/smartq.h "$dir/proj/" && cp -R include/smartq "$dir/proj/" &&
	cp include/smartq/*.h "$dir/alone/" || exit 1

# the program: keys 3 1 2 into each backend, popped as 1 2 3
{
	echo '#include <stdio.h>'
	echo '#include "smartq.h"'
	cat <<'EOF'
#define TRY(K, e) {							\
	static SQ_QUEUE(K) q;						\
	static SQ_NODE(K) n[3];						\
	uint64_t k[3] = { 3, 1, 2 }, want = 1;				\
	SQ_NODE(K) *p;							\
	int i, f = 0;							\
	SQ_INIT(K, &q);							\
	for (i = 0; i < 3; i++) {					\
		SQ_NODE_INIT(K, &n[i]);					\
		SQ_ENQUEUE(K, &q, &n[i], k[i]);				\
	}								\
	while ((p = SQ_POP(K, &q)) != NULL)				\
		if (p->key != want++)					\
			f++;						\
	if (want != 4 || SQ_CHECK(K, &q) != 0)				\
		f++;							\
	if (f)								\
		printf("copied: %s pops out of order\n", #K);		\
	bad += f;							\
}

int main(void)
{
	int bad = 0;

	SQ_KINDS(TRY)
	return bad != 0;
}
EOF
} > "$dir/prog.c"
sed 's/^#include "smartq.h"$/#include <smartq.h>/' "$dir/prog.c" > "$dir/elsewhere/prog.c"
cp "$dir/prog.c" "$dir/proj/prog.c"

pass=0
fail=0
# ok LABEL COMMAND...: run a compile (or the program), count it
ok() {
	label=$1
	shift
	if "$@" >"$dir/log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "copied: FAILED: $label"
		sed 's/^/    /' "$dir/log" | head -n 20
	fi
}

for c in "$cc" $clang; do
	ok "$c: prog.c beside smartq.h, no -I" \
		$c -std=c99 $warn -o "$dir/proj/prog" "$dir/proj/prog.c"
	ok "$c: that program runs" "$dir/proj/prog"
	ok "$c: prog.c elsewhere, -I<copy>" \
		$c -std=c99 $warn -I"$dir/proj" -o "$dir/elsewhere/prog" \
		"$dir/elsewhere/prog.c"
	ok "$c: that program runs" "$dir/elsewhere/prog"
	for h in include/smartq/*.h; do
		h=${h##*/}
		printf '#include "smartq/%s"\nint sq_unit;\n' "$h" > "$dir/proj/unit.c"
		ok "$c: \"smartq/$h\" beside smartq/, no -I" \
			$c -std=c99 $warn -c -o "$dir/unit.o" "$dir/proj/unit.c"
		printf '#include "%s"\nint sq_unit;\n' "$h" > "$dir/alone/unit.c"
		ok "$c: \"$h\" in a copy of smartq/ alone, no -I" \
			$c -std=c99 $warn -c -o "$dir/unit.o" "$dir/alone/unit.c"
		printf '#include <smartq/%s>\nint sq_unit;\n' "$h" > "$dir/elsewhere/unit.c"
		ok "$c: <smartq/$h> elsewhere, -I<copy>" \
			$c -std=c99 $warn -I"$dir/proj" -c -o "$dir/unit.o" \
			"$dir/elsewhere/unit.c"
	done
done
[ -n "$clang" ] || echo "copied: clang not found, checked with $cc only"
echo "copied: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# kinds.sh - every token of SQ_KINDS has its row in the backend tables of
# include/smartq.h and README.md, and no text there or in the docs counts
# the backends with a number other than the list's: a new backend cannot
# be left out of the tables, and "four backends" cannot come back.
set -eu
[ -n "${SQ_KINDS:-}" ] || { echo "kinds: SQ_KINDS is empty (run me from make)"; exit 1; }
bad=0
n=0
for k in $SQ_KINDS; do
	n=$((n + 1))
	grep -Eq "^ \*   $k +[A-Za-z]" include/smartq.h ||
		{ echo "kinds: $k has no row in include/smartq.h's table"; bad=1; }
	grep -q "^| \`$k\` |" README.md ||
		{ echo "kinds: $k has no row in README.md's backend table"; bad=1; }
done
set -- zero one two three four five six seven eight nine ten
shift "$n"
want=$1
# every "<number word> backends" in the text names the count
words='(one|two|three|four|five|six|seven|eight|nine|ten) +backends'
for f in include/smartq.h include/smartq/*.h README.md bench/README.md \
	tests/fuzz/README.md tests/*.c bench/*.h doc/*.md; do
	[ -f "$f" ] || continue
	wrong=$(grep -Eion "\\b$words\\b" "$f" | grep -iv ":$want " || true)
	[ -z "$wrong" ] && continue
	echo "$wrong" | sed "s|^|kinds: $f:|; s|\$| (SQ_KINDS has $want)|"
	bad=1
done
[ "$bad" -eq 0 ] && echo "kinds: $n backends, each in both tables"
exit "$bad"

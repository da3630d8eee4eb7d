#!/bin/sh
# help.sh - `make help` describes every target a user can call.
#
# Fails when a .PHONY target that does something (has a recipe or a
# prerequisite) has no `## ` line on its rule, or when a described target
# is not a target at all.  A bare phony rule (the FORCE idiom) needs none.
# Run from the top of the tree.  MAKE names make.
set -u
unset MAKEFLAGS MFLAGS
make=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-help.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

$make -s help >"$tmp/help" || { echo "FAIL help: make help failed"; exit 1; }
sed -n 's/^  make \([^ ]*\) .*/\1/p' "$tmp/help" | sort -u >"$tmp/described"
[ -s "$tmp/described" ] || { echo "FAIL help: make help lists no target"; exit 1; }

# make's database: the phony targets, and which targets do something.
$make -pq help >"$tmp/db" 2>/dev/null
awk '/^\.PHONY:/ { for (i = 2; i <= NF; i++) print $i }' "$tmp/db" |
	sort -u >"$tmp/phony"
awk '
/^# Not a target:/ { skip = 1; next }
/^[^#\t ][^=]*:([^=]|$)/ && !/^[^:]*:=/ {
	if (t != "" && busy) print t
	t = $0; sub(/:.*/, "", t); rest = $0; sub(/^[^:]*:+/, "", rest)
	busy = (rest ~ /[^ \t]/); if (skip) t = ""; skip = 0; next
}
/^\t/ && t != "" { busy = 1 }
/^$/ { if (t != "" && busy) print t; t = "" }
END { if (t != "" && busy) print t }' "$tmp/db" | sort -u >"$tmp/busy"
awk '/^[^#\t ][^=]*:([^=]|$)/ && !/^[^:]*:=/ { t = $0; sub(/:.*/, "", t); print t }' \
	"$tmp/db" | sort -u >"$tmp/targets"

fail=0
for t in $(comm -23 "$tmp/phony" "$tmp/described"); do
	if grep -qx "$t" "$tmp/busy"; then
		echo "FAIL help: target '$t' has no '## what it does' on its rule line"
		fail=1
	fi
done
for t in $(comm -23 "$tmp/described" "$tmp/targets"); do
	echo "FAIL help: make help describes '$t', which is not a target"
	fail=1
done
[ "$fail" -eq 0 ] && echo "help: $(wc -l <"$tmp/described") targets described, every phony one"
exit $fail

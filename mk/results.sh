#!/bin/sh
# results.sh [--check] FILE... - the tables of results in FILE, made anew
# from the data they name.  A generated block reads
#
#   <!-- generated: sh bench/table.sh bench/data/hold.csv -->
#   ...the command's output...
#   <!-- end generated -->
#
# and its body is the output of the command on the marker line, run from
# the top of the tree (only `sh bench/...`, `sh replay/...` or
# `sh integrations/...` commands).
# Without --check each FILE is rewritten in place (`make results`); with
# it nothing is written and the exit status is 1 when a block differs
# from what its command prints now (tests/results.sh).
set -eu
check=no
[ "${1:-}" = --check ] && { check=yes; shift; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
	: > "$tmp/out"
	n=0
	skip=no
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'<!-- generated: '*' -->')
			printf '%s\n' "$line" >> "$tmp/out"
			cmd=${line#'<!-- generated: '}
			cmd=${cmd%' -->'}
			case $cmd in
			'sh bench/'* | 'sh replay/'* | 'sh integrations/'*) ;;
			*) echo "results: $f: refusing command: $cmd" >&2; exit 2 ;;
			esac
			eval "$cmd" >> "$tmp/out" ||
				{ echo "results: $f: failed: $cmd" >&2; exit 2; }
			n=$((n + 1))
			skip=yes
			continue ;;
		'<!-- end generated -->')
			skip=no ;;
		esac
		[ "$skip" = yes ] || printf '%s\n' "$line" >> "$tmp/out"
	done < "$f"
	[ "$skip" = no ] || { echo "results: $f: a block is not closed" >&2; exit 2; }
	if cmp -s "$f" "$tmp/out"; then
		echo "results: $f: $n generated block(s) match their data"
	elif [ "$check" = yes ]; then
		echo "results: $f differs from its data (make results rewrites it):"
		diff "$f" "$tmp/out" || true
		status=1
	else
		cp "$tmp/out" "$f"
		echo "results: $f: $n block(s) rewritten"
	fi
done
exit "$status"

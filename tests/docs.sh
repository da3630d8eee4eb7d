#!/bin/sh
# docs.sh - the docs are manuals: no page names an issue number or a
# commit hash outside a generated block (a table's footer names the
# commit it ran on).  History belongs in CHANGELOG.md and commit bodies.
#
# A hash is a word of 7 to 40 hex digits with a digit and a letter in it
# (so neither a number nor an English word); an issue is "issue N",
# "issue #N" or "#N".
set -eu
fail=0
for f in README.md bench/README.md doc/*.md; do
	awk -v f="$f" '
		/^<!-- generated:/ { gen = 1; next }
		/^<!-- end generated/ { gen = 0; next }
		gen { next }
		{
			line = $0
			while (match(line, /(^|[^0-9A-Za-z_\/.-])[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/)) {
				w = substr(line, RSTART, RLENGTH)
				sub(/^[^0-9a-f]/, "", w)
				rest = substr(line, RSTART + RLENGTH, 1)
				if (rest !~ /[0-9A-Za-z_]/ && length(w) <= 40 &&
				    w ~ /[a-f]/ && w ~ /[0-9]/) {
					printf "docs: %s:%d names a commit (%s)\n", f, NR, w
					bad = 1
				}
				line = substr(line, RSTART + RLENGTH)
			}
			if (match($0, /[Ii]ssues? #?[0-9]+|(^|[^&A-Za-z0-9_])#[0-9]+([^0-9]|$)/)) {
				printf "docs: %s:%d names an issue (%s)\n", f, NR,
				       substr($0, RSTART, RLENGTH)
				bad = 1
			}
		}
		END { exit bad }' "$f" || fail=1
done
if [ $fail = 0 ]; then
	echo "docs: 1 passed, 0 failed"
else
	echo "docs: 0 passed, 1 failed"
fi
exit $fail

#!/bin/sh
# version.sh - every place that states smartq's version agrees with the one
# place it is written, SQ_VERSION_MAJOR/MINOR/PATCH in include/smartq.h:
#
#   - SQ_VERSION_STRING and SQ_VERSION, as a compiled program sees them;
#   - the newest release in CHANGELOG.md;
#   - smartq.pc.in takes it at install time (@version@), not a literal;
#   - CMakeLists.txt reads it from the header, meson.build's literal is it.
#
# Run from the top of the tree.  CC names the compiler (cc).
set -u
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-version.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL version: $*"
	fail=1
}

v=$(sh mk/version.sh include/smartq.h) || { echo "FAIL version: mk/version.sh"; exit 1; }
case $v in
*[!0-9.]* | *..* | .* | *.) bad "'$v' is not MAJOR.MINOR.PATCH" ;;
esac
IFS=. read -r major minor patch <<EOV
$v
EOV

cat >"$tmp/v.c" <<'PROG'
#include <stdio.h>
#include <smartq.h>
int main(void)
{
	printf("%s %ld\n", SQ_VERSION_STRING, (long)SQ_VERSION);
	return 0;
}
PROG
if $cc -std=c99 -Iinclude -o "$tmp/v" "$tmp/v.c"; then
	got=$("$tmp/v")
	want="$v $((major * 10000 + minor * 100 + patch))"
	[ "$got" = "$want" ] || bad "SQ_VERSION_STRING SQ_VERSION are '$got', want '$want'"
else
	bad "cannot compile a program printing SQ_VERSION_STRING"
fi

cl=$(sed -n 's/^## \[\([^]]*\)\].*/\1/p' CHANGELOG.md | grep -v '^Unreleased$' | sed -n 1p)
[ "$cl" = "$v" ] || bad "CHANGELOG.md's newest release is '$cl', smartq.h says $v"

grep -q '^Version: @version@$' smartq.pc.in ||
	bad "smartq.pc.in must take its Version from the header (Version: @version@)"

mv=$(sed -n "s/^  *version: *'\([^']*\)',*$/\1/p" meson.build | sed -n 1p)
[ "$mv" = "$v" ] || bad "meson.build's project version is '$mv', smartq.h says $v"

# CMake has no literal to check: CMakeLists.txt reads the three lines, and
# tests/consumer/cmake.sh checks that find_package reports this version.
grep -q 'SQ_VERSION_${_sq_part}' CMakeLists.txt ||
	bad "CMakeLists.txt no longer reads SQ_VERSION_* from include/smartq.h"

[ "$fail" -eq 0 ] && echo "version: $v everywhere (header, CHANGELOG.md, smartq.pc.in, meson.build, CMakeLists.txt)"
exit $fail

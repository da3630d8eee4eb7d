#!/bin/sh
# headers.sh - every public header compiles on its own, cleanly
#
# Each of include/smartq.h and include/smartq/*.h is included alone (twice,
# to test its include guard) in an otherwise empty translation unit and
# compiled under the project's strict warnings as:
#   C99 and C11 with $CC, C99 and C11 with $CLANG (when set), C++11 with $CXX,
# each with and without -DSQ_DEBUG.  A header that defines a tie-kind
# macro (SQ_RB_TIE ...) also expands it once, and smartq.h expands SQ_TIE
# for every backend of SQ_TIE_KINDS, so the generated code is held to the
# same warnings.  Run from the repository root; the
# Makefile's wrapper (build/tests/headers) sets CC, CXX, CLANG and WARN.
# Exits 0 when every compile is clean.

CC=${CC:-cc}
CXX=${CXX-c++}		# set but empty: no C++ compiler, skip C++
WARN=${WARN:--Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wcast-align -Wcast-qual -Wstrict-prototypes -Werror}
# -Wstrict-prototypes is C only
CXXWARN=$(printf '%s\n' $WARN | grep -v '^-Wstrict-prototypes$' | tr '\n' ' ')

tmp=$(mktemp -d 2>/dev/null || echo /tmp/sq-headers.$$)
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0

# try LABEL COMPILER LANG FLAGS... (the unit is $tmp/unit)
try() {
	label=$1; comp=$2; lang=$3; shift 3
	if $comp -x "$lang" "$@" -Iinclude -c "$tmp/unit" -o "$tmp/unit.o" \
		>"$tmp/log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAILED: $hdr as $label"
		sed 's/^/    /' "$tmp/log" | head -n 30
	fi
}

headers=$(ls include/smartq.h include/smartq/*.h 2>/dev/null)
if [ -z "$headers" ]; then
	echo "headers: no headers found (run from the repository root)"
	exit 1
fi

for hdr in $headers; do
	inc=${hdr#include/}
	printf '#include "%s"\n#include "%s"\ntypedef int sq_header_check_unit;\n' \
		"$inc" "$inc" >"$tmp/unit"
	tie=$(sed -n 's/^#define \(SQ_[A-Z]*_TIE\)(name, less).*/\1/p' "$hdr")
	if [ -n "$tie" ]; then
		printf '%s(hdr_tie, hdr_less);\n%s\n%s\n' "$tie" \
			'static bool hdr_less(const struct sq_hdr_tie_node *a, const struct sq_hdr_tie_node *b)' \
			'{ return a->base.key < b->base.key; }' >>"$tmp/unit"
	fi
	if [ "$inc" = smartq.h ]; then
		printf '%s\n%s\n%s\n%s\n' \
			'#define HDR_TIE(K) SQ_TIE(K, hdr_tie_##K, hdr_less_##K); \' \
			'static bool hdr_less_##K(const SQ_NODE(hdr_tie_##K) *a, const SQ_NODE(hdr_tie_##K) *b) \' \
			'{ return SQ_KEY(hdr_tie_##K, a) < SQ_KEY(hdr_tie_##K, b); }' \
			'SQ_TIE_KINDS(HDR_TIE)' >>"$tmp/unit"
	fi
	for dbg in "" "-DSQ_DEBUG"; do
		for std in c99 c11; do
			try "$CC -std=$std $dbg" "$CC" c -std=$std -O2 $WARN $dbg
			if [ -n "$CLANG" ]; then
				try "$CLANG -std=$std $dbg" "$CLANG" c -std=$std -O2 $WARN $dbg
			fi
		done
		if [ -n "$CXX" ]; then
			try "$CXX -std=c++11 $dbg" "$CXX" c++ -std=c++11 -O2 $CXXWARN $dbg
		fi
	done
done

[ -n "$CLANG" ] || echo "headers: clang not found, not checked with clang"
[ -n "$CXX" ] || echo "headers: no C++ compiler, not checked as C++"
echo "headers: $pass compiles clean, $fail failed"
[ "$fail" -eq 0 ]

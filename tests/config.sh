#!/bin/sh
# config.sh - configuration is loud: an impossible SQ_TRING_SLOTS,
# SQ_TRING_LEVEL_BITS or SQ_LADDER_* is a compile-time error naming the
# macro and its rule; the values on either side of each rule compile.
set -u
cc=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#include <smartq.h>\nint main(void) { struct sq_tring q; sq_tring_init(&q); return (int)sq_tring_count(&q); }\n' \
	> "$dir/t.c"
fail=0
nmacros=0 nok=0 nbad=0

# try MACRO VALUE: compile t.c with -DMACRO=VALUE, errors in $dir/err
try() {
	$cc -std=c99 -Iinclude -D"$1=$2" -c "$dir/t.c" -o "$dir/t.o" 2>"$dir/err"
}

# accepts MACRO VALUE...: each value compiles (once per macro)
accepts() {
	m=$1; shift
	for v in "$@"; do
		try "$m" "$v" ||
			{ echo "config: $m=$v should compile:"; cat "$dir/err"; fail=1; }
	done
	nmacros=$((nmacros + 1)) nok=$((nok + $#))
}

# refuses MACRO RULE VALUE...: each value fails, with RULE in the message
refuses() {
	m=$1; rule=$2; shift 2
	for v in "$@"; do
		if try "$m" "$v"; then
			echo "config: $m=$v compiled, should be refused"; fail=1
		elif ! grep -q "$m $rule" "$dir/err"; then
			echo "config: $m=$v refused without naming the rule:"
			cat "$dir/err"; fail=1
		fi
	done
	nbad=$((nbad + $#))
}

accepts SQ_TRING_SLOTS 64 128 1024 4096
refuses SQ_TRING_SLOTS 'must be a power of two' 0 32 100 1000 8192
accepts SQ_TRING_LEVEL_BITS 3 4 6
refuses SQ_TRING_LEVEL_BITS 'must be 3 to 6' 0 2 7 64
accepts SQ_LADDER_BUCKETS 64 2048
refuses SQ_LADDER_BUCKETS 'must be a power of two' 32 96 4096
accepts SQ_LADDER_SPLIT 4 64
refuses SQ_LADDER_SPLIT 'must be a power of two' 2 12 128
accepts SQ_LADDER_RUNGS 2 32
refuses SQ_LADDER_RUNGS 'must be from 2 to 32' 0 1 33
accepts SQ_LADDER_THRES 2 1024
refuses SQ_LADDER_THRES 'must be from 2 to 1024' 1 1025
[ $fail -eq 0 ] &&
	echo "config: $nmacros macros: $nok values accepted, $nbad refused naming the rule"
exit $fail

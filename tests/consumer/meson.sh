#!/bin/sh
# meson.sh - a Meson user's project builds against smartq and runs, each way:
#
#   1. subprojects/smartq with a wrap whose [provide] answers
#      dependency('smartq'), and subproject('smartq').get_variable();
#   2. smartq as the top-level project: meson.build's version agrees with
#      smartq.h (it refuses to configure otherwise), meson test lists the
#      suite and runs the consumer;
#   3. meson install and make install write the same files, byte for byte,
#      for the same prefix (headers and smartq.pc).
#
# The consumer is tests/consumer/consumer.c (every backend, the version).
# Skips, saying so, when meson or ninja is missing.  Run from the top of
# the tree.
set -u
unset MAKEFLAGS MFLAGS DESTDIR
make=${MAKE:-make}
src=$(pwd)
for tool in meson ninja; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "meson: $tool not found, skipping the Meson consumers (.ci/run installs it)"
		exit 0
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-meson.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
version=$(sh mk/version.sh include/smartq.h) || exit 1

. tests/consumer/same_files.sh

fail() {
	echo "FAIL meson: $*"
	[ -s "$tmp/log" ] && tail -n 20 "$tmp/log"
	exit 1
}

# 1. the user's project, smartq under subprojects/
proj=$tmp/user
mkdir -p "$proj/subprojects"
cp tests/consumer/meson.build tests/consumer/meson_options.txt \
	tests/consumer/consumer.c "$proj/"
ln -s "$src" "$proj/subprojects/smartq"
printf '[wrap-file]\ndirectory = smartq\n\n[provide]\nsmartq = smartq_dep\n' \
	>"$proj/subprojects/smartq.wrap"
for how in wrap subproject; do
	meson setup "$tmp/$how" "$proj" -Dhow=$how >"$tmp/log" 2>&1 ||
		fail "$how: meson setup failed"
	meson compile -C "$tmp/$how" >"$tmp/log" 2>&1 || fail "$how: build failed"
	got=$("$tmp/$how/consumer") || fail "$how: consumer printed: $got"
	case $got in
	"smartq $version:"*": ok") ;;
	*) fail "$how: consumer printed '$got', want 'smartq $version: ... ok'" ;;
	esac
done

# 2. top level
meson setup "$tmp/top" "$src" --prefix /opt/smartq >"$tmp/log" 2>&1 ||
	fail "top level: meson setup failed"
meson test -C "$tmp/top" --list >"$tmp/log" 2>&1 || fail "meson test --list failed"
grep -qx 'suite' "$tmp/log" || grep -q ' / suite$' "$tmp/log" ||
	fail "meson test does not list the suite"
meson test -C "$tmp/top" consumer >"$tmp/log" 2>&1 || fail "meson test consumer failed"

# 3. the same files as make install
DESTDIR="$tmp/by-meson" meson install -C "$tmp/top" >"$tmp/log" 2>&1 ||
	fail "meson install failed"
same_files_as_make "meson install" "$tmp/by-meson"

echo "meson: wrap and subproject, meson test, same files as make install: ok"

#!/bin/sh
# test-install.sh - install into a staging DESTDIR, build against it from
# outside the tree, uninstall.
#
#   1. `make install DESTDIR=$stage PREFIX=/usr` installs exactly the
#      headers of include/ (unchanged), share/pkgconfig/smartq.pc, whose
#      Version is the headers' SQ_VERSION_STRING, and the CMake package in
#      share/cmake/smartq (tests/consumer/cmake.sh uses it);
#   2. a program in a directory of its own, compiled with the flags from
#      pkg-config (or, without pkg-config, with -I from the .pc's
#      includedir), runs with every backend;
#   3. `make uninstall` leaves no file behind; the default PREFIX is
#      /usr/local.
#
# Run from the top of the tree.  PKG_CONFIG names the tool (pkg-config).
set -u
unset MAKEFLAGS MFLAGS PREFIX DESTDIR INCLUDEDIR PKGCONFIGDIR
make=${MAKE:-make}
pkg_config=${PKG_CONFIG:-pkg-config}
top=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage

fail() {
	echo "FAIL test-install: $*"
	exit 1
}

# 1. install: exactly these files, headers byte for byte.
$make -s install DESTDIR="$stage" PREFIX=/usr >/dev/null || fail "make install"
: >"$tmp/want"
for h in include/smartq.h include/smartq/*.h; do
	echo "./usr/$h" >>"$tmp/want"
	cmp -s "$h" "$stage/usr/$h" || fail "$h is not installed unchanged"
done
echo ./usr/share/pkgconfig/smartq.pc >>"$tmp/want"
echo ./usr/share/cmake/smartq/smartqConfig.cmake >>"$tmp/want"
echo ./usr/share/cmake/smartq/smartqConfigVersion.cmake >>"$tmp/want"
sort -o "$tmp/want" "$tmp/want"
(cd "$stage" && find . -type f) | sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	{ diff -u "$tmp/want" "$tmp/got"; fail "installed files are not exactly the headers, smartq.pc and the CMake package"; }
pc=$stage/usr/share/pkgconfig/smartq.pc

# 2. a program outside the tree.
mkdir "$tmp/user"
cat >"$tmp/user/prog.c" <<'PROG'
#include <stdio.h>
#include <smartq.h>

struct item {
	const char *name;
	SQ_NODE(SQ_K) node;
};

int main(void)
{
	SQ_QUEUE(SQ_K) q;
	struct item a = { "second", { 0 } }, b = { "first", { 0 } },
		    c = { "third", { 0 } };
	SQ_NODE(SQ_K) *n;

	SQ_INIT(SQ_K, &q);
	SQ_NODE_INIT(SQ_K, &a.node);
	SQ_NODE_INIT(SQ_K, &b.node);
	SQ_NODE_INIT(SQ_K, &c.node);
	SQ_ENQUEUE(SQ_K, &q, &a.node, 20);
	SQ_ENQUEUE(SQ_K, &q, &b.node, 10);
	SQ_ENQUEUE(SQ_K, &q, &c.node, 20);
	printf("%s", SQ_VERSION_STRING);
	while ((n = SQ_POP(SQ_K, &q)) != NULL)
		printf(" %s", sq_entry(n, struct item, node)->name);
	printf("\n");
	return SQ_EMPTY(SQ_K, &q) ? 0 : 1;
}
PROG
pc_prefix=$(sed -n 's/^prefix=//p' "$pc")
pc_includedir=$(sed -n 's/^includedir=//p' "$pc" | sed "s|\${prefix}|$pc_prefix|")
version=$(sed -n 's/^Version: *//p' "$pc")
cflags="-I$stage$pc_includedir"
if command -v "$pkg_config" >/dev/null 2>&1; then
	export PKG_CONFIG_LIBDIR="$stage/usr/share/pkgconfig"
	unset PKG_CONFIG_PATH
	define="--define-variable=prefix=$stage/usr"
	"$pkg_config" --exists smartq || fail "$pkg_config does not find smartq.pc"
	version=$("$pkg_config" --modversion smartq)
	pc_cflags=$("$pkg_config" "$define" --cflags smartq)
	[ "$(echo $pc_cflags)" = "$cflags" ] ||
		fail "$pkg_config --cflags says '$pc_cflags', the .pc's includedir '$cflags'"
	cflags=$pc_cflags
	echo "test-install: $pkg_config --cflags smartq: $cflags"
else
	echo "test-install: no $pkg_config; using $cflags from the .pc's includedir"
fi
cd "$tmp/user" || fail "cd"
[ -n "${SQ_KINDS:-}" ] || fail "SQ_KINDS is empty (run me from make)"
for kind in $SQ_KINDS; do
	# shellcheck disable=SC2086 # $cflags is a list of flags
	${CC:-cc} -std=c99 -Wall -Werror $cflags -DSQ_K=$kind -o "prog-$kind" prog.c ||
		fail "cannot build against the installed headers (SQ_K=$kind)"
	got=$("./prog-$kind")
	[ "$got" = "$version first second third" ] ||
		fail "prog-$kind printed '$got', want '$version first second third'"
done
cd "$top" || fail "cd"

# 3. uninstall leaves nothing; the default PREFIX is /usr/local.
$make -s uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null || fail "make uninstall"
left=$(find "$stage" -type f -o -name '*smartq*')
[ -z "$left" ] || fail "left behind after uninstall: $left"
$make -s install DESTDIR="$tmp/default" >/dev/null || fail "make install (default PREFIX)"
[ -f "$tmp/default/usr/local/include/smartq.h" ] &&
	[ -f "$tmp/default/usr/local/share/pkgconfig/smartq.pc" ] &&
	[ -f "$tmp/default/usr/local/share/cmake/smartq/smartqConfig.cmake" ] &&
	grep -qx 'prefix=/usr/local' "$tmp/default/usr/local/share/pkgconfig/smartq.pc" ||
	fail "default PREFIX is not /usr/local"
$make -s uninstall DESTDIR="$tmp/default" >/dev/null || fail "make uninstall (default PREFIX)"
left=$(find "$tmp/default" -type f -o -name '*smartq*')
[ -z "$left" ] || fail "left behind after uninstall: $left"

echo "test-install: installed, built with $version ($(echo $SQ_KINDS | wc -w) backends), uninstalled: ok"

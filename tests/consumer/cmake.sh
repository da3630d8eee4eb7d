#!/bin/sh
# cmake.sh - a CMake user's project builds against smartq and runs, each way:
#
#   1. add_subdirectory(smartq), and FetchContent from the local path;
#   2. smartq as the top-level project: ctest lists smartq.suite and runs
#      smartq.consumer; cmake --install into a scratch prefix;
#   3. that prefix moved elsewhere (the package is relocatable), then
#      find_package(smartq 0.2 CONFIG REQUIRED) from it; the same after
#      make install PREFIX=...: the same target (include directory below
#      the prefix, C99); a version of another minor (0.1, 0.3) is refused
#      by both; make uninstall then leaves no file;
#   4. cmake --install and make install write the same files, byte for
#      byte, for the same prefix: headers, smartq.pc, the CMake package.
#
# The consumer is tests/consumer/consumer.c (every backend, the version).
# Skips, saying so, when cmake is missing.  Run from the top of the tree.
set -u
unset MAKEFLAGS MFLAGS DESTDIR
make=${MAKE:-make}
src=$(pwd)
if ! command -v cmake >/dev/null 2>&1; then
	echo "cmake: cmake not found, skipping the CMake consumers (.ci/run installs it)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartq-cmake.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
gen=
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
version=$(sh mk/version.sh include/smartq.h) || exit 1
major_minor=${version%.*}

. tests/consumer/same_files.sh

fail() {
	echo "FAIL cmake: $*"
	[ -s "$tmp/log" ] && tail -n 20 "$tmp/log"
	exit 1
}

# configure DIR ARGS... - configure quietly, the log kept for a failure
configure() {
	d=$1
	shift
	# shellcheck disable=SC2086 # $gen is empty or two words
	cmake $gen -S "$src/tests/consumer" -B "$tmp/$d" -DSMARTQ_SRC="$src" \
		"$@" >"$tmp/log" 2>&1
}

# build_run DIR - build the consumer and check what it prints
build_run() {
	cmake --build "$tmp/$1" >"$tmp/log" 2>&1 || fail "$1: build failed"
	got=$("$tmp/$1/consumer") || fail "$1: consumer printed: $got"
	case $got in
	"smartq $version:"*": ok") ;;
	*) fail "$1: consumer printed '$got', want 'smartq $version: ... ok'" ;;
	esac
}

# 1. as a subproject
configure sub -DSMARTQ_HOW=subdirectory || fail "add_subdirectory: configure failed"
build_run sub
configure fetch -DSMARTQ_HOW=fetchcontent || fail "FetchContent: configure failed"
build_run fetch

# 2. top level: ctest, then install
# shellcheck disable=SC2086
cmake $gen -S "$src" -B "$tmp/top" >"$tmp/log" 2>&1 || fail "top level: configure failed"
cmake --build "$tmp/top" >"$tmp/log" 2>&1 || fail "top level: build failed"
(cd "$tmp/top" && ctest -N) >"$tmp/log" 2>&1 || fail "ctest -N failed"
grep -q 'smartq\.suite' "$tmp/log" || fail "ctest does not list smartq.suite"
(cd "$tmp/top" && ctest -R 'smartq\.consumer' --output-on-failure) >"$tmp/log" 2>&1 ||
	fail "ctest -R smartq.consumer failed"
cmake --install "$tmp/top" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 ||
	fail "cmake --install failed"

# 3. found by version: cmake --install's prefix, relocated, then make
# install's; each gives smartq::smartq with its own include directory
mv "$tmp/prefix" "$tmp/moved"
$make -s install PREFIX="$tmp/made" >"$tmp/log" 2>&1 || fail "make install failed"
minor=${major_minor#*.}
for prefix in "$tmp/moved" "$tmp/made"; do
	how=${prefix##*/}
	configure "found-$how" -DSMARTQ_HOW=find_package -DSMARTQ_WANT="$major_minor" \
		-DCMAKE_PREFIX_PATH="$prefix" ||
		fail "$how: find_package(smartq $major_minor) failed"
	grep -q "consumer: smartq $version from $prefix/share/cmake/smartq\$" "$tmp/log" ||
		fail "$how: find_package found '$(grep 'consumer: smartq' "$tmp/log")', not $prefix"
	grep -q "consumer: smartq::smartq includes $prefix/include, features c_std_99\$" "$tmp/log" ||
		fail "$how: the target is '$(grep 'consumer: smartq::' "$tmp/log")'"
	build_run "found-$how"
	for want in "${version%%.*}.$((minor + 1))" "${version%%.*}.$((minor - 1))"; do
		[ "${want#*.}" -ge 0 ] 2>/dev/null || continue
		if configure "no-$want-$how" -DSMARTQ_HOW=find_package -DSMARTQ_WANT="$want" \
			-DSMARTQ_FIND_ONLY=ON -DCMAKE_PREFIX_PATH="$prefix"; then
			fail "$how: find_package(smartq $want) accepted $version"
		fi
		grep -q 'not accepted' "$tmp/log" ||
			fail "$how: find_package(smartq $want) failed for another reason"
	done
done
$make -s uninstall PREFIX="$tmp/made" >"$tmp/log" 2>&1 || fail "make uninstall failed"
left=$(find "$tmp/made" -type f)
[ -z "$left" ] || fail "make uninstall left $left"
: >"$tmp/log"

# 4. the same files as make install, for the same prefix
DESTDIR="$tmp/by-cmake" cmake --install "$tmp/top" --prefix /opt/smartq \
	>"$tmp/log" 2>&1 || fail "cmake --install with DESTDIR failed"
same_files_as_make "cmake --install" "$tmp/by-cmake"

echo "cmake: add_subdirectory, FetchContent, ctest, find_package($major_minor) after" \
	"cmake --install and a move and after make install, other minors refused," \
	"same files as make install: ok"

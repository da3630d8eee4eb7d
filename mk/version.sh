#!/bin/sh
# mk/version.sh [HEADER] - print the library's version, MAJOR.MINOR.PATCH
#
# The one place the version is written is SQ_VERSION_MAJOR/MINOR/PATCH in
# include/smartq.h; make install, make single and the tests read it here,
# CMakeLists.txt reads the same three lines, and meson.build's literal is
# checked against them (at configure time and by tests/version.sh).
set -eu
awk '$1 == "#define" && $2 ~ /^SQ_VERSION_(MAJOR|MINOR|PATCH)$/ && $3 ~ /^[0-9]+$/ { v[$2] = $3 }
END {
	if (v["SQ_VERSION_MAJOR"] == "" || v["SQ_VERSION_MINOR"] == "" || v["SQ_VERSION_PATCH"] == "") {
		print "version.sh: no SQ_VERSION_MAJOR/MINOR/PATCH in " FILENAME > "/dev/stderr"
		exit 1
	}
	print v["SQ_VERSION_MAJOR"] "." v["SQ_VERSION_MINOR"] "." v["SQ_VERSION_PATCH"]
}' "${1:-include/smartq.h}"

# same_files.sh - sourced by cmake.sh and meson.sh: a tool's install and
# make install write the same files, byte for byte, for the same prefix.
#
#   same_files_as_make TOOL DIR [SKIP]
#
# DIR holds TOOL's install (DESTDIR, prefix /opt/smartq); SKIP is a grep
# pattern for files only TOOL writes.  Uses the caller's $make, $src,
# $tmp and fail().

same_files_as_make() {
	tool=$1 dir=$2 skip=${3:-}
	$make -s -C "$src" install DESTDIR="$tmp/by-make" PREFIX=/opt/smartq \
		>"$tmp/log" 2>&1 || fail "make install failed"
	(cd "$tmp/by-make" && find . -type f | sort) >"$tmp/make.files"
	# (an empty SKIP: '^$' matches no path)
	(cd "$dir" && find . -type f | grep -v "${skip:-^\$}" | sort) \
		>"$tmp/tool.files"
	if ! cmp -s "$tmp/make.files" "$tmp/tool.files"; then
		diff -u "$tmp/make.files" "$tmp/tool.files"
		fail "make install and $tool write different files"
	fi
	while read -r f; do
		cmp -s "$tmp/by-make/$f" "$dir/$f" ||
			fail "$f differs between make install and $tool"
	done <"$tmp/make.files"
}

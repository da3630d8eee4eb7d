#!/bin/sh
# bench/linux-src.sh TARBALL DIR - what the linux_rb peer needs from a
# kernel source tarball (Debian's linux-source-6.1 package ships only
# /usr/src/linux-source-6.1.tar.xz): tools/lib/rbtree.c, the headers under
# tools/include that it and tools/include/linux/rbtree.h include, and the
# top Makefile (for the version), extracted into DIR.  bench.mk calls it
# once; it takes a few seconds (xz reads the whole archive).
set -eu
tar=${1:?usage: sh bench/linux-src.sh TARBALL DIR}
dir=${2:?usage: sh bench/linux-src.sh TARBALL DIR}

top=$(tar -tf "$tar" 2>/dev/null | head -n 1 | cut -d/ -f1) || :
if [ -z "$top" ]; then
	echo "bench: LINUX_SRC: $tar is not a tar archive" >&2
	exit 1
fi
echo "bench: LINUX_SRC: extracting $top/tools/include, $top/tools/lib/rbtree.c from $tar into $dir" >&2
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
if ! tar -xf "$tar" -C "$dir.tmp" --strip-components=1 "$top/Makefile" \
	"$top/tools/include" "$top/tools/lib/rbtree.c"; then
	rm -rf "$dir.tmp"
	echo "bench: LINUX_SRC: $tar has no $top/tools/lib/rbtree.c (not a kernel source tarball?)" >&2
	exit 1
fi
echo "$tar" >"$dir.tmp/.tarball"
rm -rf "$dir"
mv "$dir.tmp" "$dir"

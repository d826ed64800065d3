#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# linux-source.sh: print a directory holding the few files kreloc takes
# from Debian's linux-source-6.1 at build time (kselftest.h for the
# selftests, checkpatch.pl and its data for lint), unpacked once.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir="$CACHE/linux-source-6.1"
exec 9> "$dir.lock"
flock -w 1800 9 || die "cannot lock $dir"
if [ ! -s "$dir/.done" ]; then
	need_pkgs xz-utils
	deb=$(fetch_deb linux-source-6.1)
	tmp="$CACHE/tmp/lsrc.$$"
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './usr/src/linux-source-6.1.tar.xz'
	mkdir -p "$dir.new"
	tar -xJf "$tmp/usr/src/linux-source-6.1.tar.xz" -C "$dir.new" --strip-components=1 \
		linux-source-6.1/tools/testing/selftests/kselftest.h \
		linux-source-6.1/tools/testing/selftests/kselftest \
		linux-source-6.1/tools/testing/selftests/lib.mk \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	rm -rf "$tmp" "$dir"
	mv "$dir.new" "$dir"
	echo ok > "$dir/.done"
fi
echo "$dir"

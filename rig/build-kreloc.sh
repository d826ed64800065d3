#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kreloc.sh ENV OUTDIR [make variables...]: build kreloc.ko for the
# kernel in ENV from a copy of this tree in OUTDIR (so that builds for
# several kernels and link-time sources do not share objects), on the host
# or in the root of the kernel's release (kmake in rig/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" outdir="$2"
shift 2
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$outdir"
mkdir -p "$outdir"
(cd "$top" && cp -r Kbuild Makefile dkms.conf ./*.c ./*.h kreloc_arch lib tools mk "$outdir/")
rm -f "$outdir/tools/kreloc-linkgen" "$outdir/kreloc_linked_gen.h"

# A build is kept by what made it: the sources, this script, the kernel's
# env and the make variables with the contents of the files they name.  A
# rerun of the same tree (CI's warm rerun) copies it instead of building.
key=$( {
	(cd "$outdir" && find . -type f ! -name '*.o' -print0 | sort -z | xargs -0 sha256sum)
	sha256sum "$0" "$envf" | cut -d' ' -f1
	# The headers (and the root's compiler) the env points at.
	for f in "$KDIR/.config" "$KDIR/Module.symvers" \
		${BUILD_ROOT:+"$BUILD_ROOT/var/lib/dpkg/status"}; do
		[ ! -f "$f" ] || sha256sum < "$f"
	done
	for a in "$@"; do
		echo "$a"
		v="${a#*=}"
		[ "$v" = "$a" ] || [ ! -f "$v" ] || sha256sum < "$v"
	done
} | sha256sum | cut -c1-32)
kept="$CACHE/kbuild/$KVER-$key"
if [ -s "$kept/kreloc.ko" ]; then
	rm -rf "$outdir"
	cp -a "$kept" "$outdir"
	touch "$kept"
	echo "kreloc: kept build of $KVER ($*)" >> "$outdir/build.log"
else
	args=(KDIR="$KDIR")
	if [ "$KARCH" != x86 ]; then
		args+=(ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE")
	fi
	kmake -s -C "$outdir" "${args[@]}" "$@" >"$outdir/build.log" 2>&1 || {
		cat "$outdir/build.log" >&2
		die "build of kreloc for $KVER ($*) failed"
	}
fi
grep -E 'warning|kreloc:' "$outdir/build.log" >&2 || true
[ -s "$outdir/kreloc.ko" ] || die "no kreloc.ko in $outdir"
[ ! -s "$kept/kreloc.ko" ] || exit 0
# Keep it (through a temporary name: two jobs may build the same).
mkdir -p "$CACHE/kbuild"
# Builds of trees nobody has built for two days go.
find "$CACHE/kbuild" -mindepth 1 -maxdepth 1 -mtime +1 -exec rm -rf {} + 2>/dev/null || true
tmp=$(mktemp -d "$kept.XXXXXX")
cp -a "$outdir/." "$tmp/"
mv -T "$tmp" "$kept" 2>/dev/null || rm -rf "$tmp"

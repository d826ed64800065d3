#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kreloc.sh ENV OUTDIR [make variables...]: build kreloc.ko for the
# kernel in ENV into OUTDIR (a tree of its own, so that builds for several
# kernels and link-time sources do not share objects), on the host or in
# the root of the kernel's release (kmake in rig/lib.sh).
#
# Two caches make reruns and variants cheap:
#  - a finished build is kept by everything that made it (the sources, this
#    script, the kernel's env and headers, the make variables and the
#    contents of the files they name): a rerun of the same tree (CI's warm
#    rerun) copies it instead of building;
#  - a new build runs in a work tree kept per kernel, sources and build
#    flavour (the make variables other than the link-time source), so the
#    variants the tests want (system.map, vmlinux, arch, another release's
#    map...) differ from each other only by kreloc_linked_gen.h: kbuild
#    recompiles state/core.c and relinks, instead of building it all.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" outdir="$2"
shift 2
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
src=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-src.XXXXXX")
trap 'rm -rf "$src"' EXIT
(cd "$top" && cp -r Kbuild Makefile dkms.conf ./*.c ./*.h $(module_dirs "$top") tools mk "$src/")
rm -f "$src/tools/kreloc-linkgen" "$src/kreloc_linked_gen.h"

hashsum() { sha256sum | cut -c1-32; }
# What every build for this kernel from this tree shares.
base=$( {
	(cd "$src" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
	sha256sum "$0" "$envf" | cut -d' ' -f1
	# The headers (and the root's compiler) the env points at.
	for f in "$KDIR/.config" "$KDIR/Module.symvers" \
		${BUILD_ROOT:+"$BUILD_ROOT/var/lib/dpkg/status"}; do
		[ ! -f "$f" ] || sha256sum < "$f"
	done
} | hashsum)
# The build flavour: the make variables that change how every object is
# compiled (all but those choosing the link-time source).
flavour=$(for a in "$@"; do
	case "$a" in LINKED_SOURCE=* | SYSTEM_MAP=* | VMLINUZ=*) ;; *) echo "$a" ;; esac
done | hashsum)
# This build: the variables with the contents of the files they name.
key=$( {
	echo "$base"
	for a in "$@"; do
		echo "$a"
		v="${a#*=}"
		[ "$v" = "$a" ] || [ ! -f "$v" ] || sha256sum < "$v"
	done
} | hashsum)
kept="$CACHE/kbuild/$KVER-$key"
mkdir -p "$CACHE/kbuild"

if [ -s "$kept/kreloc.ko" ]; then
	rm -rf "$outdir"
	mkdir -p "$(dirname "$outdir")"
	cp -a "$kept" "$outdir"
	touch "$kept"
	echo "kreloc: kept build of $KVER ($*)" >> "$outdir/build.log"
	grep -E 'warning|kreloc:' "$outdir/build.log" >&2 || true
	exit 0
fi

# Build in the work tree (one build at a time in it), then copy it out.
work="$CACHE/kbuild/work-$KVER-$base-$flavour"
exec 8> "$work.lock"
flock -w 3600 8 || die "cannot lock $work"
touch "$work.lock"
if [ ! -f "$work/.kreloc-work" ]; then
	rm -rf "$work"
	cp -a "$src" "$work"
	touch "$work/.kreloc-work"
fi
touch "$work"
tlog "building kreloc for $KVER ($*)"
args=(KDIR="$KDIR")
if [ "$KARCH" != x86 ]; then
	args+=(ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE")
fi
rm -f "$work/kreloc.ko"
kmake -s -C "$work" "${args[@]}" "$@" >"$work/build.log" 2>&1 || {
	cat "$work/build.log" >&2
	die "build of kreloc for $KVER ($*) failed"
}
[ -s "$work/kreloc.ko" ] || die "no kreloc.ko in $work"
rm -rf "$outdir"
mkdir -p "$outdir"
cp -a "$work/." "$outdir/"
rm -f "$outdir/.kreloc-work"
exec 8>&-
tlog "built kreloc for $KVER ($*)"
grep -E 'warning|kreloc:' "$outdir/build.log" >&2 || true

# Keep it (through a temporary name: two jobs may build the same).  Builds
# and work trees nobody has used for two days go.
find "$CACHE/kbuild" -mindepth 1 -maxdepth 1 -mtime +1 -exec rm -rf {} + 2>/dev/null || true
tmp=$(mktemp -d "$kept.XXXXXX")
cp -a "$outdir/." "$tmp/"
mv -T "$tmp" "$kept" 2>/dev/null || rm -rf "$tmp"

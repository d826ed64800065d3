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
args=(KDIR="$KDIR")
if [ "$KARCH" != x86 ]; then
	args+=(ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE")
fi
kmake -s -C "$outdir" "${args[@]}" "$@" >"$outdir/build.log" 2>&1 || {
	cat "$outdir/build.log" >&2
	die "build of kreloc for $KVER ($*) failed"
}
grep -E 'warning|kreloc:' "$outdir/build.log" >&2 || true
[ -s "$outdir/kreloc.ko" ] || die "no kreloc.ko in $outdir"

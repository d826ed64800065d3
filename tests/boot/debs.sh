#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# debs.sh: the packages of this tree, built with "make deb" (once per tree:
# cached) and checked by lintian; prints the directory that holds them:
#   DIR/version   the tree's version V (dkms.conf)
#   DIR/cur/      kreloc-dkms_V_all.deb, kreloc_V_ARCH.deb, libkreloc0_V_ARCH.deb,
#                 libkreloc-dev_V_ARCH.deb, build.log,
#                 lintian.log and lintian.rc (lintian --fail-on error,warning)
#   DIR/prev/     the same tree built as V~prev (make deb KRELOC_DEB_VERSION):
#                 the previous version the upgrade test installs first
# The previous version is this tree under a lower version, not an older
# commit: main has no packaged commit before the one that adds debian/, and
# what an upgrade changes for DKMS (the version, /usr/src/kreloc-V, the
# module built again) is the same.  Once a release is tagged, its packages
# can take that place.
# The cache key is the content of every file make deb takes and the
# versions of the packaging tools.  The packages are built with
# DEB_BUILD_OPTIONS=nocheck: the host unit tests are a job of make check.
# Both boot flavours call this at once: one builds, the other waits.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/rig/lib.sh"

# The build dependencies as README.md installs them (apt-get build-dep on
# the tree's debian/control), when dpkg-checkbuilddeps finds one missing.
need_pkgs dpkg-dev lintian git
(cd "$top" && dpkg-checkbuilddeps 2>/dev/null) || {
	log "installing the packages' build dependencies (apt-get build-dep)"
	(cd "$top" && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q --no-install-recommends .) >&2 ||
		die "apt-get build-dep . failed"
}

# The files make deb copies (mk/deb.sh): git's, or all of them outside git.
tree_files() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files -z --cached --others --exclude-standard
	else
		(cd "$top" && find . -type f -printf '%P\0')
	fi
}
key=$( {
	tree_files | (cd "$top" && xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
		LC_ALL=C sort -z | (cd "$top" && xargs -0 -r sha256sum)
	dpkg-query -W dpkg-dev debhelper dh-dkms lintian
} | sha256sum | cut -c1-16)
d="$CACHE/deb/$key"
mkdir -p "$CACHE/deb"
exec 9> "$CACHE/deb/.lock"
flock -w 1800 9 || die "cannot lock $CACHE/deb"
if [ ! -f "$d/done" ]; then
	rm -rf "$d" "$d.tmp"
	mkdir -p "$d.tmp/cur" "$d.tmp/prev"
	v=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
	echo "$v" > "$d.tmp/version"
	t=$SECONDS
	for k in cur prev; do
		want=$v
		[ $k = cur ] || want="$v~prev"
		DEB_BUILD_OPTIONS=nocheck make -s -C "$top" deb DEBDIR="$d.tmp/$k" \
			KRELOC_DEB_VERSION="$want" > "$d.tmp/$k/build.log" 2>&1 || {
			tail -30 "$d.tmp/$k/build.log" >&2
			die "make deb ($want) failed (see $d.tmp/$k/build.log)"
		}
	done
	log "make deb, twice, took $((SECONDS - t))s"
	rc=0
	lintian --fail-on error,warning -I -E --pedantic --tag-display-limit 0 \
		"$d.tmp"/cur/*.deb \
		> "$d.tmp/cur/lintian.log" 2>&1 || rc=$?
	echo "$rc" > "$d.tmp/cur/lintian.rc"
	touch "$d.tmp/done"
	mv "$d.tmp" "$d"
	# Keep the newest few trees' packages.
	ls -dt "$CACHE"/deb/*/ | tail -n +6 | xargs -r rm -rf
fi
echo "$d"

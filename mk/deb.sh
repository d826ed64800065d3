#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh OUTDIR [VERSION]: build the Debian packages kreloc-dkms, kreloc,
# libkreloc0 and libkreloc-dev
# with "dpkg-buildpackage -us -uc -b" (called by "make deb").
#
# dpkg-buildpackage writes its results beside the source directory, so the
# tree is copied first, to OUTDIR/kreloc-VERSION: in a git checkout the files
# git knows and the untracked ones it does not ignore, elsewhere the whole
# tree without OUTDIR.  The .deb, .buildinfo and .changes files land in
# OUTDIR; the copy is removed afterwards.
#
# VERSION (make deb KRELOC_DEB_VERSION=...) builds the copy as that version
# instead of debian/changelog's: dkms.conf's PACKAGE_VERSION and a new
# changelog entry say it (a snapshot, or the older version the upgrade test
# installs first).  DEB_BUILD_OPTIONS reaches dpkg-buildpackage as usual
# (nocheck skips the host unit tests).
set -eu

out="$1"
want="${2:-}"
top=$(cd "$(dirname "$0")/.." && pwd)
command -v dpkg-buildpackage >/dev/null 2>&1 || {
	echo "make deb: dpkg-buildpackage not found (apt-get install dpkg-dev debhelper dh-dkms)" >&2
	exit 1
}
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
[ -n "$want" ] || want="$version"
mkdir -p "$out"
out=$(cd "$out" && pwd)
src="$out/kreloc-$want"
rm -rf "$src"
mkdir -p "$src"

if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# (a file deleted in the work tree but still in the index is skipped)
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		(cd "$top" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		(cd "$top" && xargs -0 -r cp -P --parents -t "$src")
else
	(cd "$top" && tar -cf - --exclude-vcs --exclude="./${out#"$top"/}" .) | tar -xf - -C "$src"
fi

if [ "$want" != "$version" ]; then
	sed -i "s/^PACKAGE_VERSION=\".*\"/PACKAGE_VERSION=\"$want\"/" "$src/dkms.conf"
	who=$(cd "$src" && dpkg-parsechangelog -S Maintainer)
	{
		printf 'kreloc (%s) unstable; urgency=medium\n\n' "$want"
		printf '  * Built from the tree of %s as %s (make deb KRELOC_DEB_VERSION).\n\n' \
			"$version" "$want"
		printf ' -- %s  %s\n\n' "$who" "$(date -R)"
		cat "$src/debian/changelog"
	} > "$src/debian/changelog.new"
	mv "$src/debian/changelog.new" "$src/debian/changelog"
fi

(cd "$src" && dpkg-buildpackage -us -uc -b)
rm -rf "$src"
ls "$out"/kreloc-dkms_"$want"_all.deb "$out"/kreloc_"$want"_*.deb \
	"$out"/libkreloc0_"$want"_*.deb "$out"/libkreloc-dev_"$want"_*.deb

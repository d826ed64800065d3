#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# root.sh RELEASE [PKG|FILE.deb ...]: print the path of a cached Debian
# RELEASE (bullseye, bookworm, trixie) minbase root for building kernel
# modules the way that release does (its gcc, make, libelf-dev, kmod, xz,
# zstd, bc, pahole), making it first (mmdebstrap).  The named packages (from
# RELEASE's archive, trixie-backports included) or local .deb files (with
# their dependencies from the archive) are installed into it unless they
# already are.  Kernel images are installed without an initramfs
# (INITRD=No): this root only builds modules.  Run commands there with
# in_root (rig/lib.sh).
#
# The root lives in $CACHE/roots/RELEASE and is shared: other scripts add
# their packages to it, nobody removes any.  Its apt sources are RELEASE's
# own (updates, security, backports on trixie), written inside the root.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rel="$1"
shift
rel_sources "$rel" > /dev/null
r="$CACHE/roots/$rel"
stamp="$r/.kreloc-root-1"
mkdir -p "$CACHE/roots"
exec 9> "$CACHE/roots/$rel.lock"
flock -w 3600 9 || die "cannot lock the $rel root"

# Packages not yet installed: by name, or by the name and version of a .deb.
want=() debs=()
for p in "$@"; do
	if [[ "$p" == *.deb ]]; then
		n=$(dpkg-deb -f "$p" Package) v=$(dpkg-deb -f "$p" Version)
		[ "$(dpkg-query --admindir="$r/var/lib/dpkg" -W -f='${Status} ${Version}' "$n" 2>/dev/null)" = \
			"install ok installed $v" ] && continue
		debs+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
	else
		dpkg-query --admindir="$r/var/lib/dpkg" -W -f='${Status}' "$p" 2>/dev/null |
			grep -c 'ok installed' >/dev/null && continue
		want+=("$p")
	fi
done

if [ ! -f "$stamp" ]; then
	# mmdebstrap: about half the time of debootstrap, and the packages
	# asked for come in the same apt run.
	need_pkgs mmdebstrap
	rm -rf "$r" "$r.tmp"
	log "making the $rel root $r (once)"
	mapfile -t sources < <(rel_sources "$rel")
	inc=$(IFS=,; echo "gcc,make,libc6-dev,libelf-dev,kmod,xz-utils,zstd,bc,dwarves,cpio${want[*]:+,${want[*]}}${debs[*]:+,${debs[*]}}")
	# (INITRD=No: a kernel image the headers pull in needs no initramfs.
	# force-unsafe-io: dpkg syncs no file, here and in later installs into
	# the root, which is a cache made again if it breaks; a 2-core VM
	# installed 27% faster so.)
	INITRD=No mmdebstrap --variant=minbase --include="$inc" \
		--aptopt='APT::Install-Recommends "false"' --dpkgopt='force-unsafe-io' \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
		--customize-hook='mkdir -p "$1/etc/kernel"' \
		"$rel" "$r.tmp" "${sources[@]}" >"$CACHE/roots/$rel.log" 2>&1 || {
		tail -20 "$CACHE/roots/$rel.log" >&2
		die "mmdebstrap $rel failed (see $CACHE/roots/$rel.log)"
	}
	touch "$r.tmp/.kreloc-root-1"
	mv "$r.tmp" "$r"
	want=() debs=()
fi

if [ $((${#want[@]} + ${#debs[@]})) -gt 0 ]; then
	log "installing ${want[*]} ${debs[*]##*/} into the $rel root"
	# Refresh the root's indexes at most once a day.
	if [ -z "$(find "$r/var/lib/apt/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 | head -1)" ]; then
		in_root "$r" apt-get update -qq >>"$CACHE/roots/$rel.log" 2>&1 || true
	fi
	inroot=()
	if [ ${#debs[@]} -gt 0 ]; then
		mkdir -p "$r/tmp/kreloc-debs"
		cp "${debs[@]}" "$r/tmp/kreloc-debs/"
		for p in "${debs[@]}"; do
			inroot+=("/tmp/kreloc-debs/$(basename "$p")")
		done
	fi
	in_root "$r" env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -qq \
		"${want[@]}" "${inroot[@]}" >>"$CACHE/roots/$rel.log" 2>&1 || {
		tail -20 "$CACHE/roots/$rel.log" >&2
		die "cannot install ${want[*]} ${debs[*]} into the $rel root"
	}
	rm -rf "$r/tmp/kreloc-debs"
	in_root "$r" apt-get clean
fi
echo "$r"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkroot.sh itools|dracut|itools-trixie|sb: print the path of a cached
# Debian test root (under $CACHE/boot/) for the boot tests, making it first
# if needed.  The host is not altered beyond installing debootstrap.  The
# roots hold what a Debian user has before installing kreloc: a kernel with
# its headers, installed as packages, and an initramfs generator; DKMS and
# the compiler come with kreloc-dkms's dependencies, from the archive
# (the tests install the packages into a throw-away layer over the root,
# tests/boot/lib.sh, so the cached root never has them).
#   itools  initramfs-tools and the rig's Debian amd64 6.1 and 6.12 kernels
#           with their headers (images and headers), so /boot/vmlinuz-*,
#           /lib/modules/* and /lib/modules/*/build are what a Debian user
#           has
#   dracut  dracut instead of initramfs-tools, and the same 6.1 kernel with
#           its headers; sysvinit-core gives the halt/reboot dracut's base
#           module wants without systemd, so the initramfs uses dracut's own
#           init
#   itools-trixie  Debian 13 (trixie): a copy of the rig's trixie root
#           (rig/root.sh: gcc-14, the headers of trixie-backports' newest
#           kernel, the rig's amd64-7) with initramfs-tools, and that kernel
#           installed from its packages as a user gets it (apt-get install
#           -t trixie-backports linux-image-KVER)
#   sb      initramfs-tools and DKMS, no kernel: the Secure Boot test
#           (tests/boot/secureboot.sh) puts the debug kernel in, configures
#           DKMS's signing key and installs the package
# Each root but sb has a machine owner key for DKMS (/var/lib/dkms/mok.key,
# mok.pub), as a Secure Boot machine has: DKMS would otherwise make one at
# its first build and keep it after it is purged, and the tests compare the
# root before the packages are installed with the root after they are
# purged.
# The boot tests change a root (dkms, update-initramfs): each kind is its
# own, and making one waits for anyone else making the same kind.
# Installing a kernel package makes no initramfs here (INITRD=No, which the
# kernel postinst hooks and dracut's trigger honour; initramfs-tools'
# trigger then finds no image to update): the tests make the images they
# boot themselves, and the generic ones took 3-4 minutes each on this
# machine (five per cold bookworm run).  The bookworm roots keep the .debs
# apt downloads in $CACHE/boot/apt-bookworm, so the dracut root and a
# rebuilt root fetch only what no root fetched before.
# Bump a root's version below to rebuild it; delete $CACHE/boot to start over.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/rig/lib.sh"
. "$here/lib.sh"

kind="$1"
base="$CACHE/boot/base"
mkdir -p "$CACHE/boot"
case "$kind" in
itools|dracut|itools-trixie|sb) ;;
*) die "usage: mkroot.sh itools|dracut|itools-trixie|sb" ;;
esac
exec 9> "$CACHE/boot/root-$kind.lock"
flock -w 3600 9 || die "cannot lock the $kind root"

make_base() {
	[ -f "$base/.kreloc-base-1" ] && return 0
	need_pkgs debootstrap
	rm -rf "$base" "$base.tmp"
	log "debootstrap bookworm minbase into $base (once)"
	local t=$SECONDS
	debootstrap --variant=minbase --include=ca-certificates bookworm "$base.tmp" \
		http://deb.debian.org/debian >"$CACHE/boot/debootstrap.log" 2>&1 || {
		tail -20 "$CACHE/boot/debootstrap.log" >&2
		die "debootstrap failed (see $CACHE/boot/debootstrap.log)"
	}
	# The host's sources (main, updates, security: the rig's kernels
	# come from bookworm-security) and no recommends.
	rm -f "$base.tmp/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/debian.sources "$base.tmp/etc/apt/sources.list.d/"
	echo 'APT::Install-Recommends "false";' > "$base.tmp/etc/apt/apt.conf.d/90kreloc"
	# Kernel postinst hooks must not try to talk to a bootloader.
	mkdir -p "$base.tmp/etc/kernel"
	log "debootstrap took $((SECONDS - t))s"
	touch "$base.tmp/.kreloc-base-1"
	mv "$base.tmp" "$base"
}

# Install the rig's cached kernel packages (image and headers) with apt, so
# their dependencies come from the archive and their postinst hooks run.
kernel_debs() {
	local d="$1" f
	shift
	mkdir -p "$d/tmp/kdebs"
	for f in "$@"; do
		cp "$f" "$d/tmp/kdebs/"
	done
}

# mok ROOT: a machine owner key for DKMS, made as DKMS makes one.
mok() {
	mkdir -p "$1/var/lib/dkms"
	openssl req -new -x509 -nodes -days 36500 -subj "/CN=DKMS module signing key" \
		-newkey rsa:2048 -keyout "$1/var/lib/dkms/mok.key" \
		-outform DER -out "$1/var/lib/dkms/mok.pub" >/dev/null 2>&1 ||
		die "openssl cannot make a key"
}

# apt_root ROOT LOG PKG...: apt-get install PKG... and the .debs in
# ROOT/tmp/kdebs in a bookworm ROOT (no initramfs made, see above; what is
# downloaded kept in the shared archive directory, or in $archive), then
# drop /tmp/kdebs.
apt_root() {
	local r="$1" logf="$2" t=$SECONDS arch="${archive:-$CACHE/boot/apt-bookworm}"
	shift 2
	mkdir -p "$arch/partial"
	IN_ROOT_CACHE=1 in_root "$r" sh -ec 'a="$1"; shift
		apt-get update -qq || true
		export DEBIAN_FRONTEND=noninteractive INITRD=No
		[ ! -d /tmp/kdebs ] || set -- "$@" /tmp/kdebs/*.deb
		apt-get install -y -qq -o Dir::Cache::Archives="$a" \
			-o APT::Sandbox::User=root "$@"
		rm -rf /tmp/kdebs' sh "$arch/" "$@" >"$logf" 2>&1 || return
	log "apt-get install into $r took $((SECONDS - t))s"
}

need_pkgs openssl
case "$kind" in
itools)
	make_base
	r="$CACHE/boot/root-itools"
	# The kernels in the stamp: a kernel the rig moved on to (a new
	# Debian release, KRELOC_REFRESH=1) makes the root again.
	e61=$("$top/rig/kernel-amd64.sh" 6.1)
	e612=$("$top/rig/kernel-amd64.sh" 6.12)
	stamp="itools-3-$(sed -n 's/^KVER=//p' <<<"$e61")-$(sed -n 's/^KVER=//p' <<<"$e612")"
	if [ ! -f "$r/.kreloc-$stamp" ]; then
		rm -rf "$r" "$r.tmp"
		cp -a "$base" "$r.tmp"
		mapfile -t debs < <(bookworm_kernel_debs "$e61"; bookworm_kernel_debs "$e612")
		kernel_debs "$r.tmp" "${debs[@]}"
		log "installing initramfs-tools and the kernels into $r (once)"
		apt_root "$r.tmp" "$CACHE/boot/itools.log" initramfs-tools busybox zstd cpio || {
			tail -30 "$CACHE/boot/itools.log" >&2
			die "cannot set up $r (see $CACHE/boot/itools.log)"
		}
		mok "$r.tmp"
		touch "$r.tmp/.kreloc-$stamp"
		mv "$r.tmp" "$r"
	fi
	echo "$r"
	;;
dracut)
	make_base
	r="$CACHE/boot/root-dracut"
	e61=$("$top/rig/kernel-amd64.sh" 6.1)
	kv=$(sed -n 's/^KVER=//p' <<<"$e61")
	stamp="dracut-3-$kv"
	if [ ! -f "$r/.kreloc-$stamp" ]; then
		rm -rf "$r" "$r.tmp"
		cp -a "$base" "$r.tmp"
		mapfile -t debs < <(bookworm_kernel_debs "$e61")
		kernel_debs "$r.tmp" "${debs[@]}"
		log "installing dracut and the kernel into $r (once)"
		apt_root "$r.tmp" "$CACHE/boot/dracut.log" \
			dracut sysvinit-core busybox zstd cpio kmod binutils || {
			tail -30 "$CACHE/boot/dracut.log" >&2
			die "cannot set up $r (see $CACHE/boot/dracut.log)"
		}
		mok "$r.tmp"
		touch "$r.tmp/.kreloc-$stamp"
		mv "$r.tmp" "$r"
	fi
	echo "$r"
	;;
sb)
	make_base
	r="$CACHE/boot/root-sb"
	stamp="sb-1"
	if [ ! -f "$r/.kreloc-$stamp" ]; then
		rm -rf "$r" "$r.tmp"
		cp -a "$base" "$r.tmp"
		# (libelf1 and libssl3: the debug kernel's build tree has
		# objtool and sign-file built on this bookworm host)
		log "installing initramfs-tools and dkms into $r (once)"
		# (apt's archive of the Secure Boot test, which may run while
		# the bookworm boot test's apt uses the other)
		archive="$CACHE/boot/apt-secureboot" apt_root "$r.tmp" "$CACHE/boot/sb.log" \
			initramfs-tools busybox cpio kmod dkms libelf1 libssl3 || {
			tail -30 "$CACHE/boot/sb.log" >&2
			die "cannot set up $r (see $CACHE/boot/sb.log)"
		}
		touch "$r.tmp/.kreloc-$stamp"
		mv "$r.tmp" "$r"
	fi
	echo "$r"
	;;
itools-trixie)
	e7=$("$top/rig/kernel-amd64.sh" 7)
	kv=$(sed -n 's/^KVER=//p' <<<"$e7")
	r="$CACHE/boot/root-itools-trixie"
	stamp="itools-trixie-4-$kv"
	if [ ! -f "$r/.kreloc-$stamp" ]; then
		broot=$("$top/rig/root.sh" trixie "linux-headers-$kv")
		rm -rf "$r" "$r.tmp"
		log "copying the rig's trixie root into $r (once)"
		# (under the rig root's lock: nobody installs into it meanwhile)
		flock -w 3600 "$CACHE/roots/trixie.lock" cp -a "$broot" "$r.tmp"
		rm -f "$r.tmp/.kreloc-root-"*
		debs=()
		for p in "linux-image-$kv" "linux-binary-$kv" "linux-modules-$kv"; do
			debs+=("$(fetch_deb "$p" trixie)")
		done
		kernel_debs "$r.tmp" "${debs[@]}"
		log "installing initramfs-tools and $kv into $r (once)"
		in_root "$r.tmp" sh -ec 'apt-get update -qq || true
			export DEBIAN_FRONTEND=noninteractive INITRD=No
			apt-get install -y -qq initramfs-tools busybox zstd cpio kmod
			apt-get install -y -qq -t trixie-backports /tmp/kdebs/*.deb
			rm -rf /tmp/kdebs; apt-get clean' >"$CACHE/boot/itools-trixie.log" 2>&1 || {
			tail -30 "$CACHE/boot/itools-trixie.log" >&2
			die "cannot set up $r (see $CACHE/boot/itools-trixie.log)"
		}
		mok "$r.tmp"
		touch "$r.tmp/.kreloc-$stamp"
		mv "$r.tmp" "$r"
	fi
	echo "$r"
	;;
esac

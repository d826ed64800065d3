#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-arm64.sh SERIES: fetch Debian's newest arm64 kernel of SERIES with its
# headers into the cache, make the headers usable for a cross build from amd64,
# and print its env file (as kernel-amd64.sh does).
#
#   6.1   bookworm(-security)  linux-image-6.1.0-N-arm64-unsigned
#   6.12  bookworm(-security)  linux-image-6.12.N+deb12-arm64-unsigned
#   7     trixie-backports     linux-binary-unsigned-7.X.Y+deb13-arm64 (+ linux-modules-)
#
# The arm64 indexes come straight from the archive (rig/archive.sh): apt here
# cannot read bookworm-security's arm64 index as a foreign architecture, and
# trixie-backports is not one of this machine's suites.  The headers' scripts/
# are arm64 binaries, so they are pointed at the amd64 linux-kbuild of the same
# version.  bookworm's kernels build with the host's gcc-aarch64-linux-gnu
# (gcc-12, as Debian built them).  trixie's kbuild needs trixie's glibc and the
# kernel was built with gcc-14: BUILD_ROOT in the env names the trixie root
# (rig/root.sh) that builds for it must run in.
#
# The test initramfs gets busybox from Debian's busybox-static:arm64.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"

series="${1:-6.1}"
case "$series" in
6.1)
	suites="bookworm bookworm-security"
	re='^linux-image-6\.1\.0-[0-9]+-arm64-unsigned$' ;;
6.12)
	suites="bookworm bookworm-security"
	re='^linux-image-6\.12\.[0-9]+\+deb12-arm64-unsigned$' ;;
7)
	suites="trixie-backports"
	re='^linux-binary-unsigned-7\.[0-9]+\.[0-9]+\+deb13-arm64$' ;;
*) die "unknown series '$series' (6.1, 6.12 or 7)" ;;
esac

# One at a time per series (several jobs of a run may want one kernel).
mkdir -p "$CACHE/k"
exec 9> "$CACHE/k/arm64-$series.lock"
flock -w 3600 9 || die "cannot lock arm64-$series"

# Needed on every run: the cross compiler, QEMU, and what kbuild calls.
need_pkgs gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross \
	qemu-system-arm dwarves libelf-dev xz-utils

# How the env is written (bump when a line below changes): a warm cache
# answers without asking the archive, unless it was written otherwise.
recipe=3
if [ -z "${KRELOC_REFRESH:-}" ] && [ -s "$CACHE/k/arm64-$series.env" ] &&
   grep -qx "RIG_RECIPE=$recipe" "$CACHE/k/arm64-$series.env"; then
	cat "$CACHE/k/arm64-$series.env"
	exit 0
fi

# The kernel: the newest image (by ABI, then version) whose headers exist in
# the same suite at the same version.
pick() {
	local s
	for s in $suites; do
		archive_list "$s" arm64 "$re" | sed "s/\$/ $s/"
	done | sort -V -r | while read -r img ver suite; do
		kver=${img#linux-image-}
		kver=${kver#linux-binary-unsigned-}
		kver=${kver%-unsigned}
		if [ -n "$(archive_field "$suite" arm64 "linux-headers-$kver" "$ver" Filename)" ]; then
			echo "$img $ver $suite $kver"
			return 0
		fi
		log "$img $ver has no headers in $suite, trying an older one"
	done
}
read -r img ver suite kver < <(pick) || true
[ -n "${kver:-}" ] || die "no arm64 $series kernel with headers in $suites"
dir="$CACHE/k/arm64-$kver"
env="$dir/env"

if [ ! -s "$dir/meta" ]; then
	hdr="linux-headers-$kver"
	deps=$(archive_field "$suite" arm64 "$hdr" "$ver" Depends)
	common=$(tr ',' '\n' <<< "$deps" | awk '$1 ~ /^linux-headers-.*-common$/ {print $1; exit}')
	kbuild=$(tr ',' '\n' <<< "$deps" | awk '$1 ~ /^linux-kbuild-/ {print $1; exit}')
	[ -n "$common" ] && [ -n "$kbuild" ] || die "cannot read $hdr's dependencies"
	debs=("$(archive_fetch "$suite" arm64 "$img" "$ver")"
	      "$(archive_fetch "$suite" arm64 "$hdr" "$ver")"
	      "$(archive_fetch "$suite" arm64 "$common" "$ver")"
	      "$(archive_fetch "$suite" amd64 "$kbuild" "$ver")")
	if [ "$series" = 7 ]; then
		debs+=("$(archive_fetch "$suite" arm64 "linux-modules-$kver" "$ver")"
		       "$(archive_fetch "$suite" arm64 "linux-base-$kver" "$ver")")
	fi
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/root"
	for d in "${debs[@]}"; do
		dpkg -x "$d" "$dir.tmp/root"
	done
	# Point the headers at the unpacked -common and amd64 kbuild.
	r="$dir.tmp/root"
	cd_common=$(basename "$(ls -d "$r/usr/src/"*-common)")
	sed -i -e "s|^include /usr/src/$cd_common/|include $dir/root/usr/src/$cd_common/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/$hdr\$|KBUILD_OUTPUT=$dir/root/usr/src/$hdr|" \
		"$r/usr/src/$hdr/Makefile"
	kb=$(basename "$(ls -d "$r/usr/lib/linux-kbuild-"*)")
	for l in scripts tools; do
		for d in "$r/usr/src/$hdr" "$r/usr/src/$cd_common"; do
			if [ -L "$d/$l" ]; then
				rm "$d/$l"
				ln -s "$dir/root/usr/lib/$kb/$l" "$d/$l"
			fi
		done
	done
	if [ "$series" = 7 ]; then
		image=$(cd "$r" && ls usr/lib/modules/"$kver"/vmlinuz*)
		kconfig="usr/lib/modules/$kver/config"
		moddir="$dir/root/usr"
	else
		image="boot/vmlinuz-$kver"
		kconfig="boot/config-$kver"
		moddir="$dir/root"
	fi
	# A bare arm64 Image ("ARM\x64" at 0x38), which QEMU boots as it is.
	[ "$(od -An -tx1 -j56 -N4 "$r/$image" 2>/dev/null | tr -d ' \n')" = 41524d64 ] ||
		die "$img: $image is not an arm64 Image"

	cat > "$dir.tmp/meta" <<EOT
KVER=$kver
DEBIAN_VERSION=$ver
KDIR=$dir/root/usr/src/$hdr
KIMAGE=$dir/root/$image
KCONFIG=$dir/root/$kconfig
MODDIR=$moddir
EOT
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi

# trixie's kernels: the cross compiler they were built with (the headers'
# .kernelvariables call $(CROSS_COMPILE)gcc-14), in the trixie root, where
# the amd64 linux-kbuild's tools find the glibc they were linked against.
broot=
if [ "$series" = 7 ]; then
	broot=$("$(dirname "$0")/root.sh" trixie gcc-14-aarch64-linux-gnu binutils-aarch64-linux-gnu)
fi

# busybox for the initramfs, from Debian's static arm64 build.
ul="$CACHE/userland/arm64"
if [ ! -x "$ul/busybox" ]; then
	bb=$(archive_fetch bookworm arm64 busybox-static)
	t=$(mktemp -d "$CACHE/tmp/bb-arm64.XXXXXX")
	dpkg -x "$bb" "$t"
	mkdir -p "$ul"
	install -m755 "$t/bin/busybox" "$ul/busybox.tmp"
	rm -rf "$t"
	basename "$bb" > "$ul/SOURCE"
	mv "$ul/busybox.tmp" "$ul/busybox"
fi

# The env, rewritten on every cold call from the unpacked kernel's meta.
# QEMU: TCG's "max" CPU emulates BTI and pointer authentication; the
# architected QARMA5 PAC is slow under TCG and Debian's kernels sign every
# return address, so the PAC algorithm is QEMU's cheaper IMPDEF one (the
# kernel cannot tell).  Bulk output leaves through a second port: virt has
# one UART, so a virtio console where the kernel has it built in (6.12+),
# else a PCI 16550 (8250_PCI is built in everywhere).
# shellcheck disable=SC1091
. "$dir/meta"
if grep -qx 'CONFIG_VIRTIO_CONSOLE=y' "$KCONFIG" && grep -qx 'CONFIG_VIRTIO_PCI=y' "$KCONFIG"; then
	data_dev=virtconsole data_tty=hvc0
else
	data_dev=pci-serial data_tty=ttyS0
fi
cat > "$env.tmp" <<EOT
RIG_RECIPE=$recipe
KVER=$KVER
SERIES=$series
DEBIAN_VERSION=$DEBIAN_VERSION
KARCH=arm64
UNAME_M=aarch64
CROSS_COMPILE=aarch64-linux-gnu-
KDIR=$KDIR
KIMAGE=$KIMAGE
VMLINUZ=$KIMAGE
KCONFIG=$KCONFIG
SYSTEM_MAP=
MODDIR=$MODDIR
BUILD_ROOT=$broot
QEMU_BIN=qemu-system-aarch64
QEMU_ARGS="-M virt -cpu max,pauth-impdef=on -smp 1 -m 1024 -nographic -no-reboot"
CONSOLE=ttyAMA0
DATA_DEV=$data_dev
DATA_TTY=$data_tty
USERLAND=$CACHE/userland/arm64
EOT
mv "$env.tmp" "$env"
cp "$env" "$CACHE/k/arm64-$series.env.tmp"
mv "$CACHE/k/arm64-$series.env.tmp" "$CACHE/k/arm64-$series.env"
cat "$env"

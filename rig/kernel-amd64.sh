#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-amd64.sh SERIES: fetch the newest Debian amd64 kernel of SERIES that
# has headers, with its modules, into the cache, make the headers usable, and
# print its env file.  SERIES (the rig's target amd64-SERIES):
#   5.10        Debian 11 bullseye(-security)   built in a bullseye root
#   6.1         Debian 12 bookworm              built on the host (bookworm)
#   6.12        bookworm-security's 6.12 (+deb12) built on the host
#   6.12-deb13  Debian 13 trixie's own 6.12     built in a trixie root (gcc-14)
#   7           trixie-backports' newest 7.x    built in a trixie root
# Kernels of other releases are built where their DKMS would build them: in
# a root of that release (rig/root.sh) with the headers installed there as
# packages; the env names it as BUILD_ROOT (see kmake in rig/lib.sh).
# Debian 7.x packages the image as linux-binary-KVER
# (/usr/lib/modules/KVER/vmlinuz), the modules as linux-modules-KVER (.ko.xz)
# and the rest as linux-base-KVER; older ones as linux-image-KVER-unsigned
# (/boot/vmlinuz-KVER).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series="${1:-6.1}"
case "$series" in
5.10)       rel=bullseye re='^linux-headers-5\.10\.0-[0-9]+-amd64$' ;;
6.1)        rel=bookworm re='^linux-headers-6\.1\.0-[0-9]+-amd64$' ;;
6.12)       rel=bookworm re='^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' ;;
6.12-deb13) rel=trixie   re='^linux-headers-6\.12\.[0-9.]+\+deb13(\.[0-9]+)?-amd64$' ;;
7)          rel=trixie   re='^linux-headers-7\.[0-9]+\.[0-9]+\+deb13(\.[0-9]+)?-amd64$' ;;
*) die "unknown series '$series' (5.10, 6.1, 6.12, 6.12-deb13 or 7)" ;;
esac

# One at a time per series (several jobs of a run may want one kernel).
exec 9> "$CACHE/k/amd64-$series.lock"
flock -w 3600 9 || die "cannot lock amd64-$series"

# A warm cache answers without asking apt.
if [ -z "${KRELOC_REFRESH:-}" ] && [ -s "$CACHE/k/amd64-$series.env" ]; then
	cat "$CACHE/k/amd64-$series.env"
	exit 0
fi

need_pkgs dpkg-dev
hdr=$(newest_pkg "$re" "$rel")
[ -n "$hdr" ] || die "no kernel headers match $re in $rel"
kver=${hdr#linux-headers-}
dir="$CACHE/k/amd64-$kver"
env="$dir/env"

# write_env BUILD_ROOT KDIR IMAGE MODDIR: the env file of $kver (tmp + mv).
write_env() {
	cat > "$env.tmp" <<EOT
KVER=$kver
SERIES=$series
RELEASE=$rel
BUILD_ROOT=$1
KARCH=x86
UNAME_M=x86_64
CROSS_COMPILE=
KDIR=$2
KIMAGE=$3
VMLINUZ=$3
SYSTEM_MAP=
MODDIR=$4
QEMU_BIN=qemu-system-x86_64
QEMU_ARGS="-M pc -cpu max -m 1024 -smp 2 -nographic -no-reboot"
CONSOLE=ttyS0
USERLAND=/bin
EOT
	mv "$env.tmp" "$env"
}

if [ "$rel" != "$HOST_RELEASE" ] && [ ! -s "$env" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/root"
	if [ -n "$(newest_pkg "^linux-image-${kver//+/\\+}-unsigned\$" "$rel")" ]; then
		pkgs=("linux-image-$kver-unsigned")
	else
		# (linux-base-KVER has modules.order, modules.builtin, config)
		pkgs=("linux-binary-$kver" "linux-modules-$kver" "linux-base-$kver")
	fi
	debs=()
	for p in "${pkgs[@]}"; do
		debs+=("$(fetch_deb "$p" "$rel")")
		dpkg -x "${debs[-1]}" "$dir.tmp/root"
	done
	# The headers go into a root of the kernel's release, as packages.  Up
	# to 6.12 they depend on the image: give apt the one just fetched.
	rdebs=()
	rel_apt "$rel" apt-cache show "$hdr" | grep -q "^Depends:.* linux-image-$kver" &&
		rdebs=("${debs[@]}")
	broot=$("$(dirname "$0")/root.sh" "$rel" "$hdr" "${rdebs[@]}")
	[ -d "$broot/usr/src/$hdr" ] || die "$hdr installed but $broot/usr/src/$hdr is missing"
	img='' mods=''
	for f in boot/vmlinuz-$kver usr/lib/modules/$kver/vmlinuz; do
		[ -n "$img" ] || [ ! -s "$dir.tmp/root/$f" ] || img=$dir/root/$f
	done
	for f in lib usr/lib; do
		[ -n "$mods" ] || [ ! -d "$dir.tmp/root/$f/modules/$kver/kernel" ] || mods=$dir/root/${f%lib}
	done
	[ -n "$img" ] && [ -n "$mods" ] || die "no image or no modules in ${pkgs[*]}"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	write_env "$broot" "$broot/usr/src/$hdr" "$img" "${mods%/}"
fi

if [ ! -s "$env" ]; then
	img="linux-image-$kver-unsigned"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/root"
	hdr="linux-headers-$kver"
	common=$(apt-cache show "$hdr" | awk -F'[ ,(]+' '/^Depends:/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^linux-headers-.*-common$/) { print $i; exit } }')
	kbuild=$(apt-cache show "$hdr" | awk -F'[ ,(]+' '/^Depends:/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^linux-kbuild-/) { print $i; exit } }')
	[ -n "$common" ] && [ -n "$kbuild" ] || die "cannot read $hdr dependencies"
	for p in "$img" "$hdr" "$common" "$kbuild"; do
		dpkg -x "$(fetch_deb "$p")" "$dir.tmp/root"
	done
	# The headers point at /usr/src/... and /usr/lib/linux-kbuild-*: make them
	# refer to the unpacked copies instead.
	hd="$dir/root/usr/src/$hdr"
	cd_common=$(basename "$(ls -d "$dir.tmp/root/usr/src/"*-common*)")
	sed -i "s|^include /usr/src/$cd_common/|include $dir/root/usr/src/$cd_common/|" \
		"$dir.tmp/root/usr/src/$hdr/Makefile"
	kb=$(ls -d "$dir.tmp/root/usr/lib/linux-kbuild-"*)
	for l in scripts tools; do
		for d in "$dir.tmp/root/usr/src/$hdr" "$dir.tmp/root/usr/src/$cd_common"; do
			if [ -L "$d/$l" ]; then
				rm "$d/$l"
				ln -s "$dir/root/usr/lib/$(basename "$kb")/$l" "$d/$l"
			fi
		done
	done
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	write_env "" "$hd" "$dir/root/boot/vmlinuz-$kver" "$dir/root"
fi
# Only pahole is needed from the host beyond gcc/make (6.12 headers call it).
need_pkgs dwarves libelf-dev
cp "$env" "$CACHE/k/amd64-$series.env"
cat "$env"
